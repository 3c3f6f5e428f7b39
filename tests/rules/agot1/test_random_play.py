"""Random legal play of the 1st edition never crashes, never gets stuck and never breaks an
invariant (game.rules.agot.selfplay.check_invariants) nor leaks hidden information; a game
replays exactly from its log."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.agot import RULESET_1E as R

from .play import play_random


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_random_legal_play_keeps_invariants(players, seed):
    s = play_random(players, seed, check=True, views=True)
    assert R.result(s) is not None and R.pending(s) == []


@pytest.mark.parametrize("players", [3, 5])
def test_replay_is_identical_and_apply_leaves_its_input_untouched(players):
    log = []
    final = play_random(players, 21, log=log)
    s = R.new_game(players, 21, {})
    for actor, action in log:
        before = s.snapshot()
        nxt = R.apply(s, actor, action)
        assert s.snapshot() == before
        s = nxt
    assert s == final and R.view(s, None) == R.view(final, None)
