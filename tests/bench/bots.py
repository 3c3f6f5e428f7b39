"""Bot match series: ``python -m tests.bench.bots [--games N] [--budget S] [--seed K] [--match ...]``.

Plays fixed-seed series of whole games through the ruleset contract only (``rules.new_game``,
``pending``, ``bot_action``, ``apply``, ``result``; any registered ruleset, found by its id in
:data:`game.rules.REGISTRY`), one bot of the level under test against others, and prints one
line per match-up::

    <game> <players>p <bot> vs <others>: <wins>/<games> = <pct> % (95 % CI lo-hi)  <s> s/decision ...

The seat of the bot under test turns with the game number (game ``i`` puts it on seat
``i % players``), so no seat's advantage counts for it. A game is won by the seat its result
names (``result["winner"]``, or each of ``result["winners"]``, the 1st edition's shared win); a
draw, or a game cut at ``--max-actions``, is no win. The interval
is Wilson's score interval. The seconds per decision are CPU seconds (``time.process_time``) of
the levels' ``bot_action`` calls, the level under test first. A match-up whose ruleset does not
have a level (:func:`game.rules.base.bot_levels`) is skipped with a printed line.

Defaults: the match-ups of docs/bots.md (``agot2 3p strong vs basic,basic``, ``agot2 6p strong vs
5 basic``, ``duke 2p strong vs basic``), ``--games 40``, ``--budget 0.5`` seconds a decision,
``--seed 1``. ``--options mountain,dragon`` sets those options where a game has them.
``--match duke:2:strong:basic`` (repeatable) picks others: ``game:players:level:
others``, others one level for every other seat or a comma-separated list. Not a test: nothing is
asserted; with the budget the same seeds may give other games (a search cut by time).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.rules import REGISTRY, get_ruleset  # noqa: E402  (after the path is set)
from game.rules.base import bot_levels  # noqa: E402

DEFAULT_MATCHES = ("agot2:3:strong:basic", "agot2:6:strong:basic", "duke:2:strong:basic")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a proportion (``wins`` of ``n``), as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_match(text: str) -> tuple[str, int, str, list[str]]:
    """``"game:players:level:others"`` -> ``(game, players, level, [other seats' levels])``."""
    game, players, level, others = text.split(":")
    n = int(players)
    rest = others.split(",")
    if len(rest) == 1:
        rest = rest * (n - 1)
    if len(rest) != n - 1:
        raise ValueError(f"{text}: {n - 1} other levels needed")
    return game, n, level, rest


def play(rules, players: int, levels: dict[str, str], seed: int, budget: float | None, max_actions: int, spent: dict, options=None) -> list[str]:
    """One game; returns the winning seats (none: a draw or cut). ``spent[level]`` gathers
    ``[CPU seconds, decisions]``."""
    state = rules.new_game(players, seed, {**rules.default_options, **(options or {})})
    rnd = random.Random(seed)
    for _ in range(max_actions):
        if rules.result(state) is not None:
            break
        decisions = rules.pending(state)
        if not decisions:
            break
        actor = decisions[0].actor
        level = levels[actor]
        t = time.process_time()
        action = rules.bot_action(state, actor, level, rnd.getrandbits(62), budget)
        cost = spent.setdefault(level, [0.0, 0])
        cost[0] += time.process_time() - t
        cost[1] += 1
        state = rules.apply(state, actor, action)
    result = rules.result(state) or {}
    return list(result.get("winners") or [w for w in [result.get("winner")] if w])


def series(
    game: str, players: int, level: str, others: list[str], games: int, seed: int, budget: float | None, max_actions: int, options=None
) -> str:
    """The line of one match-up (see the module); ``options`` (names set to true) apply to the
    rulesets that have them."""
    label = f"{game.removesuffix('2') if game == 'agot2' else game} {players}p {level} vs {_others(others)}"
    if game not in REGISTRY:
        return f"{label}: skipped, no ruleset {game!r}"
    rules = get_ruleset(game)
    options = {k: True for k in options or () if k in rules.default_options}
    if options:
        label += f" ({', '.join(options)})"
    have = bot_levels(rules)
    missing = sorted({x for x in [level, *others] if x not in have})
    if missing:
        return f"{label}: skipped, {game} has no {' or '.join(missing)} bot (levels: {', '.join(have)})"
    wins = 0
    spent: dict = {}
    started = time.monotonic()
    for i in range(games):
        seats = rules.seats(players, rules.default_options)
        mine = seats[i % players]
        levels = dict(zip([s for s in seats if s != mine], others))
        levels[mine] = level
        if mine in play(rules, players, levels, seed * 1_000_003 + i, budget, max_actions, spent, options):
            wins += 1
    lo, hi = wilson(wins, games)
    cost = "  ".join(f"{lv} {spent[lv][0] / max(1, spent[lv][1]):.3f} s/decision" for lv in dict.fromkeys([level, *others]) if lv in spent)
    return (
        f"{label}: {wins}/{games} = {100 * wins / games:.0f} % (95 % CI {100 * lo:.0f}-{100 * hi:.0f})"
        f"  {cost}  (parity {100 / players:.0f} %, {time.monotonic() - started:.0f} s)"
    )


def _others(others: list[str]) -> str:
    if len(set(others)) == 1 and len(others) > 2:
        return f"{len(others)} {others[0]}"
    return ",".join(others)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per match-up (default 40)")
    ap.add_argument("--budget", type=float, default=0.5, help="CPU seconds per decision of a strong bot (default 0.5)")
    ap.add_argument("--seed", type=int, default=1, help="the series' seed (default 1)")
    ap.add_argument("--max-actions", type=int, default=20_000, help="cut a game after this many actions (default 20000)")
    ap.add_argument("--options", default="", help="comma-separated options set to true where a game has them (e.g. mountain,dragon)")
    ap.add_argument("--match", action="append", help="game:players:level:others (repeatable; default the three of the docs)")
    args = ap.parse_args(argv)
    for text in args.match or DEFAULT_MATCHES:
        game, players, level, others = parse_match(text)
        opts = [x for x in args.options.split(",") if x]
        print(series(game, players, level, others, args.games, args.seed, args.budget, args.max_actions, opts), flush=True)


if __name__ == "__main__":
    main()
