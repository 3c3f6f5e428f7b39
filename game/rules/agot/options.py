"""Complete decision options: what a UI or a bot needs to enumerate legal actions without the rules.

Each builder returns JSON-able values that go into :class:`game.rules.base.Decision` ``options``
(documented per decision kind in ``docs/scenarios.md``, section "Decisions"). The promise is:
an action built from one listed choice alone is accepted by ``apply`` (e.g. a march of any
listed count of eligible units to one destination, one recruit, one raven replacement).
Combinations of several choices (splits over several destinations, several recruits) may still
be refused by limits that depend on the combination (supply, reserves, 3 ships per port); a
client tries them with ``apply`` or lets the server answer with an ``IllegalAction``. The
Messenger Raven's replacements are listed by :func:`.planning.raven_replacements`, beside the
rules they enumerate.

Rulebook sections: 行军 / March (①-⑨, 战舰运输 / Ship transport, 港口 / Ports, 建立控制权 /
Establishing control, 中立军队标记 / Neutral force tokens), 征募 / Mustering, 补给 / Supply.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from collections.abc import Mapping
from typing import Any, Callable, Iterator

from .control import available_units, controller, within_supply
from .data import board
from .movement import land_destinations, port_occupied, ship_destinations
from .mustering import muster_points, ship_targets
from .state import State
from .support import neutral_supporters, unit_strength

LAND_UNITS = ("footman", "knight", "siege_engine")


class Lazy(Mapping):
    """Decision options computed on first access (``apply`` asks *whether* a decision waits far
    more often than anyone reads its options). Built from a state that is no longer changed (a
    state outside ``apply``), so computing later gives the same value."""

    __slots__ = ("_fn", "_d")

    def __init__(self, fn: Callable[[], dict]) -> None:
        self._fn = fn
        self._d: dict | None = None

    def _get(self) -> dict:
        if self._d is None:
            self._d = self._fn()
        return self._d

    def __getitem__(self, k: str) -> Any:
        return self._get()[k]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"Lazy({self._get()!r})"

COST = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 2}


# -- planning -----------------------------------------------------------------------------------
def order_token_info(of: Any = None) -> dict[str, dict[str, Any]]:
    """``{token id: {"type", "strength", "special"}}`` for the 11 kinds of order token (``of``: a
    state or edition id; None: agot2)."""
    return {t.id: {"type": t.type, "strength": t.strength, "special": t.special} for t in board(of).order_tokens.values()}


def random_order_set(o: Mapping[str, Any], rnd: Any) -> dict[str, str]:
    """A random legal order set from a ``place_orders`` decision's options ``o`` honouring
    ``not_allowed`` (1st edition: no Consolidate Power at sea, no Support on an island): areas
    with limits choose first, each a random token still unused that may stand there, within the
    special-order allowance, until ``must_place`` areas hold one."""
    info = o["token_info"]
    pool = [t for t in o["tokens"] if t not in o["forbidden"]]
    rnd.shuffle(pool)
    areas = list(o["areas"])
    rnd.shuffle(areas)
    bad = o.get("not_allowed") or {}
    areas.sort(key=lambda a: 0 if a in bad else 1)
    out: dict[str, str] = {}
    sp = 0
    for a in areas:
        if len(out) >= o["must_place"]:
            break
        for i, t in enumerate(pool):
            if t in bad.get(a, ()) or (info[t]["special"] and sp >= o["special_allowed"]):
                continue
            out[a] = pool.pop(i)
            sp += info[t]["special"]
            break
    return out


# -- marches ------------------------------------------------------------------------------------
def _supply_ok(state: State, house: str, origin: str, dest: str, n: int, combat: bool) -> bool:
    counts = {origin: len(state.units_of(origin)) - n, dest: n if combat else len(state.units_of(dest)) + n}
    return within_supply(state, house, counts)


def neutral_reach(state: State, house: str, origin: str, target: str) -> int:
    """What a march from ``origin`` into the neutral force in ``target`` adds to its units'
    strength at best: the March order's modifier plus every Support order that could still
    be given to it (中立军队标记 / Neutral force tokens)."""
    b = board(state)
    return b.order_tokens[state.orders[origin][1]].strength + sum(s for (_, _, s) in neutral_supporters(state, target, house))


def march_area_options(state: State, house: str, origin: str) -> dict[str, Any]:
    """Options of the March order in ``origin``.

    Returns ``{"units": {type: standing count}, "routed": n, "land": [areas], "ship": [areas],
    "transport": [land areas reached only by ship transport], "destinations": {area: {"units":
    [types that may go], "counts": [numbers of units that may go there in a one-destination
    march], "fight": null | "combat" | "neutral", "neutral": strength (neutral only), "by":
    "adjacent" | "transport"}}, "leave_power": bool}``. ``leave_power`` says whether a power token
    may be left when every unit leaves (land area, not already kept by a token or as home, and an
    available power token). Destinations where no count is legal are left out. At most one
    destination with a ``fight`` may be used per march.
    """
    b = board(state)
    us = state.units_of(origin)
    standing = Counter(u[1] for u in us if not u[2])
    routed = sum(1 for u in us if u[2])
    land = sorted(land_destinations(state, house, origin))
    ship = sorted(ship_destinations(state, house, origin))
    adjacent = b.adjacent[origin]
    land_moving = sum(n for t, n in standing.items() if t in LAND_UNITS)
    ships_moving = standing.get("ship", 0)
    dests: dict[str, Any] = {}
    for dest, kinds, total in [(d, [t for t in LAND_UNITS if standing.get(t)], land_moving) for d in land] + [
        (d, ["ship"] if ships_moving else [], ships_moving) for d in ship
    ]:
        if not kinds:
            continue
        owner = state.owner(dest)
        g = state.garrisons.get(dest)
        fight = None
        if (owner is not None and owner != house) or (owner is None and g is not None and g[0] != house):
            fight = "combat"
        elif dest in state.neutral:
            fight = "neutral"
        limit = total
        if b.is_port(dest):
            if controller(state, dest) != house or port_occupied(state, dest, house):
                continue
            limit = min(limit, b.tracks["port_max_ships"] - len(state.units_of(dest)))
        counts = [n for n in range(1, limit + 1) if _supply_ok(state, house, origin, dest, n, fight == "combat")]
        need = 0
        if fight == "neutral":  # the marching units must bring at least ``need`` (中立军队标记)
            castle = b.areas[dest].castle is not None
            need = state.neutral[dest] - neutral_reach(state, house, origin, dest)
            best = sorted((unit_strength(t, False, castle, True, state) for t in kinds for _ in range(standing[t])), reverse=True)
            counts = [n for n in counts if sum(best[:n]) >= need]
        if not counts:
            continue
        d: dict[str, Any] = {"units": kinds, "counts": counts, "fight": fight, "by": "adjacent" if dest in adjacent else "transport"}
        if fight == "neutral":
            d["neutral"] = state.neutral[dest]
            d["need"] = need
        dests[dest] = d
    leave = (
        b.is_land(origin)
        and state.power.get(house, 0) >= 1
        and state.power_tokens.get(origin) != house
        and b.areas[origin].home_of != house
    )
    return {
        "units": dict(standing),
        "routed": routed,
        "land": land,
        "ship": ship,
        "transport": sorted(a for a in land if a not in adjacent),
        "destinations": dests,
        "leave_power": bool(leave),
    }


# -- mustering ----------------------------------------------------------------------------------
def muster_area_options(state: State, house: str, area: str) -> dict[str, Any]:
    """What may be mustered in ``area`` (征募 / Mustering), each choice legal on its own.

    Returns ``{"points": n, "units": [land unit types], "ships": [port/sea areas for a new ship],
    "upgrades": [types a footman there may become], "costs": {type: points, "upgrade": 1},
    "why": {type | "ship" | "upgrade_<type>": reason}}``: costs within the points, a unit of that
    type in the reserve, the supply limit respected; ``why`` says why each choice left out is.
    """
    pts = muster_points(area, state)
    # why a choice is not offered (the panel says so): "points" (it costs more than the area
    # gives), "reserve" (every such piece of the house is on the board), "supply" (the army would
    # pass the supply limit), "no_sea" (no port or sea open to a new ship), "no_footman"
    why: dict[str, str] = {}
    grows = within_supply(state, house, {area: len(state.units_of(area)) + 1})
    units = []
    for t in LAND_UNITS:
        reason = "points" if COST[t] > pts else "reserve" if available_units(state, house, t) <= 0 else None if grows else "supply"
        if reason:
            why[t] = reason
        else:
            units.append(t)
    ships = []
    targets = ship_targets(state, house, area)
    if available_units(state, house, "ship") > 0:
        ships = [s for s in targets if within_supply(state, house, {s: len(state.units_of(s)) + 1})]
    if not ships:
        why["ship"] = "reserve" if available_units(state, house, "ship") <= 0 else "supply" if targets else "no_sea"
    has_foot = any(u[1] == "footman" and u[0] == house for u in state.units_of(area))
    upgrades = [t for t in ("knight", "siege_engine") if has_foot and pts >= 1 and available_units(state, house, t) > 0]
    for t in ("knight", "siege_engine"):
        if t not in upgrades:
            why["upgrade_" + t] = "no_footman" if not has_foot else "reserve"
    return {"points": pts, "units": units, "ships": ships, "upgrades": upgrades, "costs": dict(COST, upgrade=1), "why": why}


def muster_options(state: State, house: str, areas: list[str]) -> dict[str, Any]:
    """``{area: muster_area_options}`` for each of ``areas``."""
    return {a: muster_area_options(state, house, a) for a in areas}


# -- supply ---------------------------------------------------------------------------------------
def reduction_plans(state: State, house: str, need: int, limit: int = 2000) -> list[dict[str, int]]:
    """Ways to fit the supply limit removing exactly ``need`` units: ``[{army area: units to remove}]``.

    Any units of the named areas may be removed (only the number per area matters). At most
    ``limit`` plans are listed (always at least one when the house is over its limit).
    """
    armies = sorted((a, len(us)) for a, us in state.units.items() if us[0][0] == house and len(us) >= 2)
    out = []
    for combo in product(*[range(0, n) for _, n in armies]):
        if sum(combo) != need:
            continue
        counts = {a: n - r for (a, n), r in zip(armies, combo)}
        if within_supply(state, house, counts):
            out.append({a: r for (a, _), r in zip(armies, combo) if r})
            if len(out) >= limit:
                break
    return out


def units_by_area(state: State, house: str, areas) -> dict[str, dict[str, int]]:
    """``{area: {unit type: count}}`` of ``house``'s units in ``areas``."""
    return {a: dict(Counter(u[1] for u in state.units_of(a))) for a in areas if state.owner(a) == house}
