"""Shared helpers for the agot2 rules tests: random legal play and the state invariants."""

from __future__ import annotations

import json
import random

from game.rules.agot import RULESET as R
from game.rules.agot.legal import random_action
from game.rules.agot.selfplay import InvariantBroken
from game.rules.agot.selfplay import check_invariants as engine_invariants


def check_invariants(s) -> None:
    """Assert the engine's invariants on state ``s`` (the one checker the self-play sweep uses,
    :func:`game.rules.agot.selfplay.check_invariants`; it leaves supply unchecked while a combat is
    pending, whose attackers still stand in their origin but already count in the contested area,
    as the march's own check counted them), then that no view holds another house's hidden items."""
    try:
        engine_invariants(s)
    except InvariantBroken as e:
        raise AssertionError(str(e)) from None
    check_views(s)


def check_views(s) -> None:
    """No view holds another house's hidden items."""
    pend = R.pending(s)
    for viewer in list(s.houses) + [None]:
        v = R.view(s, viewer)
        json.dumps(v)
        if viewer is None or viewer not in s.placed:
            assert "my_orders" not in v
        else:
            assert v["my_orders"] == dict(s.placed[viewer])
        bids = dict(s.ctx.get("bids", ()))
        if viewer in bids:
            assert v["my_bid"] == bids[viewer]
        else:
            assert "my_bid" not in v
        fight = s.ctx.get("combat")
        if fight is not None and s.result is None:
            chosen = dict(fight.chosen)
            assert v["combat"].get("my_card") == chosen.get(viewer)
            assert "cards" not in v["combat"] or fight.revealed
            for h, c in chosen.items():
                if h != viewer:
                    assert c not in json.dumps(v["combat"]) and c not in json.dumps(v["pending"])
            if not fight.tides_revealed:
                assert "tides" not in v["combat"]
                assert v["combat"].get("my_tides") == dict(fight.tides).get(viewer)
        if "wildling_top" in v:
            assert s.ctx["raven_saw"][0] == viewer
        for item, d in zip(v["pending"], pend):
            assert ("options" in item) == (d.actor == viewer)
        for e in v["events"]:
            assert e["to"] in (None, viewer)
        assert "rng_n" not in v and "seed" not in v


def play_random(players: int, seed: int, max_steps: int = 5000, check: bool = False, log: list | None = None, options: dict | None = None):
    """Play random legal decisions until the game ends; return the final state."""
    s = R.new_game(players, seed, options or {})
    rnd = random.Random(seed)
    steps = 0
    while R.result(s) is None and steps < max_steps:
        ds = R.pending(s)
        assert ds, "no pending decision in a running game"
        d = rnd.choice(ds)
        a = random_action(s, d, rnd)
        s = R.apply(s, d.actor, a)
        if log is not None:
            log.append((d.actor, a))
        if check:
            check_invariants(s)
        steps += 1
    return s
