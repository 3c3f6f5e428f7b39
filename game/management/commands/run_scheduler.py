"""``manage.py run_scheduler``: fire the games' deadlines in a process of its own.

For deployments that set ``GAME_SCHEDULER=off`` on their web processes; it may also run beside
them (each deadline fires once whichever process claims it, see :mod:`game.live.scheduler`).
``--once`` makes one pass and prints how many deadlines fired.
"""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from game.live import scheduler


class Command(BaseCommand):
    help = "Fire the games' deadlines (clocks run out, vacations ended, overdue bot moves)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, then exit")
        parser.add_argument("--interval", type=float, default=None, help="seconds between passes (GAME_SCHEDULER_INTERVAL)")

    def handle(self, *args, once: bool = False, interval: float | None = None, **options) -> None:
        if once:
            self.stdout.write(str(scheduler.run_once()))
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        scheduler.loop(stop, interval)
