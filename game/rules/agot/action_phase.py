"""行动阶段 / Action phase: its four steps, and 重置 / Clean-up.

1. raids, 2. marches (and combat), 3. Consolidate Power, 4. clean-up: remove every remaining
order (Defense, Support, anything left), stand routed units up, refresh the Messenger Raven and
the Valyrian Steel Blade. After round 10 the game ends (游戏胜利 / Winning the game); otherwise a
new round starts with the Westeros phase.
"""

from __future__ import annotations

from .flow import auto, push  # noqa: F401
from .state import State
from .victory import end_after_last_round


@auto("action_phase")
def action_phase(state: State, task: tuple) -> None:
    state.phase = "action"
    state.ctx["cursor"] = 0
    push(state, ("raids",), ("marches",), ("consolidations",), ("cleanup",), ("westeros",), ("planning_start",))


@auto("cleanup")
def cleanup(state: State, task: tuple) -> None:
    state.orders = {}
    for area, us in list(state.units.items()):
        if any(u[2] for u in us):
            state.units[area] = tuple((h, t, False) for (h, t, _) in us)
    state.flags["blade_used"] = False
    state.flags["raven_used"] = False
    state.flags["forbidden"] = frozenset()
    state.emit("round_end", round_no=state.round)
    if state.round >= 10:
        end_after_last_round(state)
