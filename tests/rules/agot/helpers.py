"""Shared helpers for the agot2 rules tests: random legal play and the state invariants."""

from __future__ import annotations

import json
import random
from collections import Counter

from game.rules.agot import RULESET as R
from game.rules.agot.control import pool_left, within_supply
from game.rules.agot.data import board
from game.rules.agot.legal import random_action


def check_invariants(s) -> None:
    """Assert the invariants of issue 3 on state ``s``."""
    b = board()
    counts = {h: Counter() for h in s.houses}
    for area, us in s.units.items():
        assert us, area
        houses = {u[0] for u in us}
        assert len(houses) == 1, f"two houses in {area}"
        h = us[0][0]
        assert area not in s.blocked and area not in s.neutral, area
        for _, t, _r in us:
            counts[h][t] += 1
            if t == "ship":
                assert b.kind(area) in ("sea", "port"), area
            else:
                assert b.kind(area) == "land", area
        if b.kind(area) == "port":
            assert len(us) <= 3
    for h, c in counts.items():
        for t, n in c.items():
            assert n <= b.unit_limits[t], (h, t, n)
    reconciling = {t[1] for t in s.tasks if t[0] == "reconcile"}
    for h in s.houses:
        if h not in reconciling:
            assert within_supply(s, h), f"{h} over supply"
        assert s.power[h] >= 0
        on_board = sum(1 for x in s.power_tokens.values() if x == h)
        assert s.power[h] + on_board + pool_left(s, h) == 20
        assert s.power[h] + on_board <= 20
        fight = s.ctx.get("combat")
        # after clean-up (step "after": After-combat abilities) the played cards are already discarded
        in_play = tuple(c for hh, c in fight.cards if hh == h and c) if fight and fight.step != "after" else ()
        assert sorted(s.hands[h] + s.discards[h] + in_play) == sorted(c["id"] for c in b.houses[h]["house_cards"])
    for area, (h, tok) in s.orders.items():
        if fight is not None and area in (fight.origin, fight.area):
            # during a combat its two orders stay even if a card ability (Mace Tyrell) killed the
            # last unit there, and the March order stays until the combat ends (Ser Loras)
            continue
        assert s.owner(area) == h, f"order of {h} in {area} without its units"
    for area, h in s.power_tokens.items():
        assert b.is_land(area)
        assert s.owner(area) in (None, h)
    for t, order in s.tracks.items():
        assert sorted(order) == sorted(s.houses)
    assert 0 <= s.threat <= 12
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
