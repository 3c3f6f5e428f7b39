"""Abuse limits per client: who the client is (:func:`client_ip`) and how many times it may do a
thing in a time window (:class:`Throttle`).

Counters live in Django's cache framework (``django.core.cache.cache``): one process's memory by
default, shared by every server process when ``CACHES`` points at Redis. A limit is a setting
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
* ``THROTTLE_PUSH``: Web Push subscriptions stored per person (:mod:`game.site.webpush`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

DEFAULTS = {
    "THROTTLE_GUEST": (5, 3600),
    "THROTTLE_LOGIN_IP": (10, 900),
    "THROTTLE_LOGIN_USER": (5, 900),
    "THROTTLE_LOGIN_DEVICE": (5, 900),
    "THROTTLE_LOBBY_PASSWORD": (10, 900),
    "THROTTLE_PUSH": (20, 3600),
}


def client_ip(request: Any) -> str:
    """The client's IP address of a Django ``HttpRequest``, or of an ASGI ``scope`` (a websocket's).

    ``REMOTE_ADDR`` (``scope["client"]``); only when ``settings.BEHIND_HTTPS_PROXY`` is set, the
    last address of the ``X-Forwarded-For`` header instead: the one our load balancer appended,
    which the client cannot forge (addresses before it are the client's own claim). A missing or
    malformed address gives ``""`` (one shared budget for all such requests, never an error).
    """
    if isinstance(request, dict):  # an ASGI scope
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in request.get("headers", [])}
        remote = (request.get("client") or ("",))[0] or ""
        forwarded = headers.get("x-forwarded-for", "")
    else:
        remote = request.META.get("REMOTE_ADDR", "") or ""
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "") or ""
    candidate = remote
    if getattr(settings, "BEHIND_HTTPS_PROXY", False) and forwarded.strip():
        candidate = forwarded.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(candidate.strip()))
    except ValueError:
        return ""


def ip_bucket(ip: str) -> str:
    """The budget an address counts against: the address itself for IPv4, its /64 network for
    IPv6 (one subscriber commonly holds a whole /64)."""
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return "unknown"
    if addr.version == 6:
        if addr.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is 1.2.3.4
            return str(addr.ipv4_mapped)
        return str(ipaddress.ip_network(f"{addr}/64", strict=False))
    return str(addr)


def limit(name: str) -> tuple[int, int] | None:
    """``(count, seconds)`` of the limit setting ``name`` (e.g. ``"THROTTLE_GUEST"``), or None when
    it is switched off."""
    value = getattr(settings, name, DEFAULTS[name])
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
        return int(cache.get(self.key, 0)) if self.key else 0

    def blocked(self) -> bool:
        """True when the window's budget is spent (always False for a limit switched off)."""
        return self.limit is not None and self.count() >= self.limit[0]

    def hit(self) -> int:
        """Count one event; returns the window's count so far (0 for a limit switched off)."""
        if not self.key:
            return 0
        timeout = self.limit[1] + 5
        cache.add(self.key, 0, timeout)
        try:
            return int(cache.incr(self.key))
        except ValueError:  # the window ended between add and incr
            cache.set(self.key, 1, timeout)
            return 1

    def reset(self) -> None:
        """Forget the window's events (a successful login forgives that username's failures)."""
        if self.key:
            cache.delete(self.key)

    @property
    def minutes(self) -> int:
        """Whole minutes (rounded up, at least 1) until this window ends, for messages."""
        return max(1, math.ceil(self.retry_after / 60)) if self.limit else 0
