"""Web Push: "your turn" on a phone (or any browser) whose page of the site is closed.

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
addresses of an attacker's choosing; a leading dot admits subdomains), ``WEBPUSH_THREADS`` (the
threads that send, apart from the mails), ``WEBPUSH_INSECURE`` (``True`` admits ``http:``
endpoints, any port and IP addresses: tests with a fake push service only).

**An endpoint is a URL our server posts to**, so it is held to a form that every URL parser reads
the same way (:func:`endpoint_allowed`): ``https://`` + a host of plain ``[a-z0-9.-]`` labels (no
backslash, percent sign, user name or other character that one parser keeps inside the host and
another ends it at, no IP address) that is one of ``WEBPUSH_HOSTS`` + an optional ``:443`` + a
path of visible ASCII without backslashes. The same rule is applied again when sending (a stored
endpoint that fails it is deleted). Sends follow no redirect (:class:`NoRedirects`), wait at most
``CONNECT_TIMEOUT`` and ``READ_TIMEOUT`` seconds per push service and ``SEND_BUDGET`` seconds per
person, and run in their own threads (:func:`submit`), so a person's unanswering "push services"
hold up neither the mails nor anyone else's pushes.

Refusals are JSON ``{"ok": false, "error": {"code", "message"}}`` and write nothing:
``push.off`` (404), ``push.not_signed_in`` (403), ``push.too_many`` (429, ``Retry-After``),
``push.malformed`` (400: not a JSON object of the browser's ``PushSubscription.toJSON()`` shape, a
body over 4 KiB, keys of the wrong size), ``push.endpoint`` (400: not an https URL of an allowed
push service).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import re
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import requests
from django.conf import settings
from django.db import connections
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
#: seconds to connect to a push service, and to wait for its answer
CONNECT_TIMEOUT, READ_TIMEOUT = 2.0, 3.0
#: seconds one person's pushes may take in all (their further subscriptions wait for the next push)
SEND_BUDGET = 10.0
#: an endpoint every parser reads alike: https, a host of plain labels, an optional :443, a
#: path of visible ASCII without backslashes (``WEBPUSH_INSECURE``: see :func:`endpoint_allowed`)
_ENDPOINT = re.compile(r"(?P<scheme>https?)://(?P<host>[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)(?::(?P<port>[0-9]{1,5}))?(?P<path>/[\x21-\x5b\x5d-\x7e]*)?")
SERVICE_WORKER = Path(__file__).resolve().parents[2] / "static" / "js" / "push_sw.js"


def enabled() -> bool:
    """Whether Web Push is configured (both VAPID keys set)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The VAPID public key browsers subscribe with (base64url of the uncompressed P-256 point)."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY


def _hosts() -> tuple[str, ...]:
    return tuple(h.strip().lower() for h in settings.WEBPUSH_HOSTS if h.strip())


def endpoint_allowed(url: Any) -> bool:
    """Whether ``url`` may be a subscription's endpoint: a string of at most 1000 characters of
    the form ``https://<host>[:443][/<path>]`` where the host is lower-case ASCII labels of
    ``[a-z0-9-]`` (so no parser may read another host out of it: ``localhost\\.push.apple.com``,
    ``localhost%5c.push.apple.com`` and user names are refused), not an IP address, and one of
    ``WEBPUSH_HOSTS`` (exactly, or below one that starts with a dot); the path is visible ASCII
    without backslashes. ``WEBPUSH_INSECURE`` (tests' fake push service) admits ``http``, any
    port and IP addresses."""
    if not isinstance(url, str) or not url or len(url) > 1000:
        return False
    m = _ENDPOINT.fullmatch(url)
    if m is None:
        return False
    insecure = bool(settings.WEBPUSH_INSECURE)
    host, port = m["host"], m["port"]
    if ".." in host or any(label.startswith("-") or label.endswith("-") for label in host.split(".")):
        return False
    if not insecure:
        if m["scheme"] != "https" or port not in (None, "443"):
            return False
        try:
            ipaddress.ip_address(host)
            return False
        except ValueError:
            pass
    elif port is not None and not 0 < int(port) < 65536:
        return False
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


