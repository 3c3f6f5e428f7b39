"""A state pickles flat (live play's snapshots, ``game.live.snapshots.dump``): a long game's
event chain must not make pickle recurse once per event."""

import pickle

from game.rules.agot import RULESET as R
from game.rules.agot.state import events


def test_a_state_with_thousands_of_events_pickles_and_comes_back_equal():
    s = R.new_game(6, 7, {}).clone()
    for i in range(5000):  # a long 6-player game logs a few thousand events
        s.emit("test", n=i)
    back = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == s
    assert [e.get("n") for e in events(back)][-3:] == [4997, 4998, 4999]
    assert R.pending(back) == R.pending(s)


def test_a_fresh_game_round_trips():
    s = R.new_game(3, 1, {})
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.log is not None
