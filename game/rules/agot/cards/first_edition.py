"""The 1st edition's house card abilities (1st ed. rulebook, 将军卡 / House Cards) that the 2nd
edition has no card for. The 1st-edition cards whose text a 2nd-edition card shares use that
card's ability key (``game/data/agot1/houses.json``): Catelyn Stark (``double_defense_order``),
Balon Greyjoy (``opponent_card_strength_zero``), Ser Jaime Lannister (``win_gain_two_power``, the
2nd edition's Tywin), Cersei Lannister (``win_remove_opponent_order``), Ser Loras Tyrell
(``destroy_opponent_footman``, the 2nd edition's Mace Tyrell).

The rulebook prints the cards only as pictures; its text fixes their timings: "两张将军卡翻开後,先处理
卡上的特殊能力。然後把将军卡的战力加到总和战力上" (an "immediately" text acts after both cards are
revealed, before strengths are added) and "某些卡片在战争结束後会引发特殊能力" (an "if you win" text
acts after the battle: after casualties, the retreat and the played cards' discard, when the
seventh card has already brought a hand back; the engine runs these ``result`` hooks at the
after-combat point, :attr:`..edition.Edition.win_texts_after_battle`). The card texts are the
reference's (``docs/agot1.md``, House cards, with its sources); readings where a text leaves room are in
``docs/agot1.md``.
"""

from __future__ import annotations

from ..combat import card_of, current, opponent, unit_contributions, update
from ..combat_result import fighting_units
from ..data import board
from ..flow import push
from ..house_cards import discard_from_hand, recover_if_empty
from .baratheon import RenlyBaratheon
from .common import Ability, ChoiceAbility, ability_event, register, remove_order


def _attacking_bonus(state, house, utype: str) -> dict[str, int]:
    """+1 per standing attacking unit of ``utype`` of ``house`` (the marching units, not
    supporting ones)."""
    c = current(state)
    if house != c.attacker:
        return {}
    n = sum(1 for side, uh, _a, t, role, st in unit_contributions(state) if side == house and uh == house and role == "fighting" and t == utype and st > 0)
    return {house: n} if n else {}


@register("attacking_knights_add_three")
class RobbStarkFirst(Ability):
    """Robb Stark (罗柏·史塔克, 1st edition): each of your attacking knights adds 3 instead of 2.

    Timing: strength modifier (计算战力). "Attacking" knights are the marching ones, not
    supporting knights (reading: docs/agot1.md)."""

    def strength(self, state, house):
        return _attacking_bonus(state, house, "knight")


@register("attacking_footmen_add_two")
class VargoHoat(Ability):
    """Vargo Hoat (瓦格·赫特): each of your attacking footmen adds 2 instead of 1 (strength
    modifier; marching footmen only)."""

    def strength(self, state, house):
        return _attacking_bonus(state, house, "footman")


@register("attacking_ships_add_two")
class VictarionGreyjoyFirst(Ability):
    """Victarion Greyjoy (维克塔利昂·葛雷乔伊, 1st edition): each of your attacking ships adds 2
    instead of 1 (strength modifier; marching ships only)."""

    def strength(self, state, house):
        return _attacking_bonus(state, house, "ship")


@register("opposing_supporting_ships_zero")
class SalladhorSaanFirst(Ability):
    """Salladhor Saan (萨拉多·桑恩, 1st edition): ships supporting your opponent add no strength
    (their Support order's +1 star still counts: it is not a ship's strength).

    Timing: strength modifier. Scope (reconstructed, docs/agot1.md): the ships supporting the
    other side, whoever owns them; the reference's two sources differ (one says any supporting
    ships)."""

    def strength(self, state, house):
        c = current(state)
        opp = opponent(c, house)
        lost = sum(st for side, _uh, _a, t, role, st in unit_contributions(state) if side == opp and role == "supporting" and t == "ship")
        return {opp: -lost} if lost else {}


@register("win_take_back_one_discard")
class MaesterLuwin(Ability):
    """Maester Luwin (鲁温学士): if you win, you may take one of your discarded house cards back into
    your hand.

    Timing: after the battle (战争结束後), once the played cards are discarded (用掉的家族卡): Luwin
    is then one of the discarded cards and may take himself back; played as the seventh card he
    finds every card in hand already and does nothing. Decision ``select_card`` (purpose
    ``maester-luwin``, optional)."""

    def result(self, state, house, won):
        if won and state.discards[house]:
            push(state, ("w_recover_one", house, "maester-luwin"))


