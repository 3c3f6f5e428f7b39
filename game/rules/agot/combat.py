"""战斗 / Combat: from a March into enemy units to clean-up, as tasks on the flow queue.

:func:`start_combat` (called by :func:`.march.resolve_march`) records the fight in
``state.ctx["combat"]`` (a frozen :class:`Combat`) and queues its steps:

1. 寻求支援 / Call for Support: every adjacent Support order declares, in turn order
   (``support_combat`` decisions; rules in :mod:`.support`);
2. 计算基础战力 / Base strength: attacking units (siege engines 4 against a castle/stronghold),
   the March order's modifier (attacker), fighting units plus the Defense order and the home
   garrison (defender), declared supports; routed units count 0;
3. 选择并展示家族卡 / House cards: both sides choose face-down at once (``choose_house_card``,
   simultaneous; absent from every view until revealed), revealed together; the cards' abilities
   act through :mod:`.house_cards` hooks (cancel/ignore first, then turn order);
   战局卡牌 / Tides of Battle (option ``tides_of_battle``): each side then draws one card in secret;
4. 使用瓦雷利亚钢剑 / Valyrian Steel Blade: its holder (position 1 of the Fiefdoms track), if
   fighting and the Blade is unused this round, may add +1 (with Tides of Battle instead: redraw
   its Tides card) (``use_blade``);
5. 计算最终战斗力 / Final strength: base (recounted: abilities may have killed units) + printed
   card strength + abilities + Blade + Tides;
6. 决定胜负 / Victory: the higher total wins; a tie goes to the house higher on the Fiefdoms track;
   win/lose card effects then act in turn order;
   伤亡 / Casualties: the loser loses (winner's swords - loser's fortifications) of its fighting units
   (never supporting units, never routed ones), of its choice (``casualties``); a Tides skull
   kills one unit of the other side whatever the result, not cancelled by fortifications;
   撤退和溃败 / Retreat and routing (:mod:`.retreat`);
   清理战场 / Clean-up: if the attacker won, the defender's order and power token in the area are
   removed, a defeated garrison leaves the game, the surviving attackers move in (and take the
   port's ships, 控制敌方港口); the played cards go to the discard piles (after the seventh, the
   other six return to hand; 1st edition: all seven, :attr:`.edition.Edition.seventh_card`);
   after-combat card effects; then ``march_end`` removes the March order and passes the turn.

A card's text acts through :func:`card_ability` (a text the opponent's card cancelled - the 1st
edition's Queen of Thorns - acts not at all); supporting units' strength through
:func:`.support.supporting_unit_strength` (the 1st edition's Rains of Autumn).

Rule choices (where the rulebook leaves room), also in docs/scenarios.md:

* the attacker and defender may decline their own Support orders (支援 ③);
* with Tides of Battle, the Blade's use is the redraw (战局卡牌 step 2), never the +1 (one use per round);
* the Tides deck is reshuffled from its discards when empty;
* a winning attacker with no surviving unit does not take the area (no units move in, no port
  capture), but the defender's order and power token are still removed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..base import Decision, IllegalAction
from .data import board
from .flow import auto, decision, pop, push
from .edition import edition
from .house_cards import ability, card as card_data, recover_if_empty
from .movement import move_units
from .rng import shuffled
from .state import State
from .support import allowed_sides, support_strength, supporting_areas, supporting_unit_strength, unit_strength


@dataclass(frozen=True)
class Combat:
    """One combat in progress (``state.ctx["combat"]``). Pairs are ``((house, value), ...)``.

    ``units``: the attacking unit types; they stay in ``origin`` until they advance after a win.
    ``chosen``: cards picked face-down, hidden until both are in (then moved to ``cards``).
    ``supports``: ``(house, area, "attacker"|"defender"|"none")`` as declared.
    ``tides``: Tides of Battle cards drawn (hidden until ``tides_revealed``).
    ``memo``: free memory for card abilities (immutable values).
    ``final_parts``: each side's :func:`strength_parts` as the strength was resolved,
    ``((house, ((part items), ...)), ...)``; set with ``final`` (the board changes afterwards:
    casualties, retreats, clean-up; what the battle was fought with does not).
    """

    attacker: str
    defender: str
    origin: str
    area: str
    units: tuple[str, ...]
    march_token: str
    supports: tuple[tuple[str, str, str], ...] = ()
    chosen: tuple[tuple[str, Any], ...] = ()
    cards: tuple[tuple[str, Any], ...] = ()
    revealed: bool = False
    tides: tuple[tuple[str, str], ...] = ()
    tides_revealed: bool = False
    blade: str | None = None
    base: tuple[tuple[str, int], ...] = ()
    final: tuple[tuple[str, int], ...] = ()
    winner: str | None = None
    loser: str | None = None
    step: str = "support"
    retreated: bool = False
    memo: tuple[tuple[str, Any], ...] = ()
    final_parts: tuple[tuple[str, tuple[tuple[tuple[str, Any], ...], ...]], ...] = ()


def pairs_get(pairs: tuple, key: str, default: Any = None) -> Any:
    for k, v in pairs:
        if k == key:
            return v
    return default


def pairs_set(pairs: tuple, key: str, value: Any) -> tuple:
    return tuple((k, v) for k, v in pairs if k != key) + ((key, value),)


def current(state: State) -> Combat | None:
    """The combat in progress, or None."""
    return state.ctx.get("combat")


def update(state: State, **kw: Any) -> Combat:
    """Replace fields of the combat in progress; return the new record."""
    c = replace(state.ctx["combat"], **kw)
    state.ctx["combat"] = c
    return c


def opponent(c: Combat, house: str) -> str:
    return c.defender if house == c.attacker else c.attacker


def combatants(state: State, c: Combat) -> list[str]:
    """Attacker and defender in turn order (the order card effects resolve in)."""
    return [h for h in state.turn_order() if h in (c.attacker, c.defender)]


def card_of(c: Combat, house: str) -> str | None:
    """The revealed house card of ``house`` (None before the reveal or with no card)."""
    return pairs_get(c.cards, house)


def castle_target(c: Combat, of: Any = None) -> bool:
    """Whether the contested area has a castle or stronghold (``of``: the state or edition)."""
    return board(of).areas[c.area].castle is not None


def card_ability(state: State, house: str):
    """The :class:`.house_cards.Ability` of ``house``'s revealed card in the combat in progress: a
    do-nothing one for no card, a card without text, or a card whose text the opponent's card
    cancelled (1st edition, Queen of Thorns: memo ``("text_cancelled", house)``)."""
    c = current(state)
    if ("text_cancelled", house) in c.memo:
        return ability(None)
    return ability(card_of(c, house), state)


# -- strength --------------------------------------------------------------------------------------
def unit_contributions(state: State) -> list[tuple[str, str, str, str, str, int]]:
    """What each unit adds: ``(side house, unit house, area, unit type, role, strength)``, role
    ``"fighting"`` or ``"supporting"`` (declared supports only)."""
    c = current(state)
    castle = castle_target(c, state)
    out = []
    for u in c.units:
        out.append((c.attacker, c.attacker, c.origin, u, "fighting", unit_strength(u, False, castle, True, state)))
    for (h, t, r) in state.units_of(c.area):
        if h == c.defender:
            out.append((c.defender, h, c.area, t, "fighting", unit_strength(t, r, castle, False, state)))
    for (h, a, side) in c.supports:
        if side == "none":
            continue
        sh = c.attacker if side == "attacker" else c.defender
        for (uh, t, r) in state.units_of(a):
            out.append((sh, uh, a, t, "supporting", supporting_unit_strength(state, t, r, castle, side == "attacker")))
    return out


def base_strength(state: State, house: str) -> int:
    """计算基础战力 / Base combat strength of ``house`` (attacker or defender) now."""
    b = board(state)
    c = current(state)
    side = "attacker" if house == c.attacker else "defender"
    n = sum(x[5] for x in unit_contributions(state) if x[0] == house)
    for (h, a, s) in c.supports:
        if s == side:
            o = state.orders.get(a)
            n += b.order_tokens[o[1]].strength if o else 0
    if side == "attacker":
        n += b.order_tokens[c.march_token].strength
    else:
        o = state.orders.get(c.area)
        if o and o[0] == house and b.order_tokens[o[1]].type == "defense":
            n += b.order_tokens[o[1]].strength
        g = state.garrisons.get(c.area)
        if g and g[0] == house:
            n += g[1]
    return n


def tides_card(tid: str | None) -> dict[str, int]:
    if tid is None:
        return {"strength": 0, "swords": 0, "fortifications": 0, "skulls": 0}
    return TIDES[tid]


def _tides_table() -> dict[str, dict[str, int]]:
    return {g["id"]: g for g in board().tides["groups"]}


TIDES: dict[str, dict[str, Any]] = {}


def final_strength(state: State, house: str) -> int:
    """计算最终战斗力 / Final combat strength: base + card + abilities + Blade + Tides (if revealed)."""
    c = current(state)
    n = base_strength(state, house)
    cid = card_of(c, house)
    if cid is not None:
        n += card_data(cid, state)["strength"]
    for h in combatants(state, c):
        n += card_ability(state, h).strength(state, h).get(house, 0)
    if c.blade == house:
        n += 1
    if c.tides_revealed:
        n += tides_card(pairs_get(c.tides, house))["strength"]
    return n


def strength_parts(state: State, house: str) -> list[dict[str, Any]]:
    """What ``house``'s combat strength is made of now, as the rulebook adds it (计算战斗力 /
    Combat strength): a list of parts whose ``strength`` values sum to :func:`final_strength`
    (before the cards are revealed that is :func:`base_strength`). Each part is a dict with
    ``part`` and ``strength`` (int) and, by part:

    - ``"unit"``: one fighting unit, ``unit`` (type), ``area``, ``why_zero`` (None, ``"routed"``,
      ``"siege_no_castle"`` (the area has no castle or stronghold) or ``"siege_defending"``
      (siege engines count only when attacking));
    - ``"order"``: ``token`` (the attacker's March order or the defender's Defense order);
    - ``"support"``: ``house`` (the supporter), ``area`` (its Support order; units + the order's
      star), ``why_zero`` as for units when it adds nothing;
    - ``"garrison"``: the defender's garrison in its home area;
    - ``"card"``: ``card`` (the revealed house card's printed strength);
    - ``"ability"``: ``card`` (a revealed card's ability that changes this side's strength);
    - ``"blade"``: the Valyrian Steel Blade (+1);
    - ``"tides"``: ``card`` (the revealed Tides of Battle card).

    Only public information: cards and Tides appear once revealed, as in :func:`final_strength`.
    """
    b = board(state)
    c = current(state)
    attacking = house == c.attacker
    castle = castle_target(c, state)

    def why(utype: str, routed: bool, att: bool) -> str | None:
        if routed:
            return "routed"
        if utype == "siege_engine" and not castle:
            return "siege_no_castle"
        if utype == "siege_engine" and not att:
            return "siege_defending"
        return None

    parts: list[dict[str, Any]] = []
    if attacking:
        for u in c.units:
            parts.append({"part": "unit", "unit": u, "area": c.origin, "strength": unit_strength(u, False, castle, True, state), "why_zero": why(u, False, True)})
        parts.append({"part": "order", "token": c.march_token, "strength": b.order_tokens[c.march_token].strength})
    else:
        for (h, t, r) in state.units_of(c.area):
            if h == house:
                parts.append({"part": "unit", "unit": t, "area": c.area, "strength": unit_strength(t, r, castle, False, state), "why_zero": why(t, r, False)})
        o = state.orders.get(c.area)
        if o and o[0] == house and b.order_tokens[o[1]].type == "defense":
            parts.append({"part": "order", "token": o[1], "strength": b.order_tokens[o[1]].strength})
        g = state.garrisons.get(c.area)
        if g and g[0] == house and g[1]:
            parts.append({"part": "garrison", "strength": g[1]})
    side = "attacker" if attacking else "defender"
    for (h, a, s) in c.supports:
        if s != side:
            continue
        o = state.orders.get(a)
        us = state.units_of(a)
        n = sum(supporting_unit_strength(state, t, r, castle, attacking) for (_, t, r) in us) + (b.order_tokens[o[1]].strength if o else 0)
        zero = None
        if n == 0 and us:
            zero = why(us[0][1], us[0][2], attacking) or ("rains_of_autumn" if state.flags.get("footmen_no_support") else None)
        parts.append({"part": "support", "house": h, "area": a, "strength": n, "why_zero": zero})
    cid = card_of(c, house)
    if cid is not None:
        parts.append({"part": "card", "card": cid, "strength": card_data(cid, state)["strength"]})
    for h in combatants(state, c):
        extra = card_ability(state, h).strength(state, h).get(house, 0)
        if extra:
            parts.append({"part": "ability", "card": card_of(c, h), "strength": extra})
    if c.blade == house:
        parts.append({"part": "blade", "strength": 1})
    if c.tides_revealed and pairs_get(c.tides, house) is not None:
        tid = pairs_get(c.tides, house)
        parts.append({"part": "tides", "card": tid, "strength": tides_card(tid)["strength"]})
    return parts


def shown_parts(state: State, house: str) -> list[dict[str, Any]]:
    """The parts of ``house``'s strength that go with the strength a viewer is shown: before the
    result (6. 决定胜负 / Determine the victor) :func:`strength_parts` now, summing to the base or,
    once the cards are revealed, to the strength so far; from the result on, the parts as the
    strength was resolved (``Combat.final_parts``), summing to ``final``. Parts read from the
    board after the result would miss the units killed as casualties, the orders and garrison
    removed in the clean-up and the units that retreated, while ``final`` keeps what they added.
    Fresh dicts (the caller may keep or change them)."""
    c = current(state)
    frozen = pairs_get(c.final_parts, house)
    if frozen is None:
        return strength_parts(state, house)
    return [dict(items) for items in frozen]


def icons(state: State, house: str) -> tuple[int, int]:
    """(swords, fortifications) of ``house``'s card, abilities and revealed Tides card."""
    c = current(state)
    cid = card_of(c, house)
    s = f = 0
    if cid is not None:
        d = card_data(cid, state)
        s, f = d["swords"], d["fortifications"]
        ds, df = card_ability(state, house).icons(state, house)
        s, f = s + ds, f + df
    if c.tides_revealed:
        t = tides_card(pairs_get(c.tides, house))
        s, f = s + t["swords"], f + t["fortifications"]
    return s, f


# -- start -----------------------------------------------------------------------------------------
def start_combat(state: State, house: str, origin: str, dest: str, units: tuple[str, ...]) -> None:
    """Begin the combat of ``house``'s March from ``origin`` into ``dest`` with ``units`` (types of
    standing units of ``origin``); called by :func:`.march.resolve_march` after the march's other
    moves, with the ``("march", house)`` task already popped. Queues every combat step and then
    ``("march_end", house, origin)``."""
    defender = state.owner(dest)
    if defender is None:
        defender = state.garrisons[dest][0]
    c = Combat(attacker=house, defender=defender, origin=origin, area=dest, units=tuple(sorted(units)), march_token=state.orders[origin][1])
    state.ctx["combat"] = c
    state.emit("combat_started", attacker=house, defender=defender, area=dest, origin=origin, units=list(c.units))
    supports = [("combat_support", h, a) for (h, a) in supporting_areas(state, dest)]
    push(state, *supports, ("combat_base",), ("combat_cards",), ("combat_reveal",), ("combat_tides_draw",), ("combat_blade",),
         ("combat_resolve",), ("combat_casualties",), ("combat_retreat",), ("combat_cleanup",), ("combat_after",), ("combat_end",),
         ("march_end", house, origin))


def combat_summary(c: Combat) -> dict[str, Any]:
    return {"attacker": c.attacker, "defender": c.defender, "area": c.area, "origin": c.origin}


# -- 1. support --------------------------------------------------------------------------------------
@decision("combat_support", ("choose",))
class SupportTask:
    """A Support order next to the contested area declares: ``choose`` ``attacker``/``defender``/``none``."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, area = task
        c = current(state)
        if state.orders.get(area, (None,))[0] != h or not state.units_of(area):
            return []  # the order is gone (a card ability removed it)
        opts = allowed_sides(h, c.attacker, c.defender)
        strength = {s: support_strength(state, area, c.area, s) for s in opts if s != "none"}
        return [Decision(h, "support_combat", {"purpose": "combat_support", "from": area, "options": opts, "strength": strength, **combat_summary(c)})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, area = task
        c = current(state)
        opts = allowed_sides(h, c.attacker, c.defender)
        if action.option not in opts:
            raise IllegalAction("choose.bad_option", f"Choose one of {opts}.", options=opts)
        update(state, supports=c.supports + ((h, area, action.option),))
        state.emit("combat_support", house=h, area=area, side=action.option, target=c.area,
                   strength=support_strength(state, area, c.area, action.option) if action.option != "none" else 0)
        pop(state)


# -- 2. base strength ------------------------------------------------------------------------------
@auto("combat_base")
def combat_base(state: State, task: tuple) -> None:
    c = current(state)
    base = tuple((h, base_strength(state, h)) for h in (c.attacker, c.defender))
    update(state, base=base, step="cards")
    state.emit("combat_base", area=c.area, strength=dict(base))


# -- 3. house cards ----------------------------------------------------------------------------------
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


@auto("combat_reveal")
def combat_reveal(state: State, task: tuple) -> None:
    c = current(state)
    cards = tuple((h, pairs_get(c.chosen, h)) for h in (c.attacker, c.defender))
    for h, cid in cards:
        if cid is not None:
            state.hands[h] = tuple(x for x in state.hands[h] if x != cid)
    c = update(state, cards=cards, chosen=(), revealed=True, step="reveal")
    state.emit("house_cards_revealed", area=c.area, cards=dict(cards))
    push(state, *reveal_tasks(state, [(h, cid) for h, cid in cards]))


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
    state.emit("house_card_replaced", house=house, old=old, card=cid)


def barred_cards(state: State, house: str) -> tuple[str, ...]:
    """Cards ``house`` may not reveal again in this combat (cancelled by Tyrion Lannister)."""
    return tuple(v[1] for k, v in current(state).memo if k == "barred" and v[0] == house)


def bar_card(state: State, house: str, cid: str) -> None:
    """Keep ``cid`` out of ``house``'s later card choices in this combat.

    2nd ed. rulebook, 家族卡牌 / House cards, Tyrion Lannister: the cancelled card returns to its
    owner's hand and "he must choose a different house card"; a later re-choice in the same combat
    (Aeron Damphair's swap) may not bring the cancelled card back either (reading chosen: a
    cancelled card takes no part in this combat; game/data/agot2/README.md)."""
    c = current(state)
    update(state, memo=c.memo + (("barred", (house, cid)),))


def push_card_choice(state: State, house: str, purpose: str, exclude: tuple[str, ...] = ()) -> None:
    """Ask ``house`` to pick a new card from its hand (except ``exclude``); it replaces its current
    card (which goes back to its hand: to discard it or set it aside instead, first call
    ``set_card(state, house, None, to_hand=False)``) and its ``reveal`` hook is
    queued. With no card left in hand (after ``exclude`` and the cards barred by
    :func:`bar_card`), the house keeps its current card (None if the caller cleared it: it fights
    without a card)."""
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


# -- Tides of Battle and the Blade -----------------------------------------------------------------------
def tides_on(state: State) -> bool:
    return bool(state.options.get("tides_of_battle"))


def draw_tides(state: State) -> str:
    deck = state.decks.get("tides", ())
    if not deck:
        deck = shuffled(state, state.decks.get("tides_discard", ()) or new_tides_deck(state))
        state.decks["tides_discard"] = ()
    state.decks["tides"] = deck[1:]
    return deck[0]


def new_tides_deck(of: Any = None) -> tuple[str, ...]:
    return tuple(g["id"] for g in board(of).tides["groups"] for _ in range(g["count"]))


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


# -- 5./6. final strength and victory ----------------------------------------------------------------
@auto("combat_resolve")
def combat_resolve(state: State, task: tuple) -> None:
    c = current(state)
    if c.tides:
        c = update(state, tides_revealed=True)
        state.emit("tides_revealed", area=c.area, cards=dict(c.tides))
    a, d = c.attacker, c.defender
    fa, fd = final_strength(state, a), final_strength(state, d)
    if fa != fd:
        winner = a if fa > fd else d
    else:
        fief = state.tracks["fiefdoms"]
        winner = a if fief.index(a) < fief.index(d) else d
    loser = d if winner == a else a
    parts = {h: strength_parts(state, h) for h in (a, d)}
    frozen = tuple((h, tuple(tuple(p.items()) for p in parts[h])) for h in (a, d))
    c = update(state, final=((a, fa), (d, fd)), winner=winner, loser=loser, step="result", final_parts=frozen)
    state.emit("combat_result", area=c.area, attacker=a, defender=d, strength={a: fa, d: fd}, winner=winner, loser=loser, tie=fa == fd,
               parts=parts)
    push(state, *[("combat_hook", "result", h, card_of(c, h)) for h in combatants(state, c) if card_of(c, h)])


# -- casualties ----------------------------------------------------------------------------------------
def fighting_units(state: State, house: str) -> list[tuple[str, str]]:
    """``(area, type)`` of ``house``'s units that may be chosen as casualties: its standing
    fighting units (attacker: the marching units, in their origin; defender: the contested area)."""
    c = current(state)
    if house == c.attacker:
        return [(c.origin, u) for u in c.units]
    return [(c.area, t) for (h, t, r) in state.units_of(c.area) if h == house and not r]


def filter_losses(state: State, victim: str, n: int, source: str) -> int:
    c = current(state)
    for h in combatants(state, c):
        n = card_ability(state, h).casualties(state, h, victim, n, source)
    return max(0, n)


def remove_fighting_unit(state: State, house: str, area: str, utype: str) -> None:
    """Destroy one fighting unit of ``house`` (and forget it from the attacking units)."""
    c = current(state)
    if house == c.attacker and area == c.origin:
        us = list(c.units)
        us.remove(utype)
        update(state, units=tuple(us))
        state.remove_unit(area, utype, prefer_routed=c.retreated)
    else:
        state.remove_unit(area, utype, prefer_routed=False)


def destroy_units(state: State, victim: str, n: int, source: str = "ability") -> None:
    """Queue the loss of ``n`` of ``victim``'s fighting units (after card-ability filters), chosen by
    ``victim`` when the choice matters. For card abilities: call from a hook."""
    push(state, ("combat_losses", victim, n, source))


def sword_casualties(state: State) -> int:
    """伤亡 / Casualties (both editions: 检查部队伤亡): the units the loser of the combat in progress
    loses to swords - the winner's swords minus the loser's fortifications, at least 0 (before
    card abilities that prevent losses)."""
    c = current(state)
    return max(0, icons(state, c.winner)[0] - icons(state, c.loser)[1])


@auto("combat_casualties")
def combat_casualties(state: State, task: tuple) -> None:
    c = current(state)
    tasks = [("combat_losses", c.loser, sword_casualties(state), "swords")]
    if c.tides_revealed:
        for h in (c.attacker, c.defender):
            if tides_card(pairs_get(c.tides, h))["skulls"]:
                tasks.append(("combat_losses", opponent(c, h), tides_card(pairs_get(c.tides, h))["skulls"], "skull"))
    push(state, *tasks)


@auto("combat_losses")
def combat_losses(state: State, task: tuple) -> None:
    _, victim, n, source = task
    n = filter_losses(state, victim, n, source)
    units = fighting_units(state, victim)
    if n <= 0 or not units:
        return
    if n >= len(units) or len({u for u in units}) == 1:
        for (a, t) in units[:n]:
            remove_fighting_unit(state, victim, a, t)
        state.emit("casualties", house=victim, source=source, units=[list(u) for u in units[:n]])
        return
    push(state, ("combat_select_losses", victim, n, source))


@decision("combat_select_losses", ("select_units",))
class SelectLossesTask:
    """The house choosing which of its fighting units die (``select_units``, exactly ``count``)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, victim, n, source = task
        units = fighting_units(state, victim)
        return [Decision(victim, "casualties", {"purpose": "combat_" + source, "units": [list(u) for u in units], "count": min(n, len(units))})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, victim, n, source = task
        units = fighting_units(state, victim)
        n = min(n, len(units))
        if len(action.units) != n:
            raise IllegalAction("select.wrong_count", f"Choose exactly {n} unit(s).", need=n, got=len(action.units))
        pool = list(units)
        for r in action.units:
            if (r.area, r.unit) not in pool:
                raise IllegalAction("units.not_found", f"You have no fighting {r.unit} in {r.area} to choose.", area=r.area, unit=r.unit)
            pool.remove((r.area, r.unit))
        for r in action.units:
            remove_fighting_unit(state, victim, r.area, r.unit)
        state.emit("casualties", house=victim, source=source, units=[[r.area, r.unit] for r in action.units])
        pop(state)


# -- clean-up --------------------------------------------------------------------------------------------
@auto("combat_cleanup")
def combat_cleanup(state: State, task: tuple) -> None:
    c = current(state)
    a, d, area = c.attacker, c.defender, c.area
    if c.winner == a:
        o = state.orders.get(area)
        if o and o[0] == d:
            del state.orders[area]
        if state.power_tokens.get(area) == d:
            del state.power_tokens[area]
            state.emit("power_token_discarded", house=d, area=area)
        advances = all(card_ability(state, h).attacker_advances(state, h) for h in combatants(state, c))
        if advances and c.units and not state.units_of(area):
            move_units(state, a, c.origin, area, c.units)
            update(state, units=())
    g = state.garrisons.get(area)
    if g and g[0] == c.loser:
        del state.garrisons[area]
        state.emit("garrison_destroyed", house=g[0], area=area)
    last_stays = edition(state).seventh_card == "discard_last"
    for h in (a, d):
        cid = card_of(c, h)
        if cid is not None:
            if card_ability(state, h).keeps_card(state, h):  # e.g. Roose Bolton after a loss
                state.hands[h] = state.hands[h] + (cid,)
            else:
                state.discards[h] = state.discards[h] + (cid,)
        # the seventh card (家族卡牌): 2e the six others come back and the last one stays
        # discarded; 1st ed. rulebook, 用掉的家族卡: "此时并不弃牌,而是将之前用掉的六张将军卡拿回手上。
        # 所有的将军卡重新在手上集全" - all seven are in hand again
        recover_if_empty(state, h, (cid,) if cid is not None and last_stays else ())
    o = state.orders.get(area)
    if o and state.owner(area) != o[0]:
        del state.orders[area]
    if c.tides:
        state.decks["tides_discard"] = state.decks.get("tides_discard", ()) + tuple(t for _, t in c.tides)
    update(state, step="after")
    state.emit("combat_cleanup", area=area, winner=c.winner)


@auto("combat_after")
def combat_after(state: State, task: tuple) -> None:
    c = current(state)
    push(state, *[("combat_hook", "after_combat", h, card_of(c, h)) for h in combatants(state, c) if card_of(c, h)])


@auto("combat_end")
def combat_end(state: State, task: tuple) -> None:
    c = state.ctx.pop("combat")
    state.emit("combat_end", area=c.area, winner=c.winner, loser=c.loser)


def public_view(state: State, viewer: str | None) -> dict[str, Any] | None:
    """``view(...)["combat"]``: the combat in progress as every viewer sees it (plus, for the two
    sides, their own face-down card and Tides card). Once the cards are revealed, ``icons``
    (``{house: {"swords", "fortifications"}}``, card, ability and Tides card together, as
    :func:`icons`); once the winner is known, ``casualties`` (the winner's swords minus the
    loser's fortifications, at least 0: the units the loser loses to swords)."""
    c = current(state)
    if c is None or state.result is not None:
        return None
    out: dict[str, Any] = {
        "attacker": c.attacker,
        "defender": c.defender,
        "origin": c.origin,
        "area": c.area,
        "step": c.step,
        "attacking_units": list(c.units),
        "defending_units": [t for (h, t, r) in state.units_of(c.area) if h == c.defender and not r],
        "garrison": (state.garrisons.get(c.area) or (None, 0))[1] if (state.garrisons.get(c.area) or (None,))[0] == c.defender else 0,
        "march_token": c.march_token,
        "supports": [{"house": h, "area": a, "side": s} for (h, a, s) in c.supports],
        "chosen": sorted(h for h, _ in c.chosen),
        "base": dict(c.base),
        "blade": c.blade,
        "parts": {h: shown_parts(state, h) for h in (c.attacker, c.defender)},
    }
    if c.revealed:
        out["cards"] = dict(c.cards)
        # the icons that count for casualties (card, its ability, a revealed Tides card)
        out["icons"] = {h: dict(zip(("swords", "fortifications"), icons(state, h))) for h in (c.attacker, c.defender)}
    if c.tides_revealed:
        out["tides"] = dict(c.tides)
    elif c.tides:
        out["tides_drawn"] = sorted(h for h, _ in c.tides)
        if viewer in dict(c.tides):
            out["my_tides"] = pairs_get(c.tides, viewer)
    if c.final:
        out["strength"] = dict(c.final)
        out["winner"] = c.winner
        out["loser"] = c.loser
        # 伤亡 / Casualties: the winner's swords minus the loser's fortifications (no fewer than 0)
        out["casualties"] = sword_casualties(state)
    if viewer is not None and pairs_get(c.chosen, viewer) is not None:
        out["my_card"] = pairs_get(c.chosen, viewer)
    return out


def _init() -> None:
    TIDES.update(_tides_table())


_init()
