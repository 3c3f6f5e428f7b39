"""The players' vote to end a game now: each ruleset scores the early end by its own rules
(:func:`game.rules.base.end_early`), and a note of the site that carries ``"end": true`` folds it
(a game is its log: the replay of a log ending so ends the same way).

AGoT scores it as the rulebook's end of the game (Winning the Game / 游戏胜利: the most areas
with a castle or stronghold, then the edition's printed tie-breakers; the 1st edition shares a
win still tied); The Duke, whose rules score nothing but the capture of a Duke, as a draw."""

from __future__ import annotations

import pytest

from game.rules import IllegalAction, get_ruleset
from game.rules.base import AGREED_END, SITE, can_end_early, early_result, end_early, note, seats_swappable, step

R2 = get_ruleset("agot2")


def _token(state, area: str, house: str):
    """``state`` with ``house``'s power token in the empty land ``area`` (it then controls it)."""
    s = state.clone()
    assert area not in s.units
    s.power_tokens = {**s.power_tokens, area: house}
    return s


def test_agot_most_castles_wins():
    s = R2.new_game(3, 1, {})  # Stark holds Winterfell and White Harbor, the others one each
    out = end_early(R2, s)
    result = R2.result(out)
    assert result["winner"] == "stark" and result["reason"] == AGREED_END
    assert result["castles"] == {"stark": 2, "lannister": 1, "baratheon": 1}
    assert result["ranking"][0] == "stark" and result["round"] == 1
    assert R2.pending(out) == [] and R2.result(s) is None  # the input untouched
    assert R2.view(out, None)["events"][-1]["kind"] == "game_over"


def test_agot_equal_castles_go_to_the_printed_tie_breakers():
    # Lannister takes Riverrun (a stronghold): 2 castles each, Lannister 2 strongholds, Stark 1
    s = _token(R2.new_game(3, 1, {}), "riverrun", "lannister")
    assert R2.result(end_early(R2, s))["winner"] == "lannister"
    # with Harrenhal (a castle) instead, strongholds are equal (1 each): the higher supply wins,
    # Lannister's 2 against Stark's 1 at the start
    s = _token(R2.new_game(3, 1, {}), "harrenhal", "lannister")
    assert s.supply["lannister"] > s.supply["stark"]
    assert R2.result(end_early(R2, s))["winner"] == "lannister"
    # the same supply: the most available power (Stark given two more)
    s = _token(R2.new_game(3, 1, {}), "harrenhal", "lannister")
    s.supply = {**s.supply, "stark": s.supply["lannister"]}
    s.power = {**s.power, "stark": s.power["lannister"] + 2}
    assert R2.result(end_early(R2, s))["winner"] == "stark"


def test_agot1_houses_equal_on_everything_share_the_win():
    r1 = get_ruleset("agot1")
    s = r1.new_game(3, 1, {})
    early = early_result(r1, s)
    assert early["reason"] == AGREED_END
    # make the two best houses equal on castles, supply and power
    order = early["ranking"]
    a, b = order[0], order[1]
    s = s.clone()
    s.supply = {**s.supply, b: s.supply[a]}
    s.power = {**s.power, b: s.power[a]}
    from game.rules.agot.control import castle_count, controller
    from game.rules.agot.data import board

    free = [x for x in board(s).castle_areas if controller(s, x) is None and x not in s.units]
    while castle_count(s, b) < castle_count(s, a):  # b takes empty castles until it has as many
        s = _token(s, free.pop(), b)
    assert castle_count(s, a) == castle_count(s, b)
    result = r1.result(end_early(r1, s))
    assert result["winner"] is None and set(result["winners"]) >= {a, b}


def test_duke_ends_in_a_draw():
    rd = get_ruleset("duke")
    s = rd.new_game(2, 3, {})
    out = end_early(rd, s)
    assert rd.result(out) == {"winner": None, "reason": AGREED_END}
    assert rd.pending(out) == []
    assert "agreed" in rd.describe(rd.view(out, None)["events"][-1], "en")


@pytest.mark.parametrize("ruleset,players", [("agot2", 4), ("agot1", 3), ("duke", 2)])
def test_a_note_that_ends_the_game_is_folded_from_the_log(ruleset, players):
    """The vote's note with ``"end": true`` ends the state where it stands in the log: the note's
    event first, then the game's end; the same log folded again gives the same result."""
    rules = get_ruleset(ruleset)
    assert can_end_early(rules)
    s = rules.new_game(players, 5, {})
    for i in range(6):
        d = rules.pending(s)[0]
        s = rules.apply(s, d.actor, rules.bot_action(s, d.actor, "random", i))
    expected = early_result(rules, s)
    entry = {"type": "vote_pass", "kind": "end", "vote": 1, "end": True}
    out = step(rules, s, SITE, entry)
    assert rules.result(out) == expected and rules.pending(out) == []
    events = rules.view(out, None)["events"]
    assert events[-2]["note"] == entry
    assert (events[-1].get("kind") or events[-1].get("type")) == "game_over"
    with pytest.raises(IllegalAction) as e:
        note(rules, out, entry)  # a game over does not end again
    assert e.value.code == "game.over"


def test_a_ruleset_without_an_early_end_cannot_be_ended():
    class Plain:
        def result(self, state):
            return None

    assert not can_end_early(Plain()) and early_result(Plain(), object()) is None
    with pytest.raises(IllegalAction) as e:
        end_early(Plain(), object())
    assert e.value.code == "game.no_early_end"
    assert seats_swappable(Plain(), object()) is False


def test_agot_seats_are_swappable_only_in_round_one_before_a_hidden_answer():
    s = R2.new_game(3, 2, {})
    assert seats_swappable(R2, s)  # round 1, nobody has placed orders
    first = R2.pending(s)[0].actor
    placed = R2.apply(s, first, R2.bot_action(s, first, "random", 1))
    assert not seats_swappable(R2, placed)  # one house's orders are face-down on the board
    withdrawn = R2.apply(placed, first, R2.parse_action({"type": "withdraw"}))
    assert seats_swappable(R2, withdrawn)  # taken back: nothing hidden any more
    later = s.clone()
    later.round = 2
    assert not seats_swappable(R2, later)
    assert not seats_swappable(R2, end_early(R2, s))  # a game over
    assert not seats_swappable(get_ruleset("duke"), get_ruleset("duke").new_game(2, 1, {}))
