"""Change of mind through live play: a withdrawal is an act like any other (versioned, in the log,
pushed, replayed), others learn only that the player is no longer ready, a clock gives back the
answer's credit and keeps running, and a withdrawal racing the last submission resolves one way
across connections (PostgreSQL: run by test_live_postgres)."""

from __future__ import annotations

import time

import pytest
from asgiref.sync import sync_to_async

from game.live import apply, seats, snapshots
from game.models import Action, Game

from .live_helpers import connect, legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)
WITHDRAW = {"type": "withdraw"}


@pytest.fixture(autouse=True)
def _setup(live_settings):
    snapshots.CACHE.clear()
    yield


async def _next_state(ws) -> dict:
    while True:
        msg = await ws.receive_json_from(timeout=10)
        if msg["type"] == "state":
            return msg


async def test_withdraw_is_an_act_others_see_only_not_ready(make_lobby, make_user):
    from gotweb.asgi import application

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    stark, _ = await connect(application, game.pk, users["stark"])
    watcher, first = await connect(application, game.pk, None)
    orders = await sync_to_async(legal_json)(game.pk, "stark")
    await stark.send_json_to({"type": "act", "id": 1, "action": orders, "version": 0})
    placed = await _next_state(watcher)
    assert placed["view"]["orders_placed"] == ["stark"]
    await stark.send_json_to({"type": "act", "id": 2, "action": WITHDRAW, "version": 1})
    withdrawn = await _next_state(watcher)
    assert withdrawn["version"] == 2 and withdrawn["view"]["orders_placed"] == []
    assert withdrawn["log"][-1]["text"] == "Stark takes its orders back to change them."
    assert "stark" in {d["actor"] for d in withdrawn["pending"]}
    # nothing of the orders taken back: the spectator's view is the one before Stark placed, but
    # for the version and the log
    strip = lambda p: {k: v for k, v in p["view"].items() if k not in ("events", "events_from", "version")}  # noqa: E731
    assert strip(withdrawn) == strip(first)
    rows = await sync_to_async(lambda: list(Action.objects.filter(game_id=game.pk).order_by("number").values_list("actor", "action")))()
    assert rows == [("stark", orders), ("stark", WITHDRAW)]
    mine = await _next_state(stark)
    while mine["version"] < 2:
        mine = await _next_state(stark)
    assert "my_orders" not in mine["view"] and any(d["actor"] == "stark" and d.get("options") for d in mine["pending"])
    for ws in (stark, watcher):
        await ws.disconnect()


def test_a_withdrawal_gives_back_the_increment_and_the_clock_runs(make_lobby, monkeypatch):
    now = [time.time()]
    monkeypatch.setattr(time, "time", lambda: now[0])
    game, users = start_game(make_lobby, 3, time_control={"kind": "live", "bank": 600, "increment": 30, "max_timeouts": 3})
    now[0] += 100
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    g = Game.objects.get(pk=game.pk)
    assert seats.seat_status(g, now[0])["clocks"]["stark"]["remaining"] == 530.0  # 500 left + 30, stopped
    now[0] += 50  # stopped while Stark is ready
    apply.act(game.pk, users["stark"], WITHDRAW)
    g = Game.objects.get(pk=game.pk)
    clock = seats.seat_status(g, now[0] + 10)["clocks"]["stark"]
    assert clock["running"] and clock["remaining"] == 490.0  # the 500 it had, running again: no increment kept


def test_withdraw_refusals_change_nothing(make_lobby):
    from game.rules import IllegalAction

    game, users = start_game(make_lobby, 3)
    with pytest.raises(IllegalAction) as e:
        apply.act(game.pk, users["stark"], WITHDRAW)
    assert e.value.code == "withdraw.nothing"
    for h in ("stark", "lannister", "baratheon"):
        apply.act(game.pk, users[h], legal_json(game.pk, h))
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(IllegalAction) as e:
        apply.act(game.pk, users["stark"], WITHDRAW)
    assert e.value.code == "withdraw.too_late"
    assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.usefixtures("postgres_only")
def test_withdraw_racing_the_last_submission_resolves_one_way(make_lobby):
    """Many times over: Stark withdraws while Baratheon, the last, places its orders, on two
    connections at once. Either the reveal came first and the withdrawal is refused, or the
    withdrawal came first and the reveal waits for Stark; never both, never a lost order."""
    from .test_live_concurrency import race

    outcomes = set()
    for _ in range(8):
        game, users = start_game(make_lobby, 3)
        for h in ("stark", "lannister"):
            apply.act(game.pk, users[h], legal_json(game.pk, h))
        last = legal_json(game.pk, "baratheon")
        results = race([lambda: apply.act(game.pk, users["stark"], WITHDRAW), lambda: apply.act(game.pk, users["baratheon"], last)])
        snapshots.CACHE.clear()
        g = Game.objects.get(pk=game.pk)
        state = snapshots.state_at(g)
        revealed = any(e["kind"] == "orders_revealed" for e in g.rules.view(state, None)["events"])
        if results[0] == "withdraw.too_late":
            assert revealed and results[1] == 3 and g.version == 3
            outcomes.add("reveal first")
        else:
            assert isinstance(results[0], int) and isinstance(results[1], int), results
            assert not revealed and [d.actor for d in g.rules.pending(state)] == ["stark"]
            outcomes.add("withdrawal first")
        assert Action.objects.filter(game=g).count() == g.version
    assert outcomes  # (which came first is the database's to say)


@pytest.mark.usefixtures("postgres_only")
async def test_withdraw_racing_the_last_submission_over_sockets(make_lobby):
    """The same race through two players' sockets (the optimistic write on the event loop, the
    lock behind it): one of the two orders of events, never a half of each."""
    from gotweb.asgi import application

    for _ in range(4):
        game, users = await sync_to_async(start_game)(make_lobby, 3)
        for h in ("stark", "lannister"):
            await sync_to_async(apply.act)(game.pk, users[h], await sync_to_async(legal_json)(game.pk, h))
        stark, _ = await connect(application, game.pk, users["stark"])
        bar, _ = await connect(application, game.pk, users["baratheon"])
        last = await sync_to_async(legal_json)(game.pk, "baratheon")
        await stark.send_json_to({"type": "act", "id": 1, "action": WITHDRAW})
        await bar.send_json_to({"type": "act", "id": 2, "action": last})
        answers = {}
        for ws, rid in ((stark, 1), (bar, 2)):
            while rid not in answers:
                msg = await ws.receive_json_from(timeout=10)
                if msg["type"] == "result":
                    answers[msg["id"]] = msg
        g = await sync_to_async(Game.objects.get)(pk=game.pk)
        state = await sync_to_async(snapshots.state_at)(g)
        revealed = any(e["kind"] == "orders_revealed" for e in g.rules.view(state, None)["events"])
        assert answers[2]["ok"]
        if answers[1]["ok"]:
            assert not revealed and [d.actor for d in g.rules.pending(state)] == ["stark"]
        else:
            assert answers[1]["error"]["code"] == "withdraw.too_late" and revealed
        for ws in (stark, bar):
            await ws.disconnect()
