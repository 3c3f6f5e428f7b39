"""Scale-out as deployed: Debian's nginx with the repository's configuration (``deploy/nginx.conf``)
in front of two daphne processes on PostgreSQL and Redis.

A game's sockets and pages all reach the one process the hash of the game's id picks, while the
rest of the site is spread over both. That process is killed (SIGKILL) mid-game, an act in flight:
every socket reconnects through nginx and reaches the other process, no act that was
acknowledged is lost, and the game goes on there.

No browser: the sockets are :mod:`tests.wsclient` (the site's page reconnects the same way).
Skipped, naming the package, when nginx is not installed; naming the service when PostgreSQL or
Redis does not answer on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import signal
import uuid
from urllib.parse import urlsplit

import pytest

from tests import nginx
from tests.daphne import free_port
from tests.wsclient import WS, Closed, run_sync

from .conftest import start_server, stop_server
from .faults import throwaway_database
from .live_tools import legal_move, setup_game, stored_log

pytestmark = [
    pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres,
    pytest.mark.skipif(nginx.binary() is None, reason=f"needs nginx (Debian package: {nginx.PACKAGE})"),
]

HOUSES = ("stark", "lannister", "baratheon")


@pytest.fixture
def balanced(tmp_path, postgres_url, redis_url):
    """``(db_url, env, front, {"127.0.0.1:port": process})``: a throwaway PostgreSQL database,
    two daphne processes on it sharing a Redis channel layer, and nginx in front of them at
    ``front`` (``http://127.0.0.1:port``)."""
    with throwaway_database(postgres_url) as db_url:
        yield from _balanced(tmp_path, db_url, redis_url)


def _balanced(tmp_path, db_url, redis_url):
    env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": f"gotweb-e2e-{uuid.uuid4().hex[:8]}",
        "GAME_BOT_DELAY": "none",
        "TRUSTED_PROXIES": "127.0.0.1",
    }
    servers, proxy = {}, None
    try:
        for label in ("a", "b"):
            url, proc = start_server(tmp_path, env, f"daphne-{label}")
            servers[urlsplit(url).netloc] = proc
        port = free_port()
        proxy = nginx.start(tmp_path / "nginx", port, list(servers))
        yield db_url, env, f"http://127.0.0.1:{port}", servers
    finally:
        if proxy is not None:
            nginx.stop(proxy)
        for proc in servers.values():
            if proc.poll() is None:
                stop_server(proc)


def _served_by(front: str, path: str) -> str:
    """The process (``host:port``) nginx passed ``GET path`` to."""
    conn = http.client.HTTPConnection(urlsplit(front).hostname, urlsplit(front).port, timeout=15)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        assert answer.status < 500, (path, answer.status)
        return answer.getheader(nginx.UPSTREAM_HEADER)
    finally:
        conn.close()


def test_a_game_stays_on_one_process_and_moves_whole_when_it_dies(balanced):
    db_url, env, front, servers = balanced
    info = setup_game(env, players=3)
    game, cookies = info["game"], info["cookies"]
    socket_url = front.replace("http://", "ws://") + f"/ws/game/{game}/"

    # the rest of the site goes to either process
    assert {_served_by(front, "/accounts/login/") for _ in range(6)} == set(servers)

    async def connect(who):
        ws = await WS.connect(socket_url, front, cookies.get(who, ""))
        first = await ws.until(lambda m: m["type"] == "state")
        return ws, first

    async def act(ws, house, rid, seen):
        """Send ``house``'s legal act and return its result (``seen`` collects every message)."""
        _, action, version = legal_move(db_url, game, {house}, seed=rid)
        await ws.send_json({"type": "act", "id": rid, "version": version, "action": action})
        return await ws.until(lambda m: seen.append(m) or (m["type"] == "result" and m["id"] == rid))

    async def main():
        socks, firsts = {}, {}
        for who in (*HOUSES, "spectator"):
            socks[who], firsts[who] = await connect(who)
        home = {ws.header(nginx.UPSTREAM_HEADER) for ws in socks.values()}
        assert len(home) == 1 and home <= set(servers), home  # one process holds the whole game
        (home,) = home
        for path in (f"/game/{game}/", f"/game/{game}/replay/index.json", f"/game/{game}/export.json"):
            assert _served_by(front, path) == home, path
        other = next(s for s in servers if s != home)

        seen = {w: [] for w in socks}
        answer = await act(socks["stark"], "stark", 1, seen["stark"])
        assert answer["ok"] is True, answer
        acked = answer["version"]
        for who, ws in socks.items():  # everyone holds it
            if not any(m["type"] == "state" and m["version"] == acked for m in seen[who]):
                await ws.until(lambda m, v=acked: m["type"] == "state" and m["version"] == v)

        # an act in flight when its process dies: acknowledged or not, never half
        _, action, version = legal_move(db_url, game, {"lannister"}, seed=2)
        await socks["lannister"].send_json({"type": "act", "id": 2, "version": version, "action": action})
        servers[home].send_signal(signal.SIGKILL)
        servers[home].wait(10)
        in_flight = None
        for who, ws in socks.items():
            with pytest.raises(Closed):
                while True:
                    m = await ws.recv_json(timeout=15)
                    if who == "lannister" and m["type"] == "result" and m["id"] == 2:
                        in_flight = m

        if in_flight is not None and in_flight["ok"]:
            acked = in_flight["version"]
        stored = len(stored_log(db_url, game))
        assert stored >= acked  # nothing acknowledged is lost

        # every socket comes back through nginx, to the other process, at the stored version
        for who in list(socks):
            socks[who], firsts[who] = await connect(who)
            # nginx names every process it tried: the first socket may find the dead one first
            tried = socks[who].header(nginx.UPSTREAM_HEADER).split(", ")
            assert tried[-1] == other and set(tried) <= {home, other}, (who, tried)
            assert firsts[who]["version"] == stored, who
        assert _served_by(front, f"/game/{game}/") == other

        # and the game goes on there, pushed to everyone
        seen = {w: [] for w in socks}
        awaited = _awaited(db_url, game)
        for rid, house in enumerate((h for h in HOUSES if h in awaited), start=10):
            answer = await act(socks[house], house, rid, seen[house])
            assert answer["ok"] is True, answer
            acked = answer["version"]
        assert acked > stored
        for who, ws in socks.items():
            if not any(m["type"] == "state" and m["version"] == acked for m in seen[who]):
                await ws.until(lambda m: m["type"] == "state" and m["version"] == acked)
            await ws.close()
        return acked

    acked = run_sync(main())
    assert len(stored_log(db_url, game)) == acked


def _awaited(db_url: str, game: int) -> list[str]:
    """The seats the stored game awaits now."""
    from .live_tools import replay

    rules, state, _ = replay(db_url, game)
    return [d.actor for d in rules.pending(state)]
