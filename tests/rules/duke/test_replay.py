"""A game is its log: replaying (seed, options, actions) gives the same states and views."""

from game.rules.duke.selfplay import play_game, play_games, replay

from .helpers import RULESET

ALL = {"mountain": True, "dragon": True, "duchess": True, "oracle": True}


def test_replay_reproduces_the_game():
    for seed, opts in ((1, None), (2, ALL), (3, ALL)):
        g = play_game(seed, ("basic", "random"), opts)
        states = list(replay(seed, opts, g["actions"]))
        last = states[-1]
        assert RULESET.result(last) == {"winner": g["winner"], "reason": g["reason"]}
        assert last.turn == g["turns"]
        again = list(replay(seed, opts, g["actions"]))[-1]
        assert again == last
        assert RULESET.view(again, "light") == RULESET.view(last, "light")


def test_self_play_is_deterministic():
    a = [(g["winner"], g["reason"], g["turns"], len(g["actions"])) for g in play_games(5, 42, ("random", "basic"), ALL)]
    b = [(g["winner"], g["reason"], g["turns"], len(g["actions"])) for g in play_games(5, 42, ("random", "basic"), ALL)]
    assert a == b
    c = [(g["winner"], g["reason"], g["turns"], len(g["actions"])) for g in play_games(5, 43, ("random", "basic"), ALL)]
    assert a != c


def test_apply_leaves_its_input_untouched():
    import copy

    g = play_game(9, ("random", "random"), ALL)
    states = list(replay(9, ALL, g["actions"][:40]))
    for before, entry in zip(states, g["actions"]):
        snap = copy.deepcopy(before)
        RULESET.apply(before, entry["actor"], RULESET.parse_action(entry["action"]))
        assert before == snap


def test_states_pickle():
    """A state can be cached as a pickle (a snapshot is only a cache of the log's fold)."""
    import pickle

    g = play_game(4, ("random", "random"), ALL, max_actions=60)
    last = [s for s in replay(4, ALL, g["actions"]) if RULESET.result(s) is None][-1]
    again = pickle.loads(pickle.dumps(last))
    assert again == last
    assert RULESET.view(again, "dark") == RULESET.view(last, "dark")
    assert RULESET.pending(again)[0].as_dict() == RULESET.pending(last)[0].as_dict()
