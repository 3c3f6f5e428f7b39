"""The mail settings' pages: the preferences (``/accounts/notifications/``) and the signed
unsubscribe link of every mail (``/accounts/notifications/unsubscribe/<token>/``).
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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from game.models import NotificationPrefs, is_guest, language_key

from .mails import UNSUBSCRIBE_SALT, prefs_of


class NotificationForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False, max_length=254)
    turn_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game awaits my decision"), required=False)
    deadline_mail = forms.BooleanField(
        label=gettext_lazy("Mail me two hours before my deadline in a correspondence game runs out"), required=False
    )
    end_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game of mine ends"), required=False)


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/``: the address and the kinds of mail (registered users; a guest
    is told to keep their account first). Saving also records the page's language for the mails."""
    guest = is_guest(request.user)
    prefs = prefs_of(request.user)
    if request.method == "POST" and not guest:
        form = NotificationForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            with transaction.atomic():
                request.user.email = d["email"]
                request.user.save(update_fields=["email"])
                prefs.turn_mail, prefs.end_mail, prefs.language = d["turn_mail"], d["end_mail"], language_key()
                prefs.deadline_mail = d["deadline_mail"]
                prefs.save()
            messages.success(request, _("Your mail settings are saved."))
            return redirect("notifications")
    else:
        form = NotificationForm(
            initial={"email": request.user.email, "turn_mail": prefs.turn_mail, "deadline_mail": prefs.deadline_mail, "end_mail": prefs.end_mail}
        )
    return render(request, "accounts/notifications.html", {"form": form, "guest": guest})


@csrf_exempt  # the signed token is the proof; mail clients' one-click unsubscribe posts without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """``/accounts/notifications/unsubscribe/<token>/``: GET shows a button, POST switches every
    mail off for the token's user (RFC 8058 one-click posts here too). A token that does not verify
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
        NotificationPrefs.objects.update_or_create(user=user, defaults={"turn_mail": False, "deadline_mail": False, "end_mail": False})
        done = True
    return render(request, "accounts/unsubscribe.html", {"bad": False, "done": done})
