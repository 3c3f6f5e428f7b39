"""Shared helpers of the 1st edition's tests: random legal play with the rules' invariants and
the per-viewer redaction checked after every action."""

from __future__ import annotations

import json
import random

from game.rules.agot import RULESET_1E as R
from game.rules.agot.legal import random_action
from game.rules.agot.selfplay import LastCardCheck, check_invariants


def check_views(s) -> None:
    """No view holds another house's hidden items (face-down orders, bids, chosen cards, options
    of others' decisions, private events), and every view is JSON."""
    pend = R.pending(s)
    bids = dict(s.ctx.get("bids", ()))
    fight = s.ctx.get("combat")
    for viewer in list(s.houses) + [None]:
        v = R.view(s, viewer)
        text = json.dumps(v)
        assert v["ruleset"] == "agot1"
        assert ("my_orders" in v) == (viewer in s.placed)
        assert ("my_bid" in v) == (viewer in bids)
        if fight is not None and s.result is None:
            for h, c in fight.chosen:
                if h != viewer:
                    assert c not in json.dumps(v["combat"]) and c not in json.dumps(v["pending"])
        for h, orders in s.placed.items():  # others see where a face-down order lies, not which
            assert v["placed_areas"][h] == sorted(a for a, _ in orders)
        assert "open_orders" not in v and "open_bids" not in v
        for item, d in zip(v["pending"], pend):
            assert ("options" in item) == (d.actor == viewer)
        for e in v["events"]:
            assert e["to"] in (None, viewer)
        assert "rng_n" not in text and '"seed"' not in text and "wildling_top" not in v


def play_random(players: int, seed: int, max_steps: int = 3000, check: bool = False, views: bool = False, log: list | None = None):
    """Random legal decisions (:func:`game.rules.agot.legal.random_action`) until the game ends or
    ``max_steps``; the final state."""
    s = R.new_game(players, seed, {})
    rnd = random.Random(seed)
    last_card = LastCardCheck()
    for _ in range(max_steps):
        if R.result(s) is not None:
            break
        ds = R.pending(s)
        assert ds, "no pending decision in a running game"
        d = rnd.choice(ds)
        a = random_action(s, d, rnd)
        after = R.apply(s, d.actor, a)
        if log is not None:
            log.append((d.actor, a))
        if check:
            check_invariants(after)
            last_card.step(s, after)
        s = after
        if views:
            check_views(s)
    return s
