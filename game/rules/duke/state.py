"""The Duke's game state: an immutable value; every action returns a new one.

Hidden parts (never in a view): ``rng`` (the generator, so the next draw cannot be foreseen) and
the contents of ``drawn`` during a Divination for the opponent. Bags are kept as sorted multisets:
a tile is drawn by the generator at the moment of the draw, so a bag has no order to leak.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .position import Position

__all__ = ["State", "QUIET_TURN_LIMIT"]

#: player turns in a row with no capture and no tile entering play after which the game is drawn
QUIET_TURN_LIMIT = 100


@dataclass(frozen=True)
class State:
    """One moment of a game of The Duke.

    Attributes:
        options: the lobby options (``mountain``, ``dragon``, ``duchess``, ``oracle``: bools).
        phase: ``"setup"``, ``"play"`` (a turn starts), ``"place"`` (a drawn tile waits for its
            square), ``"divination"`` (Oracle tiles wait for the choice), ``"over"``.
        to_move: the seat to decide now (``"light"`` or ``"dark"``).
        first: the seat that set up first and moves first (chosen at random).
        pos: the board (:class:`.position.Position`).
        bags: seat -> sorted tuple of the tile ids in that seat's bag.
        lost: seat -> tile ids that seat lost (captured by the opponent or the Dragon), in order.
        destroyed: seat -> tile ids that seat destroyed by Divination.
        drawn: tiles drawn and not yet placed (one after Draw, up to three after Divination).
        rng: the random generator's state (:mod:`.rng`); never shown.
        turn: completed player turns.
        quiet: player turns in a row without a capture or a tile entering play.
        dragon_rest: the Dragon skips its next in-between turn (it was just pushed).
        setup_done: seats that have set up.
        events: public event log (dicts); an event may carry ``"private": {seat: {...}}``.
        result: None while the game runs, else ``{"winner": seat | None, "reason": str}``.
    """

    options: Mapping[str, Any]
    phase: str
    to_move: str
    first: str
    pos: Position
    bags: Mapping[str, tuple[str, ...]]
    lost: Mapping[str, tuple[str, ...]]
    destroyed: Mapping[str, tuple[str, ...]]
    drawn: tuple[str, ...]
    rng: int
    turn: int = 0
    quiet: int = 0
    dragon_rest: bool = False
    setup_done: tuple[str, ...] = ()
    events: tuple[Mapping[str, Any], ...] = ()
    result: Mapping[str, Any] | None = None
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)
