"""Random legal play: whole games never get stuck or break an invariant; replay is exact."""

import pytest

from game.rules.agot import RULESET as R

from .helpers import check_invariants, play_random


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_invariants(players, seed):
    s = play_random(players, seed, check=True)
    assert R.result(s) is not None
    assert R.pending(s) == []


@pytest.mark.parametrize("players", [3, 6])
def test_replay_is_identical(players):
    log = []
    final = play_random(players, 11, log=log)
    s = R.new_game(players, 11, {})
    for actor, action in log:
        s = R.apply(s, actor, action)
    assert s == final
    assert R.view(s, None) == R.view(final, None)


@pytest.mark.parametrize("players,seed", [(4, 3), (6, 8)])
def test_apply_leaves_input_untouched(players, seed):
    log = []
    play_random(players, seed, log=log)
    s = R.new_game(players, seed, {})
    for actor, action in log:
        before = s.snapshot()
        s2 = R.apply(s, actor, action)
        assert s.snapshot() == before
        s = s2


def test_state_pickles():
    """A state can be cached as a pickle (a snapshot is only a cache of the log's fold)."""
    import pickle

    s = play_random(4, 9, max_steps=80)
    t = pickle.loads(pickle.dumps(s))
    assert t == s and R.view(t, "stark") == R.view(s, "stark")
