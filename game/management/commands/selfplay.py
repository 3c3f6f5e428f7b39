"""``python manage.py selfplay --game agot|agot1|duke --players N --games G --seed S [--bots random|basic|mixed]``.

``--game agot`` (or ``agot2``) plays the 2nd edition, ``--game agot1`` the 1st edition (3-5
players, no Tides of Battle; the same engine, :mod:`game.rules.agot.edition`).

Bots play complete games and one JSON line per game is printed: ``seed``, ``players``,
``winner``, ``winner_level`` (the winner's bot), ``reason``, ``rounds`` (AGoT; ``turns`` for The
Duke), ``actions``, ``ms``; then a summary line ``{"summary": ...}`` with the games, finished
games, wins per bot level and the median milliseconds per game. ``mixed`` seats one ``basic``
bot (its seat rotating game by game) among ``random`` ones. Invariants are checked after every
action unless ``--no-check``. The exit status is 0 only if every game ended (AGoT: with a
winner) and no invariant broke. The logic lives in ``game.rules.agot.selfplay`` and
``game.rules.duke.selfplay``; this is a thin wrapper.

The sweep (docs/capacity.md, "The self-play sweep"): ``--players 3-6`` (a range: game ``i`` has ``3 + i % 4`` players),
``--bots random,basic`` (game ``i`` cycles through the list after each round of player counts),
``--tides both`` (then off/on after each round of player counts and bots; or ``on``/``off``),
``--check`` (the invariant checker after every action: the default), ``--quiet`` (only the
failed games and the summary line), ``--first I`` (start the series at game ``I``: a long series
split in parts plays the same games), ``--max-seconds T`` (start no new game after T seconds of
wall time; the summary's ``games`` is the number played, ``requested`` the number asked). A crash (any exception) or a broken invariant is reported as a game line with
``reason`` ``"crash"``/``"invariant_broken"``, the error and the game's seed, players, bots and
options (enough to replay it), and the series goes on. The summary line gives ``games``,
``actions``, ``crashes``, ``invariant_errors``, ``wall_s`` and ``games_per_s_per_core`` (one
process: the games per second of wall time).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from typing import Any, Iterator

from django.core.management.base import BaseCommand, CommandError


def agot_games(players: str | int, games: int, seed: int, bots: str, check: bool, tides: str = "off", first: int = 0,
               ruleset: str = "agot2") -> Iterator[dict[str, Any]]:
    """Game lines for a series of ``ruleset`` (see the module docstring); never raises for a game's failure."""
    import traceback

    from game.rules.agot.selfplay import InvariantBroken, game_seed, play_game

    counts = player_range(players)
    levels = [b for b in str(bots).split(",") if b]
    tides_modes = {"off": [False], "on": [True], "both": [False, True]}[tides]
    for i in range(first, first + games):
        n = counts[i % len(counts)]
        level = levels[(i // len(counts)) % len(levels)]
        tide = tides_modes[(i // (len(counts) * len(levels))) % len(tides_modes)]
        gseed = game_seed(seed, 10_000 + i)
        options = {"tides_of_battle": True} if tide else {}
        try:
            g = play_game(n, gseed, level, options, check=check, index=i, ruleset=ruleset)
        except InvariantBroken as exc:
            yield {"seed": gseed, "players": n, "bots": level, "options": options, "index": i, "winner": None,
                   "reason": "invariant_broken", "error": str(exc), "actions": 0}
            continue
        except Exception as exc:  # a crash is a bug of the engine or a bot: report it, go on
            yield {"seed": gseed, "players": n, "bots": level, "options": options, "index": i, "winner": None, "reason": "crash",
                   "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6)[-1500:], "actions": 0}
            continue
        g = dict(g)
        g.pop("log", None)
        if g.get("options"):
            g["options"] = dict(g["options"])
        else:
            g.pop("options", None)
        yield g


def player_range(players: str | int | None) -> list[int]:
    """``3`` -> [3]; ``"3-6"`` -> [3, 4, 5, 6]."""
    text = str(players or 3)
    if "-" in text:
        lo, hi = text.split("-", 1)
        return list(range(int(lo), int(hi) + 1))
    return [int(text)]


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
        parser.add_argument("--game", choices=["agot", "agot2", "agot1", "duke"], default="agot",
                            help="agot (or agot2): the 2nd edition; agot1: the 1st edition; duke: The Duke")
        parser.add_argument("--players", default=None, help="AGoT: 3..6 (agot1: 3..5) or a range such as 3-6 (default 3); The Duke: 2")
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="random", help="random, basic, mixed, or a list cycled game by game (random,basic)")
        parser.add_argument("--tides", choices=["off", "on", "both"], default="off", help="AGoT: the Tides of Battle option")
        parser.add_argument("--check", action="store_true", help="run the invariant checker after every action (the default)")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks after every action")
        parser.add_argument("--quiet", action="store_true", help="print only the failed games and the summary line")
        parser.add_argument("--first", type=int, default=0,
                            help="AGoT: index of the first game of the series (a long series can be split or resumed)")
        parser.add_argument("--max-seconds", type=float, default=None,
                            help="stop starting new games after this many seconds of wall time (the summary says how many were played)")

    def handle(self, *args, **opts):
        import time

        game, n, seed, bots = opts["game"], opts["games"], opts["seed"], opts["bots"]
        quiet = opts.get("quiet", False)
        tides = opts.get("tides") or "off"
        levels = [b for b in str(bots).split(",") if b]
        allowed = ("random", "basic", "mixed")
        if not levels or any(b not in allowed for b in levels):
            raise CommandError(f"--bots: one of {allowed} or a comma-separated list of them")
        t0 = time.perf_counter()
        if game in ("agot", "agot2", "agot1"):
            ruleset = "agot1" if game == "agot1" else "agot2"
            top = 5 if ruleset == "agot1" else 6
            try:
                counts = player_range(opts["players"])
            except ValueError:
                raise CommandError("--players: a number or a range such as 3-6")
            if not counts or not all(3 <= p <= top for p in counts):
                raise CommandError(f"AGoT ({ruleset}) is for 3 to {top} players")
            if ruleset == "agot1" and tides != "off":
                raise CommandError("The 1st edition has no Tides of Battle")
            players: Any = counts[0] if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
            results = agot_games(opts["players"] or 3, n, seed, bots, not opts["no_check"], tides, opts.get("first") or 0, ruleset)
        else:
            players = int(opts["players"] or 2)
            if players != 2:
                raise CommandError("The Duke is for 2 players")
            if len(levels) != 1:
                raise CommandError("The Duke takes one --bots level")
            results = duke_games(n, seed, bots)
        wins: Counter = Counter()
        ms, done, played, broken, crashed, actions = [], 0, 0, 0, 0, 0
        budget = opts.get("max_seconds")
        stopped = False
        for g in results:
            played += 1
            failed = g["reason"] in ("invariant_broken", "crash")
            if not quiet or failed:
                self.stdout.write(json.dumps(g, sort_keys=True))
            if g["reason"] == "invariant_broken":
                broken += 1
                continue
            if g["reason"] == "crash":
                crashed += 1
                continue
            actions += g["actions"]
            ended = g["reason"] != "unfinished" and (g["winner"] is not None or bool(g.get("winners")) or game == "duke")
            done += ended
            wins[g.get("winner_level") or "none"] += 1
            ms.append(g["ms"])
            if budget is not None and time.perf_counter() - t0 > budget and played < n:
                stopped = True
                break
        wall = time.perf_counter() - t0
        summary = {
            "summary": True,
            "game": game,
            "players": players,
            "bots": bots,
            "tides": tides,
            "checked": not opts["no_check"],
            "games": played,
            "requested": n,
            "stopped_by_time": stopped,
            "finished": done,
            "actions": actions,
            "crashes": crashed,
            "invariant_errors": broken,
            "wins_by_level": dict(sorted(wins.items())),
            "median_ms": round(statistics.median(ms), 1) if ms else None,
            "wall_s": round(wall, 1),
            "processes": 1,
            "games_per_s_per_core": round(played / wall, 2) if wall > 0 else None,
        }
        self.stdout.write(json.dumps(summary, sort_keys=True))
        if broken or crashed or done != played:
            raise CommandError(
                f"{played - done} of {played} game(s) did not end properly"
                + (f" ({broken} broken invariant(s))" if broken else "")
                + (f" ({crashed} crash(es))" if crashed else "")
            )
