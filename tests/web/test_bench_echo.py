"""The bench-only echo socket (``game/devtools/bench_echo.py``, the baseline of ``python -m tests.bench.live``)
is not routed unless ``GOTWEB_BENCH=1``; routed, it hands one socket's text to every socket of its
group (the write-echo after a count in the cache and a commit on PostgreSQL: that test runs in the
PostgreSQL run of test_live_postgres.py). Its hub-count socket tells how many consumers the
process's hub holds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

ROOT = Path(__file__).resolve().parents[2]


def _bench_routes(env_value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "GOTWEB_BENCH"}
    if env_value is not None:
        env["GOTWEB_BENCH"] = env_value
    code = (
        "import django; django.setup(); from gotweb.routing import websocket_urlpatterns as p; "
        "print(sorted(str(x.pattern) for x in p if 'bench' in str(x.pattern)))"
    )
    env["DJANGO_SETTINGS_MODULE"] = "gotweb.settings"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_not_routed_by_default(settings):
    assert settings.BENCH_ECHO is False
    assert _bench_routes(None) == "[]"
    assert _bench_routes("1") == ("['ws/bench/echo/<slug:name>/', 'ws/bench/hub-count/', 'ws/bench/hub-echo/<slug:name>/', "
                                  "'ws/bench/write-echo/<slug:name>/']")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["echo", "hub-echo"])
async def test_echo_reaches_every_socket_of_its_group(settings, kind):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from game.devtools.bench_echo import websocket_urlpatterns

    app = URLRouter(websocket_urlpatterns)
    socks = [WebsocketCommunicator(app, f"/ws/bench/{kind}/t1/") for _ in range(3)]
    other = WebsocketCommunicator(app, f"/ws/bench/{kind}/t2/")
    for ws in [*socks, other]:
        ok, _ = await ws.connect()
        assert ok
    await socks[1].send_to(text_data="echo:1")
    for ws in socks:
        assert await ws.receive_from(timeout=5) == "echo:1"
    assert await other.receive_nothing(timeout=0.2)
    for ws in [*socks, other]:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgres_only")
async def test_the_write_echo_counts_and_commits_before_it_echoes(settings):
    """``write-echo`` (the live bench's floor of an act's path): each text is counted in the
    cache's budget and commits a transaction with an id on the event loop's PostgreSQL
    connection, then reaches every socket of its group."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from asgiref.sync import sync_to_async
    from django.db import connection

    from game.devtools.bench_echo import websocket_urlpatterns
    from game.live import loopwrite, ratelimit

    def next_xid() -> int:
        with connection.cursor() as c:
            c.execute("SELECT txid_current()")
            return c.fetchone()[0]

    app = URLRouter(websocket_urlpatterns)
    socks = [WebsocketCommunicator(app, "/ws/bench/write-echo/w1/") for _ in range(3)]
    for ws in socks:
        assert (await ws.connect())[0]
    counter = ratelimit.SharedLimit("bench", "bench-write-echo-w1", 1e3, 1e9)
    before_count = await sync_to_async(ratelimit.incr)(ratelimit._cache(), counter._key(), 0, counter.ttl)
    before_xid = await sync_to_async(next_xid)()
    try:
        for i in range(2):
            await socks[i].send_to(text_data=f"echo:{i}")
            for ws in socks:
                assert await ws.receive_from(timeout=5) == f"echo:{i}"
        after_xid = await sync_to_async(next_xid)()
        assert after_xid - before_xid >= 3  # two committed transactions between the two reads
        after_count = await sync_to_async(ratelimit.incr)(ratelimit._cache(), counter._key(), 0, counter.ttl)
        assert after_count - before_count in (2, -before_count + 2)  # counted twice (or a new window since)
    finally:
        for ws in socks:
            await ws.disconnect()
        loopwrite.close_all()


@pytest.mark.django_db
async def test_hub_count_tells_the_hub_members(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    from game.devtools.bench_echo import websocket_urlpatterns

    app = URLRouter(websocket_urlpatterns)
    counter = WebsocketCommunicator(app, "/ws/bench/hub-count/")
    assert (await counter.connect())[0]

    async def count() -> int:
        await counter.send_to(text_data="?")
        return (await counter.receive_json_from(timeout=5))["members"]

    before = await count()
    socks = [WebsocketCommunicator(app, f"/ws/bench/hub-echo/c{i % 2}/") for i in range(3)]
    for ws in socks:
        assert (await ws.connect())[0]
    assert await count() == before + 3
    for ws in socks:
        await ws.disconnect()
    assert await count() == before
    await counter.disconnect()


def test_loop_lag_counts_how_late_a_10_ms_timer_ran():
    """``lag`` (the capacity benchmark's event-loop probe): a callback that holds the loop for
    60 ms shows as one tick more than 50 ms late; read() resets the counts."""
    import asyncio
    import time

    from game.devtools.bench_echo import LoopLag
    from tests.wsclient import run_sync

    async def scenario() -> tuple[dict, dict]:
        lag = LoopLag()
        assert lag.read()["ticks"] == 0  # starts the probe
        await asyncio.sleep(0.1)
        time.sleep(0.06)  # the loop held, as by a long callback
        await asyncio.sleep(0.05)
        got, again = lag.read(), lag.read()
        lag.task.cancel()
        return got, again

    got, again = run_sync(scenario())  # a loop of its own: Playwright's may be running in this thread
    assert got["ticks"] >= 5 and got["over"]["50"] >= 1 and got["max_ms"] >= 50, got  # (a loaded host may add its own)
    assert got["late_ms"] >= 50
    assert again["over"]["50"] == 0
