"""Bots (random and basic) play whole 1st-edition games of 3, 4 and 5 players keeping the
invariants; they answer every 1st-edition decision (two-target special Raids, Raven without
peek, orders kept off seas and islands, units worth mustering points to the wildlings)."""

import pytest

from game.rules.agot import RULESET_1E as R
from game.rules.agot.selfplay import game_seed, play_game


@pytest.mark.parametrize("level", ["random", "basic"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_bots_finish_games(level, players):
    g = play_game(players, game_seed(91, players), level, check=True, ruleset="agot1")
    assert g["reason"] in ("seven_castles", "eight_castles", "round_limit", "shared")
    assert g["winner"] in R.seats(players) or set(g.get("winners", ())) <= set(R.seats(players))
    assert g["actions"] == len(g["log"]) > 20 and g["ruleset"] == "agot1"


def test_bots_meet_the_1st_edition_decisions():
    """Over a few bot games every 1st-edition decision comes up and is answered."""
    seen = set()

    def note(state, actor, action, after):
        t = action.type
        if t == "raid" and action.second_target:
            seen.add("two_targets")
        if t == "select_units" and any(d.options.get("purpose") == "wildlings_muster_points" for d in R.pending(state)):
            seen.add("muster_points")
        if t == "raven":
            seen.add("raven_" + action.choice)

    for i in range(8):
        play_game(5, game_seed(5, i), "mixed" if i % 2 else "random", check=True, on_state=note, index=i, ruleset="agot1")
    assert {"two_targets", "muster_points", "raven_replace"} <= seen and "raven_peek" not in seen


@pytest.mark.parametrize("level", ["random", "basic"])
def test_bot_is_deterministic(level):
    assert play_game(4, 7, level, ruleset="agot1")["log"] == play_game(4, 7, level, ruleset="agot1")["log"]
