"""维斯特洛卡牌：补给 / Supply: moving supply markers and reducing armies over the limit.

Supply is counted from the barrels in the areas a house controls, but only applied when a card
says so (the Supply card, A Throne of Blades, Rattleshirt's Raiders). When a house's armies exceed
its (new) limit it must at once remove units, of its own choice, until they fit; it removes no
more units than needed (补给示例 / the supply example: Lannister 4,3,2,2 at supply 3 removes one
footman each from two armies).
"""

from __future__ import annotations


from ..base import Decision, IllegalAction
from .control import army_sizes, barrels, fits_supply
from .data import board
from .flow import auto, decision, pop, push
from .state import State


@auto("supply_update")
def supply_update(state: State, task: tuple) -> None:
    """Every house, in turn order, moves its supply marker and then reconciles its armies."""
    tasks = []
    for h in state.turn_order():
        old = state.supply[h]
        state.supply[h] = barrels(state, h)
        state.emit("supply", house=h, old=old, new=state.supply[h])
        tasks.append(("reconcile", h))
    push(state, *tasks)


def min_removals(sizes: list[int], level: int, of=None) -> int:
    """Fewest units to remove so that armies ``sizes`` fit supply ``level`` (``of``: a state or
    edition; None: agot2)."""
    allowed = list(board(of).supply_limits[max(0, min(6, level))])
    sizes = sorted(sizes, reverse=True)
    best = None
    # choose which armies keep an army slot: the largest ones, matched in order (exchange argument);
    # try every count of kept armies to be safe
    for k in range(0, min(len(sizes), len(allowed)) + 1):
        kept = sizes[:k]
        cost = sum(max(0, s - m) for s, m in zip(kept, allowed)) + sum(s - 1 for s in sizes[k:])
        best = cost if best is None else min(best, cost)
    return best or 0


def over_supply(state: State, house: str) -> bool:
    return not fits_supply(army_sizes(state, house), state.supply[house], state)


@decision("reconcile", ("reconcile",))
class ReconcileTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        if not over_supply(state, h):
            return []
        from .options import Lazy, reduction_plans, units_by_area

        sizes = army_sizes(state, h)
        need = min_removals(sizes, state.supply[h], state)
        armies = sorted(a for a, us in state.units.items() if us[0][0] == h and len(us) >= 2)
        return [
            Decision(
                h,
                "reduce_armies",
                Lazy(lambda: {
                    "supply": state.supply[h],
                    "allowed": list(board(state).supply_limits[state.supply[h]]),
                    "armies": armies,
                    "remove": need,
                    "units": units_by_area(state, h, armies),
                    "plans": reduction_plans(state, h, need),
                }),
            )
        ]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        need = min_removals(army_sizes(state, actor), state.supply[actor], state)
        if len(action.remove) != need:
            raise IllegalAction("supply.wrong_count", f"Remove exactly {need} unit(s) to fit your supply.", need=need, got=len(action.remove))
        for ref in action.remove:
            us = state.units_of(ref.area)
            if not us or us[0][0] != actor or not any(u[1] == ref.unit for u in us):
                raise IllegalAction("units.not_found", f"You have no {ref.unit} in {ref.area}.", area=ref.area, unit=ref.unit)
            state.remove_unit(ref.area, ref.unit)
        if over_supply(state, actor):
            raise IllegalAction("supply.still_over", "Your armies still exceed your supply limit.")
        state.emit("armies_reduced", house=actor, removed=[[r.area, r.unit] for r in action.remove])
        pop(state)
