"""Time control in live play: clocks stored on the game row, deadlines fired by the
scheduler (game/live/scheduler.py) with nobody connected, the stand-in taking a seat whose time ran
out, N time-outs, take-back, vacation, and hostile input through the socket and the lobby form.

Time is driven by the test: the scheduler is called with ``now`` in the future, and the services'
clock (``time.time``) is set by ``clock`` where a pause must be measured exactly. The exactly-once
claim across concurrent connections runs on PostgreSQL (test_scheduler_postgres.py runs this file
there too)."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection, connections

from game.live import apply, bot_choice, bots, notes, scheduler, seats, snapshots, stand_ins
from game.models import Action, Game, Lobby
from game.rules import IllegalAction

from .live_helpers import connect, start_game

pytestmark = pytest.mark.django_db(transaction=True)

LIVE = {"kind": "live", "bank": 60, "increment": 5, "max_timeouts": 2}


@pytest.fixture(autouse=True)
def _setup(live_settings):
    live_settings.GAME_AWAY_AFTER = 0
    live_settings.GAME_BOT_RESCUE = 15
    snapshots.CACHE.clear()
    yield
    bots.wait_for_bots()


def duke(make_lobby, tc=LIVE):
    """A started Duke game of two people with time control ``tc``: ``(game, users, first seat)``."""
    game, users = start_game(make_lobby, 2, ruleset="duke", time_control=tc)
    first = next(iter(Game.objects.get(pk=game.pk).awaited_since))
    return game, users, first


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def logged_notes(game) -> list[tuple[int, str, str]]:
    """``[(number, type, seat)]`` of the site's notes in the game's log (actor ``""``)."""
    rows = Action.objects.filter(game=game, actor="").order_by("number").values_list("number", "action")
    return [(n, a["type"], a["seat"]) for n, a in rows]


def test_a_new_game_has_running_clocks_and_a_stored_deadline(make_lobby, clock):
    game, users = start_game(make_lobby, 3, time_control=LIVE)
    g = fresh(game)
    assert g.time_control == LIVE
    assert set(g.clocks) == {"stark", "lannister", "baratheon"}
    status = seats.seat_status(g, clock.t + 10)
    # placing orders is simultaneous: every seat's clock runs
    assert {s: c["running"] for s, c in status["clocks"].items()} == dict.fromkeys(g.clocks, True)
    assert {c["remaining"] for c in status["clocks"].values()} == {50.0}
    assert abs(g.deadline.timestamp() - (clock.t + 60)) < 0.01
    assert status["time_control"] == LIVE and abs(status["deadline"] - (clock.t + 60)) < 0.01


def test_untimed_games_keep_no_clock(make_lobby):
    game, _ = start_game(make_lobby, 3)
    g = fresh(game)
    assert g.clocks == {} and g.deadline is None and seats.seat_status(g)["clocks"] == {}


def test_timeout_hands_the_seat_to_the_stand_in_at_once_and_everyone_is_told(make_lobby, clock):
    """The time-out is a versioned note of the game's log: pushed as the next version's ``state``
    (its seat status inside, its line in the log), kept after a reconnect, fired once."""
    from asgiref.sync import async_to_sync

    from gotweb.asgi import application

    game, users, first = duke(make_lobby)
    other = "dark" if first == "light" else "light"
    house = fresh(game).rules.seat_names()[first]["en"]
    line = f"The stand-in plays for {house}: {house}'s time ran out."

    async def scenario():
        ws, _ = await connect(application, game.pk, users[other])
        from asgiref.sync import sync_to_async

        assert await sync_to_async(scheduler.run_once)(clock.t + 59) == 0  # not yet
        fired = await sync_to_async(scheduler.run_once)(clock.t + 60.5)
        assert fired == 1
        msg = await ws.receive_json_from(timeout=5)
        assert msg["type"] == "state" and msg["version"] == 1
        assert msg["log"][-1]["text"] == line and msg["log"][-1]["note"] is True
        assert msg["pending"] == [{"actor": first, "kind": "setup", "simultaneous": False}]  # the rules did not move
        seats_now = msg["seats"]
        assert seats_now["stand_ins"] == {first: "basic"}
        assert seats_now["clocks"][first] == {"remaining": 0.0, "running": False, "timeouts": 1, "vacation": 0.0, "on_vacation": False}
        await ws.disconnect()
        again, first_state = await connect(application, game.pk, users[first])  # a reload still tells it
        assert first_state["version"] == 1 and first_state["log"][-1]["text"] == line
        await again.disconnect()

    async_to_sync(scenario)()
    assert logged_notes(game) == [(1, "timeout", first)]
    assert Action.objects.get(game=game, number=1).user is None
    assert scheduler.run_once(clock.t + 61) == 0  # fired once: the deadline moved on
    assert logged_notes(game) == [(1, "timeout", first)]


def test_chinese_notice(make_lobby):
    text = notes.text("agot2", {"type": "timeout", "seat": "stark"}, "zh-hans")
    assert text == "轮到替补机器人为史塔克行动：史塔克的时间用完了。"


def test_the_stand_in_moves_then_gives_the_seat_back_until_n_timeouts(make_lobby, clock):
    game, users, first = duke(make_lobby)  # max_timeouts 2
    scheduler.fire_game(game.pk, clock.t + 61)
    clock.t += 61
    assert apply.bot_act(game.pk) == 2  # the stand-in's move for the timed-out seat, after the note
    g = fresh(game)
    assert g.stand_ins == {} and g.clocks[first]["timeouts"] == 1  # given back after one move
    assert Action.objects.get(game=game, number=2).user is None and Action.objects.get(game=game, number=2).actor == first
    # the other seat plays; the first seat's bank is empty: it has the increment alone
    other = next(iter(g.awaited_since))
    assert other != first
    g = fresh(game)
    apply.act(game.pk, users[other], snapshots.state_at(g) and _any_legal(g, other))
    g = fresh(game)
    assert seats.seat_status(g, clock.t)["clocks"][first] == {"remaining": 5.0, "running": True, "timeouts": 1, "vacation": 0.0, "on_vacation": False}
    assert scheduler.fire_game(game.pk, clock.t + 5.1) == [(first, "timeout")]
    g = fresh(game)
    assert g.stand_ins == {first: "basic"} and g.clocks[first]["auto"] is False  # 2 time-outs: it stays
    clock.t += 6
    while first in fresh(game).awaited_since:  # its turn (a move, then maybe a placement)
        apply.bot_act(game.pk)
    g = fresh(game)
    assert g.version >= 3 and g.stand_ins == {first: "basic"}
    # the game never waits for it: the next time it is awaited the bot is, with a rescue deadline
    apply.act(game.pk, users[other], _any_legal(g, other))
    while first not in fresh(game).awaited_since:
        g = fresh(game)
        apply.act(game.pk, users[other], _any_legal(g, other))
    g = fresh(game)
    assert first in g.awaited_since and not seats.seat_status(g, clock.t)["clocks"][first]["running"]
    assert abs(g.deadline.timestamp() - (clock.t + 15)) < 0.01


def _any_legal(g: Game, seat: str) -> dict:
    state = snapshots.state_at(g)
    return bot_choice.action_to_json(g.rules, bot_choice.choose(g.rules, state, seat, "random", 7))


def test_take_back_finds_the_clock_as_it_was(make_lobby, clock, live_settings):
    live_settings.GAME_BOT_RESCUE = 10**6  # the stand-in does not move: the clock is only paused
    game, users, first = duke(make_lobby)
    other = "dark" if first == "light" else "light"
    clock.t += 20
    stand_ins.hand_to_bot(game.pk, users[other], first)  # after GAME_AWAY_AFTER (0 here)
    g = fresh(game)
    assert seats.seat_status(g, clock.t)["clocks"][first]["remaining"] == 40.0
    clock.t += 500  # the stand-in holds the seat (no bot moves: GAME_BOT_DELAY is off)
    assert scheduler.run_once(clock.t) == 0  # no timeout while the stand-in plays
    assert seats.seat_status(fresh(game), clock.t)["clocks"][first] == {"remaining": 40.0, "running": False, "timeouts": 0, "vacation": 0.0, "on_vacation": False}
    stand_ins.take_back(game.pk, users[first])
    g = fresh(game)
    assert seats.seat_status(g, clock.t)["clocks"][first]["running"] is True
    assert seats.seat_status(g, clock.t + 10)["clocks"][first]["remaining"] == 30.0
    assert abs(g.deadline.timestamp() - (clock.t + 40)) < 0.01


def test_a_deadline_passed_while_down_fires_on_start(make_lobby, clock):
    game, users, first = duke(make_lobby)
    clock.t += 3600  # the site was down for an hour: the deadline stored on the row is long past

    class OnePass(threading.Event):
        def wait(self, timeout=None):  # the loop's pause after its first pass ends it
            self.set()
            return True

    scheduler.loop(OnePass(), 0.01)  # what the server's thread does on start
    assert logged_notes(game) == [(1, "timeout", first)]
    assert fresh(game).stand_ins == {first: "basic"}


def test_correspondence_vacation_through_the_socket(make_lobby, clock):
    from asgiref.sync import async_to_sync, sync_to_async
    from gotweb.asgi import application

    tc = {"kind": "deadline", "per_move": 100, "vacation": 50, "max_timeouts": 3}
    game, users, first = duke(make_lobby, tc)
    other = "dark" if first == "light" else "light"

    async def scenario():
        ws, _ = await connect(application, game.pk, users[first])
        for bad in ("yes", 1, None, [True], {"x": 1}):
            await ws.send_json_to({"type": "vacation", "id": 1, "on": bad})
            r = await ws.receive_json_from(timeout=5)
            assert r["ok"] is False and r["error"]["code"] == "vacation.bad_value", r
        await ws.send_json_to({"type": "vacation", "id": 2, "on": True})
        got = [await ws.receive_json_from(timeout=5) for _ in range(2)]
        pushed = next(m for m in got if m["type"] == "state")
        assert next(m for m in got if m["type"] == "result")["ok"] is True
        assert pushed["version"] == 1 and pushed["log"][-1]["note"] is True and "vacation" in pushed["log"][-1]["text"]
        assert pushed["seats"]["clocks"][first]["on_vacation"] is True
        await ws.disconnect()
        spectator_ws, _ = await connect(application, game.pk, None)
        await spectator_ws.send_json_to({"type": "vacation", "id": 3, "on": True})
        r = await spectator_ws.receive_json_from(timeout=5)
        assert r["error"]["code"] == "vacation.not_a_player"
        await spectator_ws.disconnect()
        assert await sync_to_async(scheduler.run_once)(clock.t + 49) == 0  # the deadline is paused

    async_to_sync(scenario)()
    # the allowance (50 s) is used up at +50: the deadline runs again, paused, not restarted
    assert scheduler.fire_game(game.pk, clock.t + 50) == [(first, "vacation_over")]
    g = fresh(game)
    assert abs(g.deadline.timestamp() - (clock.t + 50 + 100)) < 0.01
    assert scheduler.fire_game(game.pk, clock.t + 150) == [(first, "timeout")]
    with pytest.raises(IllegalAction) as e:
        stand_ins.set_vacation(game.pk, users[first], True)
    assert e.value.code == "vacation.none_left"
    assert [(kind, seat) for _, kind, seat in logged_notes(game)] == [("vacation_on", first), ("vacation_over", first), ("timeout", first)]


def test_vacation_toggles_cannot_flood_the_log(make_lobby, clock):
    """Each start and end of a vacation is a line of the game's log: a player toggling it in a
    loop gets ``vacation.too_soon`` until ``GAME_VACATION_REST`` (60 s) after the last end, and
    the log holds two notes, not hundreds."""
    tc = {"kind": "deadline", "per_move": 1000, "vacation": 5000, "max_timeouts": 3}
    game, users, first = duke(make_lobby, tc)
    refused = 0
    for i in range(40):
        try:
            stand_ins.set_vacation(game.pk, users[first], i % 2 == 0)
        except IllegalAction as e:
            assert e.code == "vacation.too_soon"
            assert 1 <= e.params["wait"] <= 60
            refused += 1
        clock.t += 0.5
    assert refused == 19 and [k for _, k, _ in logged_notes(game)] == ["vacation_on", "vacation_off"]
    clock.t += 60
    stand_ins.set_vacation(game.pk, users[first], True)
    assert [k for _, k, _ in logged_notes(game)] == ["vacation_on", "vacation_off", "vacation_on"]


def test_vacation_refused_in_a_live_game(make_lobby):
    game, users, first = duke(make_lobby)
    before = fresh(game).clocks
    with pytest.raises(IllegalAction) as e:
        stand_ins.set_vacation(game.pk, users[first], True)
    assert e.value.code == "vacation.not_allowed" and fresh(game).clocks == before


def test_lobby_form_offers_time_controls_and_refuses_hostile_ones(client, make_user):
    user = make_user("creator")
    client.force_login(user)
    page = client.get("/lobby/new/?game=duke")
    assert page.status_code == 200
    assert re.search(r'<input type="radio" name="time_control" value="live-10\+5"[^>]* checked>', page.content.decode())
    base = {"name": "Clocked", "players": "2", "house": ""}
    for bad in ({"time_control": "live-1+0"}, {"time_control": "x" * 5000}, {"max_timeouts": "0"}, {"max_timeouts": "1e9"},
                {"vacation_days": "-1"}, {"vacation_days": "31"}):
        n = Lobby.objects.count()
        r = client.post("/lobby/new/?game=duke", {**base, **bad})
        assert r.status_code == 400, bad
        assert Lobby.objects.count() == n
    r = client.post("/lobby/new/?game=duke", {**base, "time_control": "deadline-24h", "max_timeouts": "4", "vacation_days": "2"})
    assert r.status_code == 302
    assert Lobby.objects.get(name="Clocked").time_control == {"kind": "deadline", "per_move": 86400, "vacation": 172800, "max_timeouts": 4}
    assert "Correspondence: 24 hours per decision" in client.get(r["Location"]).content.decode()
    r = client.post("/lobby/new/", {"name": "Default", "players": "3", "house": ""})
    assert r.status_code == 302 and Lobby.objects.get(name="Default").time_control == {"kind": "live", "bank": 3600, "increment": 20, "max_timeouts": 3}


def test_scheduler_claims_each_deadline_exactly_once_across_connections(make_lobby, postgres_only):
    """Four threads (four PostgreSQL connections) run the scheduler's pass over 12 due games at
    the same moments: every seat's deadline fires once, none twice (``SKIP LOCKED``, checked
    again under the lock; a second firing would also break the unique firing number)."""
    games = [duke(make_lobby)[0] for _ in range(12)]
    now = time.time() + 61
    errors, counts = [], []
    barrier = threading.Barrier(4)

    def worker():
        try:
            barrier.wait(timeout=30)
            for _ in range(3):
                counts.append(scheduler.run_once(now))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sum(counts) == 12
    timeouts = Action.objects.filter(actor="", action__type="timeout")  # counted from the log
    assert timeouts.count() == 12
    assert sorted(timeouts.values_list("game_id", flat=True)) == sorted(g.pk for g in games)
    assert all(g.version == 1 for g in Game.objects.filter(pk__in=[g.pk for g in games]))
    assert connection.vendor == "postgresql"
