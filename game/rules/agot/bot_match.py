"""Match series for the AGoT bots: one bot level against others, fixed seeds, the first level's
house rotating over the seats; the result line carries a 95 % Wilson interval and the CPU seconds
per decision of the first level.

    python -m game.rules.agot.bot_match --players 3 --games 30 --budget 0.25
    python -m game.rules.agot.bot_match --players 6 --games 24 --iterations 20 --edition agot1

prints e.g. ``agot2 3p strong vs basic,basic: 21/30 = 70.0 % (95 % CI 52.1-83.3), 0.21 s/decision``.
A game's winner is the ruleset's ``result(state)["winner"]`` (a 1st edition shared win counts for
every house sharing it). No rule here: it only drives ``bot_action`` and ``apply``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from . import RULESETS
from .bots import bot_action
from .selfplay import game_seed

__all__ = ["main", "play_match", "series", "wilson"]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` (fractions) of ``wins`` successes in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def play_match(edition: str, players: int, seed: int, hero_seat: int, hero: str = "strong", others: str = "basic",
               budget: float | None = None, iterations: int | None = None) -> dict[str, Any]:
    """One game: the house in seat ``hero_seat`` plays level ``hero``, the others ``others``.
    Returns ``{"hero" house, "won" bool, "winner", "reason", "rounds", "decisions", "cpu"}``
    (``cpu``: the hero's CPU seconds over its ``decisions``)."""
    R = RULESETS[edition]
    seats = R.seats(players)
    me = seats[hero_seat % players]
    s = R.new_game(players, seed)
    n = decisions = 0
    cpu = 0.0
    while R.result(s) is None:
        d = R.pending(s)[0]
        level = hero if d.actor == me else others
        t = time.process_time()
        act = bot_action(R, s, d.actor, level, game_seed(seed, n), budget=budget, iterations=iterations)
        if d.actor == me:
            cpu += time.process_time() - t
            decisions += 1
        s = R.apply(s, d.actor, act)
        n += 1
    r = R.result(s)
    won = r.get("winner") == me or me in (r.get("winners") or ())
    return {"hero": me, "won": won, "winner": r.get("winner"), "reason": r["reason"], "rounds": s.round, "decisions": decisions, "cpu": cpu}


def series(edition: str, players: int, games: int, seed: int = 1, hero: str = "strong", others: str = "basic",
           budget: float | None = None, iterations: int | None = None, out: Any = None) -> dict[str, Any]:
    """``games`` games (game ``i``: seed ``game_seed(seed, i)``, the hero in seat ``i % players``);
    one progress line per game on ``out``. Returns ``{"wins", "games", "low", "high", "s_per_decision", "line"}``."""
    wins = decs = 0
    cpu = 0.0
    for i in range(games):
        g = play_match(edition, players, game_seed(seed, i), i, hero, others, budget, iterations)
        wins += g["won"]
        decs += g["decisions"]
        cpu += g["cpu"]
        if out is not None:
            print(f"  game {i + 1}: {g['hero']} {'won' if g['won'] else 'lost'} (winner {g['winner']}, {g['reason']}, round {g['rounds']}), "
                  f"{g['cpu'] / max(g['decisions'], 1):.2f} s/decision", file=out, flush=True)
    lo, hi = wilson(wins, games)
    spd = cpu / max(decs, 1)
    line = (f"{edition} {players}p {hero} vs {','.join([others] * (players - 1))}: {wins}/{games} = {100 * wins / max(games, 1):.1f} % "
            f"(95 % CI {100 * lo:.1f}-{100 * hi:.1f}), {spd:.2f} s/decision")
    return {"wins": wins, "games": games, "low": lo, "high": hi, "s_per_decision": spd, "line": line}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edition", default="agot2", choices=sorted(RULESETS))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hero", default="strong")
    ap.add_argument("--others", default="basic")
    ap.add_argument("--budget", type=float, default=None, help="CPU seconds per decision")
    ap.add_argument("--iterations", type=int, default=None, help="playouts per decision")
    a = ap.parse_args(argv)
    res = series(a.edition, a.players, a.games, a.seed, a.hero, a.others, a.budget, a.iterations, out=sys.stderr)
    print(res["line"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
