"""Device cookies for logins: a browser that logged in to an account is not locked out of it by
strangers' guesses.

A failed-login limit per username (``THROTTLE_LOGIN_USER``) stops one account being guessed from
many addresses, but it lets anyone lock the account's owner out by failing on purpose. Following
OWASP's "Slow Down Online Guessing Attacks with Device Cookies", a successful login gives the
browser a signed cookie naming the account (:func:`issue`); a later login to that account from
that browser counts its failures against the cookie (``THROTTLE_LOGIN_DEVICE``) instead of the
username (:func:`device_of`). A cookie over its own limit counts as none, so a stolen cookie buys
at most one more budget of guesses per window. The per-address limit applies either way.

The cookie holds ``<name key>:<random id>``, signed with the site's ``SECRET_KEY``
(``HttpResponse.set_signed_cookie``): it cannot be forged or moved to another account, and names
one account, the browser's latest login.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

#: the cookie's name; its value is signed with :data:`SALT`
COOKIE = "login_device"
SALT = "gotweb.login-device"
#: seconds a device cookie is trusted after the login that issued it
MAX_AGE = 365 * 24 * 3600


def issue(response: HttpResponse, request: HttpRequest, name_key: str) -> None:
    """Give the browser of ``request`` a device cookie for the account whose username reduces to
    ``name_key`` (:func:`game.models.name_key`), on ``response`` (a successful login's)."""
    response.set_signed_cookie(
        COOKIE,
        f"{name_key}:{secrets.token_urlsafe(16)}",
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
    )


def device_of(request: HttpRequest, name_key: str) -> str | None:
    """The id of this browser's device cookie when it was issued for ``name_key``'s account and
    is intact and unexpired; None otherwise (no cookie, another account's, tampered, expired)."""
    value = request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=MAX_AGE)
    if not isinstance(value, str):
        return None
    key, sep, device = value.rpartition(":")
    return device if sep and device and key == name_key else None
