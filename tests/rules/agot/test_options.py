"""Decision options are complete: in many random positions, every action built from a decision's
options alone (no rules knowledge, no engine helpers) is accepted by ``apply``.

The builders below are the contract written down in docs/scenarios.md ("Decisions"): each one
reads only ``Decision.options`` and produces the single-choice actions the options promise.
"""

from __future__ import annotations

import random

import pytest

from game.rules.agot import RULESET as R
from game.rules.agot.data import board
from game.rules.agot.legal import random_action
from game.rules.agot.support import unit_strength
from game.rules.base import IllegalAction

#: refusals an option-built action may still meet, by rule (none: every option is a legal choice)
TOLERATED: set[str] = set()


def _pick_units(rnd: random.Random, standing: dict[str, int], kinds: list[str], n: int) -> list[str]:
    pool = [t for t in kinds for _ in range(standing.get(t, 0))]
    return rnd.sample(pool, n)


def option_actions(d, rnd: random.Random) -> list[dict]:
    """Single-choice actions (JSON) built only from ``d.options``."""
    o, k = d.options, d.kind
    out: list[dict] = []
    if k == "place_orders":
        info = o["token_info"]
        for _ in range(3):
            toks = [t for t in o["tokens"] if t not in o["forbidden"]]
            rnd.shuffle(toks)
            chosen, sp = [], 0
            for t in toks:
                if info[t]["special"]:
                    if sp >= o["special_allowed"]:
                        continue
                    sp += 1
                chosen.append(t)
            areas = rnd.sample(o["areas"], o["must_place"])
            out.append({"type": "place_orders", "orders": dict(zip(areas, chosen))})
    elif k == "raven":
        out += [{"type": "raven", "choice": "pass"}, {"type": "raven", "choice": "peek"}]
        for area, toks in o["replacements"].items():
            assert area in o["areas"]
            for t in toks:
                assert t in o["unused_tokens"]
                out.append({"type": "raven", "choice": "replace", "area": area, "token": t})
    elif k == "raven_wildling":
        out += [{"type": "raven_keep", "bottom": b} for b in (False, True)]
    elif k == "raid":
        for area, targets in o["raids"].items():
            out += [{"type": "raid", "area": area, "target": t} for t in targets + [None]]
    elif k == "march":
        for area, m in o["marches"].items():
            out.append({"type": "march", "area": area, "moves": []})
            total = sum(m["units"].values())
            for dest, dd in m["destinations"].items():
                assert dest in m["land"] or dest in m["ship"]
                assert (dest in m["transport"]) == (dd["by"] == "transport")
                for n in dd["counts"]:
                    units = _pick_units(rnd, m["units"], dd["units"], n)
                    if dd["fight"] == "neutral":  # the strongest units: a march that cannot win is refused
                        castle = board().areas[dest].castle is not None
                        pool = [t for t in dd["units"] for _ in range(m["units"].get(t, 0))]
                        units = sorted(pool, key=lambda t: -unit_strength(t, False, castle))[:n]
                    act = {"type": "march", "area": area, "moves": [{"to": dest, "units": units}]}
                    out.append(act)
                    if n == total and m["routed"] == 0 and m["leave_power"]:
                        out.append(dict(act, leave_power=True))
    elif k == "support_neutral_attack":
        out += [{"type": "support", "give": g} for g in o["choices"]]
    elif k in ("consolidate", "muster"):
        recruits = o["muster"] if k == "consolidate" else o["recruits"]
        if k == "consolidate":  # every remaining order; only the special ones in a castle muster
            assert set(recruits) <= set(o["areas"]) and set(o["power"]) == set(o["areas"])
            out += [{"type": "consolidate", "area": a} for a in o["areas"]]
        else:
            assert sorted(recruits) == sorted(o["areas"])
        for area, r in recruits.items():
            singles = [{"area": area, "unit": u} for u in r["units"]]
            singles += [{"area": area, "unit": "ship", "to": s} for s in r["ships"]]
            singles += [{"area": area, "unit": u, "upgrade": True} for u in r["upgrades"]]
            for u in r["units"]:
                assert r["costs"][u] <= r["points"]
            if k == "consolidate":
                out += [{"type": "consolidate", "area": area, "muster": [s]} for s in singles]
            else:
                out += [{"type": "muster", "recruits": [s]} for s in singles]
        if k == "muster":
            out.append({"type": "muster", "recruits": []})
    elif k == "reduce_armies":
        assert o["plans"]
        for plan in o["plans"][:20]:
            assert sum(plan.values()) == o["remove"]
            remove = []
            for area, n in plan.items():
                remove += [{"area": area, "unit": u} for u in _pick_units(rnd, o["units"][area], sorted(o["units"][area]), n)]
            out.append({"type": "reconcile", "remove": remove})
    elif k == "bid":
        out += [{"type": "bid", "amount": a} for a in sorted({0, o["max"], rnd.randint(0, o["max"])})]
    elif k == "order_ties":
        order = []
        for g in o["groups"]:
            g = list(g)
            rnd.shuffle(g)
            order += g
        out.append({"type": "order_ties", "order": order})
    elif k == "choose":
        out += [{"type": "choose", "option": x} for x in o["options"]]
    elif k == "select_units":
        cands = [tuple(c) for c in o["candidates"]]
        for _ in range(3):
            n = rnd.randint(o["min"], o["max"])
            pool = cands
            if o["same_area"]:
                area = rnd.choice(o["areas"])
                pool = [c for c in cands if c[0] == area]
            out.append({"type": "select_units", "units": [{"area": a, "unit": u} for a, u in rnd.sample(pool, n)]})
    elif k == "select_card":
        out += [{"type": "select_card", "card": c} for c in o["cards"]]
        if o["optional"]:
            out.append({"type": "select_card", "card": None})
    elif k in ("support_combat", "use_blade", "retreat"):
        out += [{"type": "choose", "option": x} for x in o["options"]]
    elif k == "choose_house_card":
        out += [{"type": "select_card", "card": c} for c in o["cards"]]
    elif k == "casualties":
        for _ in range(3):
            picked = rnd.sample([tuple(u) for u in o["units"]], o["count"])
            out.append({"type": "select_units", "units": [{"area": a, "unit": u} for a, u in picked]})
    else:
        raise AssertionError(f"decision kind {k!r} has no option builder: document its options and add one here")
    return out


