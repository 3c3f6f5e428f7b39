"""Victory: 游戏胜利 / Winning the game (2nd-edition rulebook).

* A house that controls its seventh area with a castle or stronghold wins at once.
* After round 10 the highest on the victory track wins; ties go, in the order the printed
  rulebook gives (it overrides the FAQ order in the reference, see game/data/agot2/README.md):
  more strongholds, then higher supply, then more available power, then better Iron Throne
  position.
"""

from __future__ import annotations

from functools import lru_cache

from .control import castle_count, stronghold_count
from .data import board
from .state import State


def ranking(state: State) -> list[str]:
    """Houses best first by the end-of-game order (castles, strongholds, supply, power, throne)."""
    throne = state.tracks["iron_throne"]
    return sorted(
        state.houses,
        key=lambda h: (
            -castle_count(state, h),
            -stronghold_count(state, h),
            -state.supply[h],
            -state.power[h],
            throne.index(h),
        ),
    )


@lru_cache(maxsize=1)
def _castles() -> tuple[tuple[str, str | None], ...]:
    b = board()
    return tuple((a, b.areas[a].home_of) for a in b.castle_areas)


def check_victory(state: State) -> None:
    """Set ``state.result`` if a house holds 7 castles/strongholds."""
    if state.result is not None:
        return
    need = board().setups["victory_points_to_win"]
    counts: dict[str, int] = {}
    units, tokens, garrisons, houses = state.units, state.power_tokens, state.garrisons, state.houses
    for a, home in _castles():
        u = units.get(a)
        if u:
            c = u[0][0]
        else:
            c = tokens.get(a)
            if c is None and home is not None and home in houses:  # as control.controller
                g = garrisons.get(a)
                c = home if g is None or g[0] == home else None
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    if max(counts.values(), default=0) < need:
        return
    for h in state.turn_order():
        if counts.get(h, 0) >= need:
            finish(state, h, "seven_castles")
            return


def finish(state: State, winner: str, reason: str) -> None:
    state.result = {
        "winner": winner,
        "reason": reason,
        "round": state.round,
        "ranking": ranking(state),
        "castles": {h: castle_count(state, h) for h in state.houses},
    }
    state.phase = "over"
    state.tasks = ()
    state.emit("game_over", winner=winner, reason=reason)


def end_after_last_round(state: State) -> None:
    """The end of round 10 (游戏胜利 / Winning the game, case 1)."""
    finish(state, ranking(state)[0], "round_limit")
