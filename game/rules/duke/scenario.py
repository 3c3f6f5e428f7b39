"""Build any position of The Duke directly, for tests and bug reports (like DATC cases).

Example::

    state = build({"c1": "light duke", "c2": "light footman back", "c6": "dark duke"},
                  to_move="light", mountain="c3")
"""

from __future__ import annotations

from typing import Any, Mapping

from . import board as B
from .engine import new_game, normalise_options, starting_bag
from .position import SEATS, Dragon, Position, Tile
from .state import State
from .tiles import TileSpec, spec_from_json

__all__ = ["build", "tile"]


def tile(text: str) -> Tile:
    """``"light duke"`` / ``"dark pikeman back"`` -> :class:`Tile`."""
    parts = text.split()
    if len(parts) not in (2, 3) or parts[0] not in SEATS or (len(parts) == 3 and parts[2] not in ("back", "start")):
        raise ValueError(f"bad tile description {text!r}")
    return Tile(parts[0], parts[1], len(parts) == 3 and parts[2] == "back")


def build(
    tiles: Mapping[str, str],
    *,
    to_move: str = "light",
    mountain: str | None = None,
    dragon: tuple[str, str] | tuple[str, str, bool] | None = None,
    options: Mapping[str, Any] | None = None,
    bags: Mapping[str, list[str]] | None = None,
    custom: Mapping[str, Mapping] | None = None,
    seed: int = 0,
) -> State:
    """A state in the ``"play"`` phase with ``to_move`` to act.

    Args:
        tiles: square name -> ``"<seat> <tile id> [back]"``.
        mountain: square name of the Mountain, if any.
        dragon: ``(square, facing)`` or ``(square, facing, enraged)``; facing "n", "e", "s", "w".
        options: lobby options (``dragon`` is switched on when ``dragon`` is given).
        bags: seat -> tile ids (default: the full starting bag).
        custom: extra tile kinds in the data file's schema (e.g. a tile with Defense icons).
        seed: seeds the random generator (draws, the Dragon's choices).
    """
    opts = dict(options or {})
    if dragon is not None:
        opts["dragon"] = True
    if mountain is not None:
        opts["mountain"] = True
    opts = normalise_options(opts)
    specs: dict[str, TileSpec] = {k: spec_from_json(k, v) for k, v in (custom or {}).items()}
    board: list = [None] * 36
    for name, text in tiles.items():
        sq = B.parse_square(name)
        if sq is None:
            raise ValueError(f"bad square {name!r}")
        board[sq] = tile(text)
    drg = None
    if dragon is not None:
        drg = Dragon(B.parse_square(dragon[0]), dragon[1], bool(dragon[2]) if len(dragon) > 2 else False)
    pos = Position(
        board=tuple(board),
        mountain=B.parse_square(mountain) if mountain else None,
        dragon=drg,
        custom=specs,
    )
    base = new_game(seed, opts)
    default = starting_bag(opts)
    return State(
        options=opts,
        phase="play",
        to_move=to_move,
        first=to_move,
        pos=pos,
        bags={s: tuple(sorted((bags or {}).get(s, default))) for s in SEATS},
        lost={s: () for s in SEATS},
        destroyed={s: () for s in SEATS},
        drawn=(),
        rng=base.rng,
        setup_done=SEATS,
    )
