"""House Greyjoy's house card abilities (葛雷乔伊家族卡牌).

Euron Crow's Eye (鸦眼攸伦) and Dagmar Cleftjaw (裂颚达格默) have only printed strength and icons.
"""

from __future__ import annotations

from ..combat import barred_cards, card_of, castle_target, current, opponent, unit_contributions
from ..combat_cards import push_card_choice, set_card
from ..house_cards import card as card_data
from .baratheon import ships_zeroed
from .common import Ability, ChoiceAbility, ability_event, register


def supported(state, house) -> bool:
    """Whether any house declared support for ``house``'s side in the combat in progress."""
    c = current(state)
    side = "attacker" if house == c.attacker else "defender"
    return any(s == side for (_h, _a, s) in c.supports)


@register("attacking_ships_plus_two")
class VictarionGreyjoy(Ability):
    """Victarion Greyjoy (维克塔利昂·葛雷乔伊): if you are attacking, each of your attacking ships
    and each supporting Greyjoy ship adds 2 strength instead of 1.

    Timing: 计算总战力 / Final strength (strength modifier). Against a supported Salladhor Saan the
    ships count 0 (his text sets their strength to 0, so there is nothing to double).
    """

    def strength(self, state, house):
        c = current(state)
        if house != c.attacker or ships_zeroed(state):
            return {}
        n = sum(1 for side, uh, _a, t, _role, st in unit_contributions(state) if side == house and uh == house and t == "ship" and st > 0)
        return {house: n} if n else {}


@register("opponent_card_strength_zero")
class BalonGreyjoy(Ability):
    """Balon Greyjoy (巴隆·葛雷乔伊): the printed strength of your opponent's house card is 0.

    Timing: 计算总战力 / Final strength (strength modifier): subtracts the printed value; bonuses
    from the opponent card's own text (Theon, Davos, Stannis) still count.
    """

    def strength(self, state, house):
        c = current(state)
        opp = opponent(c, house)
        cid = card_of(c, opp)
        if cid is None or not card_data(cid, state)["strength"]:
            return {}
        return {opp: -card_data(cid, state)["strength"]}


@register("defending_castle_bonus")
class TheonGreyjoy(Ability):
    """Theon Greyjoy (席恩·葛雷乔伊): if you are defending an area with a castle or stronghold, this
    card gains +1 strength and a sword icon.

    Timing: 计算总战力 / Final strength (strength and icon modifier).
    """

    def _on(self, state, house) -> bool:
        c = current(state)
        return house == c.defender and castle_target(c, state)

    def strength(self, state, house):
        return {house: 1} if self._on(state, house) else {}

    def icons(self, state, house):
        return (1, 0) if self._on(state, house) else (0, 0)


@register("unsupported_bonus_icons")
class AshaGreyjoy(Ability):
    """Asha Greyjoy (阿莎·葛雷乔伊): if nobody supports you in this combat, this card gains two sword
    icons and one fortification icon.

    Timing: 伤亡 / Casualties (icon modifier), judged on the supports declared (a support whose
    order was removed by the Queen of Thorns no longer counts).
    """

    def icons(self, state, house):
        return (0, 0) if supported(state, house) else (2, 1)


@register("pay_power_swap_house_card")
class AeronDamphair(ChoiceAbility):
    """Aeron Damphair (湿发伊伦): you may immediately discard two of your available power tokens to
    discard Aeron and choose a different house card from your hand (if you have one).

    Timing: 立即 / Immediately (家族卡牌 ②, turn order). Decision ``choose`` (purpose
    ``aeron-damphair``): ``swap`` or ``keep``, offered with at least 2 available power and another
    card in hand; then ``choose_house_card`` (purpose ``aeron-damphair``), whose card's own
    Immediately ability resolves next. Aeron goes to the discard pile. A card Tyrion Lannister
    cancelled in this combat is not "a different card" he may bring in (reading chosen,
    game/data/agot2/README.md).
    """

    def reveal(self, state, house):
        if self.choices(state, house, "reveal")[0]:
            self.ask(state, house, "aeron-damphair", "reveal")

    def choices(self, state, house, step):
        barred = barred_cards(state, house)  # a card Tyrion Lannister cancelled stays out
        others = [x for x in state.hands[house] if x != "aeron-damphair" and x not in barred]
        if state.power[house] < 2 or not others:
            return [], {}
        return ["swap", "keep"], {"cost": 2, "cards": sorted(others)}

    def chose(self, state, house, step, option):
        if option != "swap":
            return
        state.power[house] = state.power[house] - 2
        set_card(state, house, None, to_hand=False)
        ability_event(state, house, "aeron-damphair", "swap_card", paid=2)
        push_card_choice(state, house, "aeron-damphair", exclude=("aeron-damphair",))
