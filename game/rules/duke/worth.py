"""What the Duke's bots know of a position: each tile's rough worth, and the board rebuilt from a
seat's view (:func:`position_from_view`)."""

from __future__ import annotations

from typing import Any

from . import board as B
from .position import Dragon, Position, Tile

__all__ = ["VALUES", "position_from_view"]

#: rough worth of each tile for the basic bot
VALUES = {
    "duke": 100.0,
    "footman": 1.0,
    "pikeman": 1.0,
    "knight": 3.0,
    "wizard": 4.0,
    "ranger": 3.0,
    "seer": 3.0,
    "general": 4.0,
    "priest": 3.0,
    "champion": 4.0,
    "marshall": 4.0,
    "bowman": 3.0,
    "dragoon": 3.0,
    "assassin": 4.0,
    "longbowman": 3.0,
    "duchess": 3.0,
    "oracle": 2.0,
}


def position_from_view(v: dict[str, Any]) -> Position:
    """The board as a seat sees it (every tile on the board is public)."""
    board: list = [None] * 36
    for t in v["tiles"]:
        board[B.parse_square(t["square"])] = Tile(t["owner"], t["kind"], t["side"] == "back")
    d = v.get("dragon")
    return Position(
        board=tuple(board),
        mountain=B.parse_square(v["mountain"]) if v.get("mountain") else None,
        dragon=Dragon(B.parse_square(d["square"]), d["facing"], d["enraged"]) if d else None,
    )
