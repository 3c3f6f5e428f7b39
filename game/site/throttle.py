"""Abuse limits of the HTTP pages: how many times a client may do a thing in a time window
(:class:`Throttle`). Who the client is, per IP address, is :func:`game.live.clients.client_ip`,
the same budget the live sockets count an anonymous visitor in.

Counters live in Django's ``default`` cache: one process's memory by default, shared by every
server process when ``CACHES`` points at Redis; they count with the live limits' counter
(:func:`game.live.ratelimit.incr`: on Redis one round trip per event). A limit is a setting
``(count, seconds)``, e.g. ``THROTTLE_GUEST = (5, 3600)``: at most ``count`` counted events per
key in a fixed window of ``seconds`` (windows start at multiples of ``seconds`` since the epoch,
so a client may fit up to ``2 * count`` events around a window's edge). A setting of ``None``
turns that limit off.

Limits used by the site (see ``gotweb/settings.py``):

* ``THROTTLE_GUEST``: guest accounts created per client IP;
* ``THROTTLE_LOGIN_IP`` / ``THROTTLE_LOGIN_USER``: failed logins per client IP, and per username
  (so one account cannot be tried from many addresses);
* ``THROTTLE_LOGIN_DEVICE``: failed logins per device cookie, counted instead of the username's
  for a browser that logged in to the account before (:mod:`game.site.login_devices`);
* ``THROTTLE_LOBBY_PASSWORD``: wrong passwords per client IP per private lobby;
* ``THROTTLE_PUSH``: Web Push subscriptions stored per person (:mod:`game.site.webpush`);
* ``THROTTLE_CONFIRM_MAIL``: mails with a link to confirm an address, per person and per address
  (:mod:`game.site.notifications.confirm`);
* ``THROTTLE_REPORT_USER`` / ``THROTTLE_REPORT_IP``: reports filed per person and per address
  (:mod:`game.site.reports`);
* ``THROTTLE_BOT_GAME_USER`` / ``THROTTLE_BOT_GAME_IP``: games against bots started per person and
  per address (:func:`game.site.views.lobbies.play_bots`).
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.http import HttpResponse

from game.live.ratelimit import incr

TOO_MANY = 429  #: the HTTP status of a request refused by an abuse limit


def _cache():
    """The default cache backend itself: behind the ``django.core.cache.cache`` proxy,
    :func:`~game.live.ratelimit.incr` would not see that it is Redis."""
    return caches[DEFAULT_CACHE_ALIAS]


def limit(name: str) -> tuple[int, int] | None:
    """``(count, seconds)`` of the limit setting ``name`` (e.g. ``"THROTTLE_GUEST"``), or None when
    it is switched off (the settings and their defaults: ``gotweb/settings.py``)."""
    value = getattr(settings, name)
    if value is None:
        return None
    count, seconds = value
    return int(count), max(1, int(seconds))


class Throttle:
    """A counter of events for one key under the limit setting ``name``.

    ``Throttle("THROTTLE_LOGIN_IP", ip)``: :meth:`blocked` is True once :meth:`hit` was called
    ``count`` times in the current window. The key's parts are hashed (any text is safe).
    """

    def __init__(self, name: str, *parts: Any, now: float | None = None) -> None:
        self.name = name
        self.limit = limit(name)
        digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]
        now = time.time() if now is None else now
        if self.limit is None:
            self.key, self.retry_after = "", 0
        else:
            window, into = divmod(now, self.limit[1])
            self.key = f"throttle:{name}:{digest}:{int(window)}"
            #: seconds until this window ends (the ``Retry-After`` of a refusal)
            self.retry_after = max(1, math.ceil(self.limit[1] - into))

    def count(self) -> int:
        """Events counted in the current window."""
        return int(_cache().get(self.key, 0)) if self.key else 0

    def blocked(self) -> bool:
        """True when the window's budget is spent (always False for a limit switched off)."""
        return self.limit is not None and self.count() >= self.limit[0]

    def hit(self) -> int:
        """Count one event; returns the window's count so far (0 for a limit switched off)."""
        if not self.key:
            return 0
        return incr(_cache(), self.key, 1, self.limit[1] + 5)

    def reset(self) -> None:
        """Forget the window's events (a successful login forgives that username's failures)."""
        if self.key:
            _cache().delete(self.key)

    @property
    def minutes(self) -> int:
        """Whole minutes (rounded up, at least 1) until this window ends, for messages."""
        return max(1, math.ceil(self.retry_after / 60)) if self.limit else 0


def too_many(response: HttpResponse, throttle: Throttle) -> HttpResponse:
    """Make ``response`` a refusal by ``throttle``'s limit: HTTP 429 with ``Retry-After`` (the
    seconds until its window ends); returns ``response``."""
    response.status_code = TOO_MANY
    response["Retry-After"] = str(throttle.retry_after)
    return response
