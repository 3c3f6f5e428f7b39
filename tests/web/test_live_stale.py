"""Stale versions: an ``act`` naming an older ``version`` is judged in constant
time, never by rebuilding the state it names under the game row's lock, and simultaneous
submissions made at one version still all count (``docs/protocol.md``, "Stale versions").

The cost is counted, not timed: the calls of the ruleset's ``apply`` during one act, with every
cache of states and payloads emptied first and a snapshot at the game's current version (so
loading the current state needs no replay at all). Before the fix a stale act replayed the game
from its start (its snapshot being newer than the stale version): as many ``apply`` calls as the
version named.
"""

from __future__ import annotations

import random

import pytest

from game.live import apply, bot_choice, bots, moves, payloads, rows, snapshots
from game.models import Action, Game
from game.rules.agot.legal import random_action

from .live_helpers import start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.GAME_BOT_DELAY = None
    settings.GAME_SNAPSHOT_EVERY = 1  # a snapshot at every version: the current state costs no replay
    _forget()
    yield
    bots.wait_for_bots()


def _forget() -> None:
    """Every per-process copy of states and payloads dropped: what another process, or this one
    after its caches moved on, would hold."""
    snapshots.CACHE.clear()
    payloads.PAYLOADS.items.clear()
    rows._LAST_ROW.clear()


def _state(game_id: int):
    game = Game.objects.get(pk=game_id)
    return game, game.rules, snapshots.state_at(game)


def _action(game_id: int, actor: str, seed: int) -> dict:
    game, rules, state = _state(game_id)
    decision = next(d for d in rules.pending(state) if d.actor == actor)
    return bot_choice.action_to_json(rules, random_action(state, decision, random.Random(seed)))


def _play_to_orders(game_id: int, users: dict, at_least: int) -> int:
    """Legal random actions (the first awaited seat's) until the game, at version ``at_least`` or
    later, awaits every seat's orders at once; returns that version."""
    for _ in range(1500):
        game, rules, state = _state(game_id)
        assert rules.result(state) is None, "the game ended before the position was reached"
        pending = rules.pending(state)
        if game.version >= at_least and len(pending) == len(users) and all(d.kind == "place_orders" for d in pending):
            return game.version
        actor = pending[0].actor
        apply.act(game_id, users[actor], _action(game_id, actor, game.version), game.version)
    raise AssertionError("no planning phase reached")


@pytest.fixture
def count_applies(monkeypatch):
    """``count_applies(fn)`` -> ``(what fn returned or raised, calls of the ruleset's apply)``."""
    from game.rules import get_ruleset

    rules = get_ruleset("agot2")
    real = rules.apply
    calls = []

    def spy(state, actor, action):
        calls.append(actor)
        return real(state, actor, action)

    def run(fn):
        calls.clear()
        monkeypatch.setattr(rules, "apply", spy)
        try:
            try:
                out = fn()
            except Exception as exc:  # noqa: BLE001 - handed back to the test to assert on
                out = exc
        finally:
            monkeypatch.setattr(rules, "apply", real)
        return out, len(calls)

    return run


def test_a_stale_act_costs_the_same_on_a_short_and_a_long_game(make_lobby, count_applies):
    """At the orders of an early round and of a much later one: the second seat's orders, sent
    with the version before the first seat's (its decision unchanged), are accepted with one
    ``apply`` (their own); once all are in, an act naming that version is refused with none.
    Before: the accepted act cost version + 1 calls and the refused one version calls."""
    game, users = start_game(make_lobby, 3)
    seen = []
    for at_least in (10, 100):
        w = _play_to_orders(game.pk, users, at_least)
        first, second, third = sorted(users)
        apply.act(game.pk, users[first], _action(game.pk, first, 1), w)
        order = _action(game.pk, second, 2)
        _forget()
        v, accepted = count_applies(lambda: apply.act(game.pk, users[second], order, w))
        assert v == w + 2
        apply.act(game.pk, users[third], _action(game.pk, third, 3), w)  # the reveal: decisions change
        game.refresh_from_db()
        late = next(d.actor for d in game.rules.pending(snapshots.state_at(game)))
        late_action = _action(game.pk, late, 4)
        _forget()
        exc, refused = count_applies(lambda: apply.act(game.pk, users[late], late_action, w))
        assert isinstance(exc, moves.StaleVersion), exc
        assert Game.objects.get(pk=game.pk).version == w + 3  # nothing written
        seen.append((w, accepted, refused))
    (w1, a1, r1), (w2, a2, r2) = seen
    assert w2 >= 100 and w2 >= 2 * w1  # two games' lengths far apart ...
    assert (a1, r1) == (a2, r2) == (1, 0), seen  # ... and the same, constant cost


