"""House Baratheon's house card abilities (拜拉席恩家族卡牌).

Brienne of Tarth (塔斯的布蕾妮) and Melisandre (梅丽珊卓) have only printed strength and icons.
"""

from __future__ import annotations

from ..combat import card_of, combatants, current, opponent, unit_contributions, update
from ..combat_result import fighting_units
from ..control import available_units
from ..house_cards import discard_from_hand, recover_if_empty
from .common import Ability, ChoiceAbility, ability_event, register


def _supported(state, house) -> bool:
    c = current(state)
    side = "attacker" if house == c.attacker else "defender"
    return any(s == side for (_h, _a, s) in c.supports)


def ships_zeroed(state) -> bool:
    """Whether a supported Salladhor Saan is in play (non-Baratheon ships then count 0)."""
    c = current(state)
    return any(card_of(c, h) == "salladhor-saan" and _supported(state, h) for h in combatants(state, c))


@register("plus_one_if_opponent_higher_on_iron_throne")
class StannisBaratheon(Ability):
    """Stannis Baratheon (史坦尼斯·拜拉席恩): if your opponent is higher than you on the Iron Throne
    track, this card gains +1 strength.

    Timing: 计算总战力 / Final strength (strength modifier), judged on the track at that moment
    (after a Doran Martell move).
    """

    def strength(self, state, house):
        order = state.turn_order()
        opp = opponent(current(state), house)
        return {house: 1} if order.index(opp) < order.index(house) else {}


@register("win_upgrade_footman_to_knight")
class RenlyBaratheon(ChoiceAbility):
    """Renly Baratheon (蓝礼·拜拉席恩): if you win, you may upgrade one of your participating
    footmen (or one supporting Baratheon footman) to a knight.

    Timing: 赢得/输去本次战斗 / win-or-lose effects (家族卡牌 ③). Decision ``choose`` (purpose
    ``renly-baratheon``): the area of the footman to upgrade, or ``none``; offered only with a
    knight left in the house's reserve (超出配件数量 / component limits). An attacking footman is
    upgraded where it stands (the March origin) and enters the area as a knight.
    """

    def result(self, state, house, won):
        if won and self._areas(state, house):
            self.ask(state, house, "renly-baratheon", "result")

    def _areas(self, state, house) -> list[str]:
        if available_units(state, house, "knight") <= 0:
            return []
        out = {a for (a, t) in fighting_units(state, house) if t == "footman"}
        for side, uh, a, t, role, st in unit_contributions(state):
            if role == "supporting" and side == house and uh == house and t == "footman" and any(
                u == (house, "footman", False) for u in state.units_of(a)
            ):
                out.add(a)
        return sorted(out)

    def choices(self, state, house, step):
        areas = self._areas(state, house)
        return (areas + ["none"], {}) if areas else ([], {})

    def chose(self, state, house, step, option):
        if option == "none":
            return
        c = current(state)
        state.remove_unit(option, "footman", prefer_routed=False)
        state.add_unit(option, house, "knight", False)
        if house == c.attacker and option == c.origin and "footman" in c.units:
            us = list(c.units)
            us.remove("footman")
            update(state, units=tuple(sorted(us + ["knight"])))
        ability_event(state, house, "renly-baratheon", "upgrade_footman", area=option)
        state.emit("unit_replaced", house=house, area=option, old="footman", new="knight")


@register("bonus_if_stannis_discarded")
class SerDavosSeaworth(Ability):
    """Ser Davos Seaworth (戴佛斯·席渥斯爵士): if Stannis Baratheon is in your discard pile, this card
    gains +1 strength and a sword icon.

    Timing: 计算总战力 / Final strength (strength and icon modifier).
    """

    def _on(self, state, house) -> bool:
        return "stannis-baratheon" in state.discards[house]

    def strength(self, state, house):
        return {house: 1} if self._on(state, house) else {}

    def icons(self, state, house):
        return (1, 0) if self._on(state, house) else (0, 0)


@register("supported_non_baratheon_ships_zero")
class SalladhorSaan(Ability):
    """Salladhor Saan (萨拉多·桑恩): if you are being supported in this combat, every non-Baratheon
    ship (attacking, defending or supporting, either side) has strength 0.

    Timing: 计算总战力 / Final strength (strength modifier: removes those ships' strength from the
    side they count for; also cancels Victarion Greyjoy's bonus for them).
    """

    def strength(self, state, house):
        if not _supported(state, house):
            return {}
        out: dict[str, int] = {}
        for side, uh, _a, t, _role, st in unit_contributions(state):
            if t == "ship" and uh != house and st > 0:
                out[side] = out.get(side, 0) - st
        return out


@register("after_combat_discard_opponent_card")
class Patchface(Ability):
    """Patchface (补丁脸): after the combat, you may look at your opponent's hand (public in this
    game anyway) and discard one card of your choice.

    Timing: 战斗后 / After combat (after clean-up: hands already recovered). Decision
    ``select_card`` (purpose ``patchface``, ``optional``): a card of the opponent's hand or
    ``null``. If that empties the opponent's hand, it takes back its other discarded cards, as
    after playing its last card (:func:`..house_cards.recover_if_empty`).
    """

    def after_combat(self, state, house):
        if state.hands[self.select_from(state, house)]:
            from ..flow import push

            push(state, ("card_select", house, "patchface"))

    def select_from(self, state, house):
        return opponent(current(state), house)

    def selected(self, state, house, card):
        if card is None:
            return
        opp = self.select_from(state, house)
        discard_from_hand(state, opp, card)
        ability_event(state, house, "patchface", "discard_card", victim=opp, discarded=card)
        recover_if_empty(state, opp, (card,))
