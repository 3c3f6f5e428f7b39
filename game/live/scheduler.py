"""The deadline scheduler: fires what is due on timed games with nobody connected.

A game's next deadline is stored on its row (``Game.deadline``, indexed; set by every change of its
clocks, see :mod:`game.live.clocks`). :func:`run_once` finds the running games whose deadline has
passed (one indexed query) and fires each one in a transaction of its own:

* the row is claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL (a row another
  process is firing, or on which an action is being applied, is skipped, and looked at again on
  the next pass); on SQLite the ``IMMEDIATE`` transaction gives one writer at a time;
* under the lock the deadline is checked again (another process may have fired it and moved it
  on: nothing fires twice), then :func:`game.live.votes.fire_due` does what of the table is
  due (a vote expires, the table's pause ends) and :func:`game.live.stand_ins.fire_due` what
  of the clocks is: a
  clock run out hands the seat to the stand-in bot, a vacation used up ends; each firing is a
  note in the game's log (an :class:`~game.models.Action` row of the site, unique per game and
  number, :mod:`game.live.notes`), written in the same transaction through the one apply path,
  so it is versioned and pushed like an action and counted from the log;
* a deadline with no clock due is an overdue bot or stand-in move (``GAME_BOT_RESCUE``): the bot
  moves through :func:`game.live.apply.bot_act`, the one apply path (the move is in the log;
  the rescue itself is no event of the game and leaves no note), at once: a strong bot's search
  of that move under way in this process is left to play it, else the basic bot answers.

Nothing is lost across restarts: the deadline is in the database, so a deadline that passed while
every server was down fires on the first pass after start; a process that stops mid-firing
rolls its transaction back and another one fires it.

Where it runs: :func:`start` runs :func:`run_once` every ``GAME_SCHEDULER_INTERVAL`` seconds in a
daemon thread, started by :meth:`game.apps.GameConfig.ready` in server processes
(``GAME_SCHEDULER``, see ``gotweb/settings.py``), or by ``manage.py run_scheduler``.
"""

from __future__ import annotations

import datetime
import logging
import os
import sys
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections, transaction

from game.models import Game

from . import clocks, table, votes
from .apply import bot_act
from .moves import as_datetime, rescue_after
from .stand_ins import fire_due

log = logging.getLogger(__name__)


def due_games(now: float, limit: int = 200) -> list[int]:
    """Ids of running games whose deadline is at or before ``now`` (unix seconds), earliest first."""
    when = datetime.datetime.fromtimestamp(now, tz=datetime.timezone.utc)
    qs = Game.objects.filter(status=Game.Status.RUNNING, deadline__lte=when).order_by("deadline")
    return list(qs.values_list("pk", flat=True)[:limit])


def fire_game(game_id: int, now: float | None = None) -> list[tuple[str, str]]:
    """Fire what is due on one game at ``now`` (default the current time): ``[(seat, kind)]``
    fired (``timeout``, ``vacation_over``, ``bot``), ``[]`` when the row is claimed by another
    process, or no longer due."""
    now = time.time() if now is None else now
    when = datetime.datetime.fromtimestamp(now, tz=datetime.timezone.utc)
    rescue = False
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .defer("snapshot")
            .filter(pk=game_id, status=Game.Status.RUNNING, deadline__lte=when)
            .first()
        )
        if game is None:
            return []
        fired = votes.fire_due(game, now)  # the table's first: a pause that ends restarts clocks
        if game.status == Game.Status.RUNNING:
            fired += fire_due(game, now)
        if not fired:
            # no clock due: an overdue bot or stand-in move (or a deadline from older arithmetic)
            awaited = (game.awaited_since or {}).keys()
            timed = clocks.timed(game.time_control)
            deadline = clocks.with_rescue(game.clocks or {}, game.stand_ins or {}, awaited, now, rescue_after()) if timed else None
            game.deadline = as_datetime(table.earliest(deadline, table.due_at(game.table)))
            game.save(update_fields=["deadline"])
            rescue = timed and any(s not in (game.clocks or {}) or s in (game.stand_ins or {}) for s in awaited)
            if rescue:
                fired = [("", "bot")]
    if rescue:
        bot_act(game_id, rescue=True)  # its own transaction and lock; a quick move, never a search
    return fired


def run_once(now: float | None = None, limit: int = 200) -> int:
    """One pass: fire every due game (at most ``limit``); returns how many deadlines fired. An
    error on one game is logged and the others go on."""
    now = time.time() if now is None else now
    count = 0
    for gid in due_games(now, limit):
        try:
            count += len(fire_game(gid, now))
        except Exception:
            log.exception("deadline of game %s failed", gid)
    return count


# --- the thread --------------------------------------------------------------------------------------
_thread: threading.Thread | None = None
_stop = threading.Event()
_lock = threading.Lock()


def interval() -> float:
    return float(settings.GAME_SCHEDULER_INTERVAL)


def loop(stop: threading.Event, period: float | None = None) -> None:
    """Run :func:`run_once` every ``period`` seconds until ``stop`` is set (first pass at once:
    what fell due while the site was down fires on start)."""
    period = interval() if period is None else period
    while not stop.is_set():
        try:
            close_old_connections()
            run_once()
        except Exception:  # the database away for a moment: try again next pass
            log.exception("scheduler pass failed")
        stop.wait(period)
    connections.close_all()


def start() -> bool:
    """Start the scheduler thread of this process (once); returns whether it was started now."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return False
        _stop.clear()
        _thread = threading.Thread(target=loop, args=(_stop,), name="gotweb-scheduler", daemon=True)
        _thread.start()
        return True


def stop(timeout: float = 10.0) -> None:
    """Stop the scheduler thread and wait for it (tests)."""
    global _thread
    _stop.set()
    t = _thread
    if t is not None:
        t.join(timeout)
    _thread = None


def wanted(argv: list[str] | None = None) -> bool:
    """Whether this process should run the scheduler thread (``settings.GAME_SCHEDULER``):
    ``on`` always, ``off`` never, ``auto`` when it serves the site (``python -m gotweb.server``,
    daphne, uvicorn, or the serving child of ``runserver``), not for migrations, tests and other
    commands."""
    mode = str(settings.GAME_SCHEDULER).lower()
    if mode in ("on", "1", "true", "yes"):
        return True
    if mode != "auto":
        return False
    argv = sys.argv if argv is None else argv
    if not argv:
        return False
    if any(name in argv[0] for name in ("daphne", "uvicorn")):  # the script, or -m's __main__.py
        return True
    if Path(argv[0]).parts[-2:] == ("gotweb", "server.py"):  # python -m gotweb.server
        return True
    if len(argv) > 1 and argv[1] == "runserver":
        return os.environ.get("RUN_MAIN") == "true" or "--noreload" in argv
    return False

