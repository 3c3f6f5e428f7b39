"""``manage.py selfplay --game agot1``: a fixed-seed slice of the 1st edition's sweep
(docs/agot1.md, Self-play) through the command: 3-5 players, random and basic bots, the invariant
checker after every action; and the player counts and options the 1st edition refuses."""

import io
import json

import pytest
from django.core.management.base import CommandError

from game.management.commands.selfplay import Command


def run(**kw):
    out = io.StringIO()
    opts = {"game": "agot1", "players": None, "games": 1, "seed": 1, "bots": "random", "no_check": False, "tides": "off"}
    opts.update(kw)
    Command(stdout=out).handle(**opts)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_sweep_slice_runs_through_the_command():
    lines = run(players="3-5", games=6, seed=2026, bots="random,basic", check=True, quiet=True)
    summary = lines[-1]
    assert len(lines) == 1 and summary["summary"] and summary["game"] == "agot1"
    assert summary["games"] == summary["finished"] == 6
    assert summary["crashes"] == 0 and summary["invariant_errors"] == 0 and summary["actions"] > 6 * 50


def test_game_lines_name_the_ruleset_and_shared_wins_count_as_finished():
    lines = run(players="3", games=2, seed=5, bots="basic")
    for g in lines[:-1]:
        assert g["ruleset"] == "agot1" and g["players"] == 3
        assert g["winner"] in ("stark", "lannister", "baratheon") or g.get("winners")
    assert lines[-1]["finished"] == 2


@pytest.mark.parametrize("kw", [{"players": "6"}, {"players": "3-6"}, {"tides": "on"}])
def test_refuses_what_the_1st_edition_has_not(kw):
    with pytest.raises(CommandError):
        run(**kw)
