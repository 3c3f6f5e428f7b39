"""The HTTP throttles' counter (``game/site/throttle.py``): a :class:`Throttle` counts with the live
limits' counter, ``game.live.ratelimit.incr`` (one code path for every limit), in Django's
``default`` cache, with the same keys, windows and answers as before: on the local-memory cache
and on Redis (one pipeline round trip per event)."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import caches

from game.live import ratelimit
from game.site import throttle
from game.site.throttle import Throttle

NOW = 1_000_000_000.0  # a window of 3600 s starts at 999_997_200: 2800 s into it


def test_a_throttle_counts_through_the_live_counter(settings, monkeypatch):
    settings.THROTTLE_GUEST = (3, 3600)
    calls = []

    def spying(cache, key, delta, ttl):
        calls.append((cache, key, delta, ttl))
        return ratelimit.incr(cache, key, delta, ttl)

    monkeypatch.setattr(throttle, "incr", spying)
    t = Throttle("THROTTLE_GUEST", "198.51.100.9", now=NOW)
    assert t.key.startswith("throttle:THROTTLE_GUEST:") and t.key.endswith(":277777")
    assert t.retry_after == 800
    assert [t.hit() for _ in range(4)] == [1, 2, 3, 4]
    # the backend itself (not the proxy), the window's key, one event, the window and 5 s
    assert calls == [(caches["default"], t.key, 1, 3605)] * 4
    assert t.count() == 4 and t.blocked()
    t.reset()
    assert t.count() == 0 and not t.blocked()


def test_a_limit_switched_off_counts_nothing(settings, monkeypatch):
    settings.THROTTLE_GUEST = None
    monkeypatch.setattr(throttle, "incr", lambda *a: pytest.fail("counted"))
    t = Throttle("THROTTLE_GUEST", "198.51.100.9")
    assert (t.hit(), t.count(), t.blocked(), t.key) == (0, 0, False, "")


def test_each_window_and_each_key_counts_apart(settings):
    settings.THROTTLE_LOGIN_USER = (2, 900)
    a = Throttle("THROTTLE_LOGIN_USER", "alice", now=NOW)
    assert [a.hit(), a.hit()] == [1, 2] and a.blocked()
    assert not Throttle("THROTTLE_LOGIN_USER", "bob", now=NOW).blocked()
    assert not Throttle("THROTTLE_LOGIN_USER", "alice", now=NOW + 900).blocked()  # the next window
    assert Throttle("THROTTLE_LOGIN_USER", "alice", now=NOW + 1).count() == 2


@pytest.mark.redis
def test_on_redis_a_throttle_counts_in_one_round_trip(redis_url, settings, monkeypatch):
    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": prefix}
    }
    settings.THROTTLE_LOBBY_PASSWORD = (3, 900)
    cache = caches["default"]
    t = Throttle("THROTTLE_LOBBY_PASSWORD", "203.0.113.5", 42)
    client = cache._cache.get_client(cache.make_and_validate_key(t.key), write=True)
    pipelines = []
    real = type(client).pipeline  # (Django makes a client per call, on one connection pool)
    monkeypatch.setattr(type(client), "pipeline", lambda self, *a, **k: pipelines.append(1) or real(self, *a, **k))
    try:
        assert [t.hit() for _ in range(4)] == [1, 2, 3, 4]
        assert len(pipelines) == 4  # one pipeline (SET NX EX, INCRBY) per event
        assert t.count() == 4 and t.blocked()  # Django's cache reads what the pipeline wrote
        assert 895 < client.ttl(cache.make_and_validate_key(t.key)) <= 905  # the window and 5 s, set once
        t.reset()
        assert t.count() == 0
    finally:
        cache.clear()
