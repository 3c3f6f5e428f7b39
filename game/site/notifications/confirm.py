"""Confirming a mail address: the signed link mailed to a new or changed address, and what may
be mailed to an address before it is confirmed (the confirmation mail alone).

Anyone with an account may type any address on the preferences page, so the address someone
typed (``User.email``) is kept apart from the one whose reader opened the link
(``NotificationPrefs.confirmed_email``); the game mails go only where the two are equal
(:func:`.mails.confirmed`). The link's token is Django's signing (the site's ``SECRET_KEY``,
a salt of its own) over the user's id and the address, with its time: it confirms exactly that
address for that user, for :data:`MAX_AGE` seconds, and only while the account still has that
address. Confirmation mails count against ``THROTTLE_CONFIRM_MAIL`` per person and per address
(:func:`spend`), so neither an account nor many accounts can mail one stranger over and over.
"""

from __future__ import annotations

import logging

from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..throttle import Throttle
from .mails import absolute

log = logging.getLogger(__name__)
SALT = "gotweb.notifications.confirm"
#: how long a confirmation link works: three days, as Django's password reset links (long enough
#: for a mail read after a weekend, short enough that an old mailbox's links soon stop working)
MAX_AGE = 3 * 24 * 3600
#: longer text is no token of ours (ours stay under 500 characters for a 254-character address)
MAX_TOKEN = 1000


class BadLink(Exception):
    """A confirmation token that confirms nothing; ``reason``: ``"bad"`` (tampered, cut, of
    another purpose or not ours) or ``"expired"`` (older than :data:`MAX_AGE`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def token(user_id: int, address: str) -> str:
    """The signed token of the link confirming ``address`` for the user ``user_id``."""
    return signing.dumps({"u": user_id, "e": address}, salt=SALT, compress=True)


def read(text: str) -> tuple[int, str]:
    """``(user id, address)`` from a token made by :func:`token` no more than :data:`MAX_AGE`
    seconds ago; raises :class:`BadLink` for anything else (any text is safe to pass)."""
    if not text or len(text) > MAX_TOKEN:
        raise BadLink("bad")
    try:
        data = signing.loads(text, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise BadLink("expired") from None
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        raise BadLink("bad") from None
    if not isinstance(data, dict) or type(data.get("u")) is not int or not isinstance(data.get("e"), str) or not data["e"]:
        raise BadLink("bad")
    return data["u"], data["e"]


def throttles(user, address: str) -> list[Throttle]:
    """The budgets a confirmation mail to ``address`` for ``user`` counts against: the person's
    and the address's (case folded, so that one mailbox is one budget)."""
    return [Throttle("THROTTLE_CONFIRM_MAIL", "user", user.pk), Throttle("THROTTLE_CONFIRM_MAIL", "to", address.casefold())]


def spend(user, address: str) -> Throttle | None:
    """Count one confirmation mail to ``address`` for ``user``; the throttle that refuses it
    (its budget spent), or None when it may be sent. Counted before sending: two requests at once
    cannot both slip past the last unit of a budget."""
    budgets = throttles(user, address)
    blocked = next((t for t in budgets if t.blocked()), None)
    if blocked is not None:
        return blocked
    for t in budgets:
        if t.limit is not None and t.hit() > t.limit[0]:
            return t
    return None


def send(user, address: str) -> bool:
    """Mail the confirmation link for ``address`` to it, in the active language (the page's);
    True when the mail server took it. Failures are logged, never raised. The mail holds nothing
    the account chose (no name): it goes to an address nobody has vouched for yet."""
    link = absolute(reverse("notifications_confirm", args=[token(user.pk, address)]))
    days = MAX_AGE // 86400
    body = "\n\n".join(
        [
            _("Someone asked gotweb to send mails about their games to %(address)s.") % {"address": address},
            ngettext(
                "If it was you, open this link within %(n)s day to confirm the address:",
                "If it was you, open this link within %(n)s days to confirm the address:",
                days,
            ) % {"n": days},
            link,
            _("If it was not you, ignore this mail: gotweb sends nothing more to this address unless the link is opened."),
        ]
    )
    try:
        EmailMessage(_("Confirm your mail address for gotweb"), body, to=[address]).send()
    except Exception:
        log.exception("could not send the confirmation mail of user %s", user.pk)
        return False
    return True
