"""Limits of the live sockets (the game's and the lobbies'): per connection, and per user or IP
across every socket and server process (``docs/protocol.md``, "Limits").

* :class:`TokenBucket` -- per connection, in memory: ``rate`` tokens per second, at most ``burst``
  saved up (every message; chat lines apart).
* :class:`SharedLimit` -- per *owner* (a logged-in user, else the client's IP address, see
  :func:`game.live.clients.owner_of`) over all their sockets: at most ``burst`` per window of
  ``burst / rate`` seconds, counted in Django's cache (``RedisCache`` shared by every process when
  ``REDIS_URL`` is set, else the process's local memory) with one atomic ``incr`` per message on
  a key that expires with its window. Fixed windows: up to twice ``burst`` can pass around a
  window's edge.
* :class:`SocketSlot` -- an open socket's place in its owner's count of open sockets, at most
  ``cap``. A socket counts itself in the cache key of the current *epoch* (``lease`` seconds of
  wall clock) and moves itself to the next epoch's key once per epoch; the count is the sum of
  the current and the previous epoch's keys. Closing takes the socket out; the keys expire, so
  the sockets of a process that died without closing them are forgotten within two leases.
* :func:`connect_allowed` -- per client address and process, in memory: new sockets a second
  after a burst, so that a reconnect storm is refused before it costs anything else.
* :class:`CappedSocket` -- the consumer mixin that checks the address's rate (or closes the socket
  with code 4431) and takes a slot on connect (or closes it with code 4429), and frees it when the
  consumer ends, however it ends.
* :func:`incr` -- the counter they all count with, the HTTP throttles too
  (:mod:`game.site.throttle`).

The cache being unreachable never refuses anyone: a limit that cannot be counted lets the message
or the socket through (and logs it), since the site is only as available as its cache.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import threading
import time
import weakref

from asgiref.sync import sync_to_async
from cachetools import TTLCache
from django.conf import settings
from django.core.cache import caches

from game.rules import IllegalAction

from .clients import client_ip, owner_of

log = logging.getLogger(__name__)

#: the close code of a socket over its owner's cap of open sockets
CLOSE_TOO_MANY = 4429
#: the close code of a socket opened too soon after the address's last ones (:func:`connect_allowed`):
#: the client waits longer before it tries again
CLOSE_TOO_FAST = 4431


class TokenBucket:
    def __init__(self, rate: float, burst: float, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = float(rate), float(burst), clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self, n: float = 1.0) -> bool:
        """Spend ``n`` tokens if there are enough; False (nothing spent) when flooding."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False


#: ``address -> TokenBucket`` of its new sockets in this process (an address not seen for a
#: minute is forgotten; a bucket that long idle is full again anyway)
_CONNECTS: TTLCache = TTLCache(maxsize=100_000, ttl=60, timer=time.monotonic)
_CONNECTS_LOCK = threading.Lock()


def connect_allowed(address: str, clock=time.monotonic) -> bool:
    """Whether ``address`` (:func:`~game.live.clients.client_ip`) may open one more socket now in
    this process: ``LIVE_CONNECT_RATE`` a second after a burst of ``LIVE_CONNECT_BURST``
    (``None`` rate: no limit). Counted in memory, without I/O, so a storm of reconnects costs
    the event loop nothing more than its refusals; with several processes each counts its own."""
    rate = settings.LIVE_CONNECT_RATE
    if rate is None:
        return True
    with _CONNECTS_LOCK:
        bucket = _CONNECTS.get(address)
        if bucket is None:
            bucket = _CONNECTS[address] = TokenBucket(rate, settings.LIVE_CONNECT_BURST, clock)
        return bucket.take()


class RateLimited(IllegalAction):
    """An owner's shared budget is spent (:meth:`SharedLimit.guard`): code ``rate_limited``."""

    def __init__(self) -> None:
        super().__init__("rate_limited", "Too many messages; slow down a little.")


_shared: dict[str, tuple[str, object]] = {}
_shared_lock = threading.Lock()


def _cache():
    """The cache that counts (``LIVE_LIMITS_CACHE``, default ``default``): one object per process,
    made again when the setting changes. Not Django's ``caches[alias]``: that is one object per
    thread and per asyncio context, so in a server every socket (each consumer runs in a context
    of its own, copied into the threads it calls) got its own object and, with Redis, its own
    connection pool: one Redis connection per open socket (the capacity benchmark counted 204
    connections for 200 sockets). Django's cache objects are safe to share between threads."""
    alias = settings.LIVE_LIMITS_CACHE
    config = repr(settings.CACHES.get(alias))
    hit = _shared.get(alias)
    if hit is None or hit[0] != config:
        with _shared_lock:
            hit = _shared.get(alias)
            if hit is None or hit[0] != config:
                hit = _shared[alias] = (config, caches.create_connection(alias))
    return hit[1]


