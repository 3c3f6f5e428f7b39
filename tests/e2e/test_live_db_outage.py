"""PostgreSQL out of reach for a few seconds refuses acts with a typed error and loses nothing.

Two daphne processes share Redis and one PostgreSQL database, each through a TCP proxy of the
test's own on loopback (the machine's PostgreSQL server is never stopped: other tests use it).
Every house has a socket on each process (Stark's on A in Chinese), and a spectator too.

1. Both proxies are cut (open connections broken, new ones refused). Acts and a chat line
   through either process are answered ``ok: false`` with ``server.unavailable``, translated;
   ``sync`` is answered with an ``error`` of that code; every socket stays open (``ping``).
2. Process B's proxy is restored: a move through B is accepted at once; A's sockets, which
   cannot read that version yet, stay open and get it when...
3. ...A's proxy is restored: they catch up, and moves through both processes go on, every
   version reaching every socket.

Checked: the action log holds exactly the acts answered ``ok: true`` (none refused is there,
none accepted is missing), no socket is ever closed (a lobby page's socket that asks for its
lobby while the database is away included).
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

import pytest

from tests.wsclient import run_sync

from .faults import Peer, action_count, tcp_proxy, throwaway_database, two_servers, via
from .live_tools import legal_move, lobby_tool, setup_game

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres]


def test_database_out_of_reach(tmp_path, postgres_url, redis_url, migrated_template):
    pg_port = urlsplit(postgres_url).port or 5432
    with throwaway_database(postgres_url, migrated_template) as db_url, tcp_proxy(pg_port) as proxy_a, tcp_proxy(pg_port) as proxy_b:
        env = {"REDIS_URL": redis_url, "REDIS_PREFIX": f"gotweb-dbout-{proxy_a.port}", "GAME_BOT_DELAY": "none"}
        env_a, env_b = {**env, "DATABASE_URL": via(db_url, proxy_a.port)}, {**env, "DATABASE_URL": via(db_url, proxy_b.port)}
        direct = {**env, "DATABASE_URL": db_url}
        setup = lambda: (setup_game(direct, players=3), lobby_tool(direct, "open")["lobby"])  # noqa: E731
        with two_servers(tmp_path, env_a, env_b, setup) as ((a, b), (info, lobby)):
            figures = run_sync(_play(db_url, info, lobby, {"A": a, "B": b}, {"A": proxy_a, "B": proxy_b}))
    print(f"\nPostgreSQL out of reach: {figures}")


async def _play(db_url, info, lobby, servers, proxies) -> dict:
    game, cookies = info["game"], info["cookies"]
    socks: dict[tuple[str, str], Peer] = {}
    for house, cookie in cookies.items():
        for name, url in servers.items():
            lang = "?lang=zh-hans" if (house, name) == ("stark", "A") else ""
            socks[(house, name)] = await Peer.open(f"{house}@{name}", url, f"/ws/game/{game}/{lang}", cookie)
    for name, url in servers.items():
        socks[("spectator", name)] = await Peer.open(f"spectator@{name}", url, f"/ws/game/{game}/")
    lobby_sock = await Peer.open("lobby@A", servers["A"], f"/ws/lobby/{lobby}/")
    for p in socks.values():
        await p.wait(lambda m: m["type"] == "state" and m["version"] == 0)
    await lobby_sock.wait(lambda m: m["type"] == "lobby")

    accepted, refused, turn = 0, [], 0

    async def move(via: str, expect_ok: bool = True, actor_only: str | None = None) -> dict:
        nonlocal accepted, turn
        actor, action, v = legal_move(db_url, game, {actor_only} if actor_only else None, seed=turn)
        turn += 1
        answer = await socks[(actor, via)].request({"type": "act", "version": v, "action": action})
        assert answer["type"] == "result", answer
        if answer["ok"]:
            accepted += 1
        else:
            refused.append((actor, via, answer["error"]))
        assert answer["ok"] is expect_ok, answer
        return answer

    async def everyone_has(version: int, timeout: float = 20) -> None:
        for p in socks.values():
            await p.wait(lambda m, v=version: m["type"] == "state" and m["version"] == v, timeout)

    try:
        for v_via in "AB":
            await everyone_has((await move(v_via))["version"])

        # 1. the database is out of reach for both processes
        for proxy in proxies.values():
            proxy.cut()
        cut_at = time.monotonic()
        for v_via in "ABAB":
            answer = await move(v_via, expect_ok=False)
            assert answer["error"]["code"] == "server.unavailable", answer
        zh = await move("A", expect_ok=False, actor_only="stark")  # Stark's socket on A speaks Chinese
        assert zh["error"]["message"] == "服务器暂时无法连接数据库，请稍后再试。", zh
        en = await move("B", expect_ok=False, actor_only="stark")
        assert en["error"]["message"] == "The server cannot reach its database right now. Try again in a moment.", en
        chat = await socks[("lannister", "B")].request({"type": "chat", "channel": "public", "text": "still there?"})
        assert chat["ok"] is False and chat["error"]["code"] == "server.unavailable", chat
        sync = await socks[("spectator", "A")].request({"type": "sync"})
        assert sync["type"] == "error" and sync["error"]["code"] == "server.unavailable", sync
        for p in socks.values():
            assert (await p.request({"type": "ping"}))["type"] == "pong", p.name
        await lobby_sock.ws.send_json({"type": "sync"})  # a lobby socket cannot read its lobby: no answer
        await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - cut_at)))  # a few seconds away
        assert (await move("B", expect_ok=False))["error"]["code"] == "server.unavailable"
        down_for = time.monotonic() - cut_at

        # 2. back for process B only: B accepts at once, A's sockets wait for their database
        proxies["B"].restore()
        b_back = time.monotonic()
        answer = await move("B")
        b_recovered = time.monotonic() - b_back
        v = answer["version"]
        for (house, name), p in socks.items():
            if name == "B":
                await p.wait(lambda m: m["type"] == "state" and m["version"] == v)
        await asyncio.sleep(1.5)  # A's sockets have heard of v through Redis and failed to read it
        assert all(socks[(h, "A")].version() < v for h in ("stark", "lannister", "baratheon", "spectator"))

        # 3. back for A too: its sockets catch up, and play goes on through both
        proxies["A"].restore()
        a_back = time.monotonic()
        await everyone_has(v)
        a_caught_up = time.monotonic() - a_back
        later = []
        for v_via in "ABAB":
            later.append((await move(v_via))["version"])
            await everyone_has(later[-1])
        assert lobby_sock.closed is None, f"the lobby socket was closed ({lobby_sock.closed})"
        lobby_sock.msgs.clear()
        await lobby_sock.ws.send_json({"type": "sync"})  # still open, and served again
        await lobby_sock.wait(lambda m: m["type"] == "lobby")
    finally:
        for p in [*socks.values(), lobby_sock]:
            await p.close()

    closed = {p.name: p.closed for p in [*socks.values(), lobby_sock] if p.closed is not None}
    assert closed == {}
    logged = action_count(db_url, game)
    assert logged == accepted == later[-1], (logged, accepted)  # every accepted act, and no refused one
    for p in socks.values():
        assert p.versions() == sorted(p.versions()), p.name
        assert set(later) <= set(p.versions()), p.name
    return {
        "acts_accepted": accepted,
        "acts_refused_while_down": len(refused),
        "refused_codes": sorted({e["code"] for _, _, e in refused}),
        "acts_in_log": logged,
        "acts_lost": accepted - logged,
        "refused_acts_written": logged - accepted,
        "sockets_closed": len(closed),
        "database_away_s": round(down_for, 1),
        "first_act_after_restore_s": round(b_recovered, 2),
        "other_process_sockets_caught_up_s": round(a_caught_up, 2),
    }
