"""A version's pushes, in-process: ``python -m tests.bench.pushes [--games 4] [--first 40]
[--versions 150] [--repeat 3] [--before DIR]``.

For random 6-player AGoT games (the engine's self-play, seeds pinned), every version from act
``--first`` on is pushed as live play pushes it to one socket of each of its 7 viewers (6 houses
and the spectators), in English: the viewer's payload parts from this process's state cache and
the patch from the version before (:func:`game.live.patches.cached_patch_text`, which makes
:func:`game.live.payloads.cached_parts`). No socket, no database, no event loop: the CPU a
version's pushes cost daphne before its frames are written (docs/capacity.md). Prints the median
and p90 milliseconds per version, each with its ratio to a baseline measured in the same run (the
compact JSON text of the last version's shared view, ``jsontext.dumps``, 100 times), so figures
from hosts of different speeds compare. ``--before DIR``: the same, first on the code of another
checkout (this file run there), then on this one, in one run. Not a test: no timed assertions
anywhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
    import django

    django.setup()


def game_moves(seed: int, first: int, versions: int) -> tuple:
    """``(state, moves)``: a random 6-player game's state after act ``first`` and its next acts,
    at most ``versions - 1`` of them, as ``(actor, action)``."""
    from game.rules.agot import RULESET as R
    from game.rules.agot.actions import parse_action
    from game.rules.agot.selfplay import play_game

    played = [(e["actor"], parse_action(e["action"])) for e in play_game(6, seed, "random")["log"]]
    state = R.new_game(6, seed, {})
    for actor, action in played[:first]:
        state = R.apply(state, actor, action)
    return state, played[first:first + versions - 1]


def push_times(game_id: int, state, moves: list) -> list[float]:
    """Milliseconds per version made by ``moves`` from ``state``: each viewer's patch from the
    version before, as one socket of each viewer is pushed. As in live play, each version is made
    from the one before after that one's pushes (so it inherits what they kept on the state), and
    the first version's parts are made beforehand, as the push before would have."""
    from game.live import patches, payloads, snapshots
    from game.rules.agot import RULESET as R

    viewers = [*state.houses, None]
    snapshots.CACHE.put(game_id, state.version, state)
    for viewer in viewers:
        payloads.cached_parts(game_id, "agot2", viewer, "en", state.version)
    out = []
    for actor, action in moves:
        before, state = state, R.apply(state, actor, action)
        snapshots.CACHE.put(game_id, state.version, state)
        t = time.perf_counter()
        for viewer in viewers:
            patches.cached_patch_text(game_id, "agot2", viewer, "en", before.version, state.version)
        out.append((time.perf_counter() - t) * 1000)
    for module in (payloads, patches):
        module.forget(game_id)
    snapshots.CACHE.drop(game_id)
    return out


def baseline_ms(state) -> float:
    """The baseline: ``jsontext.dumps`` of ``state``'s shared view, 100 times (ms)."""
    from game.live import jsontext
    from game.rules.agot import RULESET as R

    shared = R.shared_view(state)
    t = time.perf_counter()
    for _ in range(100):
        jsontext.dumps(shared)
    return (time.perf_counter() - t) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--first", type=int, default=40, help="the first act pushed (40: as tests.bench.capacity --advance 40)")
    ap.add_argument("--versions", type=int, default=150, help="versions pushed per game")
    ap.add_argument("--repeat", type=int, default=3, help="times each game's versions are pushed (fresh caches each time)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", metavar="DIR", help="another checkout (the baseline code), measured first in the same run")
    a = ap.parse_args(argv)
    if a.before:
        import subprocess

        same = [f"--{k}={getattr(a, k)}" for k in ("games", "first", "versions", "repeat", "seed")]
        print("before:", flush=True)
        subprocess.run([sys.executable, os.path.abspath(__file__), *same], cwd=a.before,
                       env={**os.environ, "PYTHONPATH": os.path.abspath(a.before)}, check=True)
        print("after:", flush=True)
    _setup()
    from game.rules.agot.selfplay import game_seed

    games = [game_moves(game_seed(a.seed, i), a.first, a.versions) for i in range(a.games)]
    games = [g for g in games if g[1]]
    if not games:
        print("pushes: no game lasted past act", a.first)
        return 1
    times: list[float] = []
    for r in range(a.repeat):
        for i, (state, moves) in enumerate(games):
            times.extend(push_times(10_000_000 + 1000 * r + i, state, moves))
    base = min(baseline_ms(games[-1][0]) for _ in range(5))
    times.sort()
    med, p90 = statistics.median(times), times[int(0.9 * (len(times) - 1))]
    print(f"baseline: jsontext.dumps of a shared view x100   {base:8.3f} ms")
    print(f"a version's pushes, 7 viewers (from act {a.first}, {len(times)} versions): "
          f"median {med:.3f} ms ({med / base:.2f}x baseline), p90 {p90:.3f} ms ({p90 / base:.2f}x baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
