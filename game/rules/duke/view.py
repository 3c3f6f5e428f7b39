"""What a seat (or a spectator) may see of a game of The Duke.

Hidden from everyone: the random generator (so the next draw) and any order of the bags (a bag is
a multiset; tiles are drawn at random when drawn). Shown: every tile on the board with its side,
the terrain, the number of tiles in each bag, the kinds of the tiles each seat has not yet brought
into play (public: every tile that came into play or was destroyed was shown), the tile just drawn,
captured and destroyed tiles, and the event log.

During a Divination only the drawing player sees the drawn tiles; everyone else sees how many.
Those tiles are out of the bag but still count among the bag's ``kinds`` (with ``held``, how
many are out), for every viewer: were they taken out of ``kinds`` at the draw, the difference
between two consecutive views would tell the opponent which tiles were drawn, and so which went
back.
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


def _bag(state: State, seat: str) -> dict[str, Any]:
    """One bag as every viewer sees it (see :func:`view`)."""
    bag = state.bags[seat]
    held = state.drawn if state.phase == "divination" and state.to_move == seat else ()
    return {"count": len(bag), "held": len(held), "kinds": dict(sorted(Counter(bag + held).items()))}


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """The JSON-able picture of ``state`` for ``viewer`` (a seat, or None for a spectator).

    Shape::

        {"game": "duke", "phase", "to_move", "first", "turn", "options",
         "tiles": [{"square", "owner", "kind", "side": "start"|"back", "frozen"}],
         "mountain": square|None, "dragon": {"square", "facing", "enraged"}|None,
         "bags": {seat: {"count": int, "held": int, "kinds": {tile id: int}}},
         "lost": {seat: [tile id]}, "destroyed": {seat: [tile id]},
         "drawn": [tile id] | {"count": int}, "guard": seat|None,
         "events": [...latest events], "result": None|{"winner", "reason"}}

    ``guard`` names the seat whose Duke is capturable right now (the opponent announced "Guard").

    ``bags[seat]``: ``count`` tiles in the bag now; ``held`` tiles drawn by a Divination not yet
    chosen (0 otherwise); ``kinds`` the tile kinds of the bag *and* the held tiles, so
    ``sum(kinds) == count + held``: what the seat may still bring into play, the same for every
    viewer. A drawn tile waiting to be placed after a plain draw is public (``drawn``) and no
    longer counted. Only the drawing seat sees the held tiles themselves (``drawn``; others get
    ``{"count": held}``).
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
        "bags": {s: _bag(state, s) for s in SEATS},
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
