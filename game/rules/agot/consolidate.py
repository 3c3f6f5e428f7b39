"""结算休整指令 / Resolve Consolidate Power orders (Action phase step 3), 港口 ⑤⑥ and the
special Consolidate Power (特殊指令 / special orders).

A Consolidate Power order gives one power token from the pool plus one per crown printed in its
land area; at sea it gives nothing; in a port it gives one, or nothing if an enemy ship is in
that port's sea. The special order may instead muster in its own area (castle or stronghold
land area only, never from a port), following the mustering rules.

Orders with no choice to make are resolved automatically (their results do not depend on the
order they are resolved in); a special Consolidate Power order that could muster waits for its
house, in turn order.
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import enemy_ships_in, gain_power
from .data import board
from .flow import auto, decision, pop, push
from .mustering import apply_recruits, muster_areas
from .state import State
from .turns import advance_cursor, next_house, orders_of


def consolidate_yield(state: State, area: str) -> int:
    """Power gained by a Consolidate Power order in ``area``."""
    b = board()
    a = b.areas[area]
    house = state.orders[area][0]
    if a.kind == "sea":
        return 0
    if a.kind == "port":
        return 0 if enemy_ships_in(state, a.port_sea, house) else 1
    return 1 + a.power


def can_muster(state: State, area: str) -> bool:
    b = board()
    house, tok = state.orders[area]
    return b.order_tokens[tok].special and b.is_land(area) and area in muster_areas(state, house)


def resolve_plain(state: State, area: str) -> None:
    n = consolidate_yield(state, area)
    house = state.orders.pop(area)[0]
    got = gain_power(state, house, n)
    state.emit("consolidate", house=house, area=area, gained=got)


def _choice_orders(state: State, house: str) -> list[str]:
    return [a for a in orders_of(state, house, "consolidate_power") if can_muster(state, a)]


@auto("consolidations")
def consolidations(state: State, task: tuple) -> None:
    order = state.turn_order()
    for h in order:
        for a in orders_of(state, h, "consolidate_power"):
            if not can_muster(state, a):
                resolve_plain(state, a)
    h = next_house(state, lambda x: bool(_choice_orders(state, x)))
    if h is None:
        state.ctx["cursor"] = 0
        return
    push(state, ("consolidate", h), task)


@decision("consolidate", ("consolidate",))
class ConsolidateTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        from .options import Lazy, muster_options

        areas = _choice_orders(state, h)
        return [Decision(h, "consolidate", Lazy(lambda: {"areas": areas, "muster": muster_options(state, h, areas)}))]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        if action.area not in _choice_orders(state, actor):
            raise IllegalAction("consolidate.no_order", f"You have no special Consolidate Power order to resolve in {action.area}.", area=action.area)
        if action.muster is None:
            resolve_plain(state, action.area)
        else:
            apply_recruits(state, actor, action.muster, [action.area])
            del state.orders[action.area]
            state.emit("consolidate_muster", house=actor, area=action.area)
        advance_cursor(state, actor)
        pop(state)
