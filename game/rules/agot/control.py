"""Control of areas, supply and armies, castles for victory.

Rulebook sections: 控制区域 / Controlling areas, 控制主城 / home areas, 港口 / Ports,
维斯特洛卡牌：补给 / Supply (armies and the supply track), 游戏胜利 / Victory.
"""

from __future__ import annotations

from collections import Counter

from .data import board
from .state import State

LAND_UNITS = ("footman", "knight", "siege_engine")


def controller(state: State, area: str) -> str | None:
    """Who controls ``area`` (控制区域 / Control).

    Land: the house with units there; else the house with a power token there; else the house
    whose home it is (its printed emblem acts as a power token), if that house is in play.
    Sea: the house with ships there. Port: the controller of its land area.
    """
    b = board(state)
    a = b.areas[area]
    if a.kind == "port":
        return controller(state, a.port_of)
    u = state.units.get(area)
    if u:
        return u[0][0]
    if a.kind == "sea":
        return None
    t = state.power_tokens.get(area)
    if t:
        return t
    if a.home_of and a.home_of in state.houses:
        g = state.garrisons.get(area)
        if g is None or g[0] == a.home_of:
            return a.home_of
    return None


def controlled_areas(state: State, house: str) -> list[str]:
    """The land areas ``house`` controls."""
    return [a for a in board(state).land_ids if controller(state, a) == house]


def castle_count(state: State, house: str) -> int:
    """Areas with a castle or stronghold ``house`` controls (胜利进度条 / Victory track)."""
    return sum(1 for a in board(state).castle_areas if controller(state, a) == house)


def stronghold_count(state: State, house: str) -> int:
    b = board(state)
    return sum(1 for a in b.castle_areas if b.areas[a].castle == "stronghold" and controller(state, a) == house)


def barrels(state: State, house: str) -> int:
    """Supply icons (barrels) in the land areas ``house`` controls, capped at 6 (补给 / Supply)."""
    b = board(state)
    return min(6, sum(b.areas[a].supply for a in b.land_ids if b.areas[a].supply and controller(state, a) == house))


def army_sizes(state: State, house: str, override: dict[str, int] | None = None) -> list[int]:
    """Sizes of ``house``'s armies (2+ units in one area, ports included), largest first.

    ``override`` replaces the unit count of some areas (for "what if" checks).
    """
    sizes = {a: len(us) for a, us in state.units.items() if us[0][0] == house}
    if override:
        sizes.update(override)
    return sorted((n for n in sizes.values() if n >= 2), reverse=True)


def fits_supply(sizes: list[int], level: int, of=None) -> bool:
    """Whether armies of ``sizes`` (largest first) fit supply ``level`` (补给条 / supply track) of
    the edition of ``of`` (a state or edition id; None: agot2)."""
    allowed = board(of).supply_limits[max(0, min(6, level))]
    if len(sizes) > len(allowed):
        return False
    return all(s <= m for s, m in zip(sizes, allowed))


def within_supply(state: State, house: str, override: dict[str, int] | None = None) -> bool:
    return fits_supply(army_sizes(state, house, override), state.supply[house], state)


def unit_counts(state: State, house: str) -> Counter:
    """How many units of each type ``house`` has on the board."""
    c: Counter = Counter()
    for us in state.units.values():
        if us[0][0] == house:
            for u in us:
                c[u[1]] += 1
    return c


def available_units(state: State, house: str, utype: str) -> int:
    """Units of ``utype`` left in ``house``'s reserve (超出配件数量 / component limits)."""
    return board(state).unit_limits.get(utype, 0) - unit_counts(state, house)[utype]


def power_on_board(state: State, house: str) -> int:
    return sum(1 for h in state.power_tokens.values() if h == house)


def pool_left(state: State, house: str) -> int:
    """Power tokens of ``house`` in the Power Pool (20 minus available, on board and bid)."""
    held = state.power[house] + power_on_board(state, house) + state.ctx.get("bid_held", {}).get(house, 0)
    return max(0, board(state).tracks["power_tokens"]["max_per_house"] - held)


def gain_power(state: State, house: str, n: int) -> int:
    """Move up to ``n`` power tokens from the pool to ``house``'s available power; return the gain."""
    g = min(n, pool_left(state, house))
    if g > 0:
        state.power[house] = state.power[house] + g
    return g


def enemy_ships_in(state: State, sea: str, house: str) -> bool:
    o = state.owner(sea)
    return o is not None and o != house