@pytest.mark.parametrize("cached", [False, True], ids=["no-state-held", "this-process-wrote-last"])
def test_orders_sent_at_one_version_all_count(make_lobby, settings, cached):
    """Simultaneous submissions: every seat decides at version ``w`` on the same orders
    decision (round 2's, so every seat has acted before); the second is accepted at ``w + 1`` and
    the third at ``w + 2``, and the last one reveals them all at once. Either with no state of
    the game held by this process (the locked path), or with this process having written the
    game last (on PostgreSQL the optimistic write, which judges the version the same way)."""
    settings.GAME_SNAPSHOT_EVERY = 20
    game, users = start_game(make_lobby, 3)
    w = _play_to_orders(game.pk, users, 1)
    houses = sorted(users)
    sent = {h: _action(game.pk, h, i) for i, h in enumerate(houses)}  # all decided at version w
    for i, h in enumerate(houses):
        if not cached:
            _forget()
        assert apply.act(game.pk, users[h], sent[h], w) == w + 1 + i
    assert list(Action.objects.filter(game=game, number__gt=w).values_list("actor", flat=True)) == houses
    game, rules, state = _state(game.pk)
    assert not any(d.kind == "place_orders" for d in rules.pending(state))  # revealed by the third
    # each seat's decisions changed when it placed its orders (and again at the reveal if it now decides)
    assert all(w + 1 + i <= game.decisions_since[h] <= w + 3 for i, h in enumerate(houses)), game.decisions_since


@pytest.mark.parametrize("cached", [False, True], ids=["no-state-held", "this-process-wrote-last"])
def test_a_decision_changed_since_the_version_is_stale(make_lobby, settings, cached):
    """A seat that has acted since ``w`` answers a changed decision: its older ``version`` is
    refused (and nothing written); another seat whose decision is unchanged is accepted."""
    settings.GAME_SNAPSHOT_EVERY = 20
    game, users = start_game(make_lobby, 3)
    w = _play_to_orders(game.pk, users, 1)
    first, second, third = sorted(users)
    apply.act(game.pk, users[first], _action(game.pk, first, 1), w)
    apply.act(game.pk, users[second], _action(game.pk, second, 2), w)
    game.refresh_from_db()
    assert game.decisions_since[first] == w + 1 and game.decisions_since[second] == w + 2
    assert game.decisions_since.get(third, 0) <= w
    if not cached:
        _forget()
    # the first seat has no orders decision any more; answering version w again is stale
    with pytest.raises(moves.StaleVersion):
        apply.act(game.pk, users[first], {"type": "place_orders", "orders": {}}, w)
    assert Game.objects.get(pk=game.pk).version == w + 2
    assert apply.act(game.pk, users[third], _action(game.pk, third, 3), w) == w + 3


@pytest.mark.parametrize("version", [-1, -(2**70), 2**70, "3", 1.5, True, None, [0], {"v": 0}])
def test_hostile_versions_are_refused_or_ignored_and_write_nothing(make_lobby, version):
    """``apply.act``'s ``version`` as any JSON value: anything but an integer within the window
    is refused with ``version.stale`` (None means no check); no 500, nothing written."""
    game, users = start_game(make_lobby, 3)
    actor = sorted(users)[0]
    apply.act(game.pk, users[actor], _action(game.pk, actor, 1), 0)
    other = sorted(users)[1]
    action = _action(game.pk, other, 2)
    if version is None:
        assert apply.act(game.pk, users[other], action, version) == 2
        return
    with pytest.raises(moves.StaleVersion) as e:
        apply.act(game.pk, users[other], action, version)
    assert e.value.code == "version.stale"
    assert Game.objects.get(pk=game.pk).version == 1 and Action.objects.filter(game=game).count() == 1


