"""结算行军指令 / Resolve March orders (Action phase step 2), with 战舰运输 / Ship transport,
港口 / Ports, 建立控制权 / Establishing control and 中立军队 / Neutral force tokens.

In turn order, one at a time, a house resolves one of its March orders (rules ①-⑨):

* it moves all, some or none of the (standing) units of the area, to one or several adjacent
  areas (land units to land; ships to seas or to a port whose land area it controls); routed
  units cannot move;
* 战舰运输: two land areas joined by a chain of seas each holding the house's own ships are
  adjacent for marching (islands can only be left or reached so);
* at most one destination may start a fight: enemy units, an enemy home garrison, or a neutral
  force token; all other moves happen first;
* a port holds at most 3 ships; no ship enters a port its house does not own;
* nothing enters an area blocked by a 3-player "~" token;
* after the move the house's armies must fit its supply (补给 / Supply: no action may exceed it);
* leaving a land area empty, the house may leave one available power token there to keep
  control (``leave_power``); marching into an area holding only an enemy power token discards it;
* 消灭中立军队 / Defeating a neutral force: the marching units' strength (siege engines only
  against a castle/stronghold), the March order's modifier (as the rulebook's worked example
  counts it) and support from adjacent Support orders (each supporting house chooses, in turn
  order; the marching house's own support is always given) must reach the token's strength; no
  house card, no Valyrian Steel Blade, no support for the neutral force. On success the token
  leaves the game and the units move in. 中立军队标记: "玩家必须有足够的战力成功击败中立军队，
  才能如此做": a march whose units, March modifier and every Support order that could still be
  given cannot reach the token's strength is refused (``march.neutral_too_strong``); when it
  could reach only with other houses' supports that are then refused, the units stay where
  they were and the March order is spent (event ``neutral_held``; reading in
  docs/scenarios.md, Readings).

The reach (adjacency, ship transport, ports) and the move itself (a discarded power token, a
taken enemy port) are in :mod:`.movement`, shared with retreats and combat's clean-up; what a
March order may do, as decision options, is built by :func:`.options.march_area_options`.
Combat is handed over in one place: :func:`start_combat` (see :mod:`.combat`).
"""

from __future__ import annotations

from collections import Counter

from ..base import Decision, IllegalAction
from .combat import start_combat as begin_combat
from .control import controller, within_supply
from .data import board
from .flow import auto, decision, pop, push
from .movement import land_destinations, move_units, port_occupied, ship_destinations
from .options import Lazy, march_area_options
from .state import State
from .support import neutral_supporters, unit_strength
from .turns import advance_cursor, next_house, orders_of

LAND_UNITS = frozenset(("footman", "knight", "siege_engine"))


def start_combat(state: State, house: str, origin: str, dest: str, units: tuple[str, ...]) -> None:
    """Hand-off to combat (rulebook 战斗 / Combat): see :func:`.combat.start_combat`.

    Called by :func:`resolve_march` after the whole march was validated (units, reach, one fight,
    supply counting the attackers as an army in ``dest``, the power token), after the moves that
    start no fight were made and the power token left, and after the ``("march", house)`` task was
    popped. ``units`` (types, standing units of ``origin``) are still in ``origin``.
    """
    begin_combat(state, house, origin, dest, units)


@auto("marches")
def marches(state: State, task: tuple) -> None:
    h = next_house(state, lambda x: bool(orders_of(state, x, "march")))
    if h is None:
        state.ctx["cursor"] = 0
        return
    push(state, ("march", h), task)


def march_options(state: State, house: str) -> dict:
    """``{area: options}`` for each of ``house``'s March orders (see :func:`.options.march_area_options`)."""
    return {a: march_area_options(state, house, a) for a in orders_of(state, house, "march")}


@decision("march", ("march",))
class MarchTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        return [Decision(h, "march", Lazy(lambda: {"marches": march_options(state, h), "power": state.power[h]}))]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        resolve_march(state, actor, action)


