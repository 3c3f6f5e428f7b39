"""Pushes between processes outlive the channel layer's group expiry.

channels_redis forgets a group member ``group_expiry`` seconds after its ``group_add`` (86,400 s
by default; games last days). Here two daphne processes share PostgreSQL and Redis with
``CHANNEL_GROUP_EXPIRY=3``; every house has a socket on each process, and a spectator too. For
about 13 s (over four expiry periods) a move is made every second, in turn through process A
and process B: every socket on both processes must receive every version. Then a lobby changes
(a player joins it, from a child process, like an HTTP view's group message): the lobby's sockets
on both processes, opened at the start, must be told, and so must the lobby list's sockets.

A control member joins the game's group once, directly through the channel layer, and never
again: it stops receiving after the expiry, which proves the short expiry is in force (on code
that ignored ``CHANNEL_GROUP_EXPIRY`` it would keep receiving; on code that never re-joined,
the other process's sockets would stop receiving).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from tests.wsclient import run_sync

from .faults import Peer, throwaway_database, two_servers
from .live_tools import legal_move, lobby_tool, setup_game

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres]

EXPIRY = 3  # seconds
RUN_FOR = 13  # seconds of play: over four expiry periods


def test_pushes_flow_after_several_group_expiry_periods(tmp_path, postgres_url, redis_url, migrated_template):
    with throwaway_database(postgres_url, migrated_template) as db_url:
        prefix = f"gotweb-exp-{uuid.uuid4().hex[:8]}"
        env = {
            "DATABASE_URL": db_url,
            "REDIS_URL": redis_url,
            "REDIS_PREFIX": prefix,
            "GAME_BOT_DELAY": "none",
            "CHANNEL_GROUP_EXPIRY": str(EXPIRY),
        }
        setup = lambda: (setup_game(env, players=3), lobby_tool(env, "open")["lobby"])  # noqa: E731
        with two_servers(tmp_path, env, env, setup) as ((a, b), (info, lobby)):
            figures = run_sync(_play(db_url, env, prefix, redis_url, info, lobby, a, b))
    print(f"\ngroup expiry {EXPIRY} s: {figures}")


async def _play(db_url, env, prefix, redis_url, info, lobby, a, b) -> dict:
    from channels_redis.core import RedisChannelLayer

    game, cookies = info["game"], info["cookies"]
    servers = {"A": a, "B": b}
    socks: dict[tuple[str, str], Peer] = {}
    for house, cookie in cookies.items():
        for name, url in servers.items():
            socks[(house, name)] = await Peer.open(f"{house}@{name}", url, f"/ws/game/{game}/", cookie)
    for name, url in servers.items():
        socks[("spectator", name)] = await Peer.open(f"spectator@{name}", url, f"/ws/game/{game}/")
    lobby_socks = [await Peer.open(f"lobby@{n}", u, f"/ws/lobby/{lobby}/") for n, u in servers.items()]
    list_socks = [await Peer.open(f"lobbies@{n}", u, "/ws/lobbies/") for n, u in servers.items()]
    for p in socks.values():
        await p.wait(lambda m: m["type"] == "state" and m["version"] == 0)
    first_lobby = [await p.wait(lambda m: m["type"] == "lobby") for p in lobby_socks]

    # the control: one group_add, never renewed (its own layer keeps channels' default expiry, so
    # its group_add does not shorten the group key's life: only the servers' expiry drops it)
    control = RedisChannelLayer(hosts=[redis_url], prefix=prefix)
    channel = await control.new_channel()
    await control.group_add(f"game-{game}", channel)
    joined = time.time()
    heard: list[tuple[float, int]] = []

    async def listen():
        while True:
            m = await control.receive(channel)
            if m.get("type") == "game.changed":
                heard.append((time.time(), m["version"]))

    listener = asyncio.create_task(listen())

    start, version, turn, lags = time.monotonic(), 0, 0, []
    try:
        while time.monotonic() - start < RUN_FOR:
            via = "AB"[turn % 2]
            actor, action, v = legal_move(db_url, game, seed=turn)
            assert v == version
            t0 = time.monotonic()
            answer = await socks[(actor, via)].request({"type": "act", "version": v, "action": action})
            assert answer["type"] == "result" and answer["ok"] is True, answer
            version = answer["version"]
            for p in socks.values():  # every socket, on both processes, whoever acted
                await p.wait(lambda m, v=version: m["type"] == "state" and m["version"] == v)
            lags.append(time.monotonic() - t0)
            turn += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
        played = time.monotonic() - start

        # a lobby change long after its sockets joined: pushed to both processes' sockets
        joined_version = lobby_tool(env, "join", str(lobby))["version"]
        for p, first in zip(lobby_socks, first_lobby):
            got = await p.wait(lambda m: m["type"] == "lobby" and m["lobby"]["version"] == joined_version)
            assert got["lobby"]["version"] > first["lobby"]["version"]
        for p in list_socks:
            await p.wait(lambda m: m["type"] == "lobbies.changed")
    finally:
        listener.cancel()
        for p in [*socks.values(), *lobby_socks, *list_socks]:
            await p.close()

    # the expiry is in force: the control member heard the first moves, and nothing after it expired
    assert heard and heard[0][0] - joined < EXPIRY
    late = [v for t, v in heard if t - joined > EXPIRY + 2]
    assert late == [], f"a member that never re-joined still hears version {late}: the expiry is not {EXPIRY} s"
    assert played >= 4 * EXPIRY and version >= 4  # moves (about one a second) until past four periods
    for p in socks.values():
        assert p.closed is None
        assert p.versions() == sorted(p.versions()) and set(range(version + 1)) <= set(p.versions()), p.name
    return {
        "played_s": round(played, 1),
        "expiry_periods": round(played / EXPIRY, 1),
        "versions": version,
        "sockets": len(socks),
        "pushes_received": sum(len(p.versions()) - 1 for p in socks.values()),
        "control_heard_until_version": max(v for _, v in heard),
        "act_to_all_sockets_max_s": round(max(lags), 3),
    }
