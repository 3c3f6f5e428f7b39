"""What this process remembers of the game rows it wrote or read, for the next optimistic write
(:mod:`game.live.optimistic`): each game's row as last committed or read here, and the seat each
user plays.

Players do not change seats once a game has started, but a moderator may give a seat to someone
else (the admin), and another process may write the row meanwhile: so both are only guesses, which
the optimistic write's compare-and-swap checks against the database. Both memories are bounded
LRUs (:data:`REMEMBER_MAX`); :mod:`game.live.memory` forgets a game with its last socket.
"""

from __future__ import annotations

import threading
from typing import Any

from cachetools import LRUCache

from game.models import Game

REMEMBER_MAX = 4096  # entries of each; the least recently used go first (a locked act refills)
#: ``game id -> the fields of its row`` as this process last committed or read them
_LAST_ROW: LRUCache = LRUCache(maxsize=REMEMBER_MAX)
#: ``(game id, user id) -> seat``, learnt by a socket's admission or a locked act
_SEAT_OF: LRUCache = LRUCache(maxsize=REMEMBER_MAX)
#: both are written by writer threads and read on the event loop
_LOCK = threading.Lock()
ROW_FIELDS = (
    "id", "lobby_id", "ruleset", "players", "options", "seed", "version", "status", "awaited_since", "stand_ins", "decisions_since",
    "time_control", "clocks", "deadline", "table",
)


def remember(game: Game) -> None:
    """Keep the row of ``game`` (as committed by this process, or as read: :func:`learn`)."""
    fields = {f: getattr(game, f) for f in ROW_FIELDS}
    with _LOCK:
        _LAST_ROW[game.pk] = fields


def remember_seat(game_id: int, user_id: int, seat: str) -> None:
    with _LOCK:
        _SEAT_OF[(game_id, user_id)] = seat


def row(game_id: int) -> dict[str, Any] | None:
    """The fields of ``game_id``'s row as last remembered (:data:`ROW_FIELDS`), or None."""
    with _LOCK:
        return _LAST_ROW.get(game_id)


def seat(game_id: int, user_id: int | None) -> str | None:
    """The seat ``user_id`` was last seen to play in ``game_id``, or None."""
    with _LOCK:
        return _SEAT_OF.get((game_id, user_id))


def doubt(game_id: int, user_id: int | None) -> None:
    """Forget ``game_id``'s row and ``user_id``'s seat there: a compare-and-swap found one of
    them changed, so the next act reads both again under the lock."""
    with _LOCK:
        _LAST_ROW.pop(game_id, None)
        _SEAT_OF.pop((game_id, user_id), None)


def forget(game_id: int) -> None:
    """Drop the remembered row and seats of ``game_id`` (:mod:`game.live.memory`): its next act
    takes the locked path once."""
    with _LOCK:
        _LAST_ROW.pop(game_id, None)
        for key in [k for k in list(_SEAT_OF) if k[0] == game_id]:
            _SEAT_OF.pop(key, None)


def learn(game: Game, user_id: int | None, seat_id: str | None) -> None:
    """What a socket's admission read (``game``'s row in one query, the seat ``user_id`` plays
    there or None), kept for this process's first optimistic write: without it a player's first
    act here would take the locked path only to learn them. The row is kept unless this process
    remembers a newer one (an act committed here meanwhile); either guess is checked by the
    compare-and-swap, so a row or seat changed since costs one locked act."""
    known = row(game.pk)
    if known is None or known["version"] < game.version:
        remember(game)
    if seat_id is not None and user_id is not None:
        remember_seat(game.pk, user_id, seat_id)


def counts() -> dict[str, int]:
    """How many games each memory holds now (:func:`game.live.memory.held_games`)."""
    with _LOCK:
        return {"rows": len(_LAST_ROW), "seats": len({k[0] for k in _SEAT_OF})}