def incr(cache, key: str, delta: int, ttl: int) -> int:
    """Atomically add ``delta`` to the counter ``key`` of ``cache`` and return its new value (an
    int). A missing counter is created at 0 first, to expire ``ttl`` seconds later; an existing
    one keeps its expiry (fixed windows). ``cache`` is a Django cache backend itself (an entry of
    ``django.core.cache.caches``, or :func:`_cache`), not the ``django.core.cache.cache`` proxy:
    on ``RedisCache`` this is one round trip (``SET NX EX`` and ``INCRBY`` in one pipeline: it
    runs on an act's path, where Django's ``add`` and ``incr`` took two to four); on any other
    backend Django's ``incr``, and ``add`` when the counter is missing (another process may win
    that race: ``add`` is atomic). The one counter of every limit: the live sockets' here and the
    HTTP throttles' (:meth:`game.site.throttle.Throttle.hit`). The cache's errors (Redis away)
    are raised; each caller decides what an uncounted event means."""
    client = _redis_client(cache, key)
    if client is not None:
        k = cache.make_and_validate_key(key)
        pipe = client.pipeline(transaction=False)
        pipe.set(k, 0, ex=ttl, nx=True)
        pipe.incrby(k, delta)
        return int(pipe.execute()[1])
    try:
        return cache.incr(key, delta)
    except ValueError:  # missing: create it (another process may win the race: add is atomic)
        cache.add(key, 0, ttl)
        return cache.incr(key, delta)


