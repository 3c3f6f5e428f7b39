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
