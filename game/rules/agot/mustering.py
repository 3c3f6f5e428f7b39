"""维斯特洛卡牌：征募 / Mustering, and 征募战舰单位 / Mustering ships.

Each castle gives 1 and each stronghold 2 mustering points, to be spent in that area: footman 1,
knight 2, ship 1, siege engine 2, or 1 to upgrade a footman there into a knight or siege engine.
Land units appear in the area itself; ships in its port (at most 3 ships, even with enemy ships
in the sea) or in an adjacent sea without enemy ships. Units come from the house's reserve
(超出配件数量 / component limits). No unit may be mustered if the armies would then exceed supply.
Unused points are lost.

Used by the Mustering card, A Throne of Blades, special Consolidate Power (its own area only) and
the wildling card The Horde Descends (one area).
"""

from __future__ import annotations

from ..base import IllegalAction
from .control import available_units, controller, enemy_ships_in, within_supply
from .data import board
from .state import State

COST = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 2}


def muster_points(area: str, of=None) -> int:
    """Mustering points of ``area``: castle 1, stronghold 2, else 0 (``of``: a state or edition)."""
    b = board(of)
    c = b.areas[area].castle
    return b.tracks["mustering_points"][c] if c else 0


def muster_areas(state: State, house: str) -> list[str]:
    """Castle/stronghold land areas ``house`` controls (where it may muster)."""
    return [a for a in board(state).castle_areas if controller(state, a) == house]


def ship_targets(state: State, house: str, area: str) -> list[str]:
    """Where a ship mustered in ``area`` may go: its port (with room, and not holding another
    house's ships), adjacent seas without enemy ships.

    A port can hold another house's ships while ``house`` controls its land without having
    taken it: a home area's printed symbol gives it back to its house when the enemy army marches
    out (控制敌方港口 replaces ships only when the land is attacked and taken). One area holds one
    house's units, so no ship is mustered there. Nor is one mustered into a sea holding a neutral
    force (1st edition: an absent house's ships, 三到四人游戏)."""
    b = board(state)
    out = []
    port = b.areas[area].port
    in_port = state.units_of(port) if port else ()
    if port and port not in state.blocked and len(in_port) < b.tracks["port_max_ships"] and all(u[0] == house for u in in_port):
        out.append(port)
    for n in b.adjacent[area]:
        if b.is_sea(n) and not enemy_ships_in(state, n, house) and n not in state.neutral:
            out.append(n)
    return sorted(out)


def apply_recruits(state: State, house: str, recruits, allowed: list[str]) -> None:
    """Muster ``recruits`` (list of Recruit) for ``house`` from the ``allowed`` areas, in order.

    Raises IllegalAction ``muster.*`` codes (documented in docs/scenarios.md); the caller works
    on a clone, so a refusal leaves the game state unchanged.
    """
    b = board(state)
    spent: dict[str, int] = {}
    for r in recruits:
        if r.area not in allowed:
            raise IllegalAction("muster.not_allowed_area", f"You cannot muster in {r.area} now.", area=r.area)
        if r.unit not in COST or r.unit not in b.unit_limits:
            raise IllegalAction("muster.unknown_unit", f"{r.unit!r} is not a unit type.", unit=r.unit)
        if r.upgrade:
            if r.unit not in ("knight", "siege_engine"):
                raise IllegalAction("muster.bad_upgrade", "Only a knight or a siege engine can replace a footman.", unit=r.unit)
            cost = 1
        else:
            cost = COST[r.unit]
        if spent.get(r.area, 0) + cost > muster_points(r.area, state):
            pts = muster_points(r.area, state)
            raise IllegalAction("muster.no_points", f"{r.area} has {pts} mustering point(s).", area=r.area, points=pts)
        if available_units(state, house, r.unit) < 1:
            raise IllegalAction("muster.no_units_left", f"You have no {r.unit} left in your reserve.", unit=r.unit)
        if r.upgrade:
            if not any(u[1] == "footman" for u in state.units_of(r.area)):
                raise IllegalAction("muster.no_footman", f"There is no footman in {r.area} to upgrade.", area=r.area)
            u = state.remove_unit(r.area, "footman")
            state.add_unit(r.area, house, r.unit, u[2])
        elif r.unit == "ship":
            if r.to not in ship_targets(state, house, r.area):
                raise IllegalAction(
                    "muster.bad_ship_area", f"A ship mustered in {r.area} cannot be placed in {r.to}.", area=r.area, to=r.to
                )
            state.add_unit(r.to, house, "ship")
        else:
            if r.to not in (None, r.area):
                raise IllegalAction("muster.bad_area", "Land units are mustered in the castle's own area.", area=r.area, to=r.to)
            state.add_unit(r.area, house, r.unit)
        if not within_supply(state, house):
            raise IllegalAction("muster.supply", "This unit would make your armies exceed your supply limit.", area=r.area, unit=r.unit)
        spent[r.area] = spent.get(r.area, 0) + cost
        state.emit("mustered", house=house, area=r.area, unit=r.unit, dest=r.to or r.area, upgrade=r.upgrade)
