"""AGoT engine benchmark: ``python -m tests.bench.engine [--games 20] [--basic-games 100]``.

Prints, for 6-player games played by random bots: the median milliseconds per complete game
(bots included), per applied action (``apply`` alone), and per replay of a finished game's log
(``apply`` over the log from ``new_game``); and the basic bot's win share against random bots in
3-player games (one basic bot, seat rotating). Each time is printed with its ratio to a baseline
measured in the same run: one ``copy.deepcopy`` of a late-game state (its fields but the event log) (so figures from a loaded
machine stay comparable). Targets: game < 250 ms median, replay < 50 ms, basic wins
>= 70 %. Not a test: no timed assertions anywhere.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time

from game.rules.agot import RULESET as R
from game.rules.agot.actions import parse_action
from game.rules.agot.selfplay import game_seed, play_game, play_games


def _ms(fn, repeat: int = 1) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) * 1000 / repeat


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="6-player random games to time")
    ap.add_argument("--basic-games", type=int, default=100, help="3-player games for the basic bot's win share")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)

    game_ms, action_ms, replay_ms, actions = [], [], [], []
    last_state = None
    for i in range(a.games):
        seed = game_seed(a.seed, i)
        g = play_game(6, seed, "random")
        game_ms.append(g["ms"])
        actions.append(g["actions"])
        log = [(e["actor"], parse_action(e["action"])) for e in g["log"]]

        def replay():
            s = R.new_game(6, seed, {})
            for actor, act in log:
                s = R.apply(s, actor, act)
            return s

        replay_ms.append(min(_ms(replay) for _ in range(2)))
        action_ms.append(replay_ms[-1] / max(1, len(log)))
        last_state = replay()

    # the state without its event chain (a deeply nested persistent list deepcopy cannot recurse into)
    plain = {k: v for k, v in last_state.snapshot().items() if k != "log"}
    base = min(_ms(lambda: copy.deepcopy(plain)) for _ in range(5))
    med = statistics.median
    print(f"baseline: deepcopy of a late-game state        {base:8.2f} ms")
    print(f"6-player random game (bots included), median   {med(game_ms):8.1f} ms  ({med(game_ms) / base:7.1f}x baseline)  target < 250 ms")
    print(f"  actions per game, median                     {med(actions):8.0f}")
    print(f"apply per action, median                       {med(action_ms):8.3f} ms  ({med(action_ms) / base:7.2f}x baseline)")
    print(f"replay of a finished game's log, median        {med(replay_ms):8.1f} ms  ({med(replay_ms) / base:7.1f}x baseline)  target < 50 ms")

    if a.basic_games:
        t = time.perf_counter()
        res = list(play_games(3, a.basic_games, a.seed, "mixed"))
        wins = sum(1 for g in res if g["winner_level"] == "basic")
        secs = time.perf_counter() - t
        print(f"basic vs 2 random, 3 players: basic wins {wins}/{len(res)} = {100 * wins / len(res):.0f} %  target >= 70 %  ({secs:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
