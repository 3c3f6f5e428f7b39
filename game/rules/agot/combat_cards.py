"""选择并打出家族卡牌 / Choosing and revealing house cards (combat step 3), then drawing the Tides
of Battle cards.

3. 选择并展示家族卡 / House cards: both sides choose face-down at once (``choose_house_card``,
   simultaneous; absent from every view until revealed), revealed together; the cards' abilities
   act through :mod:`.house_cards` hooks (cancel/ignore first, then turn order);
   战局卡牌 / Tides of Battle (option ``tides_of_battle``): each side then draws one card in secret
   (战局卡牌 step 1, 抓取战局卡牌: "在选择并打出家族卡牌后，攻方和守方分别从战局卡牌堆顶抓一张战局卡牌，
   并秘密查看").

Card abilities act here through queued hook tasks (:func:`combat_hook`, also for the later
``result`` and ``after_combat`` timings) and may replace a house's card (:func:`set_card`), keep a
cancelled card out of the combat (:func:`.combat.bar_card`) or ask for a new choice
(:func:`push_card_choice`).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .combat import barred_cards, card_ability, card_of, combat_summary, current, pairs_get, update
from .flow import auto, decision, pop, push
from .house_cards import ability
from .state import State
from .tides import draw_tides, tides_on


@decision("combat_cards", ("select_card",))
class CardsTask:
    """Both sides choose a house card face-down (simultaneous); a side with an empty hand plays none."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        c = current(state)
        chosen = dict(c.chosen)
        out = []
        for h in (c.attacker, c.defender):
            if h in chosen or not state.hands[h]:
                continue
            out.append(Decision(h, "choose_house_card", {"purpose": "combat", "cards": sorted(state.hands[h]), "optional": False, **combat_summary(c)}, True))
        return out

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        c = current(state)
        if action.card is None or action.card not in state.hands[actor]:
            raise IllegalAction("card.not_in_hand", "Choose a house card from your hand.", card=action.card)
        c = update(state, chosen=c.chosen + ((actor, action.card),))
        state.emit("house_card_chosen", house=actor)
        if all(pairs_get(c.chosen, h) is not None or not state.hands[h] for h in (c.attacker, c.defender)):
            pop(state)

    @staticmethod
    def withdraw(state: State, task: tuple, actor: str) -> bool:
        """Take ``actor``'s face-down house card back into its hand (:func:`.flow.withdraw`)."""
        c = current(state)
        if pairs_get(c.chosen, actor) is None:
            return False
        update(state, chosen=tuple((h, card) for h, card in c.chosen if h != actor))
        state.emit("house_card_withdrawn", house=actor)
        return True

    @staticmethod
    def answered(state: State, task: tuple) -> list[str]:
        """The sides whose house card lies face down (:func:`.flow.ready`)."""
        return [h for h, _ in current(state).chosen]


@auto("combat_reveal")
def combat_reveal(state: State, task: tuple) -> None:
    c = current(state)
    cards = tuple((h, pairs_get(c.chosen, h)) for h in (c.attacker, c.defender))
    for h, cid in cards:
        if cid is not None:
            state.hands[h] = tuple(x for x in state.hands[h] if x != cid)
    c = update(state, cards=cards, chosen=(), revealed=True, step="reveal")
    for h, _cid in cards:
        note_last_card(state, h)
    state.emit("house_cards_revealed", area=c.area, cards=dict(cards))
    push(state, *reveal_tasks(state, [(h, cid) for h, cid in cards]))


def note_last_card(state: State, house: str) -> None:
    """Remember in the combat's memo (``("last_card", house)``) whether ``house``'s card in play is
    the last card of its hand: the seventh card's rule (用掉的家族卡 / 家族卡牌) is about the card
    *played*, so the clean-up reads this fact rather than the hand, which a card text may have
    refilled meanwhile. Called at the reveal and whenever a card is replaced."""
    c = current(state)
    last = card_of(c, house) is not None and not state.hands[house]
    memo = tuple(m for m in c.memo if m != ("last_card", house)) + ((("last_card", house),) if last else ())
    if memo != c.memo:
        update(state, memo=memo)


def reveal_tasks(state: State, cards: list[tuple[str, str | None]]) -> list[tuple]:
    """The ``reveal`` hook tasks of ``cards``: cancel/ignore abilities first, then turn order."""
    order = state.turn_order()
    cards = [(h, cid) for h, cid in cards if cid is not None]
    cards.sort(key=lambda x: (0 if ability(x[1], state).first else 1, order.index(x[0])))
    return [("combat_hook", "reveal", h, cid) for h, cid in cards]


@auto("combat_hook")
def combat_hook(state: State, task: tuple) -> None:
    """Run one card's hook (``reveal``/``result``/``after_combat``) if that card is still in play."""
    _, hook, h, cid = task
    c = current(state)
    if card_of(c, h) != cid:
        return
    ab = card_ability(state, h)
    if hook == "result":
        ab.result(state, h, c.winner == h)
    else:
        getattr(ab, hook)(state, h)


def set_card(state: State, house: str, cid: str | None, to_hand: bool = True) -> None:
    """Replace ``house``'s revealed card by ``cid`` (taken from its hand; None = no card). The old
    card goes back to the hand (``to_hand``) or to the discard pile."""
    c = current(state)
    old = card_of(c, house)
    if old is not None:
        if to_hand:
            state.hands[house] = state.hands[house] + (old,)
        else:
            state.discards[house] = state.discards[house] + (old,)
    if cid is not None:
        state.hands[house] = tuple(x for x in state.hands[house] if x != cid)
    update(state, cards=tuple((h, cid if h == house else v) for h, v in c.cards))
    note_last_card(state, house)
    state.emit("house_card_replaced", house=house, old=old, card=cid)


def push_card_choice(state: State, house: str, purpose: str, exclude: tuple[str, ...] = ()) -> None:
    """Ask ``house`` to pick a new card from its hand (except ``exclude``); it replaces its current
    card (which goes back to its hand: to discard it or set it aside instead, first call
    ``set_card(state, house, None, to_hand=False)``) and its ``reveal`` hook is
    queued. With no card left in hand (after ``exclude`` and the cards barred by
    :func:`.combat.bar_card`), the house keeps its current card (None if the caller cleared it:
    it fights without a card)."""
    push(state, ("combat_rechoose", house, purpose, tuple(exclude) + barred_cards(state, house)))


@decision("combat_rechoose", ("select_card",))
class RechooseTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, purpose, exclude = task
        cards = sorted(x for x in state.hands[h] if x not in exclude)
        if not cards:
            return []
        return [Decision(h, "choose_house_card", {"purpose": purpose, "cards": cards, "optional": False, **combat_summary(current(state))})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, purpose, exclude = task
        if action.card is None or action.card not in state.hands[h] or action.card in exclude:
            raise IllegalAction("card.not_in_hand", "Choose a house card from your hand.", card=action.card)
        pop(state)
        set_card(state, h, action.card)
        push(state, *reveal_tasks(state, [(h, action.card)]))


# -- 战局卡牌 / Tides of Battle, step 1: each side draws one card -------------------------------------------
@auto("combat_tides_draw")
def combat_tides_draw(state: State, task: tuple) -> None:
    if not tides_on(state):
        return
    c = current(state)
    drawn = []
    for h in (c.attacker, c.defender):
        t = draw_tides(state)
        drawn.append((h, t))
        state.emit("tides_drawn", to=h, house=h, card=t)
    update(state, tides=tuple(drawn))
