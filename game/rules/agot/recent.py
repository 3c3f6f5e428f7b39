"""What just happened on the board, for the map: ``view["recent"]`` (:func:`recent`).

The marks of the latest action phase, told from the public events since its orders were
revealed (so the mustering of the Westeros phase after it counts too): every March's moves, an
attack's march into battle, each battle's winner, retreats, Raids and the orders they removed,
orders removed otherwise, units mustered. The map draws them until the next orders are revealed
(faded while the next orders are placed). Only public events are read (never one told to a single
house), so every viewer, spectators included, gets the same marks; it is part of the shared view.

A mark is a small dict, kept short because the view goes out on every push:

* ``{"k": "march", "h", "from", "to", "units": [type]}`` (``"attack": true`` into a battle or a
  neutral force);
* ``{"k": "battle", "area", "attacker", "defender", "winner"}`` (``defender`` None: a neutral
  force);
* ``{"k": "retreat", "h", "from", "to", "units": [type]}``;
* ``{"k": "raid", "h", "from", "to", "token"}``: a Raid and the order it removed (a Raid removed
  without a target changed nothing on the board: no mark);
* ``{"k": "removed", "h", "area", "token"}``: an order removed by a house card;
* ``{"k": "muster", "h", "area", "unit", "from"}`` (``from``: the castle or stronghold mustering).
"""

from __future__ import annotations

from typing import Any

from .state import State, events


def recent(state: State) -> dict[str, Any] | None:
    """``{"round": the round of those orders, "marks": [mark]}``, or None before the first
    orders of the game are revealed. A scenario's position (``scenario_start``, which may begin
    in the middle of a round) counts as a reveal."""
    evs = tuple(events(state))
    start = next((i for i in range(len(evs) - 1, -1, -1) if evs[i]["kind"] in ("orders_revealed", "scenario_start")), None)
    if start is None:
        return None
    marks: list[dict[str, Any]] = []
    for e in evs[start + 1:]:
        if e.get("to") is not None:
            continue
        mark = _mark(e)
        if mark:
            marks.extend(mark)
    return {"round": evs[start]["round"], "marks": marks}


def _mark(e: dict[str, Any]) -> list[dict[str, Any]]:
    k = e["kind"]
    if k == "march":
        return [{"k": "march", "h": e["house"], "from": e["area"], "to": d, "units": list(us)} for d, us in (e.get("moves") or {}).items()]
    if k == "combat_started":
        return [{"k": "march", "h": e["attacker"], "from": e["origin"], "to": e["area"], "units": list(e.get("units") or ()), "attack": True}]
    if k == "neutral_attack":
        return [{"k": "march", "h": e["house"], "from": e["area"], "to": e["target"], "units": list(e.get("units") or ()), "attack": True}]
    if k == "combat_result":
        return [{"k": "battle", "area": e["area"], "attacker": e["attacker"], "defender": e["defender"], "winner": e["winner"]}]
    if k == "neutral_defeated":
        return [{"k": "battle", "area": e["area"], "attacker": e["house"], "defender": None, "winner": e["house"]}]
    if k == "retreat":
        return [{"k": "retreat", "h": e["house"], "from": e["area"], "to": e["dest"], "units": list(e.get("units") or ())}]
    if k == "raid":
        return [{"k": "raid", "h": e["house"], "from": e["area"], "to": e["target"], "token": e["token"]}] if e.get("target") else []
    if k == "order_removed":
        return [{"k": "removed", "h": e["house"], "area": e["area"], "token": e["token"]}]
    if k == "mustered":
        return [{"k": "muster", "h": e["house"], "area": e["dest"], "unit": e["unit"], "from": e["area"]}]
    return []
