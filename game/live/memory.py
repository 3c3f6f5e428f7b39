"""What one process keeps of a game in memory, and letting go of it.

A game costs a server process memory only while sockets of that process watch it: its latest
states (:data:`game.live.snapshots.CACHE`), the payloads made from them
(:mod:`game.live.payloads`), the row and seats its optimistic write remembers
(:mod:`game.live.rows`) and what the site's followers keep (:data:`game.live.signals.game_forgotten`).
Each game socket holds its game from its connect (:func:`hold`) until it ends (:func:`let_go`);
when the last one of this process lets go, all of it is forgotten at once, and a socket that
comes back later reads the state again from the snapshot and the log. A game that no socket of a
process watches (a bot's move, an HTTP replay) leaves only bounded, short-lived cache entries
there: its states go after two minutes unused.
"""

from __future__ import annotations

import logging

from game.models import Game

from . import bots, patches, payloads, rows, signals, snapshots

log = logging.getLogger(__name__)


def hold(game_id: int) -> None:
    """A socket of this process watches ``game_id`` from now on: its states stay in memory."""
    snapshots.CACHE.hold(game_id)


def let_go(game_id: int) -> None:
    """A socket of ``game_id`` ended; the last one's end forgets the game in this process."""
    if snapshots.CACHE.let_go(game_id):
        forget(game_id)


def forget(game_id: int) -> None:
    """Drop everything this process keeps of ``game_id`` (never raises)."""
    snapshots.CACHE.drop(game_id)
    payloads.forget(game_id)
    patches.forget(game_id)
    rows.forget(game_id)
    bots.forget_botless(game_id)
    try:
        signals.game_forgotten.send(sender=Game, game_id=game_id)
    except Exception:
        log.exception("game_forgotten receiver failed for game %s", game_id)


def held_games() -> dict[str, int]:
    """How many games each of this process's memories of games holds now (diagnostics, the
    capacity benchmark and tests): states, payloads, their parts, shared views, patches, rows,
    seats."""

    def games(keys) -> int:
        return len({k[0] if isinstance(k, tuple) else k for k in list(keys)})

    return {
        "states": len(snapshots.CACHE.games()),
        "payloads": games(payloads.PAYLOADS.items),
        "parts": games(payloads.LATEST),
        "shared_views": games(payloads._COMMON),
        "patches": games([*patches._PATCHES, *patches._LATEST, *patches._SHARED_OPS]),
        **rows.counts(),
    }
