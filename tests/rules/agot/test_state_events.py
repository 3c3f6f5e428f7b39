"""``events(state)`` (game/rules/agot/state.py): the events of a state's chain, oldest first,
walked once per state and continued from what a state it was cloned from had already walked;
always the same as walking the chain, whatever was asked before."""

from __future__ import annotations

import pickle

from game.rules.agot import RULESET as R
from game.rules.agot.state import events


def _walk(state) -> list:
    out, node = [], state.log
    while node is not None:
        out.append(node[0])
        node = node[1]
    return out[::-1]


def test_events_continue_from_the_state_cloned_from():
    parent = R.new_game(6, 7, {}).clone()
    for i in range(50):
        parent.emit("test", n=i)
    before = list(events(parent))
    assert before == _walk(parent)
    child = parent.clone()
    child.emit("test", n=50)
    child.emit("test", n=51)
    got = list(events(child))
    assert got == _walk(child) and [e.get("n") for e in got[-3:]] == [49, 50, 51]
    head, kept = child._events_seen
    assert head is child.log and all(a is b for a, b in zip(kept, before))  # the parent's walk, continued
    assert list(events(parent)) == before  # the parent is unchanged by its child's events
    assert list(events(child)) == got  # asked again: the same


def test_a_chain_that_does_not_continue_the_kept_one_is_walked_whole():
    parent = R.new_game(3, 1, {}).clone()
    parent.emit("test", n=1)
    list(events(parent))
    child = parent.clone()
    child.log = None  # as a scenario's board starts with an empty log
    assert list(events(child)) == []
    child.emit("test", n=2)
    assert [e.get("n") for e in events(child)] == [2]
    other = parent.clone()
    other.log = ({"kind": "test", "round": 1, "to": None, "n": 9}, None)  # another chain altogether
    assert [e.get("n") for e in events(other)] == [9]


def test_the_kept_walk_is_not_part_of_the_game():
    s = R.new_game(4, 3, {}).clone()
    s.emit("test", n=1)
    list(events(s))
    back = pickle.loads(pickle.dumps(s))
    assert back._events_seen is None  # not pickled: made again when asked
    assert back == s
    assert list(events(back)) == list(events(s))
    fresh = R.new_game(4, 3, {}).clone()
    fresh.emit("test", n=1)
    assert fresh == s  # compared by the game's fields only


def _told(state, viewer) -> list:
    return [e for e in _walk(state) if e["to"] is None or e["to"] == viewer]


def test_the_events_told_to_a_viewer_are_filtered_once_and_continued_by_clones():
    from game.rules.agot.state import events_told

    parent = R.new_game(3, 5, {}).clone()
    houses = list(parent.houses)
    for i in range(30):
        parent.emit("test", to=(None if i % 3 else houses[i % 2]), n=i)
    for viewer in (None, *houses):
        assert events_told(parent, viewer) == _told(parent, viewer)
    child = parent.clone()
    child.emit("test", to=houses[0], n=30)
    child.emit("test", n=31)
    assert child._told_seen is parent._told_seen  # handed on
    n, last, _ = parent._told_seen[houses[0]]
    assert n == len(_walk(parent)) and last is _walk(parent)[-1]
    # continued from what the parent filtered (a marker in its place shows it is used)
    parent._told_seen[houses[0]] = (n, last, ("kept",))
    assert events_told(child, houses[0])[0] == "kept"
    assert [e.get("n") for e in events_told(child, houses[0])[-2:]] == [30, 31]
    del parent._told_seen[houses[0]]
    assert [e.get("n") for e in events_told(child, houses[1])[-2:]] == [29, 31]
    for viewer in (None, *houses):  # the parent, asked after its child, is unchanged
        assert events_told(parent, viewer) == _told(parent, viewer)
        assert events_told(child, viewer) == _told(child, viewer)


def test_the_events_told_fit_any_chain_they_are_asked_of():
    """A kept list that does not fit the state's chain (a branch with other events, a chain set
    anew, a copy through pickle, an earlier state asked after a later one) is not used."""
    from game.rules.agot.state import events_told

    base = R.new_game(3, 2, {}).clone()
    a_house = base.houses[0]
    for i in range(10):
        base.emit("test", to=a_house if i % 2 else None, n=i)
    events_told(base, a_house)
    left, right = base.clone(), base.clone()
    left.emit("test", to=a_house, n="left")
    right.emit("test", n="right")
    for state in (left, right, left, base, right):  # branches sharing one memo, in turn
        for viewer in (None, a_house):
            assert events_told(state, viewer) == _told(state, viewer)
    fresh = right.clone()
    fresh.log = None  # a scenario's board
    fresh.emit("test", to=a_house, n="new")
    assert [e["n"] for e in events_told(fresh, a_house)] == ["new"]
    assert events_told(fresh, None) == []
    back = pickle.loads(pickle.dumps(left))
    assert back._told_seen is None and events_told(back, a_house) == _told(left, a_house)
    # a real game's views, version after version, for every viewer
    state = R.new_game(4, 11, {})
    import random

    rnd = random.Random(11)
    for _ in range(120):
        actor = R.pending(state)[0].actor
        state = R.apply(state, actor, R.bot_action(state, actor, "random", rnd.getrandbits(62)))
        for viewer in (None, *state.houses):
            assert R.view(state, viewer)["events"] == _told(state, viewer)