def rematch_payload(game: Game, lang: str, by: str) -> dict[str, str]:
    """The notification that ``by`` opened ``game``'s rematch (:mod:`game.site.rematch`):
    ``{"title", "body", "url", "tag"}``; the url is the finished game's page, whose "Play again"
    seats the reader in the rematch (a private rematch's own page is not theirs until then)."""
    with translation.override(lang):
        return {
            "title": _("Play again?"),
            "body": _("%(name)s wants to play %(game)s again.") % {"name": by, "game": game.lobby.name},
            "url": f"/game/{game.pk}/",
            "tag": f"gotweb-rematch-{game.pk}",
        }


class NoRedirects(requests.Session):
    """A requests session that never follows a redirect (a push service that answers 3xx is a
    failure: the POST and its body go nowhere else) and ignores the environment's proxies."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False
        self.max_redirects = 0

    def request(self, method, url, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)


def send(user_id: int, payloads: dict[str, dict]) -> int:
    """Push ``payloads[language]`` (JSON-able dicts, one per language of the site) to each of the
    person ``user_id``'s subscriptions, in the subscription's language; returns how many push
    services accepted it. A subscription whose endpoint fails :func:`endpoint_allowed` now, or
    that the push service no longer knows (404, 410), is deleted; any other failure (the service
    down, slow, redirecting or refusing) is logged, and the others are still tried until
    :data:`SEND_BUDGET` seconds have gone. Never raises."""
    from pywebpush import WebPushException, webpush

    sent, end, session = 0, time.monotonic() + SEND_BUDGET, NoRedirects()
    try:
        for sub in list(PushSubscription.objects.filter(user_id=user_id)):
            if not endpoint_allowed(sub.endpoint):  # stored before this rule, or WEBPUSH_HOSTS changed
                sub.delete()
                continue
            if time.monotonic() >= end:
                log.warning("pushes to user %s stopped: %s s spent", user_id, SEND_BUDGET)
                break
            payload = payloads.get(sub.language) or payloads.get("en") or next(iter(payloads.values()))
            try:
                webpush(
                    subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                    data=json.dumps(payload, ensure_ascii=False),
                    vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
                    vapid_claims={"sub": settings.WEBPUSH_SUBJECT},
                    ttl=int(settings.WEBPUSH_TTL),
                    timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                    requests_session=session,
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
    finally:
        session.close()
    return sent


_pool: ThreadPoolExecutor | None = None
_pending: set[Future] = set()
_pool_lock = threading.Lock()


def submit(user_id: int, payloads: dict[str, dict], done: Callable[[int], None] | None = None) -> None:
    """:func:`send` in one of the ``WEBPUSH_THREADS`` push threads of this process (0: here, at
    once), then ``done(sent)`` there; what fails is logged. The caller (the mail worker) goes on
    at once: a person's push services, however slow, never hold up a mail or another person's
    push for long (each person's sends take one thread at most :data:`SEND_BUDGET` seconds)."""

    def run() -> None:
        try:
            n = send(user_id, payloads)
            if done is not None:
                done(n)
        except Exception:
            log.exception("pushes to user %s failed", user_id)
        finally:
            connections.close_all()  # this thread's connections: a pool thread lives on

    threads = int(settings.WEBPUSH_THREADS)
    if threads <= 0:
        n = send(user_id, payloads)
        if done is not None:
            done(n)
        return
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="gotweb-push")
        future = _pool.submit(run)
        _pending.add(future)
    future.add_done_callback(lambda f: _pending.discard(f))


def wait_for_pushes(timeout: float = 30.0) -> None:
    """Wait until the pushes submitted so far are done (tests)."""
    end = time.monotonic() + timeout
    while True:
        with _pool_lock:
            todo = list(_pending)
        if not todo or time.monotonic() >= end:
            return
        for f in todo:
            try:
                f.result(timeout=max(0.0, end - time.monotonic()))
            except Exception:
                pass
