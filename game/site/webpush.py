"""Web Push: "your turn" on a phone (or any browser) whose page of the site is closed (issue 14).

The browser subscribes from the game page's "Notify me when it's my turn" button, right after the
player allowed notifications (``static/js/live/turn_alert.js``): it registers the service worker
(``/sw.js``, :func:`service_worker`, the file ``static/js/push_sw.js``), subscribes with the
site's VAPID public key and posts the subscription to ``/push/subscribe/`` (:func:`subscribe`);
``/push/unsubscribe/`` forgets it. When a game awaits a person who has no page of the site open,
:func:`game.site.notifications.due.check_game` pushes "your turn" once per decision (a
:class:`~game.models.MailSent` row of kind ``"push"``) to each of their subscriptions
(:func:`send`), through pywebpush (encryption ``aes128gcm``, VAPID signature). A push service
answering 404 or 410 means the browser is gone: its subscription is deleted.

Settings: ``WEBPUSH_VAPID_PUBLIC_KEY`` and ``WEBPUSH_VAPID_PRIVATE_KEY`` (``manage.py
webpush_keys`` makes a pair; without both, push is off and the URLs answer 404),
``WEBPUSH_SUBJECT`` (a ``mailto:`` or ``https:`` contact for the push services), ``WEBPUSH_HOSTS``
(the push services' host names a subscription may name: an endpoint is a URL our server will
post to, so any other host is refused, which keeps the server from being made to post to
addresses of an attacker's choosing; a leading dot admits subdomains), ``WEBPUSH_INSECURE``
(``True`` admits ``http:`` endpoints and any port: tests with a fake push service only).

Refusals are JSON ``{"ok": false, "error": {"code", "message"}}`` and write nothing:
``push.off`` (404), ``push.not_signed_in`` (403), ``push.too_many`` (429, ``Retry-After``),
``push.malformed`` (400: not a JSON object of the browser's ``PushSubscription.toJSON()`` shape, a
body over 4 KiB, keys of the wrong size), ``push.endpoint`` (400: not an https URL of an allowed
push service).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.models import Game, PushSubscription, language_key

from .throttle import Throttle

log = logging.getLogger(__name__)
#: subscriptions kept per person (a new one beyond it drops the oldest)
PER_USER = 10
#: the largest subscription body read
MAX_BODY = 4096
#: the push services of the browsers people use (Chrome and Edge on Android and desktop, Firefox,
#: Windows, Safari): the default of ``WEBPUSH_HOSTS``
DEFAULT_HOSTS = ("fcm.googleapis.com", ".push.services.mozilla.com", ".notify.windows.com", ".push.apple.com")
SERVICE_WORKER = Path(__file__).resolve().parents[2] / "static" / "js" / "push_sw.js"


def enabled() -> bool:
    """Whether Web Push is configured (both VAPID keys set)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The VAPID public key browsers subscribe with (base64url of the uncompressed P-256 point)."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY


def _hosts() -> tuple[str, ...]:
    hosts = settings.WEBPUSH_HOSTS
    return tuple(h.strip().lower() for h in (DEFAULT_HOSTS if hosts is None else hosts) if h.strip())


def endpoint_allowed(url: Any) -> bool:
    """Whether ``url`` may be a subscription's endpoint: a string of at most 1000 characters,
    ``https`` on the default port (``WEBPUSH_INSECURE``: ``http`` and any port too), no user
    name or password, no control characters or spaces, and a host of ``WEBPUSH_HOSTS`` (exactly,
    or below one that starts with a dot)."""
    if not isinstance(url, str) or not url or len(url) > 1000 or any(ord(c) < 33 or ord(c) == 127 for c in url):
        return False
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    insecure = bool(settings.WEBPUSH_INSECURE)
    if parts.scheme != "https" and not (insecure and parts.scheme == "http"):
        return False
    if parts.username is not None or parts.password is not None or not parts.hostname:
        return False
    if port not in (None, 443) and not insecure:
        return False
    host = parts.hostname.lower().rstrip(".")
    return any(host == h or (h.startswith(".") and host.endswith(h)) for h in _hosts())


def _key(value: Any, size: int, first: int | None = None) -> bool:
    """Whether ``value`` is base64url (padding optional) of exactly ``size`` bytes (starting with
    the byte ``first`` when given)."""
    if not isinstance(value, str) or len(value) > 200:
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size and (first is None or raw[0] == first)


