"""Clock arithmetic (game/live/clocks.py): pure functions of stored times, no database, no clock.

Live clocks run only while their seat is awaited and no stand-in plays it (all awaited seats at
once in simultaneous steps), gain the increment per decision; correspondence deadlines restart per
decision and pause on vacation; due events come in order; hostile time controls are refused."""

from __future__ import annotations

import pytest

from game.live import clocks

LIVE = clocks.parse({"kind": "live", "bank": 60, "increment": 5, "max_timeouts": 2})
CORR = clocks.parse({"kind": "deadline", "per_move": 100, "vacation": 50})


def test_simultaneous_step_runs_every_awaited_clock_at_once():
    c = clocks.start(LIVE, ["a", "b", "c"], awaited={"a", "b", "c"}, stand_ins={}, now=0.0)
    assert all(c[s]["since"] == 0.0 for s in "abc")
    # a submits at 10 s: charged 10, +5; b and c still run
    c = clocks.after_action(LIVE, c, {}, before="abc", after="bc", actor="a", person=True, now=10.0)[0]
    assert clocks.remaining(c, "a", 30.0) == 55.0 and c["a"]["since"] is None
    assert clocks.remaining(c, "b", 30.0) == 30.0 and clocks.remaining(c, "c", 30.0) == 30.0
    # b at 20 s, c at 40 s
    c = clocks.after_action(LIVE, c, {}, before="bc", after="c", actor="b", person=True, now=20.0)[0]
    c = clocks.after_action(LIVE, c, {}, before="c", after="a", actor="c", person=True, now=40.0)[0]
    assert [clocks.remaining(c, s, 40.0) for s in "abc"] == [55.0, 45.0, 25.0]
    assert clocks.next_deadline(c) == 40.0 + 55.0  # only a runs now


