"""Random legal play of the 1st edition never crashes, never gets stuck and never breaks an
invariant (game.rules.agot.selfplay.check_invariants) nor leaks hidden information; a game
replays exactly from its log."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.agot import RULESET_1E as R

from .play import play_random


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


AREAS = ["winterfell", "lannisport", "the-golden-sound", "summer-sea", "pyke", "dragonstone", "port-of-pyke", "salt-shore", "nowhere"]
TOKENS = ["march", "special-raid", "support", "consolidate-power", "special-consolidate-power", "defense-plus-two", "bogus"]
UNITS = ["footman", "knight", "ship", "siege_engine"]
HOUSES = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell", "nobody"]
scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 25), st.sampled_from(AREAS + TOKENS + UNITS + HOUSES))
junk_action = st.fixed_dictionaries(
    {"type": st.sampled_from(["place_orders", "raven", "raid", "march", "muster", "bid", "choose", "select_units", "select_card", "consolidate", "raven_keep"])},
    optional={
        "orders": st.dictionaries(st.sampled_from(AREAS), st.sampled_from(TOKENS), max_size=4),
        "area": st.sampled_from(AREAS), "target": st.sampled_from(AREAS), "second_target": st.sampled_from(AREAS),
        "choice": st.sampled_from(["replace", "peek", "pass"]), "token": st.sampled_from(TOKENS), "amount": scalar,
        "option": scalar, "card": st.sampled_from(["lord-mormont", "patchface", "eddard-stark", "x"]), "bottom": st.booleans(),
        "units": st.lists(st.fixed_dictionaries({"area": st.sampled_from(AREAS), "unit": st.sampled_from(UNITS)}), max_size=3),
        "recruits": st.lists(st.fixed_dictionaries({"area": st.sampled_from(AREAS), "unit": st.sampled_from(UNITS)}), max_size=2),
    },
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6), warmup=st.integers(0, 60),
       junk=st.lists(st.tuples(st.sampled_from(HOUSES), junk_action), min_size=1, max_size=6))
def test_bad_actions_raise_and_change_nothing(players, seed, warmup, junk):
    """Bad input (2nd-edition-only areas, cards and units among it) gets a typed IllegalAction and
    leaves the state as it was; an accepted one keeps the invariants."""
    from game.rules.agot.selfplay import check_invariants
    from game.rules.base import IllegalAction

    s = play_random(players, seed, max_steps=warmup)
    for house, data in junk:
        before = s.snapshot()
        try:
            s2 = R.apply(s, house, R.parse_action(data))
        except IllegalAction as exc:
            assert exc.code and exc.message and s.snapshot() == before
            continue
        check_invariants(s2)
        s = s2
