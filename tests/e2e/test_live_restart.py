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

    async def act(ws, house, rid, seen=None):
        """The act's result; ``seen`` collects every message read meanwhile (the new state may
        come before or after the result)."""
        actor, action, version = legal_move(db, game, {house}, seed=rid)
        await ws.send_json({"type": "act", "id": rid, "version": version, "action": action})
        seen = [] if seen is None else seen
        return await ws.until(lambda m: seen.append(m) or (m["type"] == "result" and m["id"] == rid))

    async def main():
        nonlocal url, proc
        ws, state = await connect("stark")
        assert state["version"] == 0
        seen = []
        answer = await act(ws, "stark", 1, seen)
        assert answer["ok"] is True, answer
        if not any(m["type"] == "state" and m["version"] == 1 for m in seen):
            await ws.until(lambda m: seen.append(m) or (m["type"] == "state" and m["version"] == 1))
        v1 = next(m for m in seen if m["type"] == "state" and m["version"] == 1)
        assert "stark" not in v1["seats"]["awaited_for"]  # the push carries that version's seat status

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
        seen = {h: [] for h in socks}
        assert (await act(socks["lannister"], "lannister", 2, seen["lannister"]))["ok"] is True
        assert (await act(socks["baratheon"], "baratheon", 3, seen["baratheon"]))["ok"] is True
        for h, ws in socks.items():
            final = next((m for m in seen[h] if m["type"] == "state" and m["version"] == 3), None)
            final = final or await ws.until(lambda m: m["type"] == "state" and m["version"] == 3)
            assert final["view"]["orders"]  # revealed to everyone
            await ws.close()

    try:
        run_sync(main())
    finally:
        stop_server(proc)
