"""Redis stopped and started again mid-game loses no act and no socket.

Two daphne processes share PostgreSQL and a redis-server of the test's own (its own port, no
persistence: a restart forgets every group). Every house has a socket on each process, and a
spectator too. Moves are made through both processes; then Redis is killed (SIGKILL), moves are
made while it is away (the database is fine, so they are accepted: each process's own sockets
get them at once, the other process's cannot), Redis is started again, and moves go on.

Checked: no socket is closed at any time (each answers a ``ping`` while Redis is away); every act
answered ``ok: true`` is in the action log, and the log holds nothing else; after Redis is back,
every socket on both processes catches up with the versions it missed (the hub joins its groups
again and sends each socket the current state) and then receives every later version. A lobby's
sockets and the lobby list's, on both processes, stay open too and hear of a change made after
the restart.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.wsclient import run_sync

from .faults import Peer, action_count, redis_server, throwaway_database, two_servers
from .live_tools import legal_move, lobby_tool, setup_game

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


def test_redis_restart_mid_game(tmp_path, postgres_url, migrated_template):
    with throwaway_database(postgres_url, migrated_template) as db_url, redis_server(tmp_path) as redis:
        env = {"DATABASE_URL": db_url, "REDIS_URL": redis.url, "REDIS_PREFIX": "gotweb-restart", "GAME_BOT_DELAY": "none"}
        setup = lambda: (setup_game(env, players=3), lobby_tool(env, "open")["lobby"])  # noqa: E731
        with two_servers(tmp_path, env, env, setup) as ((a, b), (info, lobby)):
            figures = run_sync(_play(db_url, env, redis, info, lobby, {"A": a, "B": b}))
    print(f"\nRedis restart: {figures}")


async def _play(db_url, env, redis, info, lobby, servers) -> dict:
    game, cookies = info["game"], info["cookies"]
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
    for p in lobby_socks:
        await p.wait(lambda m: m["type"] == "lobby")

    accepted, turn = 0, 0

    async def move(via: str) -> int:
        """One legal move sent through process ``via``; returns the new version."""
        nonlocal accepted, turn
        actor, action, v = legal_move(db_url, game, seed=turn)
        turn += 1
        answer = await socks[(actor, via)].request({"type": "act", "version": v, "action": action})
        assert answer["type"] == "result" and answer["ok"] is True, answer
        accepted += 1
        return answer["version"]

    async def everyone_has(version: int, timeout: float = 20) -> None:
        for p in socks.values():
            await p.wait(lambda m, v=version: m["type"] == "state" and m["version"] == v, timeout)

    try:
        for via in "ABAB":
            await everyone_has(await move(via))
        before = accepted

        redis.kill()
        down_at = time.monotonic()
        while_down = []
        for via in "ABA":  # accepted: the database is fine; the local sockets get them at once
            v = await move(via)
            while_down.append(v)
            for (house, name), p in socks.items():
                if name == via:
                    await p.wait(lambda m, v=v: m["type"] == "state" and m["version"] == v)
        for p in socks.values():  # every socket still open and answering
            assert (await p.request({"type": "ping"}))["type"] == "pong", p.name
        missed = {p.name: while_down[-1] - p.version() for p in socks.values()}
        await asyncio.sleep(max(0.0, 1.5 - (time.monotonic() - down_at)))

        redis.start()
        up_at = time.monotonic()
        await everyone_has(while_down[-1])  # the resync after the hub joined its groups again
        recovered = time.monotonic() - up_at

        after = []
        for via in "BABAB":
            v = await move(via)
            after.append(v)
            await everyone_has(v)

        # the lobby sockets too: still open, and their groups joined again
        told = [sum(m["type"] == "lobbies.changed" for m in p.msgs) for p in list_socks]
        joined_version = lobby_tool(env, "join", str(lobby))["version"]
        for p in lobby_socks:
            await p.wait(lambda m: m["type"] == "lobby" and m["lobby"]["version"] == joined_version)
        for p, n in zip(list_socks, told):
            await p.wait(lambda m, p=p, n=n: sum(x["type"] == "lobbies.changed" for x in p.msgs) > n)
    finally:
        for p in [*socks.values(), *lobby_socks, *list_socks]:
            await p.close()

    closed = {p.name: p.closed for p in [*socks.values(), *lobby_socks, *list_socks] if p.closed is not None}
    assert closed == {}
    logged = action_count(db_url, game)
    assert logged == accepted == after[-1], (logged, accepted)  # nothing accepted is lost, nothing else written
    for p in socks.values():
        assert p.versions() == sorted(p.versions()), p.name
        assert set(after) <= set(p.versions()), p.name  # every later version, on both processes
    return {
        "acts_accepted": accepted,
        "acts_while_redis_down": len(while_down),
        "acts_in_log": logged,
        "acts_lost": accepted - logged,
        "sockets": len(socks),
        "sockets_closed": len(closed),
        "versions_missed_by_other_process_while_down": max(missed.values()),
        "redis_down_s": round(up_at - down_at, 1),
        "recovery_s": round(recovered, 2),
        "acts_before": before,
    }
