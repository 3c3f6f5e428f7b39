"""No hidden information in real payloads: a complete game played by bots through the real
service path, every payload each house and a spectator receives recorded and checked against the
true state at that version (face-down orders, bids, deck order, the top wildling card, the random
generator, other houses' decision options)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from .live_helpers import connect, start_game

pytestmark = pytest.mark.django_db(transaction=True)
FORBIDDEN_KEYS = {"placed", "tasks", "rng_n", "seed", "ctx", "log", "flags", "bids"}


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.GAME_BOT_DELAY = None
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _keys(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, path
            yield from _keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v, path)


def _bot_move(game_id: int):
    """The next action a basic bot takes, as ``(actor, JSON)``, or None once the game is over."""
    from game.live import bots, snapshots
    from game.models import Game

    game = Game.objects.get(pk=game_id)
    rules = game.rules
    state = snapshots.state_at(game)
    pending = rules.pending(state)
    if not pending:
        return None
    actor = pending[0].actor
    action = bots.choose(rules, state, actor, "basic", game.version + 11)
    return actor, bots.action_to_json(rules, action), game.version


def _true_state(game_id: int, version: int):
    from game.live import snapshots
    from game.models import Game

    return snapshots.state_at(Game.objects.get(pk=game_id), version)


def check_payload(p: dict, state, viewer) -> None:
    """The hidden parts of ``state`` that ``viewer`` must not find in payload ``p``."""
    text = json.dumps(p)
    view = p["view"]
    for key, path in _keys(view):
        assert not (key in FORBIDDEN_KEYS and path == ""), key
    # other houses' decision options
    for d in p["pending"] + view.get("pending", []):
        if d["actor"] != viewer:
            assert "options" not in d
    # face-down orders: only the viewer's own, never on the board before the reveal
    for house, orders in state.placed.items():
        if house == viewer:
            assert view["my_orders"] == dict(orders)
        for area, _token in orders:
            assert area not in view["orders"] or view["orders"][area]["house"] != house
    if viewer not in state.placed:
        assert "my_orders" not in view
    # bids not yet revealed
    bids = dict(state.ctx.get("bids", ()))
    for house, amount in bids.items():
        if house != viewer:
            assert "revealed_bids" not in view or house not in view["revealed_bids"]
    if viewer in bids:
        assert view["my_bid"] == bids[viewer]
    else:
        assert "my_bid" not in view
    # decks: sizes only; the top wildling card only for the Raven holder who looked
    assert all(isinstance(n, int) for n in view["decks"].values())
    top = state.decks["wildling"][0] if state.decks["wildling"] else None
    if top is not None and view.get("wildling_top") != top:
        assert "wildling_top" not in view
        seen = {e.get("card") for e in view["events"]}
        if top not in seen:
            assert f'"{top}"' not in text
    # the generator
    assert str(state.rng_n) not in {str(v) for k, v in _keys_values(view) if k in ("rng", "rng_n")}
    assert f'"seed": {state.seed}' not in text and str(state.seed) not in text


def _keys_values(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from _keys_values(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys_values(v)


async def test_a_bot_game_leaks_nothing(make_lobby, make_user, monkeypatch):
    from gotweb.asgi import application

    from game.live import apply

    # a fixed game seed: the same whole game (over 50 versions, bids and combats) on every run
    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: 20261123)
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    watcher = await sync_to_async(make_user)("watcher")
    viewers = {h: users[h] for h in users} | {None: watcher}
    socks = {v: (await connect(application, game.pk, u))[0] for v, u in viewers.items()}
    recorded = {v: [] for v in viewers}
    version = 0
    while True:
        move = await sync_to_async(_bot_move)(game.pk)
        if move is None:
            break
        actor, action, at = move
        version = await sync_to_async(apply.act)(game.pk, users[actor], action, at)
        for v, ws in socks.items():
            while True:
                msg = await ws.receive_json_from(timeout=10)
                if msg["type"] == "state":
                    recorded[v].append(msg)
                    if msg["version"] >= version:
                        break
        assert version < 2000
    assert version > 50, version
    checked = 0
    for v, payloads in recorded.items():
        assert [p["version"] for p in payloads] == list(range(1, version + 1))  # every version, in order
        for p in payloads:
            state = await sync_to_async(_true_state)(game.pk, p["version"])
            check_payload(p, state, v)
            checked += 1
    last = recorded[None][-1]
    assert last["status"] == "finished" and last["result"]["winner"]
    assert checked == 4 * version
    for ws in socks.values():
        await ws.disconnect()
