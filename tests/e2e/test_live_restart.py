"""A game in progress survives its server: daphne is killed (SIGKILL) and started again; every
accepted action is still there and the players continue where they were."""

from __future__ import annotations

import signal

import pytest

from tests.wsclient import WS, Closed, run_sync

from tests.daphne import free_port

from .conftest import start_server, stop_server
from .live_tools import legal_move, setup_game

pytestmark = pytest.mark.e2e


def test_game_continues_after_sigkill(tmp_path):
    port = free_port()
    db = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env = {"DATABASE_URL": db, "GAME_BOT_DELAY": "none"}
    url, proc = start_server(tmp_path, env, "daphne-restart", port=port)
    info = setup_game({**env, "ALLOWED_HOSTS": "127.0.0.1,localhost"}, players=3)
    game, cookies = info["game"], info["cookies"]
    socket = f"ws://127.0.0.1:{port}/ws/game/{game}/"

    async def connect(house):
        ws = await WS.connect(socket, url, cookies[house])
        state = await ws.until(lambda m: m["type"] == "state")
        return ws, state

    async def act(ws, house, rid):
        actor, action, version = legal_move(db, game, {house}, seed=rid)
        await ws.send_json({"type": "act", "id": rid, "version": version, "action": action})
        return await ws.until(lambda m: m["type"] == "result" and m["id"] == rid)

    async def main():
        nonlocal url, proc
        ws, state = await connect("stark")
        assert state["version"] == 0
        answer = await act(ws, "stark", 1)
        assert answer["ok"] is True, answer
        await ws.until(lambda m: m["type"] == "state" and m["version"] == 1)
        await ws.until(lambda m: m["type"] == "seats" and "stark" not in m["awaited_for"])  # follows that state

        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        with pytest.raises(Closed):
            await ws.recv(timeout=5)
        url, proc = start_server(tmp_path, env, "daphne-restart", port=port)

        socks = {}
        for h in ("stark", "lannister", "baratheon"):
            socks[h], state = await connect(h)
            assert state["version"] == 1  # the accepted action survived
            assert state["view"]["orders_placed"] == ["stark"]
        assert (await act(socks["lannister"], "lannister", 2))["ok"] is True
        assert (await act(socks["baratheon"], "baratheon", 3))["ok"] is True
        for ws in socks.values():
            final = await ws.until(lambda m: m["type"] == "state" and m["version"] == 3)
            assert final["view"]["orders"]  # revealed to everyone
            await ws.close()

    try:
        run_sync(main())
    finally:
        stop_server(proc)
