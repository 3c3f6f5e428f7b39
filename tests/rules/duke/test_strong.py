"""The strong bot: legal, deterministic when bounded by depth, blind to the hidden generator, it
takes a Duke it can take and sees a threat two turns away, its budget bounds it, and it beats the
basic bot (a short fixed-seed series; the bench plays the long one)."""

from __future__ import annotations

import time
from dataclasses import replace

from game.rules.duke import bots, strong
from game.rules.duke import rng as R
from game.rules.duke.actions import parse_action, to_tuple
from game.rules.duke.selfplay import game_seed

from .helpers import RULESET, actions, build

UNBOUNDED = float("inf")


def _strong(state, seed: int = 1, depth: int = 2):
    actor = RULESET.pending(state)[0].actor
    return bots.bot_action(RULESET, state, actor, "strong", seed, budget=UNBOUNDED, max_depth=depth)


def test_strong_is_a_level_of_the_ruleset():
    s = build({"c1": "light duke", "c2": "light footman", "f6": "dark duke", "c4": "dark pikeman"})
    a = RULESET.bot_action(s, "light", "strong", 5, 0.2)
    assert a in [parse_action(x) for x in actions(s)]


def test_deterministic_when_bounded_by_depth_and_blind_to_the_generator():
    s = build({"c1": "light duke", "c2": "light footman", "b1": "light knight", "f6": "dark duke", "c4": "dark pikeman", "e5": "dark footman"})
    a = _strong(s, 3)
    assert _strong(s, 3) == a
    assert _strong(replace(s, rng=s.rng + 99), 3) == a


def test_takes_the_duke():
    s = build({"a1": "light duke", "e5": "light footman", "e6": "dark duke", "a6": "dark footman"})
    a = _strong(s)
    assert (a.type, a.frm, a.to) == ("move", "e5", "e6")


def test_keeps_its_duke_out_of_a_two_turn_trap():
    """Every action of the search's tree keeps the Duke alive two plies on: the chosen one is never
    a move after which the opponent takes the Duke."""
    s = build({"c1": "light duke", "c2": "light footman", "d1": "light footman", "f6": "dark duke", "c4": "dark pikeman", "e3": "dark knight"})
    a = _strong(s, 2)
    after = RULESET.apply(s, "light", a)
    for reply in actions(after) if RULESET.pending(after) and RULESET.pending(after)[0].actor == "dark" else []:
        nxt = RULESET.apply(after, "dark", parse_action(reply))
        assert RULESET.result(nxt) is None or RULESET.result(nxt)["winner"] != "dark"


def test_the_budget_and_the_node_limit_bound_the_search():
    s = build({"c1": "light duke", "c2": "light footman", "b1": "light knight", "d1": "light footman",
               "f6": "dark duke", "c4": "dark pikeman", "e5": "dark footman", "d6": "dark knight"})
    v = RULESET.view(s, "light")
    tuples = [to_tuple(parse_action(x)) for x in actions(s)]
    t = time.process_time()
    _, info = strong.search_action(v, "light", tuples, budget=0.0)
    assert info["depth"] <= 1 and time.process_time() - t < 1.0
    one = strong.search_action(v, "light", tuples, budget=None, max_nodes=300)
    assert one == strong.search_action(v, "light", tuples, budget=None, max_nodes=300)
    assert one[1]["depth"] < strong.MAX_DEPTH


def test_strong_beats_basic_in_a_short_series():
    wins = 0
    games = 6
    for i in range(games):
        seed = game_seed(5, i)
        me = ("light", "dark")[i % 2]
        s = RULESET.new_game(2, seed, {})
        for k in range(400):
            if RULESET.result(s) is not None:
                break
            actor = RULESET.pending(s)[0].actor
            _, bot_seed = R.next_u64(R.seed_state(seed + 7919 * k))
            if actor == me:
                a = bots.bot_action(RULESET, s, actor, "strong", bot_seed, budget=UNBOUNDED, max_depth=2)
            else:
                a = RULESET.bot_action(s, actor, "basic", bot_seed)
            s = RULESET.apply(s, actor, a)
        wins += (RULESET.result(s) or {}).get("winner") == me
    assert wins >= 5