_async_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: Redis: ``DECR`` a key only while it exists (a ``DECR`` of an expired key would make a new one
#: at -1 that never expires), in one round trip
_DECR_IF_EXISTS = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return false"


async def _incr_async(cache, key: str, delta: int, ttl: int, take_back: str | None = None) -> int | None:
    """:func:`incr` awaited on the event loop, and, when ``take_back`` names a counter, one taken
    back from it as :func:`_take_back` does (a socket's renewal: its count moved to the new
    lease's key): on Redis one pipeline, one round trip, on an asynchronous client of this loop
    (redis-py's ``redis.asyncio``, the first server of the cache's ``LOCATION``, where Django's
    cache writes; each command on one key); on the local-memory cache in place (no I/O). None,
    with nothing done, for another cache (the caller counts in a thread)."""
    from django.core.cache.backends.locmem import LocMemCache
    from django.core.cache.backends.redis import RedisCache

    if isinstance(cache, LocMemCache):
        n = incr(cache, key, delta, ttl)
        if take_back is not None:
            _take_back(cache, take_back)
        return n
    if not isinstance(cache, RedisCache):
        return None
    k = cache.make_and_validate_key(key)
    async with _async_client(cache).pipeline(transaction=False) as pipe:
        pipe.set(k, 0, ex=ttl, nx=True)
        pipe.incrby(k, delta)
        if take_back is not None:
            pipe.eval(_DECR_IF_EXISTS, 1, cache.make_and_validate_key(take_back))
        return int((await pipe.execute())[1])


def _async_client(cache):
    """The running loop's ``redis.asyncio`` client of ``cache`` (a ``RedisCache``), made once."""
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        import redis.asyncio

        client = _async_clients[loop] = redis.asyncio.Redis.from_url(cache._servers[0])
    return client


def _redis_client(cache, key: str):
    """The redis-py client behind Django's ``RedisCache`` for ``key``, else None."""
    from django.core.cache.backends.redis import RedisCache

    if not isinstance(cache, RedisCache):
        return None
    return cache._cache.get_client(cache.make_and_validate_key(key), write=True)


def _take_back(cache, key: str) -> None:
    """Subtract one from the counter ``key`` if it still exists."""
    try:
        cache.decr(key)
    except ValueError:  # expired meanwhile: nothing left to take back
        pass


# --- budgets shared by an owner's sockets -------------------------------------------------------------
class SharedLimit:
    """At most ``burst`` uses per window of ``burst / rate`` seconds for one ``owner`` over every
    socket and process that share the cache (``name`` tells the budgets apart)."""

    def __init__(self, name: str, owner: str, rate: float, burst: float, clock=time.time) -> None:
        self.count = max(1, int(burst))
        self.window = self.count / max(float(rate), 1e-9)
        self.ttl = int(math.ceil(min(self.window, 86400.0))) + 1
        self.prefix = f"live-rate:{name}:{owner}:"
        self.clock = clock

    def _key(self) -> str:
        """The counter of the current window."""
        return self.prefix + str(int(self.clock() // self.window))

    def take(self) -> bool:
        """Count one use; False when the window's budget was already spent. Blocking (one cache
        round trip): call it in a worker thread."""
        key = self._key()
        try:
            return incr(_cache(), key, 1, self.ttl) <= self.count
        except Exception:
            log.warning("live limits: cannot count %s, letting it through", key, exc_info=True)
            return True

    async def take_async(self) -> bool:
        """:meth:`take` from a coroutine, counted on the event loop itself (Redis through an
        asynchronous client, the local-memory cache in place); another cache in a worker thread."""
        key = self._key()
        try:
            n = await _incr_async(_cache(), key, 1, self.ttl)
        except Exception:
            log.warning("live limits: cannot count %s, letting it through", key, exc_info=True)
            return True
        if n is None:
            return await _in_thread(self.take)()
        return n <= self.count

    def guard(self, fn, *args):
        """``fn(*args)`` if :meth:`take` allows it, else raises :class:`RateLimited` (nothing run)."""
        if not self.take():
            raise RateLimited()
        return fn(*args)


# --- open sockets per owner -----------------------------------------------------------------------------
class SocketSlot:
    """One socket's place among its ``owner``'s open sockets (at most ``cap``). Blocking methods
    (cache round trips): call them in a worker thread; :meth:`renew_async` on the event loop."""

    def __init__(self, owner: str, cap: int, lease: float, clock=time.time) -> None:
        self.owner, self.cap, self.lease, self.clock = owner, int(cap), float(lease), clock
        self.ttl = int(math.ceil(3 * self.lease)) + 1
        self.epoch: int | None = None  # the epoch whose key counts this socket

    def _key(self, epoch: int) -> str:
        return f"live-sockets:{self.owner}:{epoch}"

    def _now(self) -> int:
        return int(self.clock() // self.lease)

    def acquire(self) -> bool:
        """Count this socket in; False (nothing counted) when its owner already has ``cap``."""
        cache, e = _cache(), self._now()
        try:
            n = incr(cache, self._key(e), 1, self.ttl)
            if n + max(0, cache.get(self._key(e - 1)) or 0) > self.cap:
                _take_back(cache, self._key(e))
                return False
        except Exception:
            log.warning("live limits: cannot count the sockets of %s, letting one in", self.owner, exc_info=True)
            return True
        self.epoch = e
        return True

    def renew(self) -> None:
        """Move this socket's count to the current epoch (once per epoch, while it is open)."""
        e, old = self._now(), self.epoch
        if old is None or old == e:
            return
        cache = _cache()
        try:
            incr(cache, self._key(e), 1, self.ttl)
            self.epoch = e
            if old == e - 1:  # older keys no longer count: they expire by themselves
                _take_back(cache, self._key(old))
        except Exception:
            log.warning("live limits: cannot renew a socket of %s", self.owner, exc_info=True)

    async def renew_async(self) -> None:
        """:meth:`renew` from a coroutine, on the event loop itself where the cache allows it
        (Redis: the new lease's count and the old one's take-back in one pipeline, one round trip,
        on the loop's asynchronous client; the local-memory cache in place), else in a worker
        thread: every open socket renews once per lease, so a process with thousands of sockets
        would hand dozens of renewals a second to its threads."""
        e, old = self._now(), self.epoch
        if old is None or old == e:
            return
        try:
            # older keys no longer count: they expire by themselves
            if await _incr_async(_cache(), self._key(e), 1, self.ttl, self._key(old) if old == e - 1 else None) is None:
                await _in_thread(self.renew)()
                return
            self.epoch = e
        except Exception:
            log.warning("live limits: cannot renew a socket of %s", self.owner, exc_info=True)

    def release(self) -> None:
        """Count this socket out (it closed). Idempotent."""
        old, self.epoch = self.epoch, None
        if old is None or old < self._now() - 1:
            return
        try:
            _take_back(_cache(), self._key(old))
        except Exception:
            log.warning("live limits: cannot release a socket of %s", self.owner, exc_info=True)


def open_sockets(owner: str) -> int:
    """How many sockets ``owner`` (``"u<user id>"``, :func:`~game.live.clients.owner_of`) holds
    open now, as the cap counts them (this and the previous lease's keys; a dead process's
    sockets fade within two leases). Blocking (a cache round trip); 0 when the cache cannot be read."""
    lease = float(settings.LIVE_SOCKET_LEASE)
    slot = SocketSlot(owner, 0, lease)
    e = slot._now()
    try:
        cache = _cache()
        return max(0, cache.get(slot._key(e)) or 0) + max(0, cache.get(slot._key(e - 1)) or 0)
    except Exception:
        log.warning("live limits: cannot count the sockets of %s", owner, exc_info=True)
        return 0


def _in_thread(fn):
    return sync_to_async(fn, thread_sensitive=False)


class CappedSocket:
    """Consumer mixin (before Channels' consumer class): each socket holds a :class:`SocketSlot`
    of its owner (a logged-in user: ``LIVE_SOCKETS_PER_USER``; anonymous visitors of one IP:
    ``LIVE_SOCKETS_PER_IP``) from :meth:`take_slot` until the consumer ends, however it ends
    (closed, refused, crashed, cancelled)."""

    slot: SocketSlot | None = None
    _renewer: asyncio.Task | None = None

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.free_slot()

    async def take_slot(self) -> bool:
        """Call first in ``connect``. False when the client's address opens sockets faster than
        :func:`connect_allowed` lets it (closed at once with code 4431, before anything is read
        or counted elsewhere) or when the owner is at the cap (code 4429): the socket is then
        accepted and closed at once, so that browsers see the code."""
        if not connect_allowed(client_ip(self.scope, fall_back_to_peer=True)):
            await self.refuse(CLOSE_TOO_FAST)
            return False
        owner, is_user = owner_of(self.scope)
        cap = settings.LIVE_SOCKETS_PER_USER if is_user else settings.LIVE_SOCKETS_PER_IP
        slot = SocketSlot(owner, cap, settings.LIVE_SOCKET_LEASE)
        if not await _in_thread(slot.acquire)():
            await self.refuse(CLOSE_TOO_MANY)
            return False
        self.slot = slot
        self._renewer = asyncio.get_running_loop().create_task(self._renew(slot))
        return True

    async def refuse(self, code: int) -> None:
        """Accept the handshake and close at once with ``code`` (a close before accepting would
        be an HTTP 403 to the browser, without the code)."""
        await self.accept()
        await self.close(code=code)

    async def free_slot(self) -> None:
        slot, self.slot = self.slot, None
        if self._renewer is not None:
            self._renewer.cancel()
            self._renewer = None
        if slot is not None:
            await _in_thread(slot.release)()

    @staticmethod
    async def _renew(slot: SocketSlot) -> None:
        while True:
            await asyncio.sleep(renewal_delay(slot.clock(), slot.lease, random.random()))
            await slot.renew_async()


#: a socket renews at a random point of the first RENEW_SPREAD of each lease: spread over most of
#: it (every socket's leases start at the same moments, site-wide), and late enough before its
#: end (12 s of a 60 s lease) that a stalled loop or a slow Redis still renews within the lease
RENEW_SPREAD = 0.8


def renewal_delay(now: float, lease: float, draw: float) -> float:
    """Seconds from ``now`` (unix seconds) to a socket's next renewal: the next lease's start
    plus ``draw`` (uniform in [0, 1)) times :data:`RENEW_SPREAD` of a lease of ``lease`` seconds."""
    start = (math.floor(now / lease) + 1) * lease
    return start - now + draw * RENEW_SPREAD * lease


def shared_limits(scope: dict) -> tuple[SharedLimit, SharedLimit]:
    """``(requests, chat)``: the owner's shared budgets, made with the settings of now (a
    socket keeps the ones it was opened with): ``LIVE_RATE``/``LIVE_BURST`` for the messages that
    cost the database (act, stand_in, take_back, sync), ``LIVE_CHAT_RATE``/``LIVE_CHAT_BURST`` for
    chat lines."""
    owner, _ = owner_of(scope)
    return (
        SharedLimit("requests", owner, settings.LIVE_RATE, settings.LIVE_BURST),
        SharedLimit("chat", owner, settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST),
    )


async def taken(limit: SharedLimit) -> bool:
    """:meth:`SharedLimit.take` from a coroutine (in a worker thread)."""
    return await _in_thread(limit.take)()