def resolve_march(state: State, house: str, action) -> None:
    """Resolve ``house``'s March order ``action`` (the head task ``("march", house)``): validate
    it, then pop the task (on a clone: a refusal discards it) and move, so that the decisions the
    moves raise (taking a port, 控制敌方港口) come before the next march."""
    b = board(state)
    origin = action.area
    if origin not in orders_of(state, house, "march"):
        raise IllegalAction("march.no_order", f"You have no March order in {origin}.", area=origin)
    pop(state)
    token = state.orders[origin][1]
    standing = Counter(u[1] for u in state.units_of(origin) if not u[2])
    wanted: Counter = Counter()
    by_dest: dict[str, list[str]] = {}
    for mv in action.moves:
        if mv.to == origin:
            raise IllegalAction("march.same_area", "Units staying put need no move.", area=origin)
        for ut in mv.units:
            if ut not in b.unit_limits:
                raise IllegalAction("march.unknown_unit", f"{ut!r} is not a unit type.", unit=ut)
            wanted[ut] += 1
        by_dest.setdefault(mv.to, []).extend(mv.units)
    for ut, n in wanted.items():
        if n > standing[ut]:
            raise IllegalAction(
                "march.not_enough_units", f"{origin} has {standing[ut]} standing {ut}(s), not {n}.", area=origin, unit=ut
            )
    land_ok = land_destinations(state, house, origin)
    ship_ok = ship_destinations(state, house, origin)
    fights = []
    for dest, units in by_dest.items():
        if dest not in b.areas:
            raise IllegalAction("march.unknown_area", f"There is no area {dest!r}.", to=dest)
        if not units:
            continue
        if dest in state.blocked:
            raise IllegalAction("march.blocked", f"{dest} is impassable in this game.", to=dest)
        for ut in units:
            if ut in LAND_UNITS:
                if not b.is_land(dest):
                    raise IllegalAction("march.wrong_terrain", f"A {ut} cannot enter {dest}.", unit=ut, to=dest)
                if dest not in land_ok:
                    raise IllegalAction("march.not_adjacent", f"{dest} cannot be reached from {origin}.", area=origin, to=dest)
            else:
                if b.is_land(dest):
                    raise IllegalAction("march.wrong_terrain", f"A ship cannot enter {dest}.", unit=ut, to=dest)
                if dest not in ship_ok:
                    raise IllegalAction("march.not_adjacent", f"{dest} cannot be reached from {origin}.", area=origin, to=dest)
        if b.is_port(dest):
            if controller(state, dest) != house:
                raise IllegalAction("march.enemy_port", f"Ships may enter only a port whose land you control ({dest}).", to=dest)
            if port_occupied(state, dest, house):
                raise IllegalAction(
                    "march.port_occupied", f"Another house's ships are in {dest}: a port is never attacked, so yours cannot enter.", to=dest
                )
            if len(state.units_of(dest)) + len(units) > b.tracks["port_max_ships"]:
                raise IllegalAction("march.port_full", f"A port holds at most 3 ships ({dest}).", to=dest)
        owner = state.owner(dest)
        g = state.garrisons.get(dest)
        if (owner is not None and owner != house) or (owner is None and g is not None and g[0] != house):
            fights.append((dest, "combat"))
        elif dest in state.neutral:
            fights.append((dest, "neutral"))
    if len(fights) > 1:
        raise IllegalAction(
            "march.two_fights", "One March order may start only one fight (enemy units or a neutral force).", to=[f[0] for f in fights]
        )
    # supply after the move (and, for a neutral attack, also if it fails)
    moving = sum(len(u) for u in by_dest.values())
    left = len(state.units_of(origin)) - moving
    counts = {origin: left}
    for dest, units in by_dest.items():
        if fights and dest == fights[0][0] and fights[0][1] == "combat":
            counts[dest] = len(units)  # the attackers form an army in the contested area
        else:
            counts[dest] = len(state.units_of(dest)) + len(units)
    if not within_supply(state, house, counts):
        raise IllegalAction("march.supply", "After this march your armies would exceed your supply limit.")
    if fights and fights[0][1] == "neutral":
        fail_counts = dict(counts)
        fail_counts.pop(fights[0][0])
        fail_counts[origin] = left + len(by_dest[fights[0][0]])
        if not within_supply(state, house, fail_counts):
            raise IllegalAction("march.supply", "If the attack on the neutral force failed, your armies would exceed your supply limit.")
    # leaving a power token (建立控制权)
    if action.leave_power:
        if not b.is_land(origin) or left != 0:
            raise IllegalAction("march.cannot_leave_power", "A power token can be left only in a land area all your units leave.", area=origin)
        if state.power_tokens.get(origin) == house or b.areas[origin].home_of == house:
            raise IllegalAction("march.cannot_leave_power", "You already keep control of this area without a power token.", area=origin)
        if state.power[house] < 1:
            raise IllegalAction("march.no_power", "You have no available power token to leave.", area=origin)
    # execute the moves that start no fight first (行军 ⑦), and leave the power token
    fight_dest = fights[0][0] if fights else None
    queued = len(state.tasks)
    for dest, units in by_dest.items():
        if dest == fight_dest:
            continue
        move_units(state, house, origin, dest, units)
    # ports taken by these moves (控制敌方港口) are settled before the fight starts
    captures = state.tasks[: len(state.tasks) - queued]
    state.tasks = state.tasks[len(captures):]
    if action.leave_power:
        state.power[house] -= 1
        state.power_tokens[origin] = house
        state.emit("power_token_left", house=house, area=origin)
    if fights and fights[0][1] == "combat":
        state.emit("march", house=house, area=origin, moves={d: list(u) for d, u in by_dest.items() if d != fight_dest})
        start_combat(state, house, origin, fight_dest, tuple(by_dest[fight_dest]))
        push(state, *captures)
        return
    if fight_dest is None:
        del state.orders[origin]
        state.emit("march", house=house, area=origin, moves={d: list(u) for d, u in by_dest.items()})
        advance_cursor(state, house)
        push(state, *captures)
        return
    # neutral force attack: refuse it if it cannot win, else collect support from other houses
    units = tuple(by_dest[fight_dest])
    castle = b.areas[fight_dest].castle is not None
    base = sum(unit_strength(u, False, castle, True, state) for u in units) + b.order_tokens[token].strength
    own = sum(s for (h, _, s) in neutral_supporters(state, fight_dest, house) if h == house)
    best = base + sum(s for (_, _, s) in neutral_supporters(state, fight_dest, house))
    if best < state.neutral[fight_dest]:
        raise IllegalAction(
            "march.neutral_too_strong",
            f"The neutral force in {fight_dest} has strength {state.neutral[fight_dest]}; these units, the March order and every "
            f"Support order that could still be given reach only {best}.",
            to=fight_dest, strength=best, neutral=state.neutral[fight_dest],
        )
    state.ctx["neutral_attack"] = (house, origin, fight_dest, units, base + own)
    others = [(h, a) for (h, a, _) in neutral_supporters(state, fight_dest, house) if h != house]
    state.emit("neutral_attack", house=house, area=origin, target=fight_dest, units=list(units), strength=base + own, neutral=state.neutral[fight_dest])
    push(state, *captures, *[("neutral_support", h, a) for (h, a) in others], ("neutral_resolve",))


