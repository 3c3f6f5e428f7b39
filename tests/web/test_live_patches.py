"""Pushes as patches: a socket that asks for them (``?patch=1``, as the site's client does) gets
its first state whole and every later push as a ``patch`` from the version it holds, which the
RFC 6902 library turns into exactly the state a whole push would have sent, at a fraction of its
size; a ``sync`` and a socket that did not ask still get whole states; when this process no
longer has the text a socket holds, the push is whole again."""

from __future__ import annotations

import random

import orjson
import pytest
from asgiref.sync import sync_to_async

from game.live import bot_choice, jsontext, patches, payloads, snapshots
from game.models import Game
from game.rules import get_ruleset

from .live_helpers import connect, patched, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(live_settings):
    snapshots.CACHE.clear()
    yield


def _move(game_id: int, seed: int):
    from game.live import apply

    game = Game.objects.get(pk=game_id)
    state = snapshots.state_at(game)
    decision = game.rules.pending(state)[0]
    users = {s.house: s.user for s in game.lobby.seats.select_related("user")}
    action = bot_choice.action_to_json(game.rules, bot_choice.choose(game.rules, state, decision.actor, "basic", seed))
    return apply.act(game_id, users[decision.actor], action)


async def _next(ws) -> dict:
    while True:
        msg = await ws.receive_json_from(timeout=10)
        if msg["type"] in ("state", "patch"):
            return msg


async def test_patches_make_the_same_states_and_are_small(make_lobby, make_user):
    from gotweb.asgi import application

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    stark, first = await connect(application, game.pk, users["stark"], patch=True)
    watcher, seen = await connect(application, game.pk, None, patch=True)
    whole, _ = await connect(application, game.pk, None)  # did not ask
    held = {"stark": first, None: seen}
    sizes = []
    for i in range(12):
        version = await sync_to_async(_move)(game.pk, i)
        for viewer, ws in (("stark", stark), (None, watcher)):
            msg = await _next(ws)
            assert msg["type"] == "patch" and msg["version"] == version
            held[viewer] = patched(held[viewer], msg)
            _, text = await sync_to_async(payloads.payload_text)(game.pk, viewer, "en", version)
            expected = orjson.loads(text)
            assert {k: v for k, v in held[viewer].items() if k != "seats"} == expected
            sizes.append((len(orjson.dumps(msg)), len(text)))
        assert (await _next(whole))["type"] == "state"
    assert sum(p for p, _ in sizes) * 2 < sum(w for _, w in sizes)  # far smaller than whole states
    await stark.send_json_to({"type": "sync"})
    assert (await _next(stark))["type"] == "state"  # a sync is whole
    for ws in (stark, watcher, whole):
        await ws.disconnect()


async def test_without_what_the_socket_holds_the_push_is_whole(make_lobby, monkeypatch):
    from gotweb.asgi import application

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    ws, first = await connect(application, game.pk, users["stark"], patch=True)
    held = first["version"]
    # this process forgot the version the socket holds: its text, its parts and its state
    with payloads.PAYLOADS.lock:
        payloads.PAYLOADS.items.clear()
    with payloads._LATEST_LOCK:
        payloads.LATEST.clear()
    real = snapshots.CACHE.get
    monkeypatch.setattr(snapshots.CACHE, "get", lambda gid, v=None: None if (gid, v) == (game.pk, held) else real(gid, v))
    version = await sync_to_async(_move)(game.pk, 1)
    msg = await _next(ws)
    assert msg["type"] == "state" and msg["version"] == version
    await ws.disconnect()


