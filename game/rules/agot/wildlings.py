"""野人袭击 / Wildlings attack, and the nine wildling cards.

Steps (rulebook 野人袭击): the wildling strength is the threat track value (or 6 for the second
attack of Preemptive Raid); every house bids power in secret (see :mod:`.bidding`); the Night's
Watch strength is the sum of all bids; the Night's Watch wins ties. Then the top wildling card is
revealed: on a Night's Watch win only the highest bidder gets the card's reward; on a wildling
win the lowest bidder takes the heavy penalty first, then every other house, in turn order, the
lighter one. Ties for highest or lowest bidder are ordered by the Iron Throne holder. The card
goes to the bottom of the deck; the threat goes to 0 after a Night's Watch win or back two spaces
(4, not below 0) after a wildling win; all bids go to the pool.

Card effects (``wildling_cards.json``; choices are the affected house's):

* Silence at the Wall: nothing.
* Preemptive Raid: lowest chooses to destroy 2 of its units or to drop 2 places on its best
  influence track; others nothing; highest: the wildlings attack again at strength 6, without it.
* Crow Killers: lowest swaps every knight for a reserve footman (destroyed if none); others swap
  2 knights of their choice; highest may swap up to 2 of its footmen for reserve knights.
* Rattleshirt's Raiders: lowest -2 supply, others -1 (then reduce armies); highest +1 supply.
* Massing on the Milkwater: with 2+ cards in hand, lowest discards all of its highest-strength
  cards, others discard one of their choice; highest takes back its whole discard pile. A hand
  emptied so (all its cards of equal strength) takes its earlier discards back at once
  (:func:`.house_cards.recover_if_empty`).
* A King Beyond the Wall: lowest to last place on every track; others, in turn order, to last
  place on Fiefdoms or King's Court (their choice); highest to first place on a track of its
  choice (with its dominance token).
* Mammoth Riders: lowest destroys 3 units, others 2; highest may take one discarded house card back.
* The Horde Descends: lowest destroys 2 units in one of its castle/stronghold areas (or, if no such
  area holds 2 of its units, 2 units anywhere); others 1 unit; highest may muster in one of its
  castle/stronghold areas.
* Skinchanger Scout: lowest discards all available power, others 2; highest gets its bid back.

1st edition (1st ed. rulebook, 野蛮人入侵, 守夜人胜利, 野蛮人胜利; :attr:`.edition.Edition.
wildling_outcome` ``"muster_points"``, :func:`outcome_first_edition`): no wildling cards. "如果
守夜人的力量等於或超过野蛮人的力量,野蛮人就被击败" - the Night's Watch wins ties. A Night's Watch
win: "下注最多的人(平手时由铁王座标志物的持有者裁决)可以立即从他的将军卡弃牌区拿回一张将军卡" - the
highest bidder may take one discarded house card back. A wildling win: "每位玩家必须立即移除价值2徵兵
点数的士兵(骑兵、步兵或船舰)(移除一个骑兵即可满足2徵兵点数的需求)。当初下注守夜人力量最少的玩家必须
再额外移除价值2徵兵点数的士兵(该玩家共需移除4点)。如果下注最少的有数位玩家,则由铁王座标志物的持有者
选出一名" - in turn order each house removes units worth 2 mustering points (footman and ship 1,
knight 2), the lowest bidder 4 (:func:`muster_point_plan`); "无论结果,将野蛮人入侵标志物移回「0」的
位置" - the threat goes back to 0.

This module decides the outcome (whose penalty or reward, which effects each card queues, the 1st
edition's points); the tasks that carry the effects out are in :mod:`.wildling_effects`.
"""

from __future__ import annotations

from .data import TRACKS
from .edition import edition
from .flow import auto, push
from .state import State


def relevant_tie(state: State, bids: dict[str, int], groups: list[list[str]]) -> bool:
    nw = sum(bids.values()) >= state.ctx["wa_strength"]
    g = groups[0] if nw else groups[-1]
    return len(g) > 1


@auto("wildling_attack")
def wildling_attack(state: State, task: tuple) -> None:
    _, strength, exclude = task
    strength = state.threat if strength is None else strength
    state.ctx["wa_strength"] = strength
    state.ctx["bid_exclude"] = exclude
    state.emit("wildlings_attack", strength=strength, excluded=exclude)
    push(state, ("bids_open", "wildlings"))


def _tally(state: State) -> tuple[dict[str, int], tuple[str, ...], int, int, bool]:
    """Close the wildlings' bidding (both editions, 野人袭击 / Wildlings Attack): take the revealed
    bids, the bidders' order (highest first, ties ordered), the attack's strength out of the
    state's context; ``(bids, order, strength, total bid, the Night's Watch holds)``, the Night's
    Watch holding when the total bid reaches the strength."""
    bids = dict(state.ctx.pop("revealed_bids"))
    order = state.ctx.pop("bid_order")
    strength = state.ctx.pop("wa_strength")
    state.ctx.pop("bid_exclude", None)
    total = sum(bids.values())
    return bids, order, strength, total, total >= strength