def _refused(code: str, status: int, **headers: str) -> JsonResponse:
    messages = {
        "push.off": _("Push notifications are not set up on this site."),
        "push.not_signed_in": _("Sign in (or play as a guest) to get notifications."),
        "push.too_many": _("Too many subscriptions from you; try again later."),
        "push.malformed": _("That is not a push subscription."),
        "push.endpoint": _("That push service is not one this site sends to."),
    }
    response = JsonResponse({"ok": False, "error": {"code": code, "message": str(messages[code])}}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def parse(body: bytes) -> tuple[str, str, str]:
    """``(endpoint, p256dh, auth)`` of a browser's subscription JSON (``{"endpoint", "keys":
    {"p256dh", "auth"}, ...}``, other members ignored); raises ValueError with the refusal's
    code (``push.malformed``, ``push.endpoint``)."""
    if len(body) > MAX_BODY:
        raise ValueError("push.malformed")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ValueError("push.malformed") from None
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict) or not isinstance(data.get("endpoint"), str):
        raise ValueError("push.malformed")
    if not (_key(keys.get("p256dh"), 65, 0x04) and _key(keys.get("auth"), 16)):
        raise ValueError("push.malformed")
    if not endpoint_allowed(data["endpoint"]):
        raise ValueError("push.endpoint")
    return data["endpoint"], keys["p256dh"], keys["auth"]


@require_POST
def subscribe(request: HttpRequest) -> HttpResponse:
    """``POST /push/subscribe/`` (JSON body, the CSRF token in ``X-CSRFToken``): keep the signed-in
    person's (or guest's) subscription of this browser; ``{"ok": true}``. The newest
    :data:`PER_USER` are kept; ``THROTTLE_PUSH`` subscriptions per person and window."""
    if not enabled():
        return _refused("push.off", 404)
    if not request.user.is_authenticated:
        return _refused("push.not_signed_in", 403)
    throttle = Throttle("THROTTLE_PUSH", request.user.pk)
    if throttle.blocked():
        return _refused("push.too_many", 429, Retry_After=str(throttle.retry_after))
    try:
        endpoint, p256dh, auth = parse(request.body)
    except ValueError as exc:
        return _refused(str(exc), 400)
    throttle.hit()
    PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": request.user, "p256dh": p256dh, "auth": auth, "language": language_key()}
    )
    old = PushSubscription.objects.filter(user=request.user).values_list("pk", flat=True)[PER_USER:]
    PushSubscription.objects.filter(pk__in=list(old)).delete()
    return JsonResponse({"ok": True})


@require_POST
def unsubscribe(request: HttpRequest) -> HttpResponse:
    """``POST /push/unsubscribe/`` (JSON ``{"endpoint"}``): forget that subscription of the
    signed-in person's (nobody else's); ``{"ok": true, "removed": 0 | 1}``."""
    if not enabled():
        return _refused("push.off", 404)
    if not request.user.is_authenticated:
        return _refused("push.not_signed_in", 403)
    try:
        data = json.loads(request.body[:MAX_BODY + 1]) if len(request.body) <= MAX_BODY else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("endpoint"), str):
        return _refused("push.malformed", 400)
    removed, _ = PushSubscription.objects.filter(user=request.user, endpoint=data["endpoint"]).delete()
    return JsonResponse({"ok": True, "removed": removed})


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, served from the site's root so that its scope is the whole
    site (a worker under ``/static/`` could only control ``/static/``)."""
    response = FileResponse(SERVICE_WORKER.open("rb"), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


# --- sending -----------------------------------------------------------------------------------------
def turn_payload(game: Game, lang: str) -> dict[str, str]:
    """The notification of "your turn" in ``game``: ``{"title", "body", "url", "tag"}``."""
    with translation.override(lang):
        return {
            "title": _("Your turn"),
            "body": _("%(game)s is waiting for your decision.") % {"game": game.lobby.name},
            "url": f"/game/{game.pk}/",
            "tag": f"gotweb-game-{game.pk}",
        }


def send(user, payload_of) -> int:
    """Push ``payload_of(language)`` (a JSON-able dict) to each of ``user``'s subscriptions, in the
    subscription's language; returns how many push services accepted it. A subscription the push
    service no longer knows (404, 410) is deleted; any other failure (the service down, slow, or
    refusing) is logged, and the others are still tried. Never raises."""
    from pywebpush import WebPushException, webpush

    sent = 0
    for sub in list(PushSubscription.objects.filter(user=user)):
        if not endpoint_allowed(sub.endpoint):  # WEBPUSH_HOSTS changed since it was stored
            continue
        try:
            webpush(
                subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=json.dumps(payload_of(sub.language), ensure_ascii=False),
                vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.WEBPUSH_SUBJECT},
                ttl=int(settings.WEBPUSH_TTL),
                timeout=5,
            )
            sent += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                sub.delete()
            else:
                log.warning("push to subscription %s failed: %s", sub.pk, str(exc).splitlines()[0][:200])
        except Exception as exc:  # the push service out of reach, a key that does not load...
            log.warning("push to subscription %s failed: %r", sub.pk, exc)
    return sent
