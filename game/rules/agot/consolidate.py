"""结算休整指令 / Resolve Consolidate Power orders (Action phase step 3), 港口 ⑤⑥ and the
special Consolidate Power (特殊指令 / special orders).

A Consolidate Power order gives one power token from the pool plus one per crown printed in its
land area; at sea it gives nothing; in a port it gives one, or nothing if an enemy ship is in
that port's sea. The special order may instead muster in its own area (castle or stronghold
land area only, never from a port), following the mustering rules.

Order of resolution (结算休整指令): "按照顺位，每位玩家轮流结算版图上己方的一个休整指令。如果玩家
没有剩余的休整指令，他在本步骤略过后续的结算过程。每位玩家每次结算一个己方的休整指令，按照顺位
循环". One order at a time, in turn order, round and round: the order matters, since a ship
mustered by a special Consolidate Power resolved earlier in the cycle into a sea next to an enemy
port makes that port's order worthless (港口 ⑤).

On its turn a house picks which of its remaining orders to resolve (decision ``consolidate``);
the question is skipped when every remaining order gives the same result now (the same power,
none able to muster): the engine then resolves the first by area id. Reading in
docs/scenarios.md, Readings.

1st edition (1st ed. rulebook, C) 执行集权命令 and 特殊令牌; switches in :mod:`.edition`):
"本步骤中玩家同时从下达集权命令的地区拿取权力标志物 ... 玩家依照游戏板上己方的集权令牌数目拿取1个
权力标志物,如果权力标志物的所在区画有权力图样(皇冠),每一个皇冠可多得1个权力标志物" - every order is
resolved at once, no house picks (``consolidate_simultaneous``); the special order "功能和普通的集权
令牌相同。只是单纯的额外提供收集权力标志物的机会" - it never musters
(``special_consolidate_musters``). The orders stand only on land (:mod:`.planning`).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import enemy_ships_in, gain_power, pool_left
from .data import board
from .edition import edition
from .flow import auto, decision, pop, push
from .mustering import apply_recruits, muster_areas
from .state import State
from .turns import advance_cursor, next_house, orders_of


def consolidate_yield(state: State, area: str) -> int:
    """Power gained by a Consolidate Power order in ``area``."""
    b = board(state)
    a = b.areas[area]
    house = state.orders[area][0]
    if a.kind == "sea":
        return 0
    if a.kind == "port":
        return 0 if enemy_ships_in(state, a.port_sea, house) else 1
    return 1 + a.power


def can_muster(state: State, area: str) -> bool:
    b = board(state)
    house, tok = state.orders[area]
    if not edition(state).special_consolidate_musters:
        return False
    return b.order_tokens[tok].special and b.is_land(area) and area in muster_areas(state, house)


def resolve_plain(state: State, area: str) -> None:
    n = consolidate_yield(state, area)
    house = state.orders.pop(area)[0]
    got = gain_power(state, house, n)
    state.emit("consolidate", house=house, area=area, gained=got)


def order_result(state: State, area: str) -> tuple[int, bool]:
    """What resolving the order in ``area`` now gives: (power gained, may muster instead)."""
    house = state.orders[area][0]
    return min(consolidate_yield(state, area), pool_left(state, house)), can_muster(state, area)


def needs_choice(state: State, areas: list[str]) -> bool:
    """Whether the house must pick among ``areas`` (its remaining orders): not when they all give
    the same result and none may muster."""
    results = {order_result(state, a) for a in areas}
    return len(results) > 1 or any(m for _, m in results)


@auto("consolidations")
def consolidations(state: State, task: tuple) -> None:
    """One turn of the Consolidate Power cycle: the next house in turn order with an order
    resolves one (its choice when it matters), then the cycle goes on. 1st edition: every order
    at once, in turn order for the log."""
    if edition(state).consolidate_simultaneous:
        for h in state.turn_order():
            for area in orders_of(state, h, "consolidate_power"):
                resolve_plain(state, area)
        state.ctx["cursor"] = 0
        return
    h = next_house(state, lambda x: bool(orders_of(state, x, "consolidate_power")))
    if h is None:
        state.ctx["cursor"] = 0
        return
    areas = orders_of(state, h, "consolidate_power")
    if needs_choice(state, areas):
        push(state, ("consolidate", h), task)
        return
    resolve_plain(state, areas[0])
    advance_cursor(state, h)
    push(state, task)


@decision("consolidate", ("consolidate",))
class ConsolidateTask:
    """The house picks one of its Consolidate Power orders: ``consolidate`` ``area`` with
    ``muster: null`` (power) or, for a special order in a castle/stronghold it controls, a list of
    recruits (mustering there instead)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        from .options import Lazy, muster_options

        areas = orders_of(state, h, "consolidate_power")
        if not areas:
            return []
        musters = [a for a in areas if can_muster(state, a)]
        return [Decision(h, "consolidate", Lazy(lambda: {
            "areas": areas,
            "power": {a: order_result(state, a)[0] for a in areas},
            "muster": muster_options(state, h, musters),
        }))]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        if action.area not in orders_of(state, actor, "consolidate_power"):
            raise IllegalAction("consolidate.no_order", f"You have no Consolidate Power order to resolve in {action.area}.", area=action.area)
        if action.muster is None:
            resolve_plain(state, action.area)
        else:
            if not can_muster(state, action.area):
                raise IllegalAction(
                    "consolidate.cannot_muster",
                    f"Only a special Consolidate Power order in a castle or stronghold you control may muster ({action.area}).",
                    area=action.area,
                )
            apply_recruits(state, actor, action.muster, [action.area])
            del state.orders[action.area]
            state.emit("consolidate_muster", house=actor, area=action.area)
        advance_cursor(state, actor)
        pop(state)
