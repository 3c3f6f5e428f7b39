"""When bots move in live games: after every commit of a game that has bots or stand-ins, a thread
of this process lets the awaited bot act after ``settings.GAME_BOT_DELAY`` seconds
(:func:`schedule_bots`, at most one waiting per game).

The scheduling hangs off the commit signal (:func:`on_game_committed`, a receiver of
:data:`game.live.signals.game_committed`, connected in ``game/apps.py``): a write never calls the
bots itself. A bot plays through :func:`game.live.apply.bot_act`, the same locked path as people;
what it plays is :mod:`game.live.bot_choice`.
"""

from __future__ import annotations

import logging
import threading
import time

from cachetools import TTLCache
from django.conf import settings
from django.db import connections

from game.models import Game

from .apply import bot_act
from .seats import bot_seats

log = logging.getLogger(__name__)

_scheduled: set[int] = set()
_threads: list[threading.Thread] = []
_sched_lock = threading.Lock()
#: ``(game id, seed) -> monotonic time`` when a game was found to have no bot seat; trusted for
#: :data:`BOTLESS_FOR` seconds (the 63-bit seed tells a game from an earlier one with the same id).
#: A game's bot seats are fixed when it starts; stand-ins (the other way a bot plays) are on the
#: game row, and an act of a game with stand-ins never trusts this cache. Every socket's connect
#: checks again, and a game this process forgets (:mod:`game.live.memory`) is forgotten here too.
#: (It was 10 s: at 150 games of people, a bot thread with its own new database connection every
#: 10 s per game took a fifth of the process's time; ``python -m tests.bench.capacity``.)
BOTLESS_FOR = 600.0
_botless: TTLCache = TTLCache(maxsize=10_000, ttl=BOTLESS_FOR, timer=time.monotonic)


def remember_botless(game_id: int, seed: int) -> None:
    """Note that game ``game_id`` (``seed``: its seed) has no bot seat and no stand-in now."""
    with _sched_lock:
        _botless[(game_id, seed)] = time.monotonic()


def forget_botless(game_id: int) -> None:
    with _sched_lock:
        for key in [k for k in _botless if k[0] == game_id]:
            del _botless[key]


def schedule_bots(game_id: int, seed: int | None = None) -> None:
    """Let an awaited bot act after ``settings.GAME_BOT_DELAY`` seconds, in a thread of this
    process (at most one waiting per game per process; ``None`` disables it). Idempotent and
    harmless when no bot is awaited: :func:`game.live.apply.bot_act` decides under the game's lock.
    With the game's ``seed``, a game this process found without bots in the last
    :data:`BOTLESS_FOR` seconds costs nothing (no thread and no query after every action of a
    game of people)."""
    delay = settings.GAME_BOT_DELAY
    if delay is None:
        return
    with _sched_lock:
        if seed is not None and (game_id, seed) in _botless:
            return
        if game_id in _scheduled:
            return
        _scheduled.add(game_id)

    def run() -> None:
        try:
            threading.Event().wait(delay)
            with _sched_lock:
                _scheduled.discard(game_id)
            play(game_id)
        except Exception:
            log.exception("bot move failed in game %s", game_id)
        finally:
            with _sched_lock:
                _scheduled.discard(game_id)
            connections.close_all()  # this thread ends: its connections too, even kept-alive ones

    t = threading.Thread(target=run, name=f"bot-{game_id}", daemon=True)
    with _sched_lock:
        _threads[:] = [x for x in _threads if x.is_alive()]
        _threads.append(t)
    t.start()


def play(game_id: int) -> int | None:
    """The awaited bot's move in ``game_id`` (:func:`game.live.apply.bot_act`), when the game has
    a bot seat or a stand-in; a game of people only is remembered as such (:func:`remember_botless`)
    and costs no lock. Returns the new version, or None."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    if not bot_seats(game):  # the common case of a game of people: no lock taken
        remember_botless(game.pk, game.seed)  # (no stand-in either: bot_seats counts them)
        return None
    return bot_act(game_id)


def on_game_committed(sender, game: Game, **kwargs) -> None:
    """A receiver of :data:`game.live.signals.game_committed`: a new game, or a move of one, is
    committed; its bots are scheduled (a game with stand-ins skips the "no bots" cache: it may
    predate the hand-over)."""
    schedule_bots(game.pk, None if game.stand_ins else game.seed)


def wait_for_bots(timeout: float = 10.0) -> None:
    """Join the bot threads of this process (tests)."""
    while True:
        with _sched_lock:
            alive = [t for t in _threads if t.is_alive()]
        if not alive:
            return
        for t in alive:
            t.join(timeout)