def check_position(s, rnd: random.Random) -> int:
    n = 0
    for d in R.pending(s):
        for act in option_actions(d, rnd):
            try:
                R.apply(s, d.actor, act)
            except IllegalAction as e:
                if e.code in TOLERATED:
                    continue
                raise AssertionError(f"{d.kind} option action refused: {act} -> {e.code}: {e.message}") from None
            n += 1
    return n


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3), (6, 4), (3, 5), (6, 6)])
def test_option_built_actions_are_accepted(players, seed):
    s = R.new_game(players, seed, {})
    rnd = random.Random(seed)
    kinds = set()
    checked = 0
    while R.result(s) is None:
        checked += check_position(s, rnd)
        kinds.update(d.kind for d in R.pending(s))
        d = rnd.choice(R.pending(s))
        s = R.apply(s, d.actor, random_action(s, d, rnd))
    assert checked > 100
    assert {"place_orders", "raven", "march", "bid"} <= kinds


RARE = {"reduce_armies", "select_units", "select_card", "support_neutral_attack", "consolidate", "choose", "raven_wildling", "order_ties"}


def test_rare_decisions_options_over_many_games():
    """The rarer decisions (wildling cards, supply reductions, neutral support) over 24 games."""
    seen = set()
    for seed in range(100, 124):
        s = R.new_game(3 + seed % 4, seed, {})
        rnd = random.Random(seed)
        while R.result(s) is None:
            ds = R.pending(s)
            if any(d.kind in RARE or d.options.get("purpose") == "horde_descends" for d in ds):
                check_position(s, rnd)
                seen.update(d.kind for d in ds)
            d = rnd.choice(ds)
            s = R.apply(s, d.actor, random_action(s, d, rnd))
    assert {"reduce_armies", "select_units", "select_card", "choose"} <= seen


def test_march_options_list_transport_and_power_token():
    """Ship transport (战舰运输) and leaving a power token (建立控制权) are in the options."""
    from game.rules.agot.scenario import build

    s = build(
        {
            "players": 6,
            "board": "empty",
            "units": {
                "highgarden": {"house": "tyrell", "units": ["footman", "knight"]},
                "west-summer-sea": {"house": "tyrell", "units": ["ship"]},
                "east-summer-sea": {"house": "tyrell", "units": ["ship"]},
            },
            "orders": {"highgarden": "march", "west-summer-sea": "support", "east-summer-sea": "support"},
            "start": "marches",
        }
    )
    (d,) = R.pending(s)
    m = d.options["marches"]["highgarden"]
    assert "sunspear" in m["transport"] and m["destinations"]["sunspear"]["by"] == "transport"
    assert m["destinations"]["sunspear"]["fight"] == "combat"  # Martell's home garrison
    assert m["destinations"]["oldtown"]["by"] == "adjacent"
    assert m["leave_power"] is False  # Highgarden is Tyrell's home: kept without a token
    s2 = R.apply(s, "tyrell", {"type": "march", "area": "highgarden", "moves": [{"to": "dornish-marches", "units": ["footman", "knight"]}]})
    assert s2.units_of("dornish-marches")


def test_muster_options_respect_supply_and_ports():
    from game.rules.agot.scenario import build

    s = build(
        {
            "players": 6,
            "board": "empty",
            "units": {"sunspear": {"house": "martell", "units": ["footman", "footman"]},
                      "east-summer-sea": {"house": "tyrell", "units": ["ship"]}},
            "supply": {"martell": 0},
            "start": "mustering",
        }
    )
    while R.pending(s)[0].actor != "martell":
        s = R.apply(s, R.pending(s)[0].actor, {"type": "muster", "recruits": []})
    d = R.pending(s)[0]
    r = d.options["recruits"]["sunspear"]
    assert r["points"] == 2
    assert r["units"] == []  # a third unit would break supply 0 (armies of 2 only)
    assert "port-of-sunspear" in r["ships"] and "east-summer-sea" not in r["ships"]
    assert r["upgrades"] == ["knight", "siege_engine"]
