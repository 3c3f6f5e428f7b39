"""Candidate actions for the ``strong`` bot's search (:mod:`.search`): a handful per decision,
the basic bot's answer first.

* ``place_orders``: the basic bot's orders, variations of them (one area's order changed to
  another type, two areas' orders swapped, a special order moved) and a few random sets;
* ``march``: the empty march and, for every area and destination, moving all the units that may
  go or all but one (keeping a home garrison), with and without a power token left behind;
  ranked by the basic bot's own valuation (castles, supply, power, a strength margin in
  combat) and cut to the best few;
* ``choose_house_card``: every card in hand; ``bid``: a few amounts between 0 and everything;
* ``raid``, ``support_combat``, ``consolidate``, ``retreat``, ``use_blade`` (the Valyrian Steel
  Blade) and ``choose`` decisions of six options or fewer (a Westeros card's choice, a wildling
  card's, a house card's ability...): every option (consolidations with the basic bot's mustering);
* anything else: the basic bot's answer alone (the search then adds nothing).

Every candidate is checked with ``apply`` on the state it is proposed for, so none is illegal.
Reads only ``state`` (the deciding house's public state, :func:`.search.forget`), the decision
and the board data. No rulebook section: a bot implements no rule.
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Decision, IllegalAction
from .basic_bot import BasicBot
from .data import board

#: at most this many candidates per decision (before de-duplication)
MAX_CANDIDATES = 8
#: marches kept after ranking (plus the basic bot's and the empty one)
MAX_MARCHES = 6

__all__ = ["MAX_CANDIDATES", "candidates"]


def candidates(ruleset: Any, state: Any, me: str, d: Decision, rnd: random.Random) -> list[dict]:
    """Legal candidate actions (JSON-able dicts) for ``me``'s decision ``d`` in ``state``, the basic
    bot's answer first; one element when search adds nothing for this decision kind."""
    bot = BasicBot(ruleset, state, me, d, random.Random(rnd.getrandbits(32)))
    try:
        basic = bot.basic()
    except (IllegalAction, NotImplementedError, ValueError, KeyError):
        return []  # the caller answers as the basic bot does (or at random)
    k, o = d.kind, d.options
    out: list[dict] = [basic]
    if k == "place_orders":
        out += _order_variants(bot, basic["orders"], rnd)
    elif k == "march":
        out += _marches(bot)
    elif k == "choose_house_card":
        out += [{"type": "select_card", "card": c} for c in sorted(o["cards"])]
    elif k == "bid":
        top = o["max"]
        amounts = sorted({0, 1, top // 4, top // 2, (3 * top) // 4, top} - {basic["amount"]})
        out += [{"type": "bid", "amount": a} for a in amounts if 0 <= a <= top]
    elif k == "raid":
        for area, targets in sorted(o["raids"].items()):
            out += [{"type": "raid", "area": area, "target": t} for t in list(targets)[:4]]
    elif k == "support_combat":
        out += [{"type": "choose", "option": x} for x in o["options"]]
    elif k == "consolidate":
        for area in o["areas"]:
            out.append({"type": "consolidate", "area": area})
            if area in o["muster"]:
                rec = bot._greedy_recruits({area: o["muster"][area]})
                if rec:
                    out.append({"type": "consolidate", "area": area, "muster": rec})
    elif k in ("retreat", "use_blade", "choose") and isinstance(o.get("options"), list) and len(o["options"]) <= 6:
        out += [{"type": "choose", "option": x} for x in o["options"]]
    else:
        return [basic]
    legal = [basic] + [c for c in out[1:] if c != basic and bot.ok(c)]
    return _first_distinct(legal, MAX_CANDIDATES if k != "choose_house_card" else 8)


def _first_distinct(cands: list[dict], n: int) -> list[dict]:
    out: list[dict] = []
    for c in cands:
        if c not in out:
            out.append(c)
        if len(out) >= n:
            break
    return out


def _order_variants(bot: BasicBot, base: dict[str, str], rnd: random.Random) -> list[dict]:
    """Variations of the orders ``base`` (``{area: token}``): one order's type changed, two
    swapped, and two random sets (each checked with ``apply``)."""
    o = bot.o
    info = o["token_info"]
    free = [t for t in o["tokens"] if t not in o["forbidden"] and t not in base.values()]
    out: list[dict] = []
    areas = sorted(base)
    tries = 0
    while len(out) < MAX_CANDIDATES - 3 and tries < 40:
        tries += 1
        new = dict(base)
        if rnd.random() < 0.6 and free:
            a = rnd.choice(areas)
            t = rnd.choice(free)
            if info[t]["type"] == info[base[a]]["type"]:
                continue
            new[a] = t
        elif len(areas) >= 2:
            a, b = rnd.sample(areas, 2)
            new[a], new[b] = base[b], base[a]
        act = {"type": "place_orders", "orders": new}
        if new != base and act not in out and bot.ok(act):
            out.append(act)
    for _ in range(2):
        out.append({"type": "place_orders", "orders": bot._random_orders()})
    return out


def _marches(bot: BasicBot) -> list[dict]:
    """Single-destination marches ranked by the basic bot's valuation (see module docstring)."""
    b = board(bot.state)
    scored: list[tuple[float, int, dict]] = []
    rank = {"knight": 0, "siege_engine": 1, "footman": 2, "ship": 3}
    for area, m in sorted(bot.o["marches"].items()):
        units = [t for t, n in sorted(m["units"].items()) for _ in range(n)]
        scored.append((0.0, len(scored), {"type": "march", "area": area, "moves": []}))
        for dest, dd in sorted(m["destinations"].items()):
            movable = sorted((u for u in units if u in dd["units"]), key=lambda u: rank.get(u, 9))
            for n in sorted({c for c in dd["counts"] if 0 < c <= len(movable)}, reverse=True)[:2]:
                go = movable[:n]
                land = b.is_land(dest)
                val = bot.area_value(dest) if land and bot.controller(dest) != bot.me else (0.3 if not land else 0.0)
                if dd["fight"] == "combat":
                    castle = land and b.areas[dest].castle is not None
                    val += 0.5 * (bot._attack_strength(area, dest, go, castle) - bot._defense_strength(dest))
                elif dd["fight"] == "neutral":
                    castle = b.areas[dest].castle is not None
                    if bot._attack_strength(area, dest, go, castle) < dd["neutral"]:
                        continue
                    val += 1.0
                act = {"type": "march", "area": area, "moves": [{"to": dest, "units": go}]}
                scored.append((val, len(scored), act))
                if n == len(units) and m["routed"] == 0 and m["leave_power"]:
                    scored.append((val + 0.1, len(scored), dict(act, leave_power=True)))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [a for _, _, a in scored[:MAX_MARCHES]]
