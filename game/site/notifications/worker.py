"""The mail worker: one daemon thread per process that sends what committed games owe
(:func:`game.site.notifications.due.check_game`), keeps timers for what they will owe, and sweeps
every game now and then for what a stopped process's timers held (:func:`sweep`).
"""

from __future__ import annotations

import heapq
import logging
import math
import queue
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connections

from game.models import Game, Lobby

from .due import check_game, due_later

log = logging.getLogger(__name__)


def sweep_ids() -> list[int]:
    """Ids of the games a sweep checks: every running game, the games that finished in the last
    day (their end mails), and the finished games whose rematch is open (its players away are
    told: :func:`.due.check_game`), however long ago they finished."""
    from datetime import timedelta

    from django.utils import timezone

    ids = list(Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", flat=True))
    finished = set(
        Game.objects.filter(status=Game.Status.FINISHED, updated_at__gte=timezone.now() - timedelta(days=1)).values_list("pk", flat=True)
    )
    finished.update(Lobby.objects.filter(status=Lobby.Status.OPEN, rematch_of__isnull=False).values_list("rematch_of_id", flat=True))
    return ids + sorted(finished)


def sweep(now: float | None = None) -> int:
    """:func:`check_game` for every game of :func:`sweep_ids`; returns the number of games checked."""
    ids = sweep_ids()
    for game_id in ids:
        check_game(game_id, now)
    return len(ids)


def sweep_every() -> float:
    """Seconds between the worker's own sweeps in a server process (``NOTIFY_SWEEP_EVERY``, 600;
    0: none): what a restarted process forgot (its timers of turn mails and deadline warnings)
    is found again, the first time at start."""
    return float(settings.NOTIFY_SWEEP_EVERY)


class Worker:
    """One daemon thread per process: takes committed games from a queue (a burst of commits of
    one game is checked once), sends their due mails (:func:`check_game`), and wakes again when
    a game's next turn mail falls due. A committed row that shows no mail can be due yet
    (:func:`due_later`) sets that timer without reading the database. Timers live in memory: a
    restarted process forgets them, so a server process also sweeps every game at start and every
    ``NOTIFY_SWEEP_EVERY`` seconds (:meth:`start_sweeps`; ``manage.py notify_sweep`` does the same
    by hand)."""

    def __init__(self) -> None:
        self.stopped = False
        self.sweeping = 0.0  # seconds between sweeps once start_sweeps() was called (0: none)
        self.next_sweep = 0.0
        self.queue: queue.Queue[int] = queue.Queue()
        self.timers: list[tuple[float, int]] = []
        self.scheduled: dict[int, float] = {}
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.busy = 0

    def _ensure_thread(self) -> None:
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="gotweb-notify", daemon=True)
            self.thread.start()

    def submit(self, game: Game) -> None:
        with self.lock:
            self.busy += 1
            self._ensure_thread()
        self.queue.put(game)

    def stop(self) -> None:
        """End the thread after what it is doing (tests)."""
        self.stopped = True
        self.queue.put(None)
        if self.thread is not None:
            self.thread.join(30)

    def start_sweeps(self, every: float) -> None:
        """Sweep every ``every`` seconds, the first time at once (a server process calls it on
        start, :meth:`game.apps.GameConfig.ready`): the timers a stopped process held are in no
        database, so what they would have sent is found by the sweep."""
        with self.lock:
            self.sweeping, self.next_sweep = max(5.0, every), time.time()
            self._ensure_thread()

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until every submitted game has been handled (tests); True when it was."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.busy == 0:
                return True
            time.sleep(0.02)
        return False

    def _run(self) -> None:
        while True:
            waits = [self.timers[0][0]] if self.timers else []
            if self.sweeping:
                waits.append(self.next_sweep)
            wait = max(0.0, min(waits) - time.time()) if waits else None
            try:
                items = [self.queue.get(timeout=wait)]
            except queue.Empty:
                items = []
            while True:  # a burst of commits: each game is checked once
                try:
                    items.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if self.stopped:
                connections.close_all()  # this thread's own connections
                return
            if items:
                latest = {}
                for item in items:
                    latest[item.pk] = item
                ids = []
                for game_id, item in latest.items():
                    due = due_later(item)
                    if due is None:
                        ids.append(game_id)
                    elif due != math.inf and not (game_id in self.scheduled and self.scheduled[game_id] <= due + 0.5):
                        self.scheduled[game_id] = due + 0.5
                        heapq.heappush(self.timers, (due + 0.5, game_id))
            elif self.sweeping and time.time() >= self.next_sweep:
                self.next_sweep = time.time() + self.sweeping
                try:
                    ids = sweep_ids()
                except Exception:  # the database away: the next sweep tries again
                    log.exception("notification sweep failed")
                    close_old_connections()
                    continue
            elif not self.timers:
                continue
            else:
                at, game_id = heapq.heappop(self.timers)
                if self.scheduled.get(game_id) != at:
                    continue  # superseded by an earlier timer of that game
                del self.scheduled[game_id]
                ids = [game_id]
            try:
                for game_id in ids:
                    due = check_game(game_id)
                    if due is not None and not (game_id in self.scheduled and self.scheduled[game_id] <= due + 0.5):
                        self.scheduled[game_id] = due + 0.5  # one timer per game, the earliest
                        heapq.heappush(self.timers, (due + 0.5, game_id))
            except Exception:
                log.exception("notification worker failed")
            finally:
                with self.lock:
                    self.busy -= len(items)
                close_old_connections()


WORKER = Worker()
