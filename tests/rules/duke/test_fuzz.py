"""Bad input gets a clear IllegalAction and changes nothing: random (mostly wrong) actions from
any seat on positions from real games never raise anything else."""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.base import IllegalAction
from game.rules.duke.selfplay import play_game

from .helpers import RULESET

ALL = {"mountain": True, "dragon": True, "duchess": True, "oracle": True}
_STATES = []
play_game(31, ("random", "random"), ALL, on_state=lambda b, a, act, after: _STATES.append(after))
play_game(32, ("random", "random"), None, on_state=lambda b, a, act, after: _STATES.append(after))

squares = st.sampled_from([f"{f}{r}" for f in "abcdef" for r in range(1, 7)] + ["z9", "", 3])
action = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["move"]), "frm": squares, "to": squares,
                           "dragon_facing": st.sampled_from([None, "n", "s", "e"])}),
    st.fixed_dictionaries({"type": st.just("strike"), "frm": squares, "target": squares}),
    st.fixed_dictionaries({"type": st.just("command"), "frm": squares, "piece": squares, "to": squares}),
    st.fixed_dictionaries({"type": st.sampled_from(["draw", "divine"])}),
    st.fixed_dictionaries({"type": st.sampled_from(["place", "summon"]), "square": squares}),
    st.fixed_dictionaries({"type": st.just("divine_choose"), "keep": st.integers(-1, 4), "square": squares,
                           "destroy": st.lists(st.integers(-1, 4), max_size=3)}),
    st.fixed_dictionaries({"type": st.just("setup"), "duke": squares, "footmen": st.lists(squares, max_size=3)}),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(_STATES) - 1), data=action, seat=st.sampled_from(["light", "dark", "x"]))
def test_random_actions_are_refused_cleanly(index, data, seat):
    state = _STATES[index]
    snap = copy.deepcopy(state)
    try:
        act = RULESET.parse_action(data)
        RULESET.apply(state, seat, act)
    except IllegalAction as e:
        assert e.code and e.message
    assert state == snap
