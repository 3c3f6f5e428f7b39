"""Small helpers for The Duke's rule tests: everything goes through the public ruleset API."""

from __future__ import annotations

from typing import Any

from game.rules.base import IllegalAction
from game.rules.duke import RULESET
from game.rules.duke.scenario import build

__all__ = ["RULESET", "build", "actions", "targets", "play", "refused", "tile_at", "events"]


def actions(state: Any) -> list[dict]:
    """The JSON actions the pending decision allows."""
    (d,) = RULESET.pending(state)
    return d.options["actions"]


def targets(state: Any, frm: str) -> set[tuple[str, str]]:
    """``{(type, square)}`` reachable by the tile on ``frm`` (move: ``to``; strike: ``target``;
    command: ``piece->to``)."""
    out = set()
    for a in actions(state):
        if a.get("frm") != frm:
            continue
        if a["type"] == "move":
            out.add(("move", a["to"]))
        elif a["type"] == "strike":
            out.add(("strike", a["target"]))
        elif a["type"] == "command":
            out.add(("command", f"{a['piece']}->{a['to']}"))
    return out


def play(state: Any, data: dict, actor: str | None = None) -> Any:
    actor = actor or RULESET.pending(state)[0].actor
    return RULESET.apply(state, actor, RULESET.parse_action(data))


def refused(state: Any, data: dict, actor: str | None = None) -> IllegalAction:
    """The IllegalAction raised by applying ``data`` (fails if it is accepted)."""
    actor = actor or RULESET.pending(state)[0].actor
    try:
        RULESET.apply(state, actor, RULESET.parse_action(data))
    except IllegalAction as e:
        return e
    raise AssertionError(f"{data} was accepted")


def tile_at(state: Any, square: str, viewer: str | None = None) -> dict | None:
    for t in RULESET.view(state, viewer)["tiles"]:
        if t["square"] == square:
            return t
    return None


def events(state: Any, kind: str, viewer: str | None = None) -> list[dict]:
    return [e for e in RULESET.view(state, viewer)["events"] if e["type"] == kind]
