"""House Stark's house card abilities (史塔克家族卡牌).

Eddard Stark (艾德·史塔克), Greatjon Umber (大琼恩·安柏) and Ser Rodrik Cassel (罗德利克·凯索爵士)
have only printed strength and icons (战斗符号 / combat icons), handled by :mod:`..combat`.
"""

from __future__ import annotations

from ..combat import current
from ..data import board
from .common import Ability, ability_event, register


@register("win_choose_retreat_area")
class RobbStark(Ability):
    """Robb Stark (罗柏·史塔克): if you win, you choose where the loser retreats, among the legal
    areas that cost it the fewest units.

    Timing: 撤退和溃败 / Retreat and routing (a win effect, resolved when the retreat is chosen).
    Only a losing defender has a choice of area (a losing attacker goes back to its origin).
    """

    def retreat_chooser(self, state, house):
        return house if current(state).winner == house else None

    def retreat_areas(self, state, house, areas):
        if current(state).winner != house or not areas:
            return areas
        least = min(areas.values())
        return {a: k for a, k in areas.items() if k == least}


@register("lose_return_discards_to_hand")
class RooseBolton(Ability):
    """Roose Bolton (卢斯·波顿): if you lose, your whole discard pile returns to your hand, and this
    card too (instead of being discarded at clean-up).

    Timing: 赢得/输去本次战斗 / win-or-lose effects, after the winner is decided (家族卡牌 ③).
    """

    def result(self, state, house, won):
        if won:
            return
        back = state.discards[house]
        state.hands[house] = state.hands[house] + back
        state.discards[house] = ()
        ability_event(state, house, "roose-bolton", "discards_to_hand", cards=list(back))

    def keeps_card(self, state, house):
        return current(state).loser == house


@register("ignore_casualties")
class TheBlackfish(Ability):
    """The Blackfish (黑鱼): your units take no casualties in this combat from swords (利剑),
    house card abilities or Tides of Battle skulls (骷髅).

    Timing: 伤亡 / Casualties (a filter on every loss of this combat). Losses for exceeding the
    supply limit on retreat, and routed units or siege engines destroyed instead of retreating,
    are not casualties and still happen.
    """

    def casualties(self, state, house, victim, n, source):
        if victim == house and source in ("swords", "skull", "ability"):
            return 0
        return n


@register("double_defense_order")
class CatelynStark(Ability):
    """Catelyn Stark (凯特琳·史塔克): a Defense order of yours in the embattled area counts double.

    Timing: 计算总战力 / Final strength (strength modifier): adds the order's bonus once more.
    """

    def strength(self, state, house):
        c = current(state)
        if house != c.defender:
            return {}
        o = state.orders.get(c.area)
        if not o or o[0] != house:
            return {}
        tok = board(state).order_tokens[o[1]]
        if tok.type != "defense":
            return {}
        return {house: tok.strength}
