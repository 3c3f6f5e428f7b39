"""``python manage.py replay FILE [--check]``: rebuild a game from its export and print its result.

``FILE`` is a game's export (``/game/<id>/export.json``, format ``gotweb-game`` version 1 or 2;
``-`` reads standard input). The pure engine replays the log from ``(ruleset, players, options,
seed)``: each action through the rules, each note of the site (version 2: actor ``""``, a
time-out or a stand-in taking a seat) through :func:`game.rules.base.note`, which changes
nothing but the events. One JSON line is printed: ``{"game", "ruleset", "actions", "notes",
"version", "status": "finished" | "running", "result", "matches"}`` (``actions``: the rules'
actions, ``notes`` the site's, ``version`` both; ``matches``: the rebuilt result equals the
file's). Exit status 1 (CommandError) for an unreadable file, an unknown ruleset, an
action the rules refuse (its number and code are named), or, with ``--check``, a result that
differs from the file's.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from game.rules import REGISTRY, IllegalAction, get_ruleset
from game.rules.base import SITE, step


def rebuild(data: dict) -> tuple[object, object, int]:
    """``(rules, final state, entries folded)`` of an export; raises CommandError."""
    if not isinstance(data, dict) or data.get("format") != "gotweb-game" or data.get("format_version") not in (1, 2):
        raise CommandError("not a gotweb-game export (format version 1 or 2)")
    ruleset = data.get("ruleset")
    if ruleset not in REGISTRY:
        raise CommandError(f"unknown ruleset {ruleset!r}")
    rules = get_ruleset(ruleset)
    try:
        state = rules.new_game(int(data["players"]), int(data["seed"]), dict(data.get("options") or {}))
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        raise CommandError(f"cannot start the game: {exc}") from exc
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise CommandError("no action list")
    for i, item in enumerate(actions, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("actor"), str):
            raise CommandError(f"action {i}: not an {{actor, action}} object")
        try:
            state = step(rules, state, item["actor"], item.get("action"))
        except IllegalAction as exc:
            raise CommandError(f"action {i} refused: {exc.code}: {exc.message}") from exc
    return rules, state, len(actions)


class Command(BaseCommand):
    help = "Rebuild a game from its JSON export (the archive's download) and print its result."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export (JSON); - for standard input")
        parser.add_argument("--check", action="store_true", help="fail unless the result equals the file's")

    def handle(self, *args, **opts):
        try:
            if opts["file"] == "-":
                data = json.load(sys.stdin)
            else:
                with open(opts["file"], encoding="utf-8") as f:
                    data = json.load(f)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {opts['file']}: {exc}") from exc
        rules, state, n = rebuild(data)
        result = rules.result(state)
        notes = sum(1 for item in data["actions"] if item["actor"] == SITE)
        out = {
            "game": data.get("game"),
            "ruleset": data["ruleset"],
            "actions": n - notes,
            "notes": notes,
            "version": n,
            "status": "finished" if result is not None else "running",
            "result": result,
            "matches": result == data.get("result"),
        }
        self.stdout.write(json.dumps(out, ensure_ascii=False, sort_keys=True))
        if opts["check"] and not out["matches"]:
            raise CommandError("the rebuilt result differs from the file's")
