"""Bots: legal, deterministic in their seed, blind to hidden information; basic beats random."""

from dataclasses import replace

from game.rules.duke.selfplay import play_games

from .helpers import RULESET, actions, build


def test_bots_choose_legal_actions_deterministically():
    s = build({"c1": "light duke", "c2": "light footman", "f6": "dark duke", "c4": "dark pikeman"})
    legal = actions(s)
    for level in ("random", "basic"):
        a = RULESET.bot_action(s, "light", level, 5)
        assert {"type": a.type, **a.__dict__} in [dict(x, **({"footmen": tuple(x["footmen"])} if "footmen" in x else {})) for x in legal]
        assert RULESET.bot_action(s, "light", level, 5) == a


def test_bots_ignore_the_hidden_generator():
    s = build({"c1": "light duke", "c2": "light footman", "f6": "dark duke", "c4": "dark pikeman"})
    for level in ("random", "basic"):
        for seed in range(5):
            assert RULESET.bot_action(s, "light", level, seed) == RULESET.bot_action(
                replace(s, rng=s.rng + 99), "light", level, seed)


def test_basic_takes_the_free_tile_and_keeps_its_duke_safe():
    s = build({"c1": "light duke", "c2": "light footman", "f6": "dark duke", "c3": "dark knight"})
    a = RULESET.bot_action(s, "light", "basic", 1)
    assert (a.type, a.frm, a.to) == ("move", "c2", "c3")


def test_basic_beats_random():
    wins = 0
    for g in play_games(8, 11, ("basic", "random")):
        wins += g["winner"] == "light"
    for g in play_games(8, 12, ("random", "basic")):
        wins += g["winner"] == "dark"
    assert wins >= 12
