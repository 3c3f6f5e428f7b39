"""Scenario files: build any mid-game position, apply steps, check expectations.

The format is documented in ``docs/scenarios.md``. In short, a scenario is a JSON object::

    {"name": "...", "rule": "rulebook section", "ruleset": "agot2" | "agot1", "players": 6, "seed": 1,
     "board": "start" | "empty",
     "units": {area: {"house": h, "units": ["footman", {"type": "knight", "routed": true}]}},
     "power_tokens": {area: house}, "garrisons": {area: strength | null}, "neutral": {area: n | null},
     "orders": {area: token}, "placed": {house: {area: token}},
     "tracks": {track: [houses]}, "supply": {h: n}, "power": {h: n}, "threat": n, "round": n,
     "hands": {h: [cards]}, "discards": {h: [cards]}, "decks": {"I": [top cards...], "wildling": [...]},
     "flags": {"forbidden": [...], "raven_used": bool, "blade_used": bool},
     "start": "planning" | "raven" | "action" | "raids" | "marches" | "consolidate" | "westeros"
              | "wildlings_attack" | "mustering" | {"cards": ["supply", ...]},
     "steps": [[house, action], ...],
     "expect": {"viewer": house | null, ...partial view...} | [ ... several ... ],
     "expect_error": {"step": index, "code": "march.not_adjacent"}}

:func:`build` returns the state, :func:`run_scenario` the list of mismatches (empty = pass).
Pure: no I/O (the management command reads the files).
"""

from __future__ import annotations

from typing import Any

from ..base import Decision, IllegalAction
from .actions import parse_action
from .data import TRACKS, board
from .flow import apply, decision, run
from .setup import new_game
from .state import State

STARTS = ("planning", "raven", "action", "raids", "marches", "consolidate", "cleanup", "westeros", "wildlings_attack", "mustering")


