"""House Tyrell's house card abilities (提利尔家族卡牌).

Randyll Tarly (蓝道·塔利), Ser Garlan Tyrell (加兰·提利尔爵士), Margaery Tyrell (玛格丽·提利尔)
and Alester Florent (艾利斯特·佛罗伦) have only printed strength and icons.
"""

from __future__ import annotations

from ..combat import card_of, current, opponent, update
from ..combat_result import fighting_units, filter_losses, remove_fighting_unit
from ..data import board
from .common import Ability, ChoiceAbility, ability_event, register, remove_order


@register("destroy_opponent_footman")
class MaceTyrell(Ability):
    """Mace Tyrell (梅斯·提利尔): immediately destroy one of your opponent's attacking or defending
    footmen (supporting footmen are not in reach). The 1st edition's Ser Loras Tyrell has this text.

    Timing: 立即 / Immediately (家族卡牌 ②, turn order); a house card ability casualty, so The
    Blackfish prevents it. The base strength is recounted at final strength (计算总战力 note).
    No decision: footmen are interchangeable.
    """

    def reveal(self, state, house):
        c = current(state)
        opp = opponent(c, house)
        feet = [(a, t) for (a, t) in fighting_units(state, opp) if t == "footman"]
        if not feet:
            return
        if filter_losses(state, opp, 1, "ability") <= 0:
            ability_event(state, house, card_of(c, house), "destroy_footman_prevented", victim=opp)
            return
        area, t = feet[0]
        remove_fighting_unit(state, opp, area, t)
        ability_event(state, house, card_of(c, house), "destroy_footman", victim=opp, area=area)
        state.emit("casualties", house=opp, source="ability", units=[[area, t]])


@register("win_march_order_advances")
class SerLorasTyrell(Ability):
    """Ser Loras Tyrell (洛拉斯·提利尔爵士): if you are attacking and win, the March order that
    started this combat moves into the conquered area instead of being removed; it may be resolved
    again later this round.

    Timing: 战斗后 / after the combat's clean-up (the attackers have moved in), before the March
    order would be removed. Nothing moves if the attackers did not enter (no survivors, or Arianne
    Martell kept them out).
    """

    def after_combat(self, state, house):
        c = current(state)
        if house != c.attacker or c.winner != house or state.owner(c.area) != house:
            return
        o = state.orders.get(c.origin)
        if o != (house, c.march_token) or c.area in state.orders:
            return
        del state.orders[c.origin]
        state.orders[c.area] = o
        ability_event(state, house, "ser-loras-tyrell", "march_order_advances", area=c.area, origin=c.origin, token=o[1])


@register("remove_adjacent_opponent_order")
class QueenOfThorns(ChoiceAbility):
    """Queen of Thorns (荆棘女王): immediately remove one of your opponent's order tokens in an area
    adjacent to the embattled area, except the March order that started this combat.

    Timing: 立即 / Immediately (家族卡牌 ②, turn order). Decision ``choose`` (purpose
    ``queen-of-thorns``): one of the areas, asked only when there are two or more (a single one
    is removed at once; none: no effect). A removed Support order that supported this combat no
    longer adds its strength.
    """

    def _areas(self, state, house) -> list[str]:
        c = current(state)
        opp = opponent(c, house)
        return sorted(a for a in board(state).adjacent[c.area] if a != c.origin and state.orders.get(a, (None,))[0] == opp)

    def reveal(self, state, house):
        areas = self._areas(state, house)
        if len(areas) == 1:
            self.chose(state, house, "reveal", areas[0])
        elif areas:
            self.ask(state, house, "queen-of-thorns", "reveal")

    def choices(self, state, house, step):
        areas = self._areas(state, house)
        return areas, {"opponent": opponent(current(state), house), "orders": {a: state.orders[a][1] for a in areas}}

    def chose(self, state, house, step, option):
        c = current(state)
        ability_event(state, house, "queen-of-thorns", "remove_order", area=option, token=state.orders[option][1])
        remove_order(state, option)
        if any(a == option and s != "none" for (_h, a, s) in c.supports):
            update(state, supports=tuple((h, a, "none" if a == option else s) for (h, a, s) in c.supports))
