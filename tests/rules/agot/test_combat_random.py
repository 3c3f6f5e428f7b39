"""Random legal play reaches combat (with and without Tides of Battle) and keeps every invariant."""

import pytest

from game.rules.agot import RULESET as R

from .helpers import play_random


@pytest.mark.parametrize("players,seed,tides", [(3, 5, True), (6, 6, True), (4, 8, False)])
def test_random_games_with_combat(players, seed, tides):
    s = play_random(players, seed, check=True, options={"tides_of_battle": tides})
    assert R.result(s) is not None
    kinds = [e["kind"] for e in R.view(s, None)["events"]]
    assert kinds.count("combat_started") == kinds.count("combat_end") > 0
    if tides:
        assert "tides_revealed" in kinds
