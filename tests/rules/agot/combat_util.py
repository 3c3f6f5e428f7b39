"""Helpers for the combat tests: build a position with the scenario builder, march, answer decisions."""

from __future__ import annotations

from game.rules.agot import RULESET as R
from game.rules.agot.scenario import build

NO_NEUTRAL = {a: None for a in ("kings-landing", "the-eyrie", "sunspear", "storms-end", "harrenhal", "gulltown", "pyke")}


def position(first=None, **sc):
    """A position from scenario keys (players 6, empty board, no neutral forces unless given), at the
    start of the marches (halting after the action phase's marches and Consolidate Power).
    ``first``: the house whose turn it is to march (default: first in turn order)."""
    base = {"players": 6, "board": "empty", "start": "marches"}
    base.update(sc)
    base["neutral"] = {**{a: None for a in _neutral_areas(base)}, **sc.get("neutral", {})}
    if first is not None:
        base["turn"] = first
    return build(base)


def _neutral_areas(sc):
    s = R.new_game(sc.get("players", 6), 1, {})
    return list(s.neutral)


def act(s, house, action):
    """Apply one JSON action for ``house``."""
    return R.apply(s, house, action)


def march(s, house, origin, to, units, leave_power=False):
    return act(s, house, {"type": "march", "area": origin, "moves": [{"to": to, "units": list(units)}], "leave_power": leave_power})


def pending(s, house=None, kind=None):
    return [d for d in R.pending(s) if (house is None or d.actor == house) and (kind is None or d.kind == kind)]


def decide(s, house, kind):
    ds = pending(s, house, kind)
    assert ds, f"no {kind} decision for {house}: {R.pending(s)}"
    return ds[0]


def support(s, house, side):
    return act(s, house, {"type": "choose", "option": side})


def cards(s, **picks):
    """Both sides pick their house cards (``house=card``), in the given order."""
    for h, c in picks.items():
        s = act(s, h, {"type": "select_card", "card": c})
    return s


def choose(s, house, option):
    return act(s, house, {"type": "choose", "option": option})


def kill(s, house, *units):
    return act(s, house, {"type": "select_units", "units": [{"area": a, "unit": u} for a, u in units]})


def units(s, area):
    """Sorted unit types of ``area`` (routed ones with a ``*``)."""
    return sorted(t + ("*" if r else "") for (_h, t, r) in s.units_of(area))


def owner(s, area):
    return s.owner(area)


def events(s, kind):
    return [e for e in R.view(s, None)["events"] if e["kind"] == kind]


def fight(s):
    return R.view(s, None).get("combat")


def finish(s, blade="pass"):
    """Answer what is left of the current combat with simple choices: Blade ``blade``, the first
    casualties offered, the first retreat area."""
    from game.rules.agot.legal import random_action  # noqa: F401

    for _ in range(20):
        if fight(s) is None:
            return s
        ds = R.pending(s)
        if not ds:
            return s
        d = ds[0]
        if d.kind == "use_blade":
            s = choose(s, d.actor, blade)
        elif d.kind == "casualties":
            s = kill(s, d.actor, *[tuple(u) for u in d.options["units"][: d.options["count"]]])
        elif d.kind == "retreat":
            s = choose(s, d.actor, d.options["options"][0])
        elif d.kind == "support_combat":
            s = choose(s, d.actor, "none")
        else:
            return s
    return s
