"""The mail settings' pages: the preferences (``/accounts/notifications/``), the confirmation
link of a new address (``/accounts/notifications/confirm/<token>/``) and the button that sends it
again (``/accounts/notifications/confirm/``), and the signed unsubscribe link of every mail
(``/accounts/notifications/unsubscribe/<token>/``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from game.models import NotificationPrefs, is_guest, language_key

from ..forms import wait_message
from ..throttle import Throttle, too_many
from . import confirm
from .mails import UNSUBSCRIBE_SALT, confirmed, prefs_of

#: the settings of a NotificationPrefs row that forget an address's confirmation
UNCONFIRMED = {"confirmed_email": "", "confirmed_at": None}


class NotificationForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False, max_length=254)
    turn_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game awaits my decision"), required=False)
    deadline_mail = forms.BooleanField(
        label=gettext_lazy("Mail me two hours before my deadline in a correspondence game runs out"), required=False
    )
    end_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game of mine ends"), required=False)
    rematch_mail = forms.BooleanField(
        label=gettext_lazy("Mail me when another player of a finished game asks to play it again"), required=False
    )


def _saved(user, prefs: NotificationPrefs) -> NotificationForm:
    """The form showing what is saved."""
    return NotificationForm(
        initial={
            "email": user.email, "turn_mail": prefs.turn_mail, "deadline_mail": prefs.deadline_mail,
            "end_mail": prefs.end_mail, "rematch_mail": prefs.rematch_mail,
        }
    )


def _page(request: HttpRequest, form: NotificationForm, prefs: NotificationPrefs, *, status: int = 200, wait: str = "") -> HttpResponse:
    user = request.user
    return render(
        request,
        "accounts/notifications.html",
        {"form": form, "guest": is_guest(user), "address": user.email, "confirmed": confirmed(user, prefs), "wait": wait},
        status=status,
    )


def _sent(request: HttpRequest, address: str, ok: bool, text: str) -> None:
    if ok:
        messages.success(request, text % {"address": address})
    else:
        messages.error(request, _("The confirmation mail could not be sent. Try again later with the button below."))


def _refused(throttle: Throttle) -> str:
    return wait_message(_("Too many confirmation mails were asked for."), throttle)


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/``: the address and the kinds of mail (registered users; a guest
    is told to keep their account first). Saving also records the page's language for the mails.

    Saving an address that is new (neither the saved one nor the one last confirmed) mails it a
    confirmation link (:mod:`.confirm`), in the page's language; nothing else is mailed there
    until the link is opened. Past ``THROTTLE_CONFIRM_MAIL`` the page answers 429 and saves
    nothing. Removing the address forgets its confirmation too."""
    guest = is_guest(request.user)
    prefs = prefs_of(request.user)
    if request.method == "POST" and not guest:
        form = NotificationForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            address = d["email"]
            ask = bool(address) and address != request.user.email and address != prefs.confirmed_email
            refused_by = confirm.spend(request.user, address) if ask else None
            if refused_by is not None:
                form.add_error("email", _refused(refused_by))
                return too_many(_page(request, form, prefs, status=429), refused_by)
            fields = {k: d[k] for k in ("turn_mail", "end_mail", "deadline_mail", "rematch_mail")}
            fields["language"] = language_key()
            if not address:
                fields.update(UNCONFIRMED)
            with transaction.atomic():
                request.user.email = address
                request.user.save(update_fields=["email"])
                # only the named fields: a confirmation made meanwhile (another tab) stays
                NotificationPrefs.objects.update_or_create(user=request.user, defaults=fields)
            messages.success(request, _("Your mail settings are saved."))
            if ask:
                sent = confirm.send(request.user, address)
                _sent(request, address, sent, _("We sent a link to confirm %(address)s. Until it is opened, gotweb mails nothing there."))
            return redirect("notifications")
    else:
        form = _saved(request.user, prefs)
    return _page(request, form, prefs)


@login_required
@require_POST
def send_confirmation(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/confirm/`` (POST, the preferences page's button): mail the
    confirmation link of the saved address again. Counted against ``THROTTLE_CONFIRM_MAIL`` like
    the first one: past it the preferences page answers 429 with ``Retry-After`` and sends nothing.
    Nothing to send (a guest, no address, or confirmed already): back to the page."""
    user = request.user
    prefs = prefs_of(user)
    if is_guest(user) or not user.email or confirmed(user, prefs):
        return redirect("notifications")
    refused_by = confirm.spend(user, user.email)
    if refused_by is None:
        _sent(request, user.email, confirm.send(user, user.email), _("We sent the link again to %(address)s."))
        return redirect("notifications")
    return too_many(_page(request, _saved(user, prefs), prefs, status=429, wait=_refused(refused_by)), refused_by)


def _bad_link(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "accounts/confirm_mail.html", {"bad": reason}, status=400)


@require_http_methods(["GET", "HEAD", "POST"])
def confirm_address(request: HttpRequest, token: str) -> HttpResponse:
    """``/accounts/notifications/confirm/<token>/``: GET shows the address and a button, POST
    confirms it, so a mail scanner that fetches the link confirms nothing. No login needed: the
    token is the proof. It confirms exactly the address it was made for, for its user, while that
    is still the user's address; anything else (tampered, expired, an address changed since, a
    user gone) is answered 400 and changes nothing."""
    try:
        user_id, address = confirm.read(token)
    except confirm.BadLink as e:
        return _bad_link(request, e.reason)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or is_guest(user):
        return _bad_link(request, "bad")
    if user.email != address:
        return _bad_link(request, "stale")
    done = confirmed(user)
    if request.method == "POST" and not done:
        with transaction.atomic():
            # the address checked again under the user's row lock: a change saved meanwhile wins
            if not get_user_model().objects.select_for_update().filter(pk=user.pk, email=address).exists():
                return _bad_link(request, "stale")
            NotificationPrefs.objects.update_or_create(user=user, defaults={"confirmed_email": address, "confirmed_at": timezone.now()})
        done = True
    return render(request, "accounts/confirm_mail.html", {"bad": "", "address": address, "done": done})


@csrf_exempt  # the signed token is the proof; mail clients' one-click unsubscribe posts without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """``/accounts/notifications/unsubscribe/<token>/``: GET shows a button, POST switches every
    mail off for the token's user (RFC 8058 one-click posts here too) and forgets their address's
    confirmation: the link came to that address, and its reader said stop, so the account cannot
    switch mails back on there without the reader confirming again. A token that does not verify
    (tampered, or from another site) is answered 400 and changes nothing. No login needed."""
    try:
        user_id = int(signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    done = False
    if request.method == "POST":
        off = {"turn_mail": False, "deadline_mail": False, "end_mail": False, "rematch_mail": False, **UNCONFIRMED}
        NotificationPrefs.objects.update_or_create(user=user, defaults=off)
        done = True
    return render(request, "accounts/unsubscribe.html", {"bad": False, "done": done})
