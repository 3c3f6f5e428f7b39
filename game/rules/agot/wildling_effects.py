"""执行野人卡牌 / Carrying out a wildlings attack's outcome: the penalty and reward tasks that
:func:`.wildlings.outcome` queues for the nine wildling cards, and that
:func:`.wildlings.outcome_first_edition` queues for the 1st edition's fixed penalty (units worth
mustering points) and reward (a discarded house card back).

Rulebook sections: 野人袭击的战果 / Wildlings attack results, step 2 (执行野人卡牌: the lowest
bidder's penalty first, then every other bidder's, or the highest bidder's reward; each card's
effects are listed in :mod:`.wildlings`); 1st ed. rulebook, 守夜人胜利 / 野蛮人胜利. Choices are
the affected house's (``select_units``, ``choose``, ``select_card``, ``muster`` decisions).
"""

from __future__ import annotations

from collections import Counter

from ..base import Decision, IllegalAction
from .control import available_units, gain_power
from .data import TRACKS, board
from .flow import auto, decision, pop, push
from .house_cards import discard_from_hand, recover_if_empty
from .mustering import apply_recruits, muster_areas, muster_points
from .options import muster_options
from .state import State
from .wildlings import MUSTER_COST, muster_point_plan, points_of, valid_point_removal


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


# -- 1st edition: 野蛮人胜利 ---------------------------------------------------------------------------
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
