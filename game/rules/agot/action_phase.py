"""行动阶段 / Action phase: its four steps, and 重置 / Clean-up.

1. raids, 2. marches (and combat), 3. Consolidate Power, 4. clean-up: remove every remaining
order (Defense, Support, anything left), stand routed units up, refresh the Messenger Raven and
the Valyrian Steel Blade, end the round's Westeros effects. After round 10 the game ends (游戏胜利
/ Winning the game); otherwise a new round starts with the Westeros phase.

1st edition (1st ed. rulebook, 撤退: "当该回合的行军命令都执行完毕,就将所有残兵扶正变成普通状态"):
routed units stand up as soon as the marches are over, before Consolidate Power
(:attr:`.edition.Edition.stand_up` ``"after_marches"``).
"""

from __future__ import annotations

from .edition import edition
from .flow import auto, push  # noqa: F401
from .state import State
from .victory import end_after_last_round


@auto("action_phase")
def action_phase(state: State, task: tuple) -> None:
    state.phase = "action"
    state.ctx["cursor"] = 0
    after_marches = (("stand_up",),) if edition(state).stand_up == "after_marches" else ()
    push(state, ("raids",), ("marches",), *after_marches, ("consolidations",), ("cleanup",), ("westeros",), ("planning_start",))


def stand_up(state: State) -> bool:
    """Every routed unit stands up (撤退和溃败 / Retreat and routing); whether any was routed."""
    any_routed = False
    for area, us in list(state.units.items()):
        if any(u[2] for u in us):
            state.units[area] = tuple((h, t, False) for (h, t, _) in us)
            any_routed = True
    return any_routed


@auto("stand_up")
def stand_up_task(state: State, task: tuple) -> None:
    if stand_up(state):
        state.emit("routed_stand_up")


@auto("cleanup")
def cleanup(state: State, task: tuple) -> None:
    state.orders = {}
    stand_up(state)
    state.flags["blade_used"] = False
    state.flags["raven_used"] = False
    state.flags["forbidden"] = frozenset()
    state.flags.pop("forbidden_by", None)
    state.flags.pop("footmen_no_support", None)  # 1st edition's Rains of Autumn: this round only
    state.emit("round_end", round_no=state.round)
    if state.round >= 10:
        end_after_last_round(state)
