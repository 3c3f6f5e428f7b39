"""House Lannister's house card abilities (兰尼斯特家族卡牌).

Ser Gregor Clegane (格雷果·克里冈爵士), Ser Jaime Lannister (詹姆·兰尼斯特爵士) and The Hound
(猎狗) have only printed strength and icons.
"""

from __future__ import annotations

from ..combat import bar_card, card_of, current, opponent, unit_contributions
from ..combat_cards import push_card_choice, set_card
from ..control import gain_power
from .common import Ability, ChoiceAbility, ability_event, register, remove_order


@register("win_gain_two_power")
class TywinLannister(Ability):
    """Tywin Lannister (泰温·兰尼斯特): if you win, gain two power tokens (from your Power Pool;
    fewer if it holds fewer). The 1st edition's Ser Jaime Lannister has this text.

    Timing: 赢得/输去本次战斗 / win-or-lose effects (家族卡牌 ③).
    """

    def result(self, state, house, won):
        if won:
            g = gain_power(state, house, 2)
            ability_event(state, house, card_of(current(state), house), "gain_power", gained=g)


@register("attacking_footmen_plus_two")
class SerKevanLannister(Ability):
    """Ser Kevan Lannister (凯冯·兰尼斯特爵士): if you are attacking, each of your attacking
    footmen and each supporting Lannister footman adds 2 strength instead of 1.

    Timing: 计算总战力 / Final strength (strength modifier): +1 per such footman with strength.
    """

    def strength(self, state, house):
        c = current(state)
        if house != c.attacker:
            return {}
        n = sum(1 for side, uh, _a, t, _role, st in unit_contributions(state) if side == house and uh == house and t == "footman" and st > 0)
        return {house: n} if n else {}


@register("cancel_opponent_house_card")
class TyrionLannister(ChoiceAbility):
    """Tyrion Lannister (提利昂·兰尼斯特): you may immediately cancel your opponent's house card: it
    returns to their hand and they must choose a different card to reveal (fighting without a card
    if they have no other).

    Timing: 立即 / Immediately, and a cancel effect: resolved before every other ability
    (家族卡牌 ①, cancel/ignore first). Decision ``choose`` (purpose ``tyrion-lannister``):
    ``cancel`` or ``keep``; then the opponent's ``choose_house_card`` (purpose
    ``tyrion-lannister``) whose card's own Immediately ability resolves next. The cancelled card
    takes no part in this combat: a later re-choice (Aeron Damphair's swap) cannot bring it back
    (reading chosen, game/data/agot2/README.md).
    """

    first = True

    def reveal(self, state, house):
        c = current(state)
        if card_of(c, opponent(c, house)) is not None:
            self.ask(state, house, "tyrion-lannister", "reveal")

    def choices(self, state, house, step):
        c = current(state)
        opp = opponent(c, house)
        old = card_of(c, opp)
        if old is None:
            return [], {}
        return ["cancel", "keep"], {"opponent": opp, "opponent_card": old}

    def chose(self, state, house, step, option):
        if option != "cancel":
            return
        c = current(state)
        opp = opponent(c, house)
        old = card_of(c, opp)
        set_card(state, opp, None, to_hand=True)
        bar_card(state, opp, old)
        ability_event(state, house, "tyrion-lannister", "cancel_card", victim=opp, cancelled=old)
        push_card_choice(state, opp, "tyrion-lannister", exclude=(old,))


@register("win_remove_opponent_order")
class CerseiLannister(ChoiceAbility):
    """Cersei Lannister (瑟曦·兰尼斯特): if you win, you may remove one of your opponent's order
    tokens from anywhere on the board.

    Timing: 赢得/输去本次战斗 / win-or-lose effects (家族卡牌 ③). Decision ``choose`` (purpose
    ``cersei-lannister``): an area holding an opponent's order, or ``none``. The orders the
    clean-up removes anyway (the attacker's March order of this combat, the defeated defender's
    order in the embattled area) are not offered.
    """

    def result(self, state, house, won):
        if won:
            self.ask(state, house, "cersei-lannister", "result")

    def choices(self, state, house, step):
        c = current(state)
        opp = opponent(c, house)
        skip = {c.origin, c.area}
        areas = sorted(a for a, (h, _t) in state.orders.items() if h == opp and a not in skip)
        if not areas:
            return [], {}
        return areas + ["none"], {"opponent": opp, "orders": {a: state.orders[a][1] for a in areas}}

    def chose(self, state, house, step, option):
        if option == "none":
            return
        ability_event(state, house, "cersei-lannister", "remove_order", area=option, token=state.orders[option][1])
        remove_order(state, option)
