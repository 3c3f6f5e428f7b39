"""撤退和溃败 / Retreat and routing (combat result, step 3).

* A losing **attacker**'s surviving units go back to the March order's origin (where they still
  stand) and are routed. If its armies then exceed supply, it destroys retreating units, of its
  choice, until they fit.
* A losing **defender**'s surviving units all go to one area: an adjacent area (or one reached by
  ship transport, for land units) that is empty of enemy units and enemy power tokens (an enemy
  home area counts as holding its emblem) or its own; never the attacker's origin, never a
  neutral force or a blocked area; land units to land, ships to seas or an own port with room (①-⑥,
  撤退的其它规则 ①). An area that would break the supply limit may be chosen only when no other is
  legal, and then the house first destroys units until it fits (④); with no legal area all
  retreating units are destroyed (⑤). The loser chooses (``retreat`` decision) unless a card says
  otherwise (house-card hook ``retreat_chooser``).
* Routed units (溃败) have no strength, cannot be chosen as casualties, and are destroyed instead
  of retreating again; siege engines (攻城车) are destroyed instead of retreating. Routed units
  stand up in the action phase's clean-up.
"""

from __future__ import annotations

from ..base import Decision, IllegalAction  # noqa: F401
from .combat import card_ability, combatants, current, update
from .combat_result import fighting_units, remove_fighting_unit
from .control import controller, within_supply
from .data import board
from .edition import edition
from .flow import auto, decision, pop, push
from .movement import land_destinations
from .state import State


def rout(state: State, area: str, types: list[str]) -> None:
    """Turn standing units of ``types`` in ``area`` routed (one per entry)."""
    us = list(state.units_of(area))
    for t in types:
        for i, u in enumerate(us):
            if u[1] == t and not u[2]:
                us[i] = (u[0], u[1], True)
                break
    if us:
        state.units[area] = tuple(us)


def supply_losses(state: State, house: str, counts: dict[str, int], moving: int, dest: str) -> int | None:
    """Fewest of ``moving`` units to lose so that ``house`` fits supply with ``counts`` and the
    movers in ``dest``; None if even losing all of them does not help."""
    for k in range(moving + 1):
        over = dict(counts)
        over[dest] = over.get(dest, len(state.units_of(dest))) + moving - k
        if within_supply(state, house, over):
            return k
    return None


def retreat_areas(state: State, house: str, area: str, types: list[str]) -> dict[str, int]:
    """Legal retreat areas for ``house``'s ``types`` leaving ``area``: ``{area: units to lose}``.

    2nd edition: areas needing no loss if there are any; otherwise the ones needing losses, each
    with its fewest (rule ④). 1st edition (撤退 3): "撤退时必须使军团分布符合补给等级的限制。如果
    需要的话只撤退部分的部队,剩下无法撤退的消灭"): every legal area, each with its fewest losses
    (:attr:`.edition.Edition.retreat_prefers_free_areas`). Empty: no legal area (⑤).
    """
    b = board(state)
    c = current(state)
    ships = all(t == "ship" for t in types)
    if ships:
        cands = {n for n in b.adjacent[area] if b.is_sea(n) or (b.is_port(n) and controller(state, n) == house)}
    else:
        cands = land_destinations(state, house, area)
    out: dict[str, int] = {}
    for n in sorted(cands):
        if n == c.origin or n in state.blocked or n in state.neutral:
            continue
        owner = state.owner(n)
        if owner is not None and owner != house:
            continue
        if not ships and controller(state, n) not in (None, house):
            continue
        g = state.garrisons.get(n)
        if g and g[0] != house:
            continue
        k = supply_losses(state, house, {area: 0}, len(types), n)
        if k is None:
            continue
        if b.is_port(n):
            k = max(k, len(state.units_of(n)) + len(types) - b.tracks["port_max_ships"])
        if k >= len(types):
            continue
        out[n] = k
    if not edition(state).retreat_prefers_free_areas:
        return out
    free = {a: k for a, k in out.items() if k == 0}
    return free or out


@auto("combat_retreat")
def combat_retreat(state: State, task: tuple) -> None:
    retreat(state)


