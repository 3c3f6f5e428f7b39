"""``python manage.py selfplay --game agot|duke --players N --games G --seed S [--bots random|basic|mixed]``.

Bots play complete games and one JSON line per game is printed: ``seed``, ``players``,
``winner``, ``winner_level`` (the winner's bot), ``reason``, ``rounds`` (AGoT; ``turns`` for The
Duke), ``actions``, ``ms``; then a summary line ``{"summary": ...}`` with the games, finished
games, wins per bot level and the median milliseconds per game. ``mixed`` seats one ``basic``
bot (its seat rotating game by game) among ``random`` ones. Invariants are checked after every
action unless ``--no-check``. The exit status is 0 only if every game ended (AGoT: with a
winner) and no invariant broke. The logic lives in ``game.rules.agot.selfplay`` and
``game.rules.duke.selfplay``; this is a thin wrapper.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from typing import Any, Iterator

from django.core.management.base import BaseCommand, CommandError


def agot_games(players: int, games: int, seed: int, bots: str, check: bool) -> Iterator[dict[str, Any]]:
    from game.rules.agot.selfplay import InvariantBroken, play_games

    gen = play_games(players, games, seed, bots, check=check)
    while True:
        try:
            g = next(gen)
        except StopIteration:
            return
        except InvariantBroken as exc:  # a broken rule stops the series: report it as a game
            yield {"seed": None, "players": players, "winner": None, "reason": "invariant_broken", "error": str(exc)}
            return
        g = dict(g)
        g.pop("log", None)
        g.pop("options", None)
        yield g


def duke_games(games: int, seed: int, bots: str) -> Iterator[dict[str, Any]]:
    import time

    from game.rules.duke.selfplay import game_seed, play_game

    for i in range(games):
        if bots == "mixed":
            levels = ("basic", "random") if i % 2 == 0 else ("random", "basic")
        else:
            levels = (bots, bots)
        t0 = time.perf_counter()
        g = play_game(game_seed(seed, i), levels)
        ms = (time.perf_counter() - t0) * 1000
        seats = {"light": levels[0], "dark": levels[1]}
        yield {
            "seed": g["seed"],
            "players": 2,
            "bots": seats,
            "winner": g["winner"],
            "winner_level": seats.get(g["winner"]) if g["winner"] else None,
            "reason": g["reason"],
            "turns": g["turns"],
            "actions": len(g["actions"]),
            "ms": round(ms, 1),
        }


class Command(BaseCommand):
    help = "Bots play complete games; one JSON line per game and a summary line."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=["agot", "duke"], default="agot")
        parser.add_argument("--players", type=int, default=None, help="AGoT: 3-6 (default 3); The Duke: 2")
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", choices=["random", "basic", "mixed"], default="random")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks after every action")

    def handle(self, *args, **opts):
        game, n, seed, bots = opts["game"], opts["games"], opts["seed"], opts["bots"]
        if game == "agot":
            players = opts["players"] or 3
            if not 3 <= players <= 6:
                raise CommandError("AGoT is for 3 to 6 players")
            results = agot_games(players, n, seed, bots, not opts["no_check"])
        else:
            players = opts["players"] or 2
            if players != 2:
                raise CommandError("The Duke is for 2 players")
            results = duke_games(n, seed, bots)
        wins: Counter = Counter()
        ms, done, played, broken = [], 0, 0, 0
        for g in results:
            played += 1
            self.stdout.write(json.dumps(g, sort_keys=True))
            if g["reason"] == "invariant_broken":
                broken += 1
                continue
            ended = g["reason"] != "unfinished" and (g["winner"] is not None or game == "duke")
            done += ended
            wins[g.get("winner_level") or "none"] += 1
            ms.append(g["ms"])
        summary = {
            "summary": True,
            "game": game,
            "players": players,
            "bots": bots,
            "games": n,
            "finished": done,
            "invariant_errors": broken,
            "wins_by_level": dict(sorted(wins.items())),
            "median_ms": round(statistics.median(ms), 1) if ms else None,
        }
        self.stdout.write(json.dumps(summary, sort_keys=True))
        if broken or done != n:
            raise CommandError(f"{n - done} of {n} game(s) did not end properly" + (" (an invariant broke)" if broken else ""))