@register("win_remove_adjacent_support_or_consolidate")
class AshaGreyjoyFirst(ChoiceAbility):
    """Asha Greyjoy (阿莎·葛雷乔伊, 1st edition): if you win, you may remove one Support or
    Consolidate Power order from an area (land or sea) adjacent to the contested area.

    Timing: after the battle. Decision ``choose`` (purpose ``asha-greyjoy``): an area holding
    such an order, or ``none``."""

    def result(self, state, house, won):
        if won and self._areas(state):
            self.ask(state, house, card_of(current(state), house), "result")

    def _areas(self, state) -> list[str]:
        b = board(state)
        c = current(state)
        return sorted(
            a for a in b.adjacent[c.area]
            if a in state.orders and b.order_tokens[state.orders[a][1]].type in ("support", "consolidate_power")
        )

    def choices(self, state, house, step):
        areas = self._areas(state)
        if not areas:
            return [], {}
        return areas + ["none"], {"orders": {a: list(state.orders[a]) for a in areas}}

    def chose(self, state, house, step, option):
        if option == "none":
            return
        ability_event(state, house, card_of(current(state), house), "remove_order", area=option, token=state.orders[option][1])
        remove_order(state, option)


@register("win_upgrade_fighting_footman")
class RenlyBaratheonFirst(RenlyBaratheon):
    """Renly Baratheon (蓝礼·拜拉席恩, 1st edition): if you win, you may upgrade one of your footmen
    that fought in this combat (attacking or defending, not supporting) to a knight: after the
    battle, a survivor of the casualties, where it now stands (a winning attacker's footmen in the
    area they took). As the 2nd edition's Renly otherwise (decision ``choose``, purpose
    ``renly-baratheon``). Which of Renly and Ser Davos carries this text is reconstructed
    (docs/agot1.md)."""

    def _areas(self, state, house) -> list[str]:
        from ..control import available_units

        if available_units(state, house, "knight") <= 0:
            return []
        return sorted({a for (a, t) in fighting_units(state, house) if t == "footman"})


@register("win_pay_power_discard_loser_card")
class MelisandreFirst(Ability):
    """Melisandre of Asshai (亚夏的梅丽珊卓): if you win, you may discard one available power token
    to choose a house card in the loser's hand and discard it.

    Timing: after the battle, from the loser's hand as the clean-up left it (all seven cards if
    the loser played its seventh). Decision ``select_card`` (purpose ``melisandre``, optional,
    ``from`` the loser): a card, or ``null`` to keep the power token. Offered only with an available
    power token and a card in that hand. Taking the loser's last card empties its hand: its other
    discarded cards come back and the card taken stays out (docs/agot1.md, Readings), as after the
    seventh card the rulebook only returns cards for a card played."""

    def result(self, state, house, won):
        if won and state.power[house] >= 1 and state.hands[self.select_from(state, house)]:
            push(state, ("card_select", house, card_of(current(state), house)))

    def select_from(self, state, house):
        return opponent(current(state), house)

    def selected(self, state, house, card):
        if card is None:
            return
        opp = self.select_from(state, house)
        state.power[house] -= 1
        discard_from_hand(state, opp, card)
        ability_event(state, house, card_of(current(state), house), "pay_discard_card", victim=opp, discarded=card, paid=1)
        recover_if_empty(state, opp, (card,))


@register("discard_opponent_defense_order")
class BrienneOfTarthFirst(Ability):
    """Brienne of Tarth (塔斯的布蕾妮, 1st edition): immediately discard your opponent's Defense order
    in the contested area (only a defending opponent has one there).

    Timing: immediately (after the reveal, before strengths are added): the order's bonus no longer
    counts."""

    def reveal(self, state, house):
        c = current(state)
        opp = opponent(c, house)
        o = state.orders.get(c.area)
        if opp == c.defender and o and o[0] == opp and board(state).order_tokens[o[1]].type == "defense":
            ability_event(state, house, card_of(c, house), "remove_order", area=c.area, token=o[1])
            remove_order(state, c.area)


@register("cancel_opponent_card_text")
class QueenOfThornsFirst(Ability):
    """Queen of Thorns (荆棘女王, 1st edition): cancel the text of your opponent's house card (its
    printed strength and icons still count).

    Timing: immediately, and a cancel effect: resolved before every other ability (``first``), so
    the cancelled text never acts; read by :func:`..combat.card_ability` (memo
    ``("text_cancelled", opponent)``)."""

    first = True

    def reveal(self, state, house):
        c = current(state)
        opp = opponent(c, house)
        if card_of(c, opp) is None or ("text_cancelled", opp) in c.memo:
            return
        update(state, memo=c.memo + (("text_cancelled", opp),))
        ability_event(state, house, card_of(c, house), "cancel_text", victim=opp, cancelled=card_of(c, opp))
