"""``manage.py selfplay``: complete games for 3-6 players, one JSON line each plus a summary;
a hypothesis test plays random legal games to the end checking invariants after every action."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management.base import CommandError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.management.commands.selfplay import Command
from game.rules.agot import RULESET as R
from game.rules.agot.selfplay import InvariantBroken, check_invariants, play_game, replay


def run(**kw):
    out = io.StringIO()
    opts = {"game": "agot", "players": None, "games": 1, "seed": 1, "bots": "random", "no_check": False}
    opts.update(kw)
    Command(stdout=out).handle(**opts)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_selfplay_command_plays_complete_games(players):
    lines = run(players=players, games=2, seed=players, bots="mixed")
    games, summary = lines[:-1], lines[-1]
    assert len(games) == 2
    for g in games:
        assert g["players"] == players and g["winner"] in R.seats(players)
        assert g["reason"] in ("seven_castles", "round_limit") and 1 <= g["rounds"] <= 10
        assert g["actions"] > 0 and g["ms"] > 0 and isinstance(g["seed"], int)
    assert summary["summary"] and summary["finished"] == 2 and summary["invariant_errors"] == 0


def test_selfplay_command_duke():
    lines = run(game="duke", games=2, bots="basic")
    assert lines[-1]["finished"] == 2 and all(g["players"] == 2 for g in lines[:-1])


def test_selfplay_command_fails_when_an_invariant_breaks(monkeypatch):
    import game.rules.agot.selfplay as sp

    def broken(s):
        raise InvariantBroken("two houses in winterfell")

    monkeypatch.setattr(sp, "check_invariants", broken)
    out = io.StringIO()
    with pytest.raises(CommandError):
        Command(stdout=out).handle(game="agot", players=3, games=1, seed=1, bots="random", no_check=False)
    assert '"invariant_broken"' in out.getvalue()


def test_check_invariants_catches_a_broken_state():
    s = R.new_game(3, 1, {})
    check_invariants(s)
    bad = s.clone()
    bad.units["winterfell"] = bad.units["winterfell"] + (("lannister", "footman", False),)
    with pytest.raises(InvariantBroken):
        check_invariants(bad)
    bad = s.clone()
    bad.power["stark"] = 25
    with pytest.raises(InvariantBroken):
        check_invariants(bad)


def test_a_self_played_game_replays_from_its_log():
    g = play_game(4, 31, "mixed")
    final = replay(4, 31, {}, g["log"])
    assert R.result(final)["winner"] == g["winner"] and final.round == g["rounds"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**40), level=st.sampled_from(["random", "basic", "mixed"]))
@example(players=6, seed=466, level="mixed")  # Mace Tyrell destroys the defender's last footman
@example(players=6, seed=122272867979, level="basic")  # a Tyrell ship left in Lannister's port
@example(players=5, seed=915459893927, level="basic")  # a retreat takes a seventh castle mid-combat
def test_random_games_to_the_end_keep_invariants(players, seed, level):
    g = play_game(players, seed, level, check=True)
    assert g["winner"] is not None
