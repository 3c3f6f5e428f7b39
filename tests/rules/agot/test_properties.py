"""Property tests (hypothesis): random legal play keeps every invariant through whole Westeros
and planning phases; random malformed or illegal actions raise IllegalAction and change nothing."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.agot import RULESET as R
from game.rules.agot.legal import random_action
from game.rules.base import IllegalAction

from .helpers import check_invariants

AREAS = ["winterfell", "lannisport", "the-golden-sound", "port-of-pyke", "kings-landing", "nowhere", "sunspear", "dragonstone"]
TOKENS = ["march", "march-plus-one", "raid", "special-raid", "support", "defense-plus-two", "consolidate-power", "bogus"]
UNITS = ["footman", "knight", "ship", "siege_engine", "dragon"]
TYPES = ["place_orders", "raven", "raven_keep", "raid", "march", "support", "consolidate", "muster", "reconcile", "bid",
         "order_ties", "choose", "select_units", "select_card", "nonsense"]
HOUSES = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell", "nobody"]

scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 25), st.sampled_from(AREAS + TOKENS + UNITS + HOUSES))
unitref = st.fixed_dictionaries({"area": st.sampled_from(AREAS), "unit": st.sampled_from(UNITS)})
junk_action = st.one_of(
    scalar,
    st.lists(scalar, max_size=3),
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={
            "orders": st.one_of(st.dictionaries(st.sampled_from(AREAS), st.sampled_from(TOKENS), max_size=4), scalar),
            "area": st.one_of(st.sampled_from(AREAS), scalar),
            "target": st.one_of(st.sampled_from(AREAS), scalar),
            "token": st.sampled_from(TOKENS),
            "choice": st.sampled_from(["replace", "peek", "pass", "x"]),
            "bottom": scalar,
            "moves": st.one_of(st.lists(st.fixed_dictionaries({"to": st.sampled_from(AREAS), "units": st.lists(st.sampled_from(UNITS), max_size=3)}), max_size=3), scalar),
            "leave_power": scalar,
            "give": scalar,
            "amount": scalar,
            "order": st.lists(st.sampled_from(HOUSES), max_size=6),
            "option": st.one_of(st.sampled_from(["supply", "mustering", "nothing", "units", "fiefdoms"]), scalar),
            "units": st.lists(unitref, max_size=3),
            "remove": st.lists(unitref, max_size=3),
            "recruits": st.lists(st.fixed_dictionaries({"area": st.sampled_from(AREAS), "unit": st.sampled_from(UNITS)},
                                                       optional={"to": st.sampled_from(AREAS), "upgrade": st.booleans()}), max_size=3),
            "card": st.one_of(st.none(), st.sampled_from(["tywin-lannister", "eddard-stark", "patchface", "x"])),
            "extra": scalar,
        },
    ),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 10**6), steps=st.integers(40, 160))
def test_random_legal_play_keeps_invariants(players, seed, steps):
    s = R.new_game(players, seed, {})
    rnd = random.Random(seed)
    check_invariants(s)
    for _ in range(steps):
        if R.result(s) is not None:
            assert R.pending(s) == []
            break
        ds = R.pending(s)
        assert ds
        d = rnd.choice(ds)
        s = R.apply(s, d.actor, random_action(s, d, rnd))
        check_invariants(s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 10**6), warmup=st.integers(0, 60), junk=st.lists(st.tuples(st.sampled_from(HOUSES), junk_action), min_size=1, max_size=6))
def test_malformed_or_illegal_actions_change_nothing(players, seed, warmup, junk):
    s = R.new_game(players, seed, {})
    rnd = random.Random(seed)
    for _ in range(warmup):
        if R.result(s) is not None:
            break
        d = rnd.choice(R.pending(s))
        s = R.apply(s, d.actor, random_action(s, d, rnd))
    for house, data in junk:
        before = s.snapshot()
        try:
            s2 = R.apply(s, house, R.parse_action(data))
        except IllegalAction as exc:
            assert exc.code and exc.message
            assert s.snapshot() == before
            continue
        # accepted: it was legal; the invariants must hold
        check_invariants(s2)
        s = s2
