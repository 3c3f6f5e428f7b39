"""The addresses accounts are seen at: kept when a person logs in (guests and new accounts too:
Django's ``user_logged_in``) and when they file a report, so that a moderator sees the other
accounts that share an address with a reported player or its reporter (:func:`sharing`).

An address is the client's budget of the site's limits (:func:`game.live.clients.client_ip`: an
IPv6 address by its /64), one row per account and address with the first and last time seen.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.live.clients import UNKNOWN, client_ip
from game.models import UserAddress, display_name

#: the most accounts shown per address (a shared address of a school or a carrier has many)
SHOWN_PER_ADDRESS = 20


def record(user, address: str) -> None:
    """Remember that ``user`` was seen at ``address`` now (an unknown address is not kept)."""
    if user is None or not getattr(user, "is_authenticated", False) or not address or address == UNKNOWN:
        return
    updated = UserAddress.objects.filter(user_id=user.pk, address=address).update(last_seen=timezone.now())
    if not updated:
        try:
            with transaction.atomic():
                UserAddress.objects.create(user_id=user.pk, address=address)
        except IntegrityError:  # the same login twice at once
            pass


def on_login(sender, request, user, **kwargs) -> None:
    """``user_logged_in`` receiver: the address of the request that logged ``user`` in."""
    if request is not None:
        record(user, client_ip(request))


def sharing(user) -> list[dict]:
    """``[{"address", "accounts": [{"id", "name", "active"}]}]``: for each address ``user`` was
    seen at, the other accounts seen there (at most :data:`SHOWN_PER_ADDRESS` each), most recent
    addresses first."""
    if user is None:
        return []
    mine = list(UserAddress.objects.filter(user_id=user.pk).order_by("-last_seen").values_list("address", flat=True)[:20])
    out = []
    for address in mine:
        rows = (
            UserAddress.objects.filter(address=address).exclude(user_id=user.pk).select_related("user__profile").order_by("-last_seen")
        )[:SHOWN_PER_ADDRESS]
        accounts = [{"id": r.user_id, "name": display_name(r.user), "username": r.user.username, "active": r.user.is_active} for r in rows]
        out.append({"address": address, "accounts": accounts})
    return out
