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
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .control import gain_power
from .data import TRACKS, board
from .edition import edition
from .flow import auto, decision, pop, push
from .house_cards import discard_from_hand, recover_if_empty
from .mustering import apply_recruits, muster_areas
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


# -- helpers ------------------------------------------------------------------------------------
def units_of_house(state: State, house: str) -> list[tuple[str, str]]:
    return [(a, u[1]) for a, us in sorted(state.units.items()) if us[0][0] == house for u in us]


def move_on_track(state: State, track: str, house: str, to_first: bool) -> None:
    """调整势力条 / Adjusting influence tracks: others shift; the leader holds the token."""
    order = [h for h in state.tracks[track] if h != house]
    state.tracks[track] = tuple([house] + order if to_first else order + [house])
    state.emit("track_moved", track=track, house=house, position="first" if to_first else "last")


def drop_on_track(state: State, track: str, house: str, places: int) -> None:
    order = list(state.tracks[track])
    i = order.index(house)
    order.pop(i)
    order.insert(min(len(order), i + places), house)
    state.tracks[track] = tuple(order)
    state.emit("track_moved", track=track, house=house, by=places)


def destroy(state: State, house: str, refs) -> None:
    for area, unit in refs:
        state.remove_unit(area, unit)
    if refs:
        state.emit("units_destroyed", house=house, units=[list(r) for r in refs])


def check_refs(state: State, house: str, refs) -> None:
    from collections import Counter

    have = Counter((a, u[1]) for a, us in state.units.items() if us[0][0] == house for u in us)
    want = Counter((r.area, r.unit) for r in refs)
    for k, n in want.items():
        if have[k] < n:
            raise IllegalAction("units.not_found", f"You have no {k[1]} in {k[0]} to choose.", area=k[0], unit=k[1])


# -- penalty and reward tasks ---------------------------------------------------------------------
@auto("w_supply")
def w_supply(state: State, task: tuple) -> None:
    _, h, delta = task
    old = state.supply[h]
    state.supply[h] = max(0, min(6, old + delta))
    state.emit("supply", house=h, old=old, new=state.supply[h])
    if delta < 0:
        push(state, ("reconcile", h))


@auto("w_lose_power")
def w_lose_power(state: State, task: tuple) -> None:
    _, h, n = task
    lost = state.power[h] if n is None else min(n, state.power[h])
    state.power[h] -= lost
    state.emit("power_lost", house=h, lost=lost)


@auto("w_regain_bid")
def w_regain_bid(state: State, task: tuple) -> None:
    _, h, bid = task
    got = gain_power(state, h, bid)
    state.emit("power_regained", house=h, gained=got)


@auto("w_all_tracks_last")
def w_all_tracks_last(state: State, task: tuple) -> None:
    for t in TRACKS:
        move_on_track(state, t, task[1], to_first=False)


@auto("w_recover_all")
def w_recover_all(state: State, task: tuple) -> None:
    h = task[1]
    state.hands[h] = tuple(sorted(state.hands[h] + state.discards[h]))
    state.discards[h] = ()
    state.emit("house_cards_recovered", house=h)


@auto("w_massing_lowest")
def w_massing_lowest(state: State, task: tuple) -> None:
    h = task[1]
    hand = state.hands[h]
    if len(hand) < 2:
        return
    cards = board(state).house_cards
    top = max(cards[c]["strength"] for c in hand)
    gone = tuple(c for c in hand if cards[c]["strength"] == top)
    state.hands[h] = tuple(c for c in hand if c not in gone)
    state.discards[h] = state.discards[h] + gone
    state.emit("house_cards_discarded", house=h, cards=list(gone))
    recover_if_empty(state, h, gone)  # a whole hand of equal cards thrown away (家族卡牌)


@auto("w_knights_down")
def w_knights_down(state: State, task: tuple) -> None:
    _, h, n = task
    knights = [(a, "knight") for a, u in units_of_house(state, h) if u == "knight"]
    if n is None or len(knights) <= n:
        swap_knights(state, h, knights)
    else:
        push(state, ("w_select", h, "crow_killers_knights", n))


def swap_knights(state: State, h: str, refs) -> None:
    from .control import available_units

    for area, _ in refs:
        u = state.remove_unit(area, "knight")
        if available_units(state, h, "footman") > 0:
            state.add_unit(area, h, "footman", u[2])
            state.emit("unit_replaced", house=h, area=area, old="knight", new="footman")
        else:
            state.emit("units_destroyed", house=h, units=[[area, "knight"]])


