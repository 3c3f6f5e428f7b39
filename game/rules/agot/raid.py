"""结算突袭指令 / Resolve Raid orders (Action phase step 1) and 港口 / Ports rules ③④.

In turn order, one at a time, a house resolves one of its Raid orders: it removes an adjacent
enemy Support, Raid or Consolidate Power order (a special Raid may instead remove a Defense
order) together with its own Raid, or removes its Raid with no effect.

* A Raid on land cannot target a sea area (nor a port); a Raid at sea can target land, sea or
  port areas; a Raid in a port can target only its sea.
* 抢劫 / Pillaging: removing a Consolidate Power order gives the raider one power token from the
  pool, and the raided house discards one available power token if it has one.

1st edition (1st ed. rulebook, A) 执行突击命令 and 特殊令牌; switches in :mod:`.edition`):

* 突击+1: "可移除两个邻接地区敌方的支援、集权或突击令牌" - a special Raid removes up to two adjacent
  enemy Support, Consolidate Power or Raid orders (action field ``second_target``), never a
  Defense order (``special_raid == "two_orders"``);
* 掠夺 / Pillaging: "可以从权力池拿取一个免费的权力标志物" - the raider takes one power token from
  the pool and the raided house loses none (``pillage_costs_victim``).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import gain_power
from .data import board
from .edition import edition
from .flow import auto, decision, pop, push
from .state import State
from .turns import advance_cursor, next_house, orders_of

RAIDABLE = ("support", "raid", "consolidate_power")


def raid_targets(state: State, area: str) -> list[str]:
    """Areas whose order the Raid order in ``area`` may remove."""
    b = board(state)
    house, tok = state.orders[area]
    special = b.order_tokens[tok].special and edition(state).special_raid == "defense"
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
        areas = orders_of(state, h, "raid")
        opts = {"raids": {a: raid_targets(state, a) for a in areas}}
        if edition(state).special_raid == "two_orders":
            opts["two_targets"] = [a for a in areas if two_targets(state, a)]
        return [Decision(h, "raid", opts)]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        mine = orders_of(state, actor, "raid")
        if action.area not in mine:
            raise IllegalAction("raid.no_order", f"You have no Raid order in {action.area}.", area=action.area)
        target = action.target
        targets = [t for t in (target, action.second_target) if t is not None]
        if action.second_target is not None:
            if not two_targets(state, action.area):
                raise IllegalAction("raid.one_target", f"The Raid in {action.area} removes one order only.", area=action.area)
            if target is None or target == action.second_target:
                raise IllegalAction("raid.bad_target", "A special Raid's second target must be another area than its first.",
                                    area=action.area, target=action.second_target)
        legal = raid_targets(state, action.area)
        for t in targets:
            if t not in legal:
                raise IllegalAction(
                    "raid.bad_target",
                    f"The Raid in {action.area} cannot remove an order in {t}.",
                    area=action.area,
                    target=t,
                )
        for t in targets:
            remove_raided(state, actor, action.area, t)
        if not targets:
            state.emit("raid", house=actor, area=action.area, target=None)
        del state.orders[action.area]
        advance_cursor(state, actor)
        pop(state)


def two_targets(state: State, area: str) -> bool:
    """Whether the Raid order in ``area`` may remove two orders (1st edition's special Raid)."""
    b = board(state)
    return edition(state).special_raid == "two_orders" and b.order_tokens[state.orders[area][1]].special


def remove_raided(state: State, house: str, area: str, target: str) -> None:
    """Remove the order in ``target`` raided from ``area``; pillage a Consolidate Power order
    (抢劫 / 掠夺: +1 power to the raider; in the 2nd edition the victim discards one)."""
    b = board(state)
    victim, ttok = state.orders.pop(target)
    state.emit("raid", house=house, area=area, target=target, victim=victim, token=ttok)
    if b.order_tokens[ttok].type == "consolidate_power":
        gained = gain_power(state, house, 1)
        lost = 0
        if edition(state).pillage_costs_victim:
            lost = 1 if state.power[victim] > 0 else 0
            state.power[victim] -= lost
        state.emit("pillage", house=house, victim=victim, gained=gained, lost=lost)
