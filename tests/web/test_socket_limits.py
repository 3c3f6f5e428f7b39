"""Limits of the live sockets (``docs/protocol.md``, "Limits"): the lobby
socket's size and rate limits; chat and act budgets per user (per IP for anonymous visitors)
shared by all their sockets; the cap of open sockets per user and per IP (4429), released when
sockets close or crash, forgotten when a process dies; the same counts across processes through
Redis."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from game.models import ChatMessage, Game

from .live_helpers import ORIGIN, connect, drain, refusal, session_cookie, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]
ROOT = Path(__file__).resolve().parents[2]
FOREVER = 1e-6  # a rate so slow that a test never sees its window end


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A fresh local-memory cache per test (the limits' counts)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}


@pytest.fixture
def game3(make_lobby):
    return start_game(make_lobby, 3)


def _from(ip: str, *more) -> list:
    """Headers of a visitor at ``ip`` behind the trusted proxy (``BEHIND_HTTPS_PROXY``)."""
    return [ORIGIN, (b"x-forwarded-for", f"6.6.6.6, {ip}".encode()), *more]


async def _answer(ws, msg: dict) -> dict:
    """The ``result`` or ``error`` answering ``msg`` (pushes in between skipped)."""
    await ws.send_json_to(msg)
    while True:
        got = await ws.receive_json_from(timeout=10)
        if got["type"] in ("result", "error"):
            return got


# --- per user, over all their sockets --------------------------------------------------------------
async def test_many_sockets_of_one_user_share_one_chat_budget(application, game3, settings):
    settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST = FOREVER, 5
    game, users = game3
    socks = [(await connect(application, game.pk, users["stark"]))[0] for _ in range(4)]
    answers = []
    for i in range(12):  # 3 lines per socket: each within its own connection's burst of 5
        answers.append(await _answer(socks[i % 4], {"type": "chat", "id": i, "channel": "public", "text": f"line {i}"}))
    assert [a["ok"] for a in answers] == [True] * 5 + [False] * 7
    assert {a["error"]["code"] for a in answers[5:]} == {"rate_limited"}
    assert all(a["type"] == "result" and a["error"]["message"] for a in answers[5:])
    assert await sync_to_async(ChatMessage.objects.filter(game=game).count)() == 5  # refused: nothing stored
    other, _ = await connect(application, game.pk, users["lannister"])  # another user's budget is whole
    assert (await _answer(other, {"type": "chat", "id": "x", "channel": "public", "text": "hi"}))["ok"] is True
    for ws in [*socks, other]:
        await ws.disconnect()


async def test_many_sockets_of_one_user_share_one_act_budget(application, game3, settings):
    settings.LIVE_RATE, settings.LIVE_BURST = FOREVER, 4
    game, users = game3
    socks = [(await connect(application, game.pk, users["stark"]))[0] for _ in range(3)]
    codes = []
    for i in range(6):  # two acts per socket, within each connection's own 4 messages
        got = await _answer(socks[i % 3], {"type": "act", "id": i, "action": {"type": "nonsense"}})
        assert got["type"] == "result" and got["ok"] is False
        codes.append(got["error"]["code"])
    assert codes[:4] == ["action.malformed"] * 4 and codes[4:] == ["rate_limited"] * 2
    assert (await sync_to_async(Game.objects.get)(pk=game.pk)).version == 0
    for ws in socks:
        await ws.disconnect()


async def test_anonymous_visitors_share_a_budget_per_ip(application, game3, settings):
    settings.LIVE_RATE, settings.LIVE_BURST = FOREVER, 3
    settings.BEHIND_HTTPS_PROXY = True
    game, _ = game3

    async def anonymous(ip):
        ws = WebsocketCommunicator(application, f"/ws/game/{game.pk}/", headers=_from(ip))
        assert (await ws.connect(timeout=10))[0]
        await drain(ws)
        return ws

    a, b, c = await anonymous("10.0.0.1"), await anonymous("10.0.0.1"), await anonymous("10.0.0.2")
    kinds = []
    for ws in (a, b, a, b):  # four syncs from one address: the fourth is over its budget of 3
        await ws.send_json_to({"type": "sync"})
        kinds.append(await ws.receive_json_from(timeout=10))
    assert [k["type"] for k in kinds] == ["state", "state", "state", "error"]
    assert kinds[3]["error"]["code"] == "rate_limited" and kinds[3]["id"] is None
    await c.send_json_to({"type": "sync"})  # another address (the proxy's own hop counts, not the first)
    assert (await c.receive_json_from(timeout=10))["type"] == "state"
    for ws in (a, b, c):
        await ws.disconnect()


# --- open sockets per user and per IP -----------------------------------------------------------------
async def test_sockets_over_a_users_cap_are_closed_with_4429_and_closing_frees_a_place(application, game3, settings, make_lobby):
    settings.LIVE_SOCKETS_PER_USER = 3
    game, users = game3
    lobby = await sync_to_async(make_lobby)(players=3)
    cookie = (b"cookie", await sync_to_async(session_cookie)(users["stark"]))
    first, _ = await connect(application, game.pk, users["stark"])
    second = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=[ORIGIN, cookie])
    assert (await second.connect(timeout=10))[0]
    third = WebsocketCommunicator(application, "/ws/lobbies/", headers=[ORIGIN, cookie])
    assert (await third.connect(timeout=10))[0]
    # game and lobby sockets count together
    assert await refusal(application, f"/ws/game/{game.pk}/", [ORIGIN, cookie]) == 4429
    assert await refusal(application, f"/ws/lobby/{lobby.pk}/", [ORIGIN, cookie]) == 4429
    other, _ = await connect(application, game.pk, users["lannister"])  # another user is not concerned
    await second.disconnect()
    fourth, _ = await connect(application, game.pk, users["stark"])  # a place was freed
    for ws in (first, third, other, fourth):
        await ws.disconnect()


async def test_sockets_over_an_ips_cap_are_closed_with_4429(application, game3, settings):
    settings.LIVE_SOCKETS_PER_IP = 2
    settings.BEHIND_HTTPS_PROXY = True
    game, users = game3
    path = f"/ws/game/{game.pk}/"
    held = []
    for _ in range(2):
        ws = WebsocketCommunicator(application, path, headers=_from("10.0.0.7"))
        assert (await ws.connect(timeout=10))[0]
        held.append(ws)
    assert await refusal(application, path, _from("10.0.0.7")) == 4429
    assert await refusal(application, path, _from("10.0.0.8")) is None  # another address
    # an IPv6 visitor's whole /64 is one address
    v6 = WebsocketCommunicator(application, path, headers=_from("2001:db8::1"))
    assert (await v6.connect(timeout=10))[0]
    v6b = WebsocketCommunicator(application, path, headers=_from("2001:db8::2"))
    assert (await v6b.connect(timeout=10))[0]
    assert await refusal(application, path, _from("2001:db8::ffff")) == 4429
    # a header that is no address counts as the peer's (here: none, "unknown"), never crashes
    junk = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"x-forwarded-for", b"1.2.3.4, \xff not-an-ip")])
    assert (await junk.connect(timeout=10))[0]
    held.append(junk)
    # logged-in users count per user, not per address
    player, _ = await connect(application, game.pk, users["stark"])
    for ws in (*held, v6, v6b, player):
        await ws.disconnect()


async def test_refused_and_crashed_sockets_give_their_place_back(application, game3, settings):
    settings.LIVE_SOCKETS_PER_USER = 2
    game, users = game3
    cookie = [ORIGIN, (b"cookie", await sync_to_async(session_cookie)(users["stark"]))]
    for _ in range(5):  # refused for another reason: never counted for long
        assert await refusal(application, "/ws/game/987654/", cookie) == 4404
    a, _ = await connect(application, game.pk, users["stark"])
    b, _ = await connect(application, game.pk, users["stark"])
    assert await refusal(application, f"/ws/game/{game.pk}/", cookie) == 4429
    b.future.cancel()  # the consumer is cancelled (as the server does with one that will not end)
    for _ in range(100):
        if await refusal(application, f"/ws/game/{game.pk}/", cookie) is None:
            break
        await __import__("asyncio").sleep(0.05)
    else:
        raise AssertionError("the cancelled socket's place was not given back")
    await a.disconnect()


# --- the lobby socket -----------------------------------------------------------------------------------
async def test_the_lobby_socket_has_the_game_sockets_size_and_rate_limits(application, make_lobby, settings):
    from game.site import lobbies

    settings.LIVE_MAX_MESSAGE = 100
    settings.LIVE_RATE, settings.LIVE_BURST = FOREVER, 5
    lobby = await sync_to_async(make_lobby)(players=3)
    ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/?lang=zh-hans", headers=[ORIGIN])
    assert (await ws.connect(timeout=10))[0]
    assert (await ws.receive_json_from(timeout=10))["type"] == "lobby"
    await ws.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * 200}))
    big = await ws.receive_json_from(timeout=10)
    assert big["type"] == "error" and big["error"]["code"] == "message.too_large" and big["id"] is None
    assert big["error"]["message"] != "That message is too long."  # in the socket's language
    got = []
    for _ in range(6):  # 1 + 6 messages: the connection's burst is 5
        await ws.send_json_to({"type": "sync"})
        got.append(await ws.receive_json_from(timeout=10))
    assert [g["type"] for g in got] == ["lobby"] * 4 + ["error"] * 2
    assert {g["error"]["code"] for g in got[4:]} == {"rate_limited"}
    # still open: pushes go on
    await sync_to_async(lobbies.cancel_lobby)(lobby.pk, lobby.creator)
    assert (await ws.receive_json_from(timeout=10))["lobby"]["status"] == "cancelled"
    await ws.disconnect()


async def test_syncs_on_many_lobby_sockets_share_the_owners_budget(application, make_lobby, settings):
    settings.LIVE_RATE, settings.LIVE_BURST = FOREVER, 4
    lobby = await sync_to_async(make_lobby)(players=3)
    socks = []
    for _ in range(4):
        ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=[ORIGIN])
        assert (await ws.connect(timeout=10))[0]
        await ws.receive_json_from(timeout=10)
        socks.append(ws)
    got = []
    for i in range(8):  # two syncs per socket, within each connection's burst of 4
        await socks[i % 4].send_json_to({"type": "sync"})
        got.append((await socks[i % 4].receive_json_from(timeout=10))["type"])
    assert got == ["lobby"] * 4 + ["error"] * 4
    for ws in socks:
        await ws.disconnect()


# --- across processes (Redis), and a process that dies -----------------------------------------------------
CHILD = """
import django, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "gotweb.settings"
django.setup()
from game.live.ratelimit import SharedLimit, SocketSlot
what = sys.argv[1]
if what == "chat":
    print(sum(SharedLimit("chat", "u4242", 1e-6, 5).take() for _ in range(3)))