@auto("w_destroy")
def w_destroy(state: State, task: tuple) -> None:
    _, h, n, scope = task
    mine = units_of_house(state, h)
    if scope == "castle":
        spots = [a for a in muster_areas(state, h) if len(state.units_of(a)) >= 2 and state.owner(a) == h]
        if spots:
            push(state, ("w_select", h, "horde_castle", n))
            return
    if len(mine) <= n:
        destroy(state, h, mine)
        return
    if len({(a, u) for a, u in mine}) == 1:
        destroy(state, h, mine[:n])
        return
    push(state, ("w_select", h, "destroy_units", n))


@decision("w_select", ("select_units",))
class SelectUnitsTask:
    """A house picks units: to destroy, or knights to swap (Crow Killers)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, key, n = task
        mine = [list(x) for x in units_of_house(state, h)]
        opts = {"purpose": key, "count": n, "min": n, "max": n, "units": mine, "same_area": key == "horde_castle"}
        if key == "horde_castle":
            opts["areas"] = [a for a in muster_areas(state, h) if len(state.units_of(a)) >= 2 and state.owner(a) == h]
            opts["candidates"] = [u for u in mine if u[0] in opts["areas"]]
        elif key == "crow_killers_knights":
            opts["candidates"] = [u for u in mine if u[1] == "knight"]
        else:
            opts["candidates"] = mine
        return [Decision(h, "select_units", opts)]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, key, n = task
        refs = action.units
        if len(refs) != n:
            raise IllegalAction("select.wrong_count", f"Choose exactly {n} unit(s).", need=n, got=len(refs))
        check_refs(state, h, refs)
        if key == "crow_killers_knights":
            if any(r.unit != "knight" for r in refs):
                raise IllegalAction("select.wrong_unit", "Choose knights.", unit="knight")
            swap_knights(state, h, [(r.area, r.unit) for r in refs])
        else:
            if key == "horde_castle":
                areas = {r.area for r in refs}
                ok = [a for a in muster_areas(state, h) if len(state.units_of(a)) >= 2 and state.owner(a) == h]
                if len(areas) != 1 or next(iter(areas)) not in ok:
                    raise IllegalAction("select.wrong_area", "Choose the units in one of your castle or stronghold areas.", areas=ok)
            destroy(state, h, [(r.area, r.unit) for r in refs])
        pop(state)


@decision("w_knights_up", ("select_units",))
class KnightsUpTask:
    """Crow Killers reward: up to 2 footmen anywhere become reserve knights."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        from .control import available_units

        h = task[1]
        foot = [a for a, u in units_of_house(state, h) if u == "footman"]
        n = min(2, len(foot), available_units(state, h, "knight"))
        if n <= 0:
            return []
        return [
            Decision(
                h,
                "select_units",
                {"purpose": "crow_killers_upgrade", "min": 0, "max": n, "footmen": foot, "candidates": [[a, "footman"] for a in foot], "same_area": False},
            )
        ]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        from .control import available_units

        h = task[1]
        refs = action.units
        n = min(2, available_units(state, h, "knight"))
        if len(refs) > n:
            raise IllegalAction("select.wrong_count", f"Choose at most {n} footmen.", need=n, got=len(refs))
        if any(r.unit != "footman" for r in refs):
            raise IllegalAction("select.wrong_unit", "Choose footmen.", unit="footman")
        check_refs(state, h, refs)
        for r in refs:
            u = state.remove_unit(r.area, "footman")
            state.add_unit(r.area, h, "knight", u[2])
            state.emit("unit_replaced", house=h, area=r.area, old="footman", new="knight")
        pop(state)


