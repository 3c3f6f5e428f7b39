"""What a seat (or a spectator) may see of a game of The Duke.

Hidden from everyone: the random generator (so the next draw) and any order of the bags (a bag is
a multiset; tiles are drawn at random when drawn). Shown: every tile on the board with its side,
the terrain, the number of tiles left in each bag and their kinds (public anyway: every tile that
left a bag was shown), the tile just drawn, captured and destroyed tiles, and the event log.
During a Divination only the drawing player sees the drawn tiles; the opponent sees how many.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import board as B
from .position import SEATS, can_capture, duke_square, frozen_squares, other
from .state import State

__all__ = ["view", "open_view", "EVENT_WINDOW"]

#: how many of the latest events a view carries (the full log is the action log)
EVENT_WINDOW = 50


def _event_for(ev: dict, viewer: str | None) -> dict:
    priv = ev.get("private")
    if priv is None:
        return dict(ev)
    out = {k: v for k, v in ev.items() if k != "private"}
    if viewer in priv:
        out.update(priv[viewer])
    return out


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """The JSON-able picture of ``state`` for ``viewer`` (a seat, or None for a spectator).

    Shape::

        {"game": "duke", "phase", "to_move", "first", "turn", "options",
         "tiles": [{"square", "owner", "kind", "side": "start"|"back", "frozen"}],
         "mountain": square|None, "dragon": {"square", "facing", "enraged"}|None,
         "bags": {seat: {"count": int, "kinds": {tile id: int}}},
         "lost": {seat: [tile id]}, "destroyed": {seat: [tile id]},
         "drawn": [tile id] | {"count": int}, "guard": seat|None,
         "events": [...latest events], "result": None|{"winner", "reason"}}

    ``guard`` names the seat whose Duke is capturable right now (the opponent announced "Guard").
    """
    pos = state.pos
    frozen = frozen_squares(pos)
    tiles = []
    for sq, t in enumerate(pos.board):
        if t is not None:
            tiles.append(
                {
                    "square": B.name(sq),
                    "owner": t.owner,
                    "kind": t.kind,
                    "side": "back" if t.back else "start",
                    "frozen": sq in frozen,
                }
            )
    d = pos.dragon
    guard = None
    if state.phase in ("play", "place", "divination"):
        for s in SEATS:
            dk = duke_square(pos, s)
            if dk is not None and can_capture(pos, other(s), dk):
                guard = s
                break
    if state.phase == "divination" and viewer != state.to_move:
        drawn: Any = {"count": len(state.drawn)}
    else:
        drawn = list(state.drawn)
    return {
        "game": "duke",
        "viewer": viewer,
        "phase": state.phase,
        "to_move": None if state.phase == "over" else state.to_move,
        "first": state.first,
        "turn": state.turn,
        "quiet": state.quiet,
        "options": dict(state.options),
        "tiles": tiles,
        "mountain": B.name(pos.mountain) if pos.mountain is not None else None,
        "dragon": {"square": B.name(d.square), "facing": d.facing, "enraged": d.enraged} if d else None,
        "bags": {
            s: {"count": len(state.bags[s]), "kinds": dict(sorted(Counter(state.bags[s]).items()))}
            for s in SEATS
        },
        "lost": {s: list(state.lost[s]) for s in SEATS},
        "destroyed": {s: list(state.destroyed[s]) for s in SEATS},
        "drawn": drawn,
        "guard": guard,
        "events": [_event_for(e, viewer) for e in state.events[-EVENT_WINDOW:]],
        "result": dict(state.result) if state.result else None,
    }


def open_view(state: State, viewer: str | None) -> dict[str, Any]:
    """:func:`view` with the hidden parts shown, for the replay of a game that is over: the tiles
    drawn in a Divination (to either seat) and every event's private details (each seat's part
    merged in). The random generator stays out."""
    out = view(state, viewer)
    out["open"] = True
    out["drawn"] = list(state.drawn)
    evs = []
    for ev in state.events[-EVENT_WINDOW:]:
        e = {k: v for k, v in ev.items() if k != "private"}
        for part in (ev.get("private") or {}).values():
            e.update(part)
        evs.append(e)
    out["events"] = evs
    return out