@decision("halt", ())
class HaltTask:
    """The end of a scenario's section: the game waits here (pending shows actor "scenario")."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        return [Decision("scenario", "halt")]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:  # pragma: no cover - no action type
        raise IllegalAction("action.unexpected", "The scenario stops here.")


class ScenarioError(ValueError):
    """The scenario file itself is wrong (unknown key, bad area...)."""


KNOWN_KEYS = {
    "name", "rule", "description", "players", "seed", "board", "units", "power_tokens", "garrisons", "neutral",
    "orders", "placed", "tracks", "supply", "power", "threat", "round", "hands", "discards", "decks", "flags",
    "start", "steps", "expect", "expect_error", "options", "halt", "turn", "ruleset", "example",
}


def build(sc: dict[str, Any]) -> State:
    """The position described by scenario ``sc`` (before its steps)."""
    unknown = set(sc) - KNOWN_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys {sorted(unknown)}")
    from .edition import EDITIONS, edition

    ed_id = sc.get("ruleset", "agot2")
    if ed_id not in EDITIONS:
        raise ScenarioError(f"unknown ruleset {ed_id!r}")
    b = board(ed_id)
    players = sc.get("players", 6 if ed_id == "agot2" else 5)
    s = new_game(players, sc.get("seed", 1), sc.get("options", {}), ed_id)
    s = s.clone()
    s.tasks = ()
    s.placed = {}
    s.log = None
    if sc.get("board", "start") == "empty":
        s.units = {}
        s.power_tokens = {}
    elif sc.get("board", "start") != "start":
        raise ScenarioError("board must be 'start' or 'empty'")

    def area(a: str) -> str:
        if a not in b.areas:
            raise ScenarioError(f"unknown area {a!r}")
        return a

    def house(h: str) -> str:
        if h not in s.houses:
            raise ScenarioError(f"house {h!r} is not in play")
        return h

    for a, spec in sc.get("units", {}).items():
        s.units.pop(area(a), None)
        if spec is None:
            continue
        h = house(spec["house"])
        for u in spec["units"]:
            if isinstance(u, str):
                s.add_unit(a, h, u)
            else:
                s.add_unit(a, h, u["type"], bool(u.get("routed", False)))
    for a, h in sc.get("power_tokens", {}).items():
        if h is None:
            s.power_tokens.pop(area(a), None)
        else:
            s.power_tokens[area(a)] = house(h)
    for a, g in sc.get("garrisons", {}).items():
        if g is None:
            s.garrisons.pop(area(a), None)
        else:
            s.garrisons[area(a)] = (b.areas[a].home_of, g)

    for a, n in sc.get("neutral", {}).items():
        if n is None:
            s.neutral.pop(area(a), None)
        else:
            s.neutral[area(a)] = n
    for t, order in sc.get("tracks", {}).items():
        if t not in TRACKS or sorted(order) != sorted(s.houses):
            raise ScenarioError(f"track {t!r} must list every house in play")
        s.tracks[t] = tuple(order)
    for key in ("supply", "power"):
        for h, n in sc.get(key, {}).items():
            getattr(s, key)[house(h)] = n
    if "threat" in sc:
        s.threat = sc["threat"]
    if "round" in sc:
        s.round = sc["round"]
    for h, cards in sc.get("hands", {}).items():
        s.hands[house(h)] = tuple(cards)
    for h, cards in sc.get("discards", {}).items():
        s.discards[house(h)] = tuple(cards)
    for deck, top in sc.get("decks", {}).items():
        rest = list(s.decks[deck])
        for c in top:
            if c not in rest:
                raise ScenarioError(f"card {c!r} is not in deck {deck}")
            rest.remove(c)
        s.decks[deck] = tuple(top) + tuple(rest)
    flags = sc.get("flags", {})
    if "forbidden" in flags:
        s.flags["forbidden"] = frozenset(flags["forbidden"])
    for f in ("raven_used", "blade_used", "footmen_no_support"):
        if f in flags:
            s.flags[f] = bool(flags[f])
    for a, tok in sc.get("orders", {}).items():
        if tok not in b.order_tokens:
            raise ScenarioError(f"unknown order token {tok!r}")
        owner = s.owner(area(a))
        if owner is None:
            raise ScenarioError(f"an order in {a} needs units there")
        s.orders[a] = (owner, tok)
    start = sc.get("start", "planning")
    halt = sc.get("halt", True)
    if isinstance(start, dict):
        cards = start.get("cards", [])
        tasks = []
        for c in cards:
            deck = next((d for d, cs in b.westeros_decks.items() if c in cs), None)
            if deck is None:
                raise ScenarioError(f"unknown Westeros card {c!r}")
            tasks.append(("wcard", deck, c))
        s.phase = "westeros"
        s.ctx["westeros_cards"] = tuple(cards)
        s.tasks = tuple(tasks) + ((("halt",),) if halt else (("planning_start",),))
    elif start == "planning":
        s.phase = "planning"
        s.tasks = (("place_orders",), ("reveal_orders",), ("raven",)) + ((("halt",),) if halt else (("action_phase",),))
    elif start == "raven":
        s.phase = "planning"
        s.tasks = (("raven",),) + ((("halt",),) if halt else (("action_phase",),))
    elif start in ("action", "raids", "marches", "consolidate", "cleanup"):
        s.phase = "action"
        stand = ["stand_up"] if edition(s).stand_up == "after_marches" else []
        steps = ["raids", "marches", *stand, "consolidations", "cleanup", "westeros", "planning_start"]
        first = {"action": 0, "raids": 0, "marches": 1, "consolidate": 2 + len(stand), "cleanup": 3 + len(stand)}[start]
        s.ctx["cursor"] = s.turn_order().index(house(sc["turn"])) if "turn" in sc else 0
        if halt:
            steps = steps[first:3 + len(stand)] + ["halt"] if start != "cleanup" else ["cleanup", "halt"]
        else:
            steps = steps[first:]
        s.tasks = tuple((t,) for t in steps)
    elif start == "westeros":
        s.tasks = (("westeros",),) + ((("halt",),) if halt else (("planning_start",),))
    elif start == "wildlings_attack":
        s.phase = "westeros"
        s.tasks = (("wildling_attack", None, None),) + ((("halt",),) if halt else (("planning_start",),))
    elif start == "mustering":
        s.phase = "westeros"
        s.tasks = tuple(("muster", h) for h in s.turn_order()) + ((("halt",),) if halt else (("planning_start",),))
    else:
        raise ScenarioError(f"unknown start {start!r}; one of {STARTS}")
    for h, orders in sc.get("placed", {}).items():
        s.placed[house(h)] = tuple(sorted(orders.items()))
    s.emit("scenario_start", name=sc.get("name", ""))
    run(s)
    return s


def match(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Mismatches of a partial expectation against a view value (see docs/scenarios.md)."""
    out: list[str] = []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        for k, v in expected.items():
            if v is None:
                if actual.get(k) is not None:
                    out.append(f"{path}.{k}: expected absent, got {actual.get(k)!r}")
            elif k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += match(v, actual[k], f"{path}.{k}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {actual!r}"]
        if path.endswith(".units") and all(isinstance(x, str) for x in expected):
            got = sorted(u["type"] + ("*" if u.get("routed") else "") if isinstance(u, dict) else u for u in actual)
            if sorted(expected) != got:
                out.append(f"{path}: expected units {sorted(expected)}, got {got}")
            return out
        if path.endswith(".events"):
            i = 0
            for e in expected:
                while i < len(actual) and match(e, actual[i], path):
                    i += 1
                if i == len(actual):
                    out.append(f"{path}: no event matching {e!r} (in order)")
                    return out
                i += 1
            return out
        if len(expected) != len(actual):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += match(e, a, f"{path}[{i}]")
        return out
    if expected != actual:
        out.append(f"{path}: expected {expected!r}, got {actual!r}")
    return out


def run_scenario(sc: dict[str, Any]) -> list[str]:
    """Build, apply the steps and check; the list of failures (empty when the scenario passes)."""
    from .views import view

    try:
        s = build(sc)
    except (ScenarioError, KeyError, TypeError, IllegalAction) as exc:
        return [f"bad scenario: {exc}"]
    err = sc.get("expect_error")
    for i, step in enumerate(sc.get("steps", [])):
        house, data = step
        before = s.snapshot()
        try:
            action = parse_action(data)
            s2 = apply(s, house, action)
        except IllegalAction as exc:
            if err and err.get("step") == i:
                if exc.code != err["code"]:
                    return [f"step {i}: expected error {err['code']}, got {exc.code} ({exc.message})"]
                if s.snapshot() != before:
                    return [f"step {i}: a refused action changed the state"]
                break
            return [f"step {i}: {house} {data}: {exc.code}: {exc.message}"]
        if err and err.get("step") == i:
            return [f"step {i}: expected error {err['code']}, but the action was accepted"]
        s = s2
    else:
        if err and err.get("step", -1) >= len(sc.get("steps", [])):
            return [f"expect_error names step {err.get('step')}, which does not exist"]
    exps = sc.get("expect", [])
    if isinstance(exps, dict):
        exps = [exps]
    fails = []
    for e in exps:
        e = dict(e)
        viewer = e.pop("viewer", None)
        fails += match(e, view(s, viewer), f"view[{viewer}]")
    return fails