@decision("w_preemptive", ("choose",))
class PreemptiveTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        return [Decision(h, "choose", {"purpose": "preemptive_raid", "options": preemptive_options(state, h)})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        h = task[1]
        if action.option not in preemptive_options(state, h):
            raise IllegalAction("choose.bad_option", f"Choose one of {preemptive_options(state, h)}.", options=preemptive_options(state, h))
        pop(state)
        if action.option == "units":
            push(state, ("w_destroy", h, 2, "any"))
        else:
            drop_on_track(state, action.option.split(":", 1)[1], h, 2)


def preemptive_options(state: State, h: str) -> list[str]:
    best = min(state.tracks[t].index(h) for t in TRACKS)
    return ["units"] + [f"track:{t}" for t in TRACKS if state.tracks[t].index(h) == best]


@decision("w_choose", ("choose",))
class ChooseTrackTask:
    """A King Beyond the Wall: a track choice (others: last place; highest: first place)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, key, options = task
        return [Decision(h, "choose", {"purpose": key, "options": list(options)})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, key, options = task
        if action.option not in options:
            raise IllegalAction("choose.bad_option", f"Choose one of {list(options)}.", options=list(options))
        move_on_track(state, action.option, h, to_first=(key == "king_beyond_the_wall_top"))
        pop(state)


@decision("w_discard_one", ("select_card",))
class DiscardOneTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        if len(state.hands[h]) < 2:
            return []
        return [Decision(h, "select_card", {"purpose": "massing_discard", "cards": list(state.hands[h]), "optional": False})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        h = task[1]
        if action.card not in state.hands[h]:
            raise IllegalAction("card.not_in_hand", "Choose a house card from your hand.", card=action.card)
        discard_from_hand(state, h, action.card)  # never the last card: a hand of one is not asked
        state.emit("house_cards_discarded", house=h, cards=[action.card])
        pop(state)


@decision("w_recover_one", ("select_card",))
class RecoverOneTask:
    """The house may take one discarded house card back (or none): ``select_card``, purpose
    ``mammoth_recover`` (Mammoth Riders) or the task's own (1st edition: ``nights_watch_recover``)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        purpose = task[2] if len(task) > 2 else "mammoth_recover"
        if not state.discards[h]:
            return []
        return [Decision(h, "select_card", {"purpose": purpose, "cards": list(state.discards[h]), "optional": True})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        h = task[1]
        if action.card is not None:
            if action.card not in state.discards[h]:
                raise IllegalAction("card.not_in_discards", "Choose a house card from your discard pile.", card=action.card)
            state.discards[h] = tuple(c for c in state.discards[h] if c != action.card)
            state.hands[h] = state.hands[h] + (action.card,)
            state.emit("house_cards_recovered", house=h, cards=[action.card])
        pop(state)


@decision("w_muster_one", ("muster",))
class MusterOneTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        areas = muster_areas(state, h)
        if not areas:
            return []
        from .mustering import muster_points
        from .options import muster_options

        return [
            Decision(
                h,
                "muster",
                {
                    "purpose": "horde_descends",
                    "areas": areas,
                    "one_area": True,
                    "points": {a: muster_points(a, state) for a in areas},
                    "recruits": muster_options(state, h, areas),
                },
            )
        ]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        h = task[1]
        if len({r.area for r in action.recruits}) > 1:
            raise IllegalAction("muster.one_area", "The Horde Descends lets you muster in one area only.")
        apply_recruits(state, h, action.recruits, muster_areas(state, h))
        pop(state)


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


@auto("w_points")
def w_points(state: State, task: tuple) -> None:
    """1st edition, 野蛮人胜利: ``house`` removes units worth ``points`` mustering points; without a
    choice (too few units, or all of one kind in one area) at once, else decision
    ``w_points_select``."""
    _, h, need = task
    mine = units_of_house(state, h)
    if points_of([u for _, u in mine]) <= need:
        destroy(state, h, mine)
    elif len(set(mine)) == 1:
        destroy(state, h, muster_point_plan(mine, need))
    else:
        push(state, ("w_points_select", h, need))


@decision("w_points_select", ("select_units",))
class MusterPointsTask:
    """The house picks the units (``select_units``, purpose ``wildlings_muster_points``, options
    ``points`` (to pay), ``costs`` (per unit type), ``units``/``candidates`` (its units)); refused
    unless :func:`valid_point_removal` (error ``select.wrong_points``)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, need = task
        mine = [list(u) for u in units_of_house(state, h)]
        return [Decision(h, "select_units", {"purpose": "wildlings_muster_points", "points": need, "costs": dict(MUSTER_COST),
                                             "units": mine, "candidates": mine, "same_area": False})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, need = task
        mine = units_of_house(state, h)
        refs = [(r.area, r.unit) for r in action.units]
        check_refs(state, h, action.units)
        if not valid_point_removal([u for _, u in refs], [u for _, u in mine], need):
            raise IllegalAction(
                "select.wrong_points",
                f"Choose units worth {need} mustering points (a knight 2, a footman or a ship 1), no unit more than needed.",
                need=need, got=points_of([u for _, u in refs]),
            )
        destroy(state, h, refs)
        pop(state)
