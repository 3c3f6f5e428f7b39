"""``python manage.py scenario FILE...``: run AGoT scenario files (docs/scenarios.md).

Prints one line per file (``PASS name`` or ``FAIL name: reasons``) and exits non-zero when any
file fails. The logic lives in :mod:`game.rules.agot.scenario`; this is a thin wrapper.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.rules.agot.scenario import run_scenario


def run_files(paths: list[str]) -> tuple[list[str], int]:
    """Run scenario files; return the printed lines and the number of failures."""
    lines, failed = [], 0
    for p in paths:
        path = Path(p)
        try:
            sc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            lines.append(f"FAIL {path}: cannot read ({exc})")
            failed += 1
            continue
        fails = run_scenario(sc)
        if fails:
            failed += 1
            lines.append(f"FAIL {path}: " + "; ".join(fails))
        else:
            lines.append(f"PASS {path}")
    return lines, failed


class Command(BaseCommand):
    help = "Run AGoT 2nd-edition scenario files and check their expectations."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="scenario JSON files")

    def handle(self, *args, **options):
        lines, failed = run_files(options["files"])
        for line in lines:
            self.stdout.write(line)
        if failed:
            raise CommandError(f"{failed} of {len(options['files'])} scenario file(s) failed")
