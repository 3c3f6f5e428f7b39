"""家族卡牌 / House cards: printed values and the hook API through which card abilities act.

Combat owns choosing and revealing house cards (:mod:`.combat_cards`), discarding and recovering
them at clean-up (:mod:`.combat_result`) and the printed strength, swords (利剑) and
fortifications (铁堡) (:mod:`.combat`). A card's *text ability* (its ``ability_key`` in
``game/data/agot2/houses.json``) acts only through the hooks below, at the rulebook's timings. Register one :class:`Ability` per key in :data:`ABILITIES`::

    class TywinLannister(Ability):
        def result(self, state, house, won):
            if won:
                gain_power(state, house, 2)

    ABILITIES["win_gain_two_power"] = TywinLannister()

Every hook receives ``state`` (the working copy inside ``apply``: edit it freely, keeping dict
values immutable) and ``house`` (the owner of the played card). The combat in progress is
``combat.current(state)`` (a frozen :class:`.combat.Combat`; change it with
``combat.update(state, field=value)``), the opponent ``combat.opponent(c, house)``.

Timings (rulebook 家族卡牌 and its conflict order):

1. ``reveal`` (立即 / Immediately): after both cards are revealed, before Tides of Battle are drawn.
   Abilities with ``first = True`` (their text ignores or cancels: "忽略"/"取消") run first, in turn
   order; then the others, in turn order; one card's ability finishes before the next starts.
   ``reveal`` runs as its own queued task, so it may ``flow.push`` decision tasks (registered with
   ``flow.decision``): they are answered before the next card's ``reveal`` runs.
   :func:`.combat_cards.set_card` replaces a house's card (Tyrion, Aeron);
   :func:`.combat_cards.push_card_choice` asks a house to pick a new card (a ``choose_house_card``
   decision), and the new card's ``reveal`` is queued when it is picked.
2. ``strength(state, house) -> {house: delta}``: added to the final combat strength of the houses
   named (its owner or the opponent). Pure: no edits. Called whenever strength is computed.
   ``combat.unit_contributions(state)`` lists what each unit adds (for per-unit abilities).
3. ``icons(state, house) -> (swords, fortifications)``: added to the card's printed icons. Pure.
4. ``result(state, house, won)`` (赢得/输去本次战斗 / win-or-lose effects): after the winner is
   decided, before casualties, in turn order; may push decision tasks. 1st edition: after the
   battle instead (将军卡: "某些卡片在战争结束後会引发特殊能力"), at the ``after_combat`` point just
   before those hooks (:attr:`.edition.Edition.win_texts_after_battle`).
5. ``casualties(state, house, victim, n, source) -> int``: filters how many units ``victim`` loses
   to ``source`` (``"swords"``, ``"skull"``, ``"ability"``, or ``"supply"`` for a retreat over the
   supply limit); return ``n`` to leave it. Pure.
   Card abilities that destroy units call ``combat_result.destroy_units`` which applies this filter.
6. ``retreat_chooser(state, house) -> house | None``: who chooses the loser's retreat area
   (None: the loser). ``retreat_areas(state, house, areas) -> areas``: filters the legal
   ``{area: units lost to supply}`` the chooser may pick from (never empty it). Pure.
7. ``attacker_advances(state, house) -> bool``: False keeps a winning attacker's units in their
   origin (they do not enter the contested area). Pure.
8. ``after_combat(state, house)`` (战斗后 / After combat): after clean-up (cards discarded, hands
   recovered, the defender's order/power token removed), before the March order is removed from the
   attacker's origin, in turn order; may push decision tasks.
9. ``keeps_card(state, house) -> bool``: True sends the played card back to its owner's hand at
   clean-up instead of the discard pile (Roose Bolton). Pure.

Unregistered keys and cards without text (``ability_key`` null) have no effect.

Both editions: a card id is looked up in the edition of the game (``card(cid, state)``,
``ability(cid, state)``); the 1st edition's cards reuse a 2nd-edition ability key where the text
is the same and register their own in :mod:`.cards.first_edition`. In a combat, use
:func:`.combat.card_ability`, which also knows a text cancelled by the opponent's card.
"""