async def test_a_patch_is_made_once_for_the_viewers_sockets_and_the_shared_view_once_for_all(make_lobby):
    """Two sockets of one seat get the same patch, made once; the part of the view every viewer
    shares is compared once for the seat and the spectators together (the same operations)."""
    from gotweb.asgi import application

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    sockets = [await connect(application, game.pk, users["stark"], patch=True) for _ in range(2)]
    watcher, first = await connect(application, game.pk, None, patch=True)
    version = await sync_to_async(_move)(game.pk, 2)
    got = [await _next(ws) for ws, _ in sockets]
    seen = await _next(watcher)
    assert got[0] == got[1] and got[0]["type"] == "patch" and seen["type"] == "patch"
    made = {k: v[-1][:2] for k, v in patches._LATEST.items() if k[0] == game.pk}
    assert made == {(game.pk, "stark", "en"): (first["version"], version), (game.pk, None, "en"): (first["version"], version)}
    shared_keys = set(payloads.cached_parts(game.pk, "agot2", None, "en", version).shared)
    of_shared = [[op for op in m["ops"] if op["path"].split("/")[1:3][:1] == ["view"] and op["path"].split("/")[2] in shared_keys] for m in (got[0], seen)]
    assert of_shared[0] == of_shared[1] != []
    assert patches._SHARED_OPS[game.pk][:2] == (first["version"], version)
    for ws in [s for s, _ in sockets] + [watcher]:
        await ws.disconnect()


def test_the_diff_applies_with_the_library_and_shifts_windows():
    import jsonpatch

    rules = get_ruleset("agot2")
    rnd = random.Random(5)
    state = rules.new_game(4, 11, {})
    before = orjson.loads(payloads._payload_text(1, "agot2", state, 0, "stark", "en"))
    for v in range(1, 120):
        decision = rules.pending(state)[0]
        state = rules.apply(state, decision.actor, rules.bot_action(state, decision.actor, "basic", rnd.getrandbits(30)))
        after = orjson.loads(payloads._payload_text(1, "agot2", state, v, "stark", "en"))
        ops = patches.diff(before, after)
        assert jsonpatch.apply_patch(before, ops) == after
        assert all(op["op"] in ("add", "remove", "replace") for op in ops)
        before = after


@pytest.mark.parametrize(("ruleset", "players"), [("agot2", 6), ("duke", 2)])
def test_patches_from_parts_turn_each_viewers_payload_into_the_next(ruleset, players):
    """The patch made from two versions' parts (no text parsed; the shared view's operations
    made once for every viewer) turns each viewer's payload into the next one, all game long,
    for a ruleset with a shared view and one without."""
    import jsonpatch

    rules = get_ruleset(ruleset)
    rnd = random.Random(7)
    state = rules.new_game(players, 13, {})
    viewers = [d["actor"] for d in payloads.pending_for(rules, state, None)] if ruleset == "duke" else list(state.houses)
    viewers = sorted(set(viewers), key=str) + [None]

    def of(st, v):
        parts = {x: payloads._parts(900_000, ruleset, st, v, x, "zh-hans") for x in viewers}
        return parts, {x: orjson.loads(payloads._text(p)) for x, p in parts.items()}

    parts, texts = of(state, 0)
    for v in range(1, 160):
        if rules.result(state) is not None:
            break
        decision = rules.pending(state)[0]
        state = rules.apply(state, decision.actor, rules.bot_action(state, decision.actor, "random", rnd.getrandbits(30)))
        new_parts, new_texts = of(state, v)
        for x in viewers:
            ops = orjson.loads(jsontext.dumps(patches._parts_ops(900_000, v - 1, v, parts[x], new_parts[x])))
            before = {k: val for k, val in texts[x].items() if k not in ("type", "version")}
            after = {k: val for k, val in new_texts[x].items() if k not in ("type", "version")}
            assert jsonpatch.apply_patch(before, ops) == after, (v, x)
        parts, texts = new_parts, new_texts
    patches.forget(900_000)
    payloads.forget(900_000)


def test_keys_with_slashes_and_tildes_are_escaped():
    import jsonpatch

    a, b = {"a/b": {"~x": 1}}, {"a/b": {"~x": 2}, "c~/": []}
    ops = patches.diff(a, b)
    assert {"op": "replace", "path": "/a~1b/~0x", "value": 2} in ops
    assert jsonpatch.apply_patch(a, ops) == b
