"""Where units may move, and what moving into an area does: the board's reach for marches and
retreats, and the move itself.

Rulebook sections: 行军 / March (①-⑥: adjacent areas, land units on land, ships at sea or in an own
port, blocked areas), 战舰运输 / Ship transport ("通过连续（或单个）的有己方战舰单位的海域而连接的
两个陆域，在行军和撤退时，视为相邻区域"), 港口 / Ports, 建立控制权 / Establishing control (an enemy
power token in the area entered is discarded), 控制敌方港口 / Taking control of an enemy port.

Used by marches (:mod:`.march`), retreats (:mod:`.retreat`), combat's clean-up
(:mod:`.combat_result`) and the march options (:mod:`.options`).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import available_units, within_supply
from .data import board
from .flow import decision, pop, push
from .state import State


def transport_reach(state: State, house: str, origin: str) -> set[str]:
    """Land areas reachable from ``origin`` by ship transport over seas holding ``house``'s ships."""
    b = board(state)
    seen: set[str] = set()
    frontier = [n for n in b.adjacent[origin] if b.is_sea(n) and state.owner(n) == house]
    seen.update(frontier)
    while frontier:
        sea = frontier.pop()
        for n in b.adjacent[sea]:
            if n not in seen and b.is_sea(n) and state.owner(n) == house:
                seen.add(n)
                frontier.append(n)
    lands: set[str] = set()
    for sea in seen:
        for n in b.adjacent[sea]:
            if b.is_land(n) and n != origin:
                lands.add(n)
    return lands


def land_destinations(state: State, house: str, origin: str) -> set[str]:
    """Where land units in ``origin`` may march: adjacent land areas and transport reach."""
    b = board(state)
    if not b.is_land(origin):
        return set()
    out = {n for n in b.adjacent[origin] if b.is_land(n)} | transport_reach(state, house, origin)
    return {a for a in out if a not in state.blocked}


def ship_destinations(state: State, house: str, origin: str) -> set[str]:
    """Where ships in ``origin`` may march: adjacent seas, and adjacent ports the house owns."""
    b = board(state)
    out = set()
    for n in b.adjacent[origin]:
        if n in state.blocked:
            continue
        if b.is_sea(n):
            out.add(n)
        elif b.is_port(n) and not b.is_land(origin):
            out.add(n)
    return out


def port_occupied(state: State, port: str, house: str) -> bool:
    """Whether ``port`` holds another house's ships (港口 / Ports: no combat is ever fought in a port).

    2nd ed. rulebook, 港口: only the controller of the land area uses its port, "港口...不会被直接
    攻击" and "战舰不能行军至对手拥有的港口". Another house's ships can still lie in a port
    whose land reverted to its home house by its printed symbol (控制敌方港口 replaces them only
    when the land is taken by a march). Reading (docs/scenarios.md, Readings): no move, retreat or
    muster may then put the controller's ships beside them, since that would open a combat in
    the port; the port stays closed to its controller until the other ships leave."""
    us = state.units_of(port)
    return bool(us) and us[0][0] != house


def move_units(state: State, house: str, origin: str, dest: str, units) -> None:
    """Move ``units`` (types) from ``origin`` to ``dest``; discard an enemy power token there."""
    for ut in units:
        u = state.remove_unit(origin, ut, prefer_routed=False)
        state.add_unit(dest, house, u[1], u[2])
    tok = state.power_tokens.get(dest)
    if tok is not None and tok != house:
        del state.power_tokens[dest]
        state.emit("power_token_discarded", house=tok, area=dest)
    capture_port(state, house, dest)


def capture_port(state: State, house: str, land: str) -> None:
    """控制敌方港口 / Taking control of an enemy port: when ``house`` takes control of ``land``,
    the enemy ships in its port leave the board and ``house`` "可以" put in as many of its own
    ships as it wants, up to their number, within its reserve and supply (decision
    ``choose``, purpose ``port_capture``, options ``"0"``..max; skipped when max is 0).

    2nd ed. rulebook, 控制敌方港口: "该玩家可以立刻将港口的敌方战舰替换为等量的己方战舰（或根据
    其意愿、配件数量及补给上限，替换部分战舰，并将其余的战舰移除）". The loser's order in the
    port (if any) is removed with its ships. Used by marches and by combat's clean-up."""
    port = board(state).areas[land].port
    if not port:
        return
    ships = state.units_of(port)
    if not ships or ships[0][0] == house:
        return
    loser = ships[0][0]
    n = len(ships)
    state.units.pop(port)
    order = state.orders.get(port)
    removed_order = None
    if order is not None and order[0] == loser:
        del state.orders[port]  # the loser's order goes with its ships
        removed_order = order[1]
    most = port_capture_max(state, house, port, n)
    if most == 0:
        state.emit("port_captured", house=house, area=port, loser=loser, taken=0, removed=n, order_removed=removed_order)
        return
    push(state, ("port_capture", house, port, loser, n, removed_order))


def port_capture_max(state: State, house: str, port: str, n: int) -> int:
    """How many of ``n`` captured ships ``house`` can put into the (empty) ``port``: its reserve
    and its supply allow."""
    most = min(n, available_units(state, house, "ship"))
    while most > 0 and not within_supply(state, house, {port: most}):
        most -= 1
    return most


@decision("port_capture", ("choose",))
class PortCaptureTask:
    """控制敌方港口: how many ships replace the enemy's (``choose`` ``"0"``..``"max"``)."""

    @staticmethod
    def options(state: State, task: tuple) -> list[str]:
        _, house, port, loser, n, _order = task
        return [str(k) for k in range(port_capture_max(state, house, port, n) + 1)]

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, house, port, loser, n, _order = task
        opts = PortCaptureTask.options(state, task)
        return [Decision(house, "choose", {"purpose": "port_capture", "port": port, "loser": loser, "ships": n,
                                          "max": len(opts) - 1, "options": opts})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, house, port, loser, n, removed_order = task
        opts = PortCaptureTask.options(state, task)
        if action.option not in opts:
            raise IllegalAction("choose.bad_option", f"Choose one of {opts}.", options=opts)
        pop(state)
        k = int(action.option)
        for _ in range(k):
            state.add_unit(port, house, "ship")
        state.emit("port_captured", house=house, area=port, loser=loser, taken=k, removed=n - k, order_removed=removed_order)