def test_a_game_without_the_record_refuses_behind_versions_until_its_next_action(make_lobby):
    """A game that was running before ``decisions_since`` existed (NULL, as the migration
    leaves it) cannot judge an older version cheaply: refused, then known again after one act."""
    game, users = start_game(make_lobby, 3)
    houses = sorted(users)
    apply.act(game.pk, users[houses[0]], _action(game.pk, houses[0], 1), 0)
    Game.objects.filter(pk=game.pk).update(decisions_since=None)
    _forget()
    with pytest.raises(moves.StaleVersion):
        apply.act(game.pk, users[houses[1]], _action(game.pk, houses[1], 2), 0)
    assert apply.act(game.pk, users[houses[1]], _action(game.pk, houses[1], 2), 1) == 2  # the current one works
    game.refresh_from_db()
    assert game.decisions_since is not None
    assert apply.act(game.pk, users[houses[2]], _action(game.pk, houses[2], 3), 2) == 3


def test_an_old_pushed_version_is_not_rebuilt(make_lobby, count_applies):
    """``payload_text`` asked for an older version this process does not hold (a late group
    message) serves the latest state from its snapshot instead of replaying the log."""
    game, users = start_game(make_lobby, 3)
    w = _play_to_orders(game.pk, users, 30)
    _forget()
    got, calls = count_applies(lambda: payloads.payload_text(game.pk, "stark", "en", w - 20))
    assert got[0] == w and '"version":%d' % w in got[1]
    assert calls == 0


async def test_stale_and_hostile_versions_through_the_socket(application, live_settings, make_lobby, monkeypatch):
    """Through the real consumer, on a game some rounds in with no state held by this process:
    every behind, negative, huge or mistyped ``version`` gets a ``result`` refusal
    (``version.stale``, followed by the latest ``state``; ``message.malformed`` for a non-integer),
    the socket stays open, nothing is written, and no state is rebuilt (no ``apply`` at all)."""
    from asgiref.sync import sync_to_async

    from game.rules import get_ruleset

    from .live_helpers import connect, drain

    live_settings.GAME_SNAPSHOT_EVERY = 1
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    w = await sync_to_async(_play_to_orders)(game.pk, users, 30)
    first = sorted(users)[0]
    await sync_to_async(apply.act)(game.pk, users[first], await sync_to_async(_action)(game.pk, first, 1), w)
    ws, state = await connect(application, game.pk, users[first])
    assert state["version"] == w + 1
    _forget()
    rules, calls = get_ruleset("agot2"), []
    real = rules.apply
    monkeypatch.setattr(rules, "apply", lambda *a: calls.append(a[1]) or real(*a))
    cases = [(w, "version.stale"), (w - 20, "version.stale"), (-1, "version.stale"), (2**70, "version.stale"),
             (-(10**30), "version.stale"), (1.5, "message.malformed"), (True, "message.malformed"),
             ("3", "message.malformed"), ([w], "message.malformed")]
    for i, (version, code) in enumerate(cases):
        await ws.send_json_to({"type": "act", "id": i, "version": version, "action": {"type": "place_orders", "orders": {}}})
        msgs = await drain(ws)
        assert msgs[0] == {"type": "result", "id": i, "ok": False, "error": msgs[0]["error"]} and msgs[0]["error"]["code"] == code, msgs
        if code == "version.stale":
            assert [m["version"] for m in msgs[1:]] == [w + 1] and msgs[1]["type"] == "state"  # the resync
        assert calls == [], (version, len(calls))
    await ws.send_json_to({"type": "ping", "id": "still-open"})
    assert await ws.receive_json_from(timeout=10) == {"type": "pong", "id": "still-open"}
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).version)() == w + 1
    await ws.disconnect()
