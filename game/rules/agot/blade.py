"""使用瓦雷利亚钢剑 / Using the Valyrian Steel Blade (combat step 4).

4. 使用瓦雷利亚钢剑 / Valyrian Steel Blade: its holder (position 1 of the Fiefdoms track), if
   fighting and the Blade is unused this round, may add +1 (with Tides of Battle instead: redraw
   its Tides card) (``use_blade``).

Rule choice (where the rulebook leaves room), also in docs/scenarios.md: with Tides of Battle, the
Blade's use is the redraw (战局卡牌 step 2), never the +1 (one use per round).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .combat import combat_summary, current, pairs_get, pairs_set, update
from .flow import decision, pop
from .state import State
from .tides import draw_tides, tides_on


def blade_user(state: State) -> str | None:
    """The Blade holder if it fights this combat and the Blade is unused this round."""
    c = current(state)
    h = state.holder("fiefdoms")
    if h in (c.attacker, c.defender) and not state.flags.get("blade_used"):
        return h
    return None


@decision("combat_blade", ("choose",))
class BladeTask:
    """使用瓦雷利亚钢剑 / Using the Valyrian Steel Blade: ``use`` (+1) or ``pass``; with the Tides of
    Battle option, ``redraw`` or ``pass``.

    2nd ed. rulebook, 战局卡牌 / Tides of Battle, step 2 (使用瓦雷利亚钢剑): "展示战局卡牌前，如果
    攻方或守方拥有瓦雷利亚钢剑，可以使用它，弃除手上的战局卡牌并重新抓一张". With the option, this
    step *is* the Blade's use in combat (it replaces combat step 4's +1, it is not offered beside
    it; reading in docs/scenarios.md, Readings)."""

    @staticmethod
    def options(state: State) -> list[str]:
        return ["redraw", "pass"] if tides_on(state) else ["use", "pass"]

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = blade_user(state)
        if h is None:
            return []
        c = current(state)
        opts = {"purpose": "blade", "options": BladeTask.options(state), **combat_summary(c)}
        if tides_on(state):
            opts["tides"] = pairs_get(c.tides, h)
        return [Decision(h, "use_blade", opts)]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        opts = BladeTask.options(state)
        if action.option not in opts:
            raise IllegalAction("choose.bad_option", f"Choose one of {opts}.", options=opts)
        c = current(state)
        if action.option == "use":
            update(state, blade=actor)
            state.flags["blade_used"] = True
            state.emit("blade_used", house=actor, area=c.area)
        elif action.option == "redraw":
            old = pairs_get(c.tides, actor)
            state.decks["tides_discard"] = state.decks.get("tides_discard", ()) + (old,)
            t = draw_tides(state)
            update(state, tides=pairs_set(c.tides, actor, t))
            state.flags["blade_used"] = True
            state.emit("blade_redraw", house=actor, area=c.area)
            state.emit("tides_drawn", to=actor, house=actor, card=t)
        pop(state)
