"""Random legal actions for a pending decision (for tests, and a base for the random bot).

:func:`random_action` returns an action that ``apply`` accepts for ``decision``, drawn with the
given ``random.Random``. It uses the decision's options (what that house may see) plus the
public board, and retries a few random tries before falling back to an always-legal choice
(no moves, no recruits, pass).
"""

from __future__ import annotations

import random

from ..base import Decision, IllegalAction
from . import actions as A
from .data import board
from .state import State

TRIES = 6


def _try(state: State, decision: Decision, make, fallback):
    from .flow import apply

    for _ in range(TRIES):
        act = make()
        try:
            apply(state, decision.actor, act)
            return act
        except IllegalAction:
            continue
    return fallback


def random_action(state: State, decision: Decision, rnd: random.Random):
    b = board(state)
    o = decision.options
    k = decision.kind
    h = decision.actor
    if k == "place_orders" and o.get("not_allowed"):
        from .options import random_order_set

        return A.PlaceOrders(tuple(sorted(random_order_set(o, rnd).items())))
    if k == "place_orders":
        stars = o["special_allowed"]
        toks = [t for t in o["tokens"] if t not in o["forbidden"]]
        rnd.shuffle(toks)
        chosen, sp = [], 0
        for t in toks:
            if b.order_tokens[t].special:
                if sp >= stars:
                    continue
                sp += 1
            chosen.append(t)
            if len(chosen) == o["must_place"]:
                break
        areas = rnd.sample(o["areas"], o["must_place"])
        return A.PlaceOrders(tuple(sorted(zip(areas, chosen))))
    if k == "raven":
        r = rnd.random()
        if r < 0.3 and o["areas"] and o["unused_tokens"]:
            return _try(
                state, decision, lambda: A.Raven("replace", rnd.choice(o["areas"]), rnd.choice(o["unused_tokens"])), A.Raven("pass")
            )
        return A.Raven("peek") if r < 0.6 and "peek" in o["choices"] else A.Raven("pass")
    if k == "raven_wildling":
        return A.RavenKeep(rnd.random() < 0.5)
    if k == "raid":
        area = rnd.choice(sorted(o["raids"]))
        targets = o["raids"][area]
        if area in o.get("two_targets", ()) and len(targets) >= 2 and rnd.random() < 0.5:
            return A.Raid(area, *rnd.sample(targets, 2))
        return A.Raid(area, rnd.choice(targets) if targets and rnd.random() < 0.8 else None)
    if k == "march":
        area = rnd.choice(sorted(o["marches"]))
        m = o["marches"][area]

        def make():
            dests: dict[str, list[str]] = {}
            for ut, n in m["units"].items():
                for _ in range(n):
                    if rnd.random() < 0.4:
                        continue
                    pool = m["ship"] if ut == "ship" else m["land"]
                    if pool:
                        dests.setdefault(rnd.choice(pool), []).append(ut)
            return A.March(area, tuple(A.Move(d, tuple(u)) for d, u in sorted(dests.items())), rnd.random() < 0.5)

        return _try(state, decision, make, A.March(area))
    if k in ("support_combat", "use_blade", "retreat"):
        return A.Choose(rnd.choice(o["options"]))
    if k == "choose_house_card":
        return A.SelectCard(rnd.choice(o["cards"]))
    if k == "casualties":
        units = [tuple(u) for u in o["units"]]
        return A.SelectUnits(tuple(A.UnitRef(a, u) for a, u in rnd.sample(units, o["count"])))
    if k == "support_neutral_attack":
        return A.Support(rnd.random() < 0.5)
    if k == "consolidate":
        area = rnd.choice(o["areas"])
        if area not in o["muster"] or rnd.random() < 0.5:
            return A.Consolidate(area)
        return _try(state, decision, lambda: A.Consolidate(area, _recruits(state, h, [area], rnd)), A.Consolidate(area))
    if k == "muster":
        areas = o["areas"]
        if o.get("one_area"):
            areas = [rnd.choice(areas)]
        return _try(state, decision, lambda: A.Muster(_recruits(state, h, areas, rnd)), A.Muster(()))
    if k == "reduce_armies":
        return A.Reconcile(_reduction(state, h))
    if k == "bid":
        return A.Bid(rnd.randint(0, o["max"]))
    if k == "order_ties":
        order = []
        for g in o["groups"]:
            g = list(g)
            rnd.shuffle(g)
            order += g
        return A.OrderTies(tuple(order))
    if k == "choose":
        return A.Choose(rnd.choice(o["options"]))
    if k == "select_units":
        p = o["purpose"]
        if p == "wildlings_muster_points":
            from .wildlings import muster_point_plan

            units = [tuple(u) for u in o["units"]]
            rnd.shuffle(units)
            return A.SelectUnits(tuple(A.UnitRef(a, u) for a, u in muster_point_plan(units, o["points"])))
        if p == "crow_killers_upgrade":
            foot = list(o["footmen"])
            n = rnd.randint(0, o["max"])
            return A.SelectUnits(tuple(A.UnitRef(a, "footman") for a in rnd.sample(foot, n)))
        units = [tuple(u) for u in o["units"]]
        if p == "crow_killers_knights":
            units = [u for u in units if u[1] == "knight"]
        if p == "horde_castle":
            area = rnd.choice(o["areas"])
            units = [u for u in units if u[0] == area]
        return A.SelectUnits(tuple(A.UnitRef(a, u) for a, u in rnd.sample(units, o["count"])))
    if k == "select_card":
        if o.get("optional") and rnd.random() < 0.3:
            return A.SelectCard(None)
        return A.SelectCard(rnd.choice(o["cards"]))
    raise ValueError(f"no random action for decision kind {k!r}")  # pragma: no cover


def _recruits(state: State, house: str, areas: list[str], rnd: random.Random) -> tuple:
    from .mustering import muster_points, ship_targets

    out = []
    for a in areas:
        pts = muster_points(a, state)
        while pts > 0 and rnd.random() < 0.8:
            unit = rnd.choice(("footman", "knight", "ship", "siege_engine", "upgrade"))
            if unit == "upgrade":
                out.append(A.Recruit(a, rnd.choice(("knight", "siege_engine")), None, True))
                pts -= 1
            elif unit == "ship":
                ts = ship_targets(state, house, a)
                if not ts:
                    continue
                out.append(A.Recruit(a, "ship", rnd.choice(ts)))
                pts -= 1
            else:
                cost = 2 if unit in ("knight", "siege_engine") else 1
                if cost > pts:
                    continue
                out.append(A.Recruit(a, unit))
                pts -= cost
    return tuple(out)


def _reduction(state: State, house: str) -> tuple:
    from .supply import min_removals

    work = {a: [u[1] for u in us] for a, us in state.units.items() if us[0][0] == house}
    level = state.supply[house]
    removed = []

    def need() -> int:
        return min_removals(sorted((len(v) for v in work.values() if len(v) >= 2), reverse=True), level, state)

    while need() > 0:
        cur = need()
        for a in sorted(work, key=lambda x: -len(work[x])):
            if len(work[a]) < 2:
                continue
            ut = work[a].pop()
            if need() == cur - 1:
                removed.append(A.UnitRef(a, ut))
                break
            work[a].append(ut)
        else:  # pragma: no cover - min_removals guarantees progress
            break
    return tuple(removed)