else:  # take two sockets' places and die without giving them back
    print(sum(SocketSlot("u4242", 3, 1.0).acquire() for _ in range(2)))
    os._exit(0)
"""


def _child(redis_url: str, prefix: str, what: str) -> int:
    env = {**os.environ, "REDIS_URL": redis_url, "REDIS_PREFIX": prefix}
    out = subprocess.run([sys.executable, "-c", CHILD, what], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.strip().splitlines()[-1])


@pytest.mark.redis
def test_budgets_and_socket_counts_hold_across_processes_through_redis(redis_url, settings):
    from game.live.ratelimit import SharedLimit, SocketSlot

    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": f"{prefix}-cache"}
    }
    # a chat budget of 5: another process spends 3 of it, this one gets the other 2
    assert _child(redis_url, prefix, "chat") == 3
    assert [SharedLimit("chat", "u4242", 1e-6, 5).take() for _ in range(4)] == [True, True, False, False]
    # a cap of 3 sockets (lease 1 s): another process takes 2 places and dies without closing them
    start = time.time()
    assert _child(redis_url, prefix, "sockets") == 2
    mine = SocketSlot("u4242", 3, 1.0)
    assert mine.acquire() is True
    if time.time() - start < 0.9:  # (on a slow machine the lease may already have moved on)
        assert SocketSlot("u4242", 3, 1.0).acquire() is False
    # the dead process's places are forgotten within two leases; this one's, kept alive, are not
    deadline = time.time() + 10
    while time.time() < deadline:
        mine.renew()
        if SocketSlot("u4242", 3, 1.0).acquire():
            break
        time.sleep(0.2)
    else:
        raise AssertionError("a dead process's sockets were never forgotten")
    assert time.time() - start >= 1.0


async def test_every_socket_of_a_process_counts_through_one_cache_object():
    """Each consumer runs in an asyncio context of its own; Django's ``caches[alias]`` is one
    object per context, so each socket had its own cache object and, with Redis, its own
    connection (one Redis connection per open socket). The limits use one object per process."""
    import contextvars

    from asgiref.sync import sync_to_async

    from game.live import ratelimit

    async def as_a_consumer():  # the budgets and slots are counted in worker threads
        return await sync_to_async(ratelimit._cache, thread_sensitive=False)()

    tasks = [asyncio.create_task(as_a_consumer(), context=contextvars.Context()) for _ in range(5)]
    got = await asyncio.gather(*tasks)
    assert len({id(c) for c in got}) == 1


@pytest.mark.redis
async def test_a_budget_counted_on_the_event_loop_shares_its_count_through_redis(redis_url, settings):
    """``SharedLimit.take_async`` (an act written on the event loop, ``game/live/loopwrite.py``)
    counts in the same Redis key as ``take`` in a thread and in another process: a chat budget
    of 5, 3 spent by another process, 1 in a thread here, then the loop gets the last one."""
    from asgiref.sync import sync_to_async

    from game.live.ratelimit import SharedLimit

    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": f"{prefix}-cache"}
    }
    assert await sync_to_async(_child)(redis_url, prefix, "chat") == 3
    assert await sync_to_async(SharedLimit("chat", "u4242", 1e-6, 5).take, thread_sensitive=False)() is True
    got = [await SharedLimit("chat", "u4242", 1e-6, 5).take_async() for _ in range(3)]
    assert got == [True, False, False]


async def test_a_budget_on_the_local_memory_cache_is_counted_in_place(settings):
    from game.live.ratelimit import SharedLimit

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"t-{uuid.uuid4().hex}"}}
    assert [await SharedLimit("chat", "u7", 1e-6, 2).take_async() for _ in range(3)] == [True, True, False]


@pytest.mark.redis
async def test_a_socket_renews_its_place_on_the_event_loop_through_redis(redis_url, settings, monkeypatch):
    """``SocketSlot.renew_async`` (each open socket, once per lease) moves the socket's count to
    the new lease's key and takes it back from the old one, in the same Redis keys as a thread's
    ``acquire``, without a worker thread; a lease missed leaves the old key to expire, and a key
    that expired is not made again (at -1)."""
    from asgiref.sync import sync_to_async

    from game.live import ratelimit
    from game.live.ratelimit import SocketSlot

    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": f"{prefix}-cache"}
    }
    now = [1000.0]
    slot = SocketSlot("u4343", 3, 10.0, clock=lambda: now[0])
    assert await sync_to_async(slot.acquire, thread_sensitive=False)() is True

    def no_thread(fn):
        raise AssertionError("a renewal handed to a worker thread")

    monkeypatch.setattr(ratelimit, "_in_thread", no_thread)
    cache = ratelimit._cache()
    now[0] += 10
    await slot.renew_async()
    assert (cache.get(slot._key(101)), cache.get(slot._key(100))) == (1, 0)
    now[0] += 20  # a lease missed (a stalled process): the old key is left to expire
    await slot.renew_async()
    assert (cache.get(slot._key(103)), cache.get(slot._key(101))) == (1, 1)
    cache.delete(slot._key(103))
    now[0] += 10
    await slot.renew_async()
    assert (cache.get(slot._key(104)), cache.get(slot._key(103))) == (1, None)


def test_renewals_spread_over_most_of_each_lease_and_end_before_it_does():
    """Every socket's leases start at the same moments site-wide; renewals were drawn from the
    first half of each lease only, so the whole site's renewals came in one half-minute of every
    minute. They now spread over the first 80 % of the lease (12 s left of a 60 s lease)."""
    from game.live.ratelimit import RENEW_SPREAD, renewal_delay

    now = 1_000_015.0  # 15 s into a lease of 60 s (leases start at multiples of 60)
    start = 1_000_020.0
    at = [now + renewal_delay(now, 60.0, draw) for draw in (0.0, 0.3, 0.6, 0.75, 0.999)]
    assert at[0] == start and all(start <= t < start + 60 * RENEW_SPREAD for t in at)
    assert at[3] - start == pytest.approx(36.0) and at[3] - start > 30  # in the lease's second half
    assert RENEW_SPREAD * 60 <= 48


@pytest.mark.redis
async def test_a_renewal_is_one_round_trip_to_redis(redis_url, settings, monkeypatch):
    """The new lease's count and the old one's take-back go in one pipeline (they were two round
    trips: each renewal of thousands of sockets cost the loop twice)."""
    from game.live import ratelimit
    from game.live.ratelimit import SocketSlot

    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, "KEY_PREFIX": f"{prefix}-cache"}
    }
    real = ratelimit._async_client
    trips = []

    class Counting:
        def __init__(self, client) -> None:
            self.client = client

        def pipeline(self, **kw):
            trips.append("pipeline")
            return self.client.pipeline(**kw)

        async def eval(self, *args):
            trips.append("eval")
            return await self.client.eval(*args)

    monkeypatch.setattr(ratelimit, "_async_client", lambda cache: Counting(real(cache)))
    now = [2000.0]
    slot = SocketSlot("u4444", 3, 10.0, clock=lambda: now[0])
    assert slot.acquire() is True
    cache = ratelimit._cache()
    now[0] += 10
    await slot.renew_async()
    assert trips == ["pipeline"]
    assert (cache.get(slot._key(201)), cache.get(slot._key(200))) == (1, 0)