def retreat(state: State) -> None:
    """Queue or do the loser's retreat (task ``combat_retreat``)."""
    c = current(state)
    lo = c.loser
    if lo == c.attacker:
        survivors = list(c.units)
        for t in [t for t in survivors if t == "siege_engine"]:
            remove_fighting_unit(state, lo, c.origin, t)
            state.emit("unit_destroyed", house=lo, area=c.origin, unit=t, reason="siege_engine_retreat")
        c = current(state)
        rout(state, c.origin, list(c.units))
        c = update(state, retreated=True)
        if c.units:
            state.emit("retreat", house=lo, area=c.area, dest=c.origin, units=list(c.units))
        if not within_supply(state, lo):
            push(state, ("combat_retreat_supply", lo))
        return
    area = c.area
    for (h, t, r) in list(state.units_of(area)):
        if h == lo and (r or t == "siege_engine"):
            state.remove_unit(area, t, prefer_routed=r)
            state.emit("unit_destroyed", house=lo, area=area, unit=t, reason="routed_retreat" if r else "siege_engine_retreat")
    types = [t for (h, t, r) in state.units_of(area) if h == lo]
    if not types:
        return
    areas = retreat_areas(state, lo, area, types)
    chooser = lo
    for h in combatants(state, c):
        ab = card_ability(state, h)
        ch = ab.retreat_chooser(state, h)
        if ch is not None:
            chooser = ch
        areas = ab.retreat_areas(state, h, areas) or areas
    if not areas:
        for t in types:
            state.remove_unit(area, t)
        state.emit("retreat_impossible", house=lo, area=area, units=types)
        return
    update(state, memo=c.memo + (("retreat_areas", tuple(sorted(areas.items()))),))
    if len(areas) == 1:
        (dest, k), = areas.items()
        push(state, ("combat_retreat_move", dest, k))
        return
    push(state, ("combat_retreat_choice", chooser))


def _areas(c) -> dict[str, int]:
    for k, v in c.memo:
        if k == "retreat_areas":
            return dict(v)
    return {}


@decision("combat_retreat_choice", ("choose",))
class RetreatChoiceTask:
    """Where the defeated defender retreats: ``choose`` one of ``options`` (areas)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        c = current(state)
        areas = _areas(c)
        types = [t for (h, t, r) in state.units_of(c.area) if h == c.loser]
        return [Decision(task[1], "retreat", {"purpose": "retreat", "house": c.loser, "from": c.area, "units": types, "options": sorted(areas), "losses": areas})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        areas = _areas(current(state))
        if action.option not in areas:
            raise IllegalAction("choose.bad_option", f"Choose one of {sorted(areas)}.", options=sorted(areas))
        pop(state)
        push(state, ("combat_retreat_move", action.option, areas[action.option]))


@auto("combat_retreat_move")
def combat_retreat_move(state: State, task: tuple) -> None:
    _, dest, k = task
    c = current(state)
    lo = c.loser
    if k > 0:
        units = fighting_units(state, lo)
        if len(set(units)) == 1:
            for (a, t) in units[:k]:
                remove_fighting_unit(state, lo, a, t)
            state.emit("casualties", house=lo, source="supply", units=[list(u) for u in units[:k]])
        else:
            push(state, ("combat_select_losses", lo, k, "supply"), ("combat_retreat_move", dest, 0))
            return
    types = [t for (h, t, r) in state.units_of(c.area) if h == lo]
    for t in types:
        state.remove_unit(c.area, t)
        state.add_unit(dest, lo, t, True)
    state.emit("retreat", house=lo, area=c.area, dest=dest, units=types)


@auto("combat_retreat_supply")
def combat_retreat_supply(state: State, task: tuple) -> None:
    """A retreated attacker over its supply limit destroys retreating units (its choice) until it fits."""
    h = task[1]
    c = current(state)
    k = supply_losses(state, h, {c.origin: len(state.units_of(c.origin)) - len(c.units)}, len(c.units), c.origin)
    n = len(c.units) if k is None else k
    if n:
        push(state, ("combat_losses", h, n, "supply"))
