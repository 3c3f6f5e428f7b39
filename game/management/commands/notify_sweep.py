"""``python manage.py notify_sweep [--every SECONDS]``: send the turn and end-of-game mails that
are due (:func:`game.site.notifications.worker.sweep`).

Each server process sends its games' mails itself after every commit and keeps a timer for the
ones due later; a process that stops loses its timers. Run this once after a restart, or from
cron / a scheduler (``--every 60`` loops). Mails already sent are never sent again.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from game.site.notifications import worker


class Command(BaseCommand):
    help = "Send the turn and end-of-game mails that are due."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=0, help="loop, checking every SECONDS (default: once)")

    def handle(self, *args, every: float = 0, **opts):
        while True:
            self.stdout.write(f"checked {worker.sweep()} games")
            if every <= 0:
                return
            time.sleep(max(5.0, every))
