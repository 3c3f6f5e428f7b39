"""The accounts' pages: log in, register, play as guest, and keep a guest account (claim).

Abuse limits (:mod:`game.site.throttle`): guest accounts per client IP, failed logins per client
IP and per username (or device cookie). Over a limit, the page is answered with HTTP 429 and the
form's message says so; nothing is written and no password is checked.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth import get_user_model, login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from game.live.clients import client_ip
from game.models import NAME_TAKEN, Profile, is_guest, name_key

from .. import login_devices
from ..forms import ClaimForm, GuestForm, LoginForm, RegisterForm, wait_message
from ..throttle import Throttle, too_many

User = get_user_model()
GUEST_SESSION_SECONDS = 365 * 24 * 3600


def _next_url(request: HttpRequest, default: str = "lobby_list") -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    account_pages = {reverse("guest"), reverse("login"), reverse("register")}
    if (
        nxt
        and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure())
        and nxt.split("?")[0] not in account_pages
    ):
        return nxt
    return reverse(default)



class LoginView(auth_views.LoginView):
    """Django's login page with failed logins limited per client IP (``THROTTLE_LOGIN_IP``) and
    per username (``THROTTLE_LOGIN_USER``; the username up to :func:`game.models.name_key`), both
    counted by :class:`~game.site.forms.LoginForm`. Over either limit the page answers 429 and no
    password is checked. A browser holding the account's device cookie (a login there before,
    :mod:`game.site.login_devices`) is counted per cookie (``THROTTLE_LOGIN_DEVICE``) instead of
    per username, so strangers' guesses do not lock it out; each successful login issues one."""

    form_class = LoginForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if self.request.method == "POST":
            username = str(self.request.POST.get("username", ""))[:300]
            throttles = [Throttle("THROTTLE_LOGIN_IP", client_ip(self.request))]
            key = name_key(username)
            if key:
                device = login_devices.device_of(self.request, key)
                trusted = None if device is None else Throttle("THROTTLE_LOGIN_DEVICE", device)
                # a cookie over its own limit counts as none: the username's budget applies
                throttles.append(trusted if trusted is not None and not trusted.blocked() else Throttle("THROTTLE_LOGIN_USER", key))
            kwargs["throttles"] = throttles
        return kwargs

    def form_valid(self, form):
        response = super().form_valid(form)
        login_devices.issue(response, self.request, name_key(form.get_user().get_username()))
        return response

    def form_invalid(self, form):
        response = self.render_to_response(self.get_context_data(form=form))
        blocked = next((t for t in form.throttles if t.blocked()), None)
        if form.has_error(NON_FIELD_ERRORS, "throttled") and blocked is not None:
            too_many(response, blocked)
        return response


def _account_form(request: HttpRequest, form, limit: str, refused: str, template: str, name_field: str, create, welcome) -> HttpResponse:
    """The page of ``form``, which makes an account: ``create(form) -> user`` (in a transaction;
    an ``IntegrityError`` is the same name taken by a simultaneous request, shown beside
    ``name_field``), then ``welcome(user) -> response`` (logged in). At most the throttle
    ``limit``'s accounts per client address and window, counted before the account is made (no
    race past it): past it the page answers 429 with ``refused`` and creates nothing."""
    created = Throttle(limit, client_ip(request))
    refused_by = None
    if request.method == "POST" and created.blocked():
        form.is_valid()
        refused_by = created
    elif request.method == "POST" and form.is_valid():
        if created.limit is not None and created.hit() > created.limit[0]:
            refused_by = created
        else:
            try:
                with transaction.atomic():
                    user = create(form)
            except IntegrityError:
                form.add_error(name_field, NAME_TAKEN)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return welcome(user)
    if refused_by is not None:
        form.add_error(None, wait_message(refused, refused_by))
    status = 400 if request.method == "POST" else 200
    response = render(request, template, {"form": form, "next": _next_url(request)}, status=status)
    return too_many(response, refused_by) if refused_by else response


def register(request: HttpRequest) -> HttpResponse:
    """Register an account. At most ``THROTTLE_REGISTER`` accounts per client IP and window, as
    for guests: past it the page answers 429 and creates nothing."""
    if request.user.is_authenticated and is_guest(request.user):
        return redirect("claim")

    def create(form):
        user = form.save()
        Profile.objects.create(user=user, display_name=user.get_username())
        return user

    def welcome(user):
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.get_username()})
        return redirect(_next_url(request))

    return _account_form(request, RegisterForm(request.POST or None), "THROTTLE_REGISTER",
                         _("Too many accounts were made from your network."), "accounts/register.html", "username", create, welcome)


def guest(request: HttpRequest) -> HttpResponse:
    """Play as guest: a display name is enough; a real user row flagged as guest is created.

    At most ``THROTTLE_GUEST`` guests per client IP and window: past it the page answers 429 and
    creates nothing. The name must not pass for anyone else's (:func:`game.models.name_taken`)."""

    def create(form):
        user = User(username=f"guest-{secrets.token_hex(6)}")
        user.set_unusable_password()
        user.save()
        Profile.objects.create(user=user, is_guest=True, display_name=form.cleaned_data["display_name"])
        return user

    def welcome(user):
        request.session.set_expiry(GUEST_SESSION_SECONDS)  # the session is the guest's only key
        messages.success(request, _("Hello, %(name)s! You are playing as a guest.") % {"name": user.profile.display_name})
        return redirect(_next_url(request))

    return _account_form(request, GuestForm(request.POST or None), "THROTTLE_GUEST",
                         _("Too many guest accounts were made from your network."), "accounts/guest.html", "display_name", create, welcome)


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    """A guest keeps their account: choose a username and a password. The username must not pass
    for another user's name (:func:`game.models.name_taken`)."""
    if not is_guest(request.user):
        messages.info(request, _("Your account already has a password."))
        return redirect("lobby_list")
    form = ClaimForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                profile = user.profile
                profile.is_guest = False
                profile.save(update_fields=["is_guest"])
        except IntegrityError:  # the same name taken by a simultaneous request
            request.user.refresh_from_db()
            form.add_error("username", NAME_TAKEN)
        else:
            update_session_auth_hash(request, user)
            messages.success(request, _("Your account is saved. Log in as %(name)s next time.") % {"name": user.username})
            return redirect("lobby_list")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/claim.html", {"form": form}, status=status)

