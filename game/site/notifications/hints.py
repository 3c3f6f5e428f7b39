"""The "My games" badge hints: after a committed change of a game, the players whose count of
awaiting games may have changed are told (:func:`game.live.notify.user_games_changed`), and their
lobby-list socket counts again.

A process remembers, for the games it saw commit, each lobby's people's seats (read once: seats
do not change once a game runs, save when a moderator hands one over) and the people each game
awaited at its last commit; at most :data:`REMEMBER` of each, the least recently used forgotten
first (a game forgotten is told as one first seen: every player).
"""

from __future__ import annotations

import asyncio
import logging
import threading

from cachetools import LRUCache, cached
from django.db import close_old_connections

from game.live import notify
from game.models import Game, Seat

log = logging.getLogger(__name__)
#: how many lobbies' seats, and how many games' awaited people, a process remembers
REMEMBER = 4096
#: ``lobby id -> {house: user id}`` of its people's seats
_SEATS: LRUCache = LRUCache(maxsize=REMEMBER)
#: ``game id -> {user id}``: the people it awaited at its last commit seen here
_LAST_AWAITED: LRUCache = LRUCache(maxsize=REMEMBER)
# committing threads, an event loop, the threads it reads seats in and the signals' senders all
# use both, and even a read of an LRU cache reorders it
_LOCK = threading.Lock()


def awaited_people(game: Game, seats: dict[str, int]) -> set[int]:
    """User ids of the people ``game`` awaits now: seats in ``awaited_since`` held by a person
    (``seats``: ``{house: user id}`` of people's seats) and not played by a stand-in bot."""
    if game.status != Game.Status.RUNNING:
        return set()
    stand_ins = game.stand_ins or {}
    return {seats[h] for h in (game.awaited_since or {}) if h in seats and h not in stand_ins}


def people_seats(lobby_id: int) -> dict[str, int]:
    """``{house: user id}`` of the people's seats of a lobby (bots left out)."""
    return dict(Seat.objects.filter(lobby_id=lobby_id, bot="").exclude(house="").values_list("house", "user_id"))


@cached(_SEATS, key=lambda lobby_id: lobby_id, lock=_LOCK)  # the query runs outside the lock
def _people_seats_cached(lobby_id: int) -> dict[str, int]:
    return people_seats(lobby_id)


def forget_seats(lobby_id: int) -> None:
    """Read the seats of lobby ``lobby_id`` again next time (a seat changed hands)."""
    with _LOCK:
        _SEATS.pop(lobby_id, None)


def forget_game(game_id: int) -> None:
    """Forget whom ``game_id`` awaited: its next commit here tells every player."""
    with _LOCK:
        _LAST_AWAITED.pop(game_id, None)


def forget() -> None:
    """Drop this process's memory of seats and awaited players (tests, whose databases reuse ids)."""
    with _LOCK:
        _SEATS.clear()
        _LAST_AWAITED.clear()


def tell_players(game: Game) -> None:
    """Badge hints after a committed change of ``game``: each person whose set of awaiting games
    changed (they became awaited, or stopped being), every player when the game ends or this
    process has not seen the game before, is told (:func:`game.live.notify.user_games_changed`).
    Runs in the committing thread: a cache look-up and a set difference (the seats are read once
    per game and process), so its hints go out with the game's own (held, then published). On an
    event loop (an act written there, :mod:`game.live.loopwrite`) seats not yet read are read in
    a worker thread, and the hints are then published from the loop (a hint may come a moment
    after the game's own push)."""
    with _LOCK:
        fresh = game.lobby_id not in _SEATS  # first seen, or its seats changed hands: tell everyone
    loop = notify.running_loop() if fresh else None
    if loop is not None:
        read = loop.run_in_executor(None, _people_seats_in_thread, game.lobby_id)
        read.add_done_callback(lambda done: _tell_when_read(game, done))
        return
    _tell(game, _people_seats_cached(game.lobby_id), fresh)


def _tell(game: Game, seats: dict[str, int], fresh: bool) -> None:
    awaited = awaited_people(game, seats)
    with _LOCK:
        before = _LAST_AWAITED.get(game.pk)
        _LAST_AWAITED[game.pk] = awaited
    if fresh or before is None or game.status != Game.Status.RUNNING:
        changed = set(seats.values()) | (before or set())
    else:
        changed = before ^ awaited
    if changed:
        notify.user_games_changed(sorted(changed))


def _people_seats_in_thread(lobby_id: int) -> dict[str, int]:
    try:
        return _people_seats_cached(lobby_id)
    finally:
        close_old_connections()


def _tell_when_read(game: Game, read: asyncio.Future) -> None:
    """On the event loop, once a worker thread read the seats for :func:`tell_players`."""
    if read.cancelled():  # the loop is closing
        return
    try:
        _tell(game, read.result(), True)
    except Exception:
        log.exception("badge hints failed for game %s", game.pk)