@auto("march_end")
def march_end(state: State, task: tuple) -> None:
    """After a march's fight: remove the March order, pass the turn in turn order."""
    _, house, origin = task
    state.orders.pop(origin, None)
    advance_cursor(state, house)


@decision("neutral_support", ("support",))
class NeutralSupportTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, h, area = task
        att = state.ctx["neutral_attack"]
        return [Decision(h, "support_neutral_attack", {"attacker": att[0], "target": att[2], "from": area, "choices": [True, False]})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, h, area = task
        if action.give:
            att = state.ctx["neutral_attack"]
            for hh, a, s in neutral_supporters(state, att[2], att[0]):
                if a == area:
                    state.ctx["neutral_attack"] = att[:4] + (att[4] + s,)
        state.emit("support_declared", house=actor, area=area, give=action.give)
        pop(state)


@auto("neutral_resolve")
def neutral_resolve(state: State, task: tuple) -> None:
    house, origin, dest, units, strength = state.ctx.pop("neutral_attack")
    need = state.neutral[dest]
    if strength >= need:
        del state.neutral[dest]
        move_units(state, house, origin, dest, units)
        state.emit("neutral_defeated", house=house, area=dest, strength=strength, neutral=need)
    else:  # only when supports the march counted on were refused (see resolve_march)
        state.emit("neutral_held", house=house, area=dest, origin=origin, strength=strength, neutral=need)
    state.orders.pop(origin, None)
    advance_cursor(state, house)