def outcome(state: State) -> None:
    """After the bids (and any tie ordering): reveal the card and queue its effects (1st edition:
    :func:`outcome_first_edition`)."""
    if edition(state).wildling_outcome == "muster_points":
        outcome_first_edition(state)
        return
    bids, order, strength, total, nw = _tally(state)
    card = state.decks["wildling"][0]
    state.ctx.pop("raven_saw", None)
    highest, lowest = order[0], order[-1]
    state.emit("wildling_card", card=card, nights_watch=total, wildlings=strength, won=nw, highest=highest, lowest=lowest)
    tasks: list[tuple] = []
    others = [h for h in state.turn_order() if h in bids and h != lowest]
    if nw:
        tasks += reward_tasks(state, card, highest, bids[highest])
    else:
        tasks += penalty_tasks(state, card, lowest, others)
    tasks.append(("wildling_end", card, nw))
    if nw and card == "preemptive-raid":
        tasks.append(("wildling_attack", 6, highest))
    push(state, *tasks)


@auto("wildling_end")
def wildling_end(state: State, task: tuple) -> None:
    _, card, nw = task
    deck = state.decks["wildling"]
    if deck and deck[0] == card:
        state.decks["wildling"] = deck[1:] + (card,)
    old = state.threat
    state.threat = 0 if nw else max(0, state.threat - 4)
    state.emit("wildling_threat", old=old, new=state.threat)


def penalty_tasks(state: State, card: str, lowest: str, others: list[str]) -> list[tuple]:
    t: list[tuple] = []
    if card == "preemptive-raid":
        t.append(("w_preemptive", lowest))
    elif card == "crow-killers":
        t.append(("w_knights_down", lowest, None))
        t += [("w_knights_down", h, 2) for h in others]
    elif card == "rattleshirts-raiders":
        t.append(("w_supply", lowest, -2))
        t += [("w_supply", h, -1) for h in others]
    elif card == "massing-on-the-milkwater":
        t.append(("w_massing_lowest", lowest))
        t += [("w_discard_one", h) for h in others]
    elif card == "a-king-beyond-the-wall":
        t.append(("w_all_tracks_last", lowest))
        t += [("w_choose", h, "king_beyond_the_wall_other", ("fiefdoms", "kings_court")) for h in others]
    elif card == "mammoth-riders":
        t.append(("w_destroy", lowest, 3, "any"))
        t += [("w_destroy", h, 2, "any") for h in others]
    elif card == "the-horde-descends":
        t.append(("w_destroy", lowest, 2, "castle"))
        t += [("w_destroy", h, 1, "any") for h in others]
    elif card == "skinchanger-scout":
        t.append(("w_lose_power", lowest, None))
        t += [("w_lose_power", h, 2) for h in others]
    return t


def reward_tasks(state: State, card: str, highest: str, bid: int) -> list[tuple]:
    if card == "crow-killers":
        return [("w_knights_up", highest)]
    if card == "rattleshirts-raiders":
        return [("w_supply", highest, 1)]
    if card == "massing-on-the-milkwater":
        return [("w_recover_all", highest)]
    if card == "a-king-beyond-the-wall":
        return [("w_choose", highest, "king_beyond_the_wall_top", TRACKS)]
    if card == "mammoth-riders":
        return [("w_recover_one", highest)]
    if card == "the-horde-descends":
        return [("w_muster_one", highest)]
    if card == "skinchanger-scout":
        return [("w_regain_bid", highest, bid)]
    return []


# -- 1st edition: 守夜人胜利 / 野蛮人胜利 ----------------------------------------------------------------
MUSTER_COST = {"footman": 1, "knight": 2, "ship": 1}


def outcome_first_edition(state: State) -> None:
    """1st edition's end of a wildlings attack (see the module docstring): the highest bidder's
    reward or everyone's losses, then the threat back to 0. Event ``wildlings_result``."""
    bids, order, strength, total, nw = _tally(state)
    highest, lowest = order[0], order[-1]
    state.emit("wildlings_result", nights_watch=total, wildlings=strength, won=nw, highest=highest, lowest=lowest)
    tasks: list[tuple] = []
    if nw:
        tasks.append(("w_recover_one", highest, "nights_watch_recover"))
    else:
        for h in state.turn_order():
            if h in bids:
                tasks.append(("w_points", h, 4 if h == lowest else 2))
    tasks.append(("wildling_end_first_edition",))
    push(state, *tasks)


@auto("wildling_end_first_edition")
def wildling_end_first_edition(state: State, task: tuple) -> None:
    old = state.threat
    state.threat = 0
    if old:
        state.emit("wildling_threat", old=old, new=0)


def points_of(units) -> int:
    """Mustering points of ``units`` (unit types): footman and ship 1, knight 2."""
    return sum(MUSTER_COST.get(u, 1) for u in units)


def valid_point_removal(chosen, mine, need: int) -> bool:
    """Whether removing ``chosen`` (unit types) of a house owning ``mine`` pays ``need`` mustering
    points: at least ``need`` (or every unit it has), and no unit more than needed (without any
    one chosen unit the points would fall short)."""
    if not chosen:
        return not mine or need <= 0
    cost = points_of(chosen)
    if cost < need and len(chosen) < len(mine):
        return False
    return cost - min(MUSTER_COST.get(u, 1) for u in chosen) < need


def muster_point_plan(refs: list[tuple[str, str]], need: int) -> list[tuple[str, str]]:
    """A valid removal (:func:`valid_point_removal`) taking ``refs`` (``(area, type)``) in their
    order: each unit is taken while points are missing, then units made unneeded are dropped."""
    chosen: list[tuple[str, str]] = []
    for r in refs:
        if points_of([u for _, u in chosen]) >= need:
            break
        chosen.append(r)
    for r in sorted(chosen, key=lambda r: MUSTER_COST.get(r[1], 1)):
        rest = list(chosen)
        rest.remove(r)
        if points_of([u for _, u in rest]) >= need:
            chosen = rest
    return chosen
