"""Bots: legal, deterministic in their seed, blind to hidden information; ``basic``
beats ``random``."""

from __future__ import annotations

import pytest

from game.rules.agot import RULESET as R
from game.rules.agot.selfplay import check_invariants, game_seed, play_game, play_games
from game.rules.agot.state import events
from game.rules.base import IllegalAction


@pytest.mark.parametrize("level", ["random", "basic"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bots_play_whole_games_keeping_invariants(level, players):
    g = play_game(players, game_seed(77, players), level, check=True)
    assert g["winner"] in R.seats(players)
    assert g["reason"] in ("seven_castles", "round_limit")
    assert g["actions"] == len(g["log"]) > 20


@pytest.mark.parametrize("level", ["random", "basic"])
def test_bot_is_deterministic_in_its_seed(level):
    s = R.new_game(4, 5, {})
    for _ in range(40):
        d = R.pending(s)[0]
        a1 = R.bot_action(s, d.actor, level, 1234)
        assert R.bot_action(s, d.actor, level, 1234) == a1
        s = R.apply(s, d.actor, a1)
    # and the whole game replays from its log
    g = play_game(3, 99, "mixed")
    assert g == play_game(3, 99, "mixed") | {"ms": g["ms"]}


def test_bot_refuses_a_house_with_nothing_to_decide():
    s = R.new_game(3, 1, {})
    s = R.apply(s, "stark", R.bot_action(s, "stark", "random", 1))  # stark's orders are in
    with pytest.raises(IllegalAction) as e:
        R.bot_action(s, "stark", "basic", 1)
    assert e.value.code == "action.not_your_turn"
    with pytest.raises(IllegalAction) as e:
        R.bot_action(s, "lannister", "genius", 1)
    assert e.value.code == "bot.level"


@pytest.mark.parametrize("level", ["random", "basic"])
def test_bot_sees_only_what_its_house_sees(level):
    """Two positions that differ only in another house's face-down orders and in the order of
    the decks (hidden from Lannister) get the same bot action."""
    base = R.new_game(3, 8, {})
    s1 = R.apply(base, "stark", {"type": "place_orders", "orders": {"winterfell": "march", "white-harbor": "defense-plus-one", "the-shivering-sea": "raid"}})
    s2 = R.apply(base, "stark", {"type": "place_orders", "orders": {"winterfell": "raid", "white-harbor": "support", "the-shivering-sea": "march"}})
    s2.decks = {k: tuple(reversed(v)) for k, v in s2.decks.items()}
    assert R.view(s1, "lannister") == R.view(s2, "lannister")
    for seed in range(5):
        assert R.bot_action(s1, "lannister", level, seed) == R.bot_action(s2, "lannister", level, seed)


def test_basic_beats_random_in_three_player_games():
    """One basic bot against two random bots (seat rotating): the basic bot wins most games."""
    games = list(play_games(3, 12, 2026, "mixed"))
    wins = sum(1 for g in games if g["winner_level"] == "basic")
    assert wins >= 9, [g["winner_level"] for g in games]


def test_basic_bot_takes_an_undefended_castle():
    from game.rules.agot.scenario import build

    s = build(
        {
            "players": 3,
            "board": "empty",
            "units": {"lannisport": {"house": "lannister", "units": ["footman"]}, "stoney-sept": {"house": "lannister", "units": ["knight"]}},
            "orders": {"stoney-sept": "march"},
            "start": "marches",
        }
    )
    a = R.bot_action(s, "lannister", "basic", 1)
    assert a.area == "stoney-sept" and a.moves and a.moves[0].to in ("harrenhal", "riverrun")  # the castle and the stronghold next to it
    after = R.apply(s, "lannister", a)
    assert [e for e in events(after) if e["kind"] == "march"]
    check_invariants(after)
