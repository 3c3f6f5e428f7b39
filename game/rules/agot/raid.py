"""结算突袭指令 / Resolve Raid orders (Action phase step 1) and 港口 / Ports rules ③④.

In turn order, one at a time, a house resolves one of its Raid orders: it removes an adjacent
enemy Support, Raid or Consolidate Power order (a special Raid may instead remove a Defense
order) together with its own Raid, or removes its Raid with no effect.

* A Raid on land cannot target a sea area (nor a port); a Raid at sea can target land, sea or
  port areas; a Raid in a port can target only its sea.
* 抢劫 / Pillaging: removing a Consolidate Power order gives the raider one power token from the
  pool, and the raided house discards one available power token if it has one.
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import gain_power
from .data import board
from .flow import auto, decision, pop, push
from .state import State
from .turns import advance_cursor, next_house, orders_of

RAIDABLE = ("support", "raid", "consolidate_power")


def raid_targets(state: State, area: str) -> list[str]:
    """Areas whose order the Raid order in ``area`` may remove."""
    b = board()
    house, tok = state.orders[area]
    special = b.order_tokens[tok].special
    src_kind = b.kind(area)
    out = []
    for n in b.adjacent[area]:
        o = state.orders.get(n)
        if o is None or o[0] == house:
            continue
        nk = b.kind(n)
        if src_kind == "land" and nk != "land":
            continue
        if src_kind == "port" and nk != "sea":
            continue
        ttype = b.order_tokens[o[1]].type
        if ttype in RAIDABLE or (special and ttype == "defense"):
            out.append(n)
    return sorted(out)


@auto("raids")
def raids(state: State, task: tuple) -> None:
    h = next_house(state, lambda x: bool(orders_of(state, x, "raid")))
    if h is None:
        state.ctx["cursor"] = 0
        return
    push(state, ("raid", h), task)


@decision("raid", ("raid",))
class RaidTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        return [Decision(h, "raid", {"raids": {a: raid_targets(state, a) for a in orders_of(state, h, "raid")}})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        b = board()
        mine = orders_of(state, actor, "raid")
        if action.area not in mine:
            raise IllegalAction("raid.no_order", f"You have no Raid order in {action.area}.", area=action.area)
        target = action.target
        if target is not None:
            if target not in raid_targets(state, action.area):
                raise IllegalAction(
                    "raid.bad_target",
                    f"The Raid in {action.area} cannot remove an order in {target}.",
                    area=action.area,
                    target=target,
                )
            victim, ttok = state.orders.pop(target)
            ttype = b.order_tokens[ttok].type
            state.emit("raid", house=actor, area=action.area, target=target, victim=victim, token=ttok)
            if ttype == "consolidate_power":
                gained = gain_power(state, actor, 1)
                lost = 1 if state.power[victim] > 0 else 0
                state.power[victim] -= lost
                state.emit("pillage", house=actor, victim=victim, gained=gained, lost=lost)
        else:
            state.emit("raid", house=actor, area=action.area, target=None)
        del state.orders[action.area]
        advance_cursor(state, actor)
        pop(state)
