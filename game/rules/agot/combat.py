"""战斗 / Combat: the combat in progress (its record, its start, the order of its steps) and what
each side's strength is made of.

:func:`start_combat` (called by :func:`.march.resolve_march`) records the fight in
``state.ctx["combat"]`` (a frozen :class:`Combat`) and queues its steps as tasks on the flow
queue, in the rulebook's order; each step's rules are in the module named:

1. 寻求支援 / Call for Support: every adjacent Support order declares, in turn order
   (``support_combat`` decisions, here; rules in :mod:`.support`);
2. 计算基础战力 / Base strength (here): attacking units (siege engines 4 against a
   castle/stronghold), the March order's modifier (attacker), fighting units plus the Defense
   order and the home garrison (defender), declared supports; routed units count 0;
3. 选择并展示家族卡 / House cards, then 战局卡牌 / Tides of Battle drawn: :mod:`.combat_cards`
   (the Tides deck: :mod:`.tides`);
4. 使用瓦雷利亚钢剑 / Valyrian Steel Blade: :mod:`.blade`;
5. 计算最终战斗力 / Final strength (here): base (recounted: abilities may have killed units) +
   printed card strength + abilities + Blade + Tides;
6. 决定胜负 / Victory, 伤亡 / Casualties and 清理战场 / Clean-up: :mod:`.combat_result`;
   撤退和溃败 / Retreat and routing: :mod:`.retreat`.

A card's text acts through :func:`card_ability` (a text the opponent's card cancelled - the 1st
edition's Queen of Thorns - acts not at all); supporting units' strength through
:func:`.support.supporting_unit_strength` (the 1st edition's Rains of Autumn).

Rule choice (where the rulebook leaves room), also in docs/scenarios.md: the attacker and
defender may decline their own Support orders (支援 ③).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..base import Decision, IllegalAction
from .data import board
from .flow import auto, decision, pop, push
from .house_cards import ability, card as card_data
from .state import State
from .support import allowed_sides, support_strength, supporting_areas, supporting_unit_strength, unit_strength
from .tides import tides_card


@dataclass(frozen=True)
class Combat:
    """One combat in progress (``state.ctx["combat"]``). Pairs are ``((house, value), ...)``.

    ``units``: the attacking unit types; they stay in ``origin`` until they advance after a win.
    ``chosen``: cards picked face-down, hidden until both are in (then moved to ``cards``).
    ``supports``: ``(house, area, "attacker"|"defender"|"none")`` as declared.
    ``tides``: Tides of Battle cards drawn (hidden until ``tides_revealed``).
    ``memo``: free memory for card abilities and the combat's own facts (immutable values), e.g.
    ``("last_card", house)``: that house's card in play is the last of its hand.
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
        opts = allowed_sides(state, h, c.attacker, c.defender)
        strength = {s: support_strength(state, area, c.area, s) for s in opts if s != "none"}
        return [Decision(h, "support_combat", {"purpose": "combat_support", "from": area, "options": opts, "strength": strength, **combat_summary(c)})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, area = task
        c = current(state)
        opts = allowed_sides(state, h, c.attacker, c.defender)
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
