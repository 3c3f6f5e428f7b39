"""No player can stall a timed game by taking their seat back: a time-out always costs the seat the
decision that timed out (the stand-in owes that move, and the seat cannot be taken back before
it), a take-back never buys time (the clock resumes where it stopped), ``max_timeouts`` counts
across take-backs, and an opponent's hand-over of an absent seat is not undone into a fresh
deadline. (Before: a take-back in the moment between a time-out and the stand-in's move gave a
fresh deadline each time, for ever.)"""

from __future__ import annotations


import pytest

from game.live import apply, bots, clocks, scheduler, seats, snapshots, stand_ins
from game.models import Game
from game.rules import IllegalAction

from .live_helpers import start_game

pytestmark = pytest.mark.django_db(transaction=True)

CORRESPONDENCE = {"kind": "deadline", "per_move": 12 * 3600, "vacation": 0, "max_timeouts": 3}
LIVE = {"kind": "live", "bank": 60, "increment": 5, "max_timeouts": 2}


@pytest.fixture(autouse=True)
def _setup(live_settings):
    live_settings.GAME_AWAY_AFTER = 0
    live_settings.GAME_BOT_RESCUE = 10**6  # the tests make the stand-in's moves themselves
    snapshots.CACHE.clear()
    yield
    bots.wait_for_bots()


def _duke(make_lobby, tc):
    game, users = start_game(make_lobby, 2, ruleset="duke", time_control=tc)
    first = next(iter(Game.objects.get(pk=game.pk).awaited_since))
    return game, users, first, "dark" if first == "light" else "light"


def _remaining(game, seat, now) -> float:
    return seats.seat_status(Game.objects.get(pk=game.pk), now)["clocks"][seat]["remaining"]


def test_a_timed_out_seat_cannot_be_taken_back_before_the_stand_in_moves(make_lobby, clock):
    game, users, first, _ = _duke(make_lobby, CORRESPONDENCE)
    clock.t += 12 * 3600 + 1
    assert scheduler.fire_game(game.pk, clock.t) == [(first, "timeout")]
    before = Game.objects.get(pk=game.pk)
    for _ in range(3):  # however often the player comes back in that moment
        with pytest.raises(IllegalAction) as refused:
            stand_ins.take_back(game.pk, users[first])
        assert refused.value.code == "stand_in.owed"
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.stand_ins, after.clocks, after.deadline) == (before.version, before.stand_ins, before.clocks, before.deadline)
    assert apply.bot_act(game.pk) is not None  # the stand-in makes the move that timed out
    g = Game.objects.get(pk=game.pk)
    assert first not in g.stand_ins and not g.clocks[first].get("owed")  # given back after it (1 < 3 time-outs)


def test_taking_back_a_handed_over_seat_buys_no_time(make_lobby, clock):
    game, users, first, other = _duke(make_lobby, CORRESPONDENCE)
    clock.t += 11 * 3600  # eleven of the twelve hours gone
    stand_ins.hand_to_bot(game.pk, users[other], first)
    clock.t += 60
    stand_ins.take_back(game.pk, users[first])
    assert _remaining(game, first, clock.t) == pytest.approx(3600.0)  # the hour it had, not twelve
    assert Game.objects.get(pk=game.pk).deadline.timestamp() == pytest.approx(clock.t + 3600)


def test_a_stand_in_move_in_between_gives_the_next_decision_its_own_time(make_lobby, clock):
    game, users, first, other = _duke(make_lobby, CORRESPONDENCE)
    clock.t += 11 * 3600
    stand_ins.hand_to_bot(game.pk, users[other], first)
    while first in Game.objects.get(pk=game.pk).awaited_since:  # the stand-in takes the decision
        apply.bot_act(game.pk)
    assert Game.objects.get(pk=game.pk).clocks[first]["renew"] is True
    stand_ins.take_back(game.pk, users[first])
    g = Game.objects.get(pk=game.pk)
    assert "renew" not in g.clocks[first]
    # the seat's next decision, once it comes, has a full twelve hours
    while first not in Game.objects.get(pk=game.pk).awaited_since:
        g = Game.objects.get(pk=game.pk)
        state = snapshots.state_at(g)
        from game.live import bot_choice

        apply.act(game.pk, users[other], bot_choice.action_to_json(g.rules, bot_choice.choose(g.rules, state, other, "random", 3)))
    assert _remaining(game, first, clock.t) == pytest.approx(12 * 3600.0)


def test_max_timeouts_counts_across_take_backs(make_lobby, clock):
    """A live clock (2 time-outs, then the stand-in keeps the seat): each time-out is counted, a
    take-back in between does not reset the count, and the stand-in keeps the seat at the second."""
    game, users, first, other = _duke(make_lobby, LIVE)
    clock.t += 61
    assert scheduler.fire_game(game.pk, clock.t) == [(first, "timeout")]
    apply.bot_act(game.pk)  # the owed move; the seat is given back
    g = Game.objects.get(pk=game.pk)
    assert g.clocks[first]["timeouts"] == 1 and g.stand_ins == {}
    while first not in Game.objects.get(pk=game.pk).awaited_since:
        g = Game.objects.get(pk=game.pk)
        from game.live import bot_choice

        state = snapshots.state_at(g)
        apply.act(game.pk, users[other], bot_choice.action_to_json(g.rules, bot_choice.choose(g.rules, state, other, "random", 5)))
    clock.t += 6  # the increment alone, then a second time-out
    assert scheduler.fire_game(game.pk, clock.t) == [(first, "timeout")]
    g = Game.objects.get(pk=game.pk)
    assert g.clocks[first]["timeouts"] == 2 and g.clocks[first]["auto"] is False and first in g.stand_ins
    with pytest.raises(IllegalAction):
        stand_ins.take_back(game.pk, users[first])


def test_the_clock_arithmetic_alone():
    tc = clocks.parse(CORRESPONDENCE)
    c = clocks.start(tc, ["a", "b"], awaited={"a"}, stand_ins={}, now=0.0)
    c = clocks.timed_out(tc, c, "a")
    assert c["a"]["owed"] and c["a"]["auto"] and c["a"]["timeouts"] == 1 and c["a"]["left"] == 0.0
    with pytest.raises(clocks.Owed):
        clocks.taken_back(c, "a")
    after, stand, _ = clocks.after_action(tc, c, {"a": "basic"}, before={"a"}, after={"b"}, actor="a", person=False, now=5.0)
    assert "owed" not in after["a"] and stand == {}  # the owed move made: given back
    back, renew = clocks.taken_back(after, "a")
    assert renew is False and back["a"]["auto"] is False
