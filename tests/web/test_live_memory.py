"""What a process keeps of a game (``game/live/memory.py``): the states of games its sockets watch
stay however many games there are; when the last socket of a game closes, the process forgets
the game at once (states, payloads, the optimistic write's row and seats); a game
nobody watches here keeps its states for a short while only."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from game.live import apply, memory, payloads, rows, snapshots
from game.models import Game

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


def _held(game_id: int) -> dict[str, bool]:
    return {
        "states": game_id in snapshots.CACHE.games(),
        "payloads": any(k[0] == game_id for k in list(payloads.PAYLOADS.items)),
        "rows": game_id in rows._LAST_ROW,
        "seats": any(k[0] == game_id for k in list(rows._SEAT_OF)),
    }


async def test_the_last_socket_of_a_game_takes_its_memory_with_it(application, make_lobby):
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    houses = ["stark", "lannister", "baratheon"]
    socks = {h: (await connect(application, game.pk, users[h]))[0] for h in houses}
    watcher, _ = await connect(application, game.pk, None)
    seen = {id(ws): 0 for ws in [*socks.values(), watcher]}

    async def read(ws) -> dict:
        msg = await ws.receive_json_from(timeout=20)
        if msg.get("type") == "state":
            seen[id(ws)] = max(seen[id(ws)], msg["version"])
        return msg

    for v, h in enumerate(houses):  # every order placed: revealed, events for everyone
        action = await sync_to_async(legal_json)(game.pk, h)
        await socks[h].send_json_to({"type": "act", "id": v, "version": v, "action": action})
        got = await read(socks[h])
        while got.get("type") != "result":
            got = await read(socks[h])
        assert got["ok"], got
    for ws in [*socks.values(), watcher]:  # every socket holds version 3
        while seen[id(ws)] < 3:
            await read(ws)
        await drain(ws)
    assert all(_held(game.pk).values()), _held(game.pk)  # played here: everything is kept
    for ws in socks.values():
        await ws.disconnect()
    assert _held(game.pk)["states"]  # a spectator still watches
    await watcher.disconnect()
    assert not any(_held(game.pk).values()), _held(game.pk)
    # and it comes back from the snapshot and the log when a socket returns
    again, state = await connect(application, game.pk, users["stark"])
    assert state["version"] == 3 and _held(game.pk)["states"]
    await again.disconnect()


def test_held_games_keep_their_states_beyond_the_cache_size():
    cache = snapshots.StateCache(size=2, per_game=2)
    for g in range(10):
        cache.hold(g)
        for v in range(4):
            cache.put(g, v, object())
    assert cache.games() == set(range(10))  # 10 games in play, more than ``size``
    assert all(cache.get(g, 3) is not None and cache.get(g, 2) is not None and cache.get(g, 1) is None for g in range(10))
    assert cache.let_go(0) and cache.get(0, 3) is None
    cache.hold(1)
    assert not cache.let_go(1) and cache.get(1, 3) is not None  # another holder is left


def test_games_nobody_watches_are_bounded_and_short_lived():
    now = [0.0]
    cache = snapshots.StateCache(size=2, per_game=2, ttl=60, clock=lambda: now[0])
    for g in range(3):
        cache.put(g, 0, object())
    assert cache.games() == {1, 2}  # the least recently used went first
    now[0] = 61
    assert cache.games() == set()  # and the others after ``ttl`` seconds unused


def test_a_forgotten_game_acts_again_through_the_locked_path(make_lobby):
    game, users = start_game(make_lobby, 3)
    for v, h in enumerate(["stark", "lannister"]):
        apply.act(game.pk, users[h], legal_json(game.pk, h), v)
    memory.hold(game.pk)
    memory.let_go(game.pk)
    assert not any(_held(game.pk).values())
    assert apply.act(game.pk, users["baratheon"], legal_json(game.pk, "baratheon"), 2) == 3
    assert Game.objects.get(pk=game.pk).version == 3
