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
from game.rules.agot.actions import parse_action
from game.rules.agot.flow import apply
from game.rules.agot.scenario import build
from game.rules.agot.selfplay import InvariantBroken, LastCardCheck, check_invariants, play_game, replay


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


def test_sweep_slice_runs_through_the_command():
    """A fixed-seed slice of the 10,000-game sweep (docs/capacity.md, "The self-play sweep"): 3-6 players, random and basic
    bots, with and without Tides of Battle, the invariant checker after every action."""
    lines = run(players="3-6", games=16, seed=2024, bots="random,basic", tides="both", check=True, quiet=True)
    summary = lines[-1]
    assert len(lines) == 1 and summary["summary"]
    assert summary["games"] == summary["finished"] == 16
    assert summary["crashes"] == 0 and summary["invariant_errors"] == 0
    assert summary["actions"] > 16 * 50 and summary["wall_s"] > 0 and summary["games_per_s_per_core"] > 0
    assert summary["players"] == "3-6" and summary["tides"] == "both"


def test_sweep_stops_starting_games_after_its_time_budget():
    lines = run(players="3-6", games=50, seed=3, bots="random", tides="off", quiet=True, max_seconds=0.0)
    summary = lines[-1]
    assert summary["games"] == summary["finished"] == 1 and summary["requested"] == 50 and summary["stopped_by_time"]


def test_sweep_reports_a_crash_and_goes_on(monkeypatch):
    import game.rules.agot.selfplay as sp

    real = sp.play_game

    def flaky(players, seed, bots, options, check=False, index=0, **kw):
        if index == 1:
            raise RuntimeError("boom")
        return real(players, seed, bots, options, check=check, index=index, **kw)

    monkeypatch.setattr(sp, "play_game", flaky)
    out = io.StringIO()
    with pytest.raises(CommandError):
        Command(stdout=out).handle(game="agot", players="3-4", games=3, seed=5, bots="random", no_check=False, tides="on", quiet=True)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    crash, summary = lines[0], lines[-1]
    assert crash["reason"] == "crash" and "boom" in crash["error"] and crash["players"] == 4
    assert crash["options"] == {"tides_of_battle": True} and isinstance(crash["seed"], int)
    assert summary["crashes"] == 1 and summary["finished"] == 2 and summary["games"] == 3


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


def test_the_last_card_check_holds_over_the_scenarios():
    """LastCardCheck (after a combat in which a house played its last card: the six others in
    hand, the last one discarded; Roose Bolton kept, Patchface's card taken, a replaced card not
    followed) agrees with every 2nd-edition scenario."""
    from pathlib import Path

    for path in sorted((Path(__file__).parent / "scenarios").glob("*.json")):
        sc = json.loads(path.read_text(encoding="utf-8"))
        s, check = build(sc), LastCardCheck()
        steps = sc.get("steps", [])[: sc["expect_error"]["step"] if "expect_error" in sc else None]
        for house, data in steps:
            after = apply(s, house, parse_action(data))
            check.step(s, after)
            s = after


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
