"""A reconnect storm from one address is refused before it costs anything: past a burst, new
sockets from that address are accepted and closed at once with 4431 (which the browser's client
backs off from), without reading the database or counting in the cache; other addresses connect
as before. Before: 76 connects a second from one address raised another player's ``sync`` round
trip from 5.6 to 74.5 ms median, with no limit at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from game.live import ratelimit

from .live_helpers import ORIGIN, refusal, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _limit(settings):
    settings.LIVE_CONNECT_RATE, settings.LIVE_CONNECT_BURST = 1e-6, 5  # no refill within a test
    settings.BEHIND_HTTPS_PROXY = True
    ratelimit._CONNECTS.clear()
    yield
    ratelimit._CONNECTS.clear()


def _from(ip: str) -> list:
    return [ORIGIN, (b"x-forwarded-for", ip.encode())]


async def test_a_storm_from_one_address_is_refused_with_4431_and_others_connect(application, make_lobby, monkeypatch):
    from asgiref.sync import sync_to_async

    from game.live import consumer

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    path = f"/ws/game/{game.pk}/"
    admitted = []
    real = consumer._admission

    async def counting(*args):
        admitted.append(args[0])
        return await real(*args)

    monkeypatch.setattr(consumer, "_admission", counting)
    open_ = []
    for _ in range(5):
        ws = WebsocketCommunicator(application, path, headers=_from("203.0.113.9"))
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        open_.append(ws)
    assert len(admitted) == 5
    for _ in range(10):
        assert await refusal(application, path, headers=_from("203.0.113.9")) == ratelimit.CLOSE_TOO_FAST
    assert len(admitted) == 5  # refused before the database was read
    ws = WebsocketCommunicator(application, path, headers=_from("203.0.113.10"))
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    await ws.disconnect()
    for ws in open_:
        await ws.disconnect()


def test_the_bucket_refills_with_time(settings):
    settings.LIVE_CONNECT_RATE, settings.LIVE_CONNECT_BURST = 2, 3
    now = [100.0]
    clock = lambda: now[0]  # noqa: E731
    assert [ratelimit.connect_allowed("198.51.100.1", clock) for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one more token
    assert ratelimit.connect_allowed("198.51.100.1", clock) is True
    assert ratelimit.connect_allowed("198.51.100.1", clock) is False


def test_no_limit_when_switched_off(settings):
    settings.LIVE_CONNECT_RATE = None
    assert all(ratelimit.connect_allowed("198.51.100.2") for _ in range(1000))


def test_the_browser_backs_off_from_4431():
    """static/js/live.js: 4431 is not final, and the next try waits at least five seconds,
    doubling to a minute (a reconnect loop would otherwise retry every half second)."""
    js = (ROOT / "static" / "js" / "live.js").read_text("utf-8")
    assert "export const TOO_FAST = 4431;" in js
    assert re.search(r"FINAL = \[4403, 4404, 4429\]", js)
    assert "Math.min(Math.max(slow * 2, 5000), 60000)" in js
