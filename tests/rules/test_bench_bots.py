"""The bot match bench (``python -m tests.bench.bots``): its interval, its match-up syntax and the
line it prints, from a short series played through the ruleset contract."""

from __future__ import annotations

import pytest

from tests.bench import bots


def test_wilson_interval():
    lo, hi = bots.wilson(21, 30)
    assert 0.52 < lo < 0.53 and 0.83 < hi < 0.84
    assert bots.wilson(0, 0) == (0.0, 1.0)


def test_a_match_up_names_every_other_seat():
    assert bots.parse_match("agot2:6:strong:basic") == ("agot2", 6, "strong", ["basic"] * 5)
    assert bots.parse_match("agot2:3:strong:basic,random") == ("agot2", 3, "strong", ["basic", "random"])
    with pytest.raises(ValueError):
        bots.parse_match("agot2:3:strong:basic,basic,basic")


def test_a_series_prints_the_agreed_line():
    line = bots.series("duke", 2, "basic", ["random"], games=2, seed=1, budget=None, max_actions=2_000)
    assert line.startswith("duke 2p basic vs random: ")
    assert "/2 = " in line and " % (95 % CI " in line and "s/decision" in line


def test_a_level_a_game_lacks_is_skipped_with_a_line():
    line = bots.series("duke", 2, "genius", ["basic"], games=2, seed=1, budget=None, max_actions=100)
    assert "skipped" in line and "genius" in line
