"""计算战果 / Combat result (combat step 6): who wins, the casualties and the clean-up.

6. 决定胜负 / Victory: the higher total wins; a tie goes to the house higher on the Fiefdoms track;
   win/lose card effects then act in turn order (1st edition: after the battle, see below);
   伤亡 / Casualties: the loser loses (winner's swords - loser's fortifications) of its fighting units
   (never supporting units, never routed ones), of its choice (``casualties``); a Tides skull
   kills one unit of the other side whatever the result, not cancelled by fortifications;
   撤退和溃败 / Retreat and routing (:mod:`.retreat`);
   清理战场 / Clean-up: if the attacker won, the defender's order and power token in the area are
   removed, a defeated garrison leaves the game, the surviving attackers move in (and take the
   port's ships, 控制敌方港口); the played cards go to the discard piles (after the seventh, the
   other six return to hand; 1st edition: all seven, :attr:`.edition.Edition.seventh_card`);
   after-combat card effects (1st edition: the "if you win" texts too, 将军卡 "某些卡片在战争结束後
   会引发特殊能力", :attr:`.edition.Edition.win_texts_after_battle`); then ``march_end`` removes
   the March order and passes the turn.

The Tides of Battle cards are revealed as the victor is decided (战局卡牌 step 3). Card
abilities that destroy units go through :func:`destroy_units`, which applies the cards'
``casualties`` filters.

Rule choice (where the rulebook leaves room), also in docs/scenarios.md: a winning attacker with
no surviving unit does not take the area (no units move in, no port capture), but the defender's
order and power token are still removed.
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .combat import card_ability, card_of, combatants, current, final_strength, icons, opponent, pairs_get, strength_parts, update
from .edition import edition
from .flow import auto, decision, pop, push
from .house_cards import recover_if_empty
from .movement import move_units
from .state import State
from .tides import tides_card


# -- 决定胜负 / Victory (the Tides cards revealed first) ---------------------------------------------------
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
    if not edition(state).win_texts_after_battle:
        push(state, *result_hooks(state))


def result_hooks(state: State) -> list[tuple]:
    """The ``result`` (win/lose) hook tasks of the combat's cards, in turn order."""
    c = current(state)
    return [("combat_hook", "result", h, card_of(c, h)) for h in combatants(state, c) if card_of(c, h)]


# -- casualties ----------------------------------------------------------------------------------------
def fighting_units(state: State, house: str) -> list[tuple[str, str]]:
    """``(area, type)`` of ``house``'s units that may be chosen as casualties: its standing
    fighting units (attacker: the marching units, in their origin, or after the clean-up in the
    area they took; defender: the contested area)."""
    c = current(state)
    if house == c.attacker:
        if c.step == "after" and not c.units and state.owner(c.area) == house:  # they moved in
            return [(c.area, t) for (h, t, r) in state.units_of(c.area) if not r]
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
    all_back = edition(state).seventh_card == "all_back"
    for h in (a, d):
        cid = card_of(c, h)
        if all_back and ("last_card", h) in c.memo:
            # 1st ed. rulebook, 用掉的家族卡: "当玩家使用了他的第七张也就是最後一张将军卡,此时并不弃牌,
            # 而是将之前用掉的六张将军卡拿回手上。所有的将军卡重新在手上集全" - the rule follows the card
            # played, not the hand at clean-up, which a card text may have refilled
            seven_cards(state, h, cid)
            continue
        if cid is not None:
            if card_ability(state, h).keeps_card(state, h):  # e.g. Roose Bolton after a loss
                state.hands[h] = state.hands[h] + (cid,)
            else:
                state.discards[h] = state.discards[h] + (cid,)
        # 2e, the seventh card (家族卡牌): the six others come back and the last one stays
        # discarded, also when a swap put the last card in play (Aeron Damphair); a 1st-edition
        # hand is empty here only after its last card, returned above
        recover_if_empty(state, h, (cid,) if cid is not None and not all_back else ())
    o = state.orders.get(area)
    if o and state.owner(area) != o[0]:
        del state.orders[area]
    if c.tides:
        state.decks["tides_discard"] = state.decks.get("tides_discard", ()) + tuple(t for _, t in c.tides)
    update(state, step="after")
    state.emit("combat_cleanup", area=area, winner=c.winner)


def seven_cards(state: State, house: str, played: str) -> None:
    """1st edition, 用掉的家族卡: ``house`` played its last card ``played``; it is not discarded and
    the house's discarded cards return: every card in hand."""
    back = state.discards[house] + (played,)
    state.hands[house] = tuple(sorted(state.hands[house] + back))
    state.discards[house] = ()
    state.emit("house_cards_recovered", house=house, cards=list(state.hands[house]))


@auto("combat_after")
def combat_after(state: State, task: tuple) -> None:
    """战斗后 / After combat: the after-combat texts, in turn order; 1st edition, first the "if you
    win" texts (将军卡: "某些卡片在战争结束後会引发特殊能力": after the battle, so after casualties,
    the retreat and the cards' discard or return, :attr:`.edition.Edition.win_texts_after_battle`)."""
    c = current(state)
    first = result_hooks(state) if edition(state).win_texts_after_battle else []
    push(state, *first, *[("combat_hook", "after_combat", h, card_of(c, h)) for h in combatants(state, c) if card_of(c, h)])


@auto("combat_end")
def combat_end(state: State, task: tuple) -> None:
    c = state.ctx.pop("combat")
    state.emit("combat_end", area=c.area, winner=c.winner, loser=c.loser)