def test_waiting_for_others_costs_nothing_and_increment_adds_up():
    c = clocks.start(LIVE, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    assert clocks.remaining(c, "b", 1000.0) == 60.0  # b is not awaited
    for t in range(1, 6):  # a answers 5 decisions in a row, 1 s each
        c = clocks.after_action(LIVE, c, {}, before={"a"}, after={"a"}, actor="a", person=True, now=float(t))[0]
    assert clocks.remaining(c, "a", 5.0) == 60.0 - 5 + 25


def test_stand_in_pauses_the_clock_and_take_back_resumes_it():
    c = clocks.start(LIVE, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.settle(LIVE, c, awaited={"a"}, stand_ins={"a": "basic"}, now=12.0)  # handed over at 12 s
    assert clocks.remaining(c, "a", 500.0) == 48.0 and not clocks.clock_view(LIVE, c, 500.0)["a"]["running"]
    # the stand-in moves (a bot: no increment), a is awaited again, still with its stand-in
    c, si, _ = clocks.after_action(LIVE, c, {"a": "basic"}, before={"a"}, after={"a"}, actor="a", person=False, now=20.0)
    assert si == {"a": "basic"} and clocks.remaining(c, "a", 500.0) == 48.0
    c = clocks.settle(LIVE, c, awaited={"a"}, stand_ins={}, now=600.0, fresh={"a"})  # taken back
    assert clocks.remaining(c, "a", 600.0) == 48.0 and clocks.remaining(c, "a", 610.0) == 38.0


def test_timeout_stand_in_gives_the_seat_back_after_one_move_with_the_increment():
    c = clocks.start(LIVE, ["a"], awaited={"a"}, stand_ins={}, now=0.0)
    assert clocks.due(c, 59.0) == [] and clocks.due(c, 60.0) == [("a", "timeout")]
    c["a"].update(left=0.0, since=None, timeouts=1, auto=True)  # what the scheduler does
    c, si, deadline = clocks.after_action(LIVE, c, {"a": "basic"}, before={"a"}, after={"a"}, actor="a", person=False, now=61.0, rescue=15)
    assert si == {} and c["a"]["auto"] is False
    assert clocks.remaining(c, "a", 61.0) == 5.0 and deadline == 66.0  # an empty bank: the increment only


def test_rescue_deadline_for_awaited_bots():
    c = clocks.start(LIVE, ["a"], awaited={"bot"}, stand_ins={}, now=0.0)
    assert clocks.with_rescue(c, {}, {"bot"}, 0.0, 15) == 15.0
    assert clocks.with_rescue(c, {}, {"bot"}, 0.0, None) is None
    assert clocks.with_rescue(c, {}, {"a"}, 0.0, 15) is None  # a's clock is not running


def test_correspondence_deadline_restarts_per_decision():
    c = clocks.start(CORR, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.after_action(CORR, c, {}, before={"a"}, after={"b"}, actor="a", person=True, now=90.0)[0]
    assert clocks.remaining(c, "a", 90.0) == 100.0 and c["a"]["since"] is None
    assert clocks.next_deadline(c) == 190.0  # b's new decision: a full day... of 100 s
    c = clocks.after_action(CORR, c, {}, before={"b"}, after={"a"}, actor="b", person=True, now=150.0)[0]
    assert clocks.next_deadline(c) == 250.0


def test_vacation_pauses_deadlines_and_is_spent_in_calendar_time():
    c = clocks.start(CORR, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.set_vacation(c, "a", True, 30.0)
    c = clocks.settle(CORR, c, awaited={"a"}, stand_ins={}, now=30.0)
    assert clocks.remaining(c, "a", 70.0) == 70.0 and clocks.vacation_left(c, "a", 70.0) == 10.0
    assert clocks.next_deadline(c) == 80.0 and clocks.due(c, 80.0) == [("a", "vacation_over")]
    c = clocks.set_vacation(c, "a", False, 80.0)  # what the scheduler does when it is used up
    c = clocks.settle(CORR, c, awaited={"a"}, stand_ins={}, now=80.0)
    assert clocks.remaining(c, "a", 80.0) == 70.0  # paused, not restarted
    assert clocks.next_deadline(c) == 150.0
    with pytest.raises(ValueError):
        clocks.set_vacation(c, "a", True, 90.0)  # none left


def test_vacation_turned_off_early_keeps_the_rest():
    c = clocks.start(CORR, ["a"], awaited=set(), stand_ins={}, now=0.0)
    c = clocks.set_vacation(c, "a", True, 0.0)
    c = clocks.set_vacation(c, "a", False, 20.0)
    assert clocks.vacation_left(c, "a", 999.0) == 30.0


def test_no_time_control_counts_nothing():
    tc = clocks.parse(None)
    assert tc == {"kind": "none"} and clocks.start(tc, ["a"], awaited={"a"}, stand_ins={}, now=0.0) == {}
    assert clocks.after_action(tc, {}, {"a": "basic"}, before={"a"}, after={"a"}, actor="a", person=True, now=1.0) == ({}, {"a": "basic"}, None)


@pytest.mark.parametrize(
    "bad",
    [
        "live", [], {"kind": "blitz"}, {"kind": "live", "bank": -1}, {"kind": "live", "bank": float("nan")},
        {"kind": "live", "bank": True}, {"kind": "live", "bank": "60"}, {"kind": "live", "bank": 10**12},
        {"kind": "live", "bank": 60, "increment": 601}, {"kind": "live", "bank": 60, "evil": 1},
        {"kind": "deadline", "per_move": 0}, {"kind": "deadline", "per_move": 60, "vacation": -5},
        {"kind": "live", "bank": 60, "max_timeouts": 0}, {"kind": "live", "bank": 60, "max_timeouts": 2.5},
        {"kind": "none", "bank": 60},
    ],
)
def test_hostile_time_controls_are_refused(bad):
    with pytest.raises(clocks.BadTimeControl):
        clocks.parse(bad)


def test_deadline_of_follows_the_running_clock():
    """``game.live.deadlines``: "My games" and the turn mails read a seat's deadline from its
    clock (running: since + left; stopped or on vacation: none) and a correspondence game from its
    time control."""
    from datetime import datetime, timezone

    from game.live.deadlines import deadline_of, is_correspondence
    from game.models import Game

    g = Game(time_control={"kind": "deadline", "per_move": 3600}, clocks={
        "stark": {"left": 100.0, "since": 1000.0, "timeouts": 0, "vacation": 0, "away": None, "auto": False},
        "lannister": {"left": 50.0, "since": None, "timeouts": 0, "vacation": 0, "away": None, "auto": False},
        "greyjoy": {"left": 50.0, "since": 1000.0, "timeouts": 0, "vacation": 10, "away": 990.0, "auto": False},
    })
    assert deadline_of(g, "stark") == datetime.fromtimestamp(1100.0, tz=timezone.utc)
    assert deadline_of(g, "lannister") is None and deadline_of(g, "greyjoy") is None and deadline_of(g, "tyrell") is None
    assert is_correspondence(g) and not is_correspondence(Game(time_control={"kind": "live", "bank": 60}))
    assert not is_correspondence(Game())


def test_a_pause_stops_every_clock_and_a_resume_costs_nobody_time():
    c = clocks.start(LIVE, ["a", "b", "c"], awaited={"a", "b"}, stand_ins={}, now=0.0)
    c = clocks.pause(c, 10.0)
    assert all(x["since"] is None for x in c.values()) and clocks.next_deadline(c) is None
    assert clocks.due(c, 10_000.0) == []
    # a decision during the pause: credited, nothing starts
    c = clocks.after_action(LIVE, c, {}, before="ab", after="bc", actor="a", person=True, now=20.0, paused=True)[0]
    assert [clocks.remaining(c, s, 500.0) for s in "abc"] == [55.0, 50.0, 60.0]
    c = clocks.resume(LIVE, c, awaited="bc", stand_ins={}, now=500.0)
    assert [clocks.remaining(c, s, 510.0) for s in "abc"] == [55.0, 40.0, 50.0]


def test_a_pause_holds_a_vacation_and_a_new_deadline_waits_for_the_resume():
    c = clocks.start(CORR, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.set_vacation(c, "b", True, 5.0)
    c = clocks.pause(c, 10.0)
    view = clocks.clock_view(CORR, c, 100.0)
    assert view["b"]["on_vacation"] and view["b"]["vacation"] == 45.0 and not view["a"]["running"]
    assert clocks.due(c, 1000.0) == []
    c = clocks.after_action(CORR, c, {}, before="a", after="b", actor="a", person=True, now=30.0, paused=True)[0]
    assert c["b"]["since"] is None
    c = clocks.resume(CORR, c, awaited="b", stand_ins={}, now=200.0)
    assert clocks.vacation_left(c, "b", 210.0) == 35.0  # spent again from the resume on
    assert clocks.remaining(c, "a", 210.0) == 100.0


def test_an_extension_adds_the_same_time_to_every_clock():
    c = clocks.start(LIVE, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.extend(c, clocks.extension(LIVE, 120))
    assert [clocks.remaining(c, s, 10.0) for s in "ab"] == [170.0, 180.0]
    assert clocks.extension(CORR, 120) == 100.0 and clocks.extension({"kind": "none"}, 120) == 0.0