from __future__ import annotations

from typing import Any

from .data import board


class Ability:
    """Base class: every hook is optional and does nothing by default."""

    #: the text ignores or cancels something: resolved before the other abilities
    first: bool = False

    def reveal(self, state: Any, house: str) -> None:
        return None

    def strength(self, state: Any, house: str) -> dict[str, int]:
        return {}

    def icons(self, state: Any, house: str) -> tuple[int, int]:
        return (0, 0)

    def result(self, state: Any, house: str, won: bool) -> None:
        return None

    def casualties(self, state: Any, house: str, victim: str, n: int, source: str) -> int:
        return n

    def retreat_chooser(self, state: Any, house: str) -> str | None:
        return None

    def retreat_areas(self, state: Any, house: str, areas: dict[str, int]) -> dict[str, int]:
        return areas

    def attacker_advances(self, state: Any, house: str) -> bool:
        return True

    def after_combat(self, state: Any, house: str) -> None:
        return None

    def keeps_card(self, state: Any, house: str) -> bool:
        return False


#: ability_key -> its implementation (filled by the card abilities module)
ABILITIES: dict[str, Ability] = {}

_NONE = Ability()


def card(card_id: str, of: Any = None) -> dict[str, Any]:
    """The printed card: ``{id, name_en, name_zh, strength, swords, fortifications, ability,
    ability_key, house}`` of the edition of ``of`` (a state or edition id; None: agot2)."""
    return board(of).house_cards[card_id]


def ability(card_id: str | None, of: Any = None) -> Ability:
    """The :class:`Ability` of a card of the edition of ``of`` (a do-nothing one for no card or a
    card without text). In a combat use :func:`.combat.card_ability`, which also knows a text
    cancelled by the opponent's card."""
    if card_id is None:
        return _NONE
    key = board(of).house_cards[card_id]["ability_key"]
    return ABILITIES.get(key, _NONE) if key else _NONE


def discard_from_hand(state: Any, house: str, card: str) -> None:
    """``card`` leaves ``house``'s hand for its discard pile (a card thrown away by an ability or
    a wildling result, not played). The caller applies :func:`recover_if_empty` where the hand
    may now be empty outside a combat (家族卡牌 / House cards)."""
    state.hands[house] = tuple(x for x in state.hands[house] if x != card)
    state.discards[house] = state.discards[house] + (card,)


def recover_if_empty(state: Any, house: str, just_left: tuple[str, ...] = ()) -> bool:
    """A house must always have house cards to play: when ``house``'s hand is empty, its other
    discarded cards return to its hand at once; the cards that just left the hand
    (``just_left``: the card played last, or the cards just thrown away) stay in the discard
    pile. Returns whether the cards came back.

    2nd ed. rulebook, 家族卡牌 / House cards: "在战斗结束时，如果玩家打出了最后一张（即第七张）
    家族卡牌，他将当前弃牌堆中的六张卡牌返回手中，并将最后打出的一张卡牌放进弃牌堆". Reading
    (docs/scenarios.md, Readings): the same rule applies whenever a hand becomes empty another
    way (Massing on the Milkwater throwing away a whole hand of equal cards, Patchface taking
    the last card; in the 1st edition Melisandre taking the loser's last card, docs/agot1.md).
    Never called while the house's card is in play in a combat: the seventh card's return
    happens at the combat's clean-up.
    """
    if state.hands[house]:
        return False
    back = tuple(x for x in state.discards[house] if x not in just_left)
    if not back:  # every card just left at once (impossible with seven different cards)
        back = state.discards[house]
    if not back:
        return False
    state.hands[house] = tuple(sorted(back))
    state.discards[house] = tuple(x for x in state.discards[house] if x not in back)
    state.emit("house_cards_recovered", house=house, cards=list(state.hands[house]))
    return True
