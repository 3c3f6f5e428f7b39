"""The Duke's legal actions: every action the player to move may take now.

Rulebook (its Chinese forum translation, ``docs/duke.md``), 公爵战棋基础规则:
创建游戏 (set-up: the Duke on a middle home square, two Footmen beside it), 如何进行游戏 (playing:
move a tile, place a new tile, or use an enhanced ability; no passing), 使公爵陷入危机 (never
leave your Duke capturable), 放置新棋子 (placing a new tile beside the Duke); 扩展的游戏: 高阶能力
(enhanced abilities: 应诏 Summon, 预言 Divination), 地形棋子 (terrain: the Dragon's coming
in-between turn counts as a danger). Readings where the text is silent are in ``docs/duke.md``.
Actions are internal tuples (:func:`.actions.to_tuple`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from . import board as B
from .dragon import dragon_danger
from .position import (
    Position,
    Tile,
    duke_in_danger,
    duke_square,
    find_tile,
    frozen_squares,
    other,
    perform,
    placement_squares,
    potential_attackers,
    pseudo_actions,
)
from .state import State

__all__ = ["legal_actions"]

_BLOCKER = "mountain"  # an icon-less stand-in tile used to test a placement square


def _setup_actions(state: State) -> list[tuple]:
    seat = state.to_move
    out = []
    for d in B.HOME_MIDDLE[seat]:
        nb = sorted(s for s in B.orthogonal_neighbours(d) if state.pos.board[s] is None)
        for f1, f2 in combinations(nb, 2):
            out.append(("setup", d, f1, f2))
    return out


def _with_tile(pos: Position, sq: int, tile: Tile) -> Position:
    board = list(pos.board)
    board[sq] = tile
    return replace(pos, board=tuple(board))


def _safe(after: Position, seat: str, only: tuple[int, ...] | None = None, dragon_acts: bool = True) -> bool:
    """Is ``seat``'s Duke safe once an action produced ``after``?

    Safe means: the opponent cannot capture it with their next action (使公爵陷入危机), and the
    Dragon's coming in-between turn cannot take it whatever its random choices (our reading, see
    docs/duke.md: a player may not walk their Duke into the Dragon). ``dragon_acts`` is False after
    an action that pushed the Dragon (it skips that in-between turn).
    """
    if duke_in_danger(after, seat, only):
        return False
    if dragon_acts and after.dragon is not None:
        return duke_square(after, seat) not in dragon_danger(after)
    return True


def _safe_squares(pos: Position, seat: str, tile: Tile, squares: list[int]) -> list[int]:
    return [s for s in squares if _safe(_with_tile(pos, s, tile), seat)]


def _placement_options(pos: Position, seat: str, kind: str) -> list[int]:
    """Where a drawn tile may go: the squares beside the Duke that keep it safe; if there are
    none, every empty square beside the Duke (a drawn tile must be placed)."""
    squares = placement_squares(pos, seat)
    return _safe_squares(pos, seat, Tile(seat, kind), squares) or squares


def _turn_actions(state: State) -> list[tuple]:
    pos, seat = state.pos, state.to_move
    opp_duke = duke_square(pos, other(seat))
    my_duke = duke_square(pos, seat)
    out: list[tuple] = []
    frozen = frozen_squares(pos)
    # Only enemy tiles already aimed at the Duke's square can threaten it after an action that
    # does not move the Duke (an action never adds enemy tiles or turns them).
    aimed = potential_attackers(pos, other(seat), my_duke) if my_duke is not None else None
    for act, cap in pseudo_actions(pos, seat, frozen):
        if cap is not None and cap == opp_duke:
            out.append(act)  # capturing the Duke wins at once
            continue
        after = perform(pos, act).position
        duke_moves = (act[0] == "move" and act[1] == my_duke) or (act[0] == "command" and act[2] == my_duke)
        pushed = after.dragon != pos.dragon
        only = None if (duke_moves or pushed) else aimed
        if _safe(after, seat, only, dragon_acts=not pushed):
            out.append(act)
    squares = placement_squares(pos, seat)
    blocker = Tile(seat, _BLOCKER)
    safe_blocker = bool(_safe_squares(pos, seat, blocker, squares))
    if state.bags[seat] and squares and safe_blocker:
        out.append(("draw",))
    if state.options.get("duchess"):
        dsq = find_tile(pos, seat, "duchess")
        duke = duke_square(pos, seat)
        if dsq is not None and dsq not in frozen and duke is not None:
            for s in squares:
                board = list(pos.board)
                t = board[duke]
                board[duke] = t._replace(back=not t.back)
                board[s] = board[dsq]
                board[dsq] = None
                if _safe(replace(pos, board=tuple(board)), seat):
                    out.append(("summon", s))
    if state.options.get("oracle"):
        osq = find_tile(pos, seat, "oracle")
        if (
            osq is not None
            and pos.board[osq].back
            and osq not in frozen
            and state.bags[seat]
            and squares
            and safe_blocker
        ):
            out.append(("divine",))
    return out


def _divination_actions(state: State) -> list[tuple]:
    pos, seat = state.pos, state.to_move
    n = len(state.drawn)
    out = []
    for keep in range(n):
        rest = [i for i in range(n) if i != keep]
        subsets = [tuple(c) for r in range(len(rest) + 1) for c in combinations(rest, r)]
        for s in _placement_options(pos, seat, state.drawn[keep]):
            for d in subsets:
                out.append(("divine_choose", keep, s, d))
    return out


def legal_actions(state: State) -> list[tuple]:
    """Every legal internal action tuple for ``state.to_move`` now (empty when the game is over)."""
    cached = state.memo.get("legal")
    if cached is not None:
        return cached
    if state.phase == "setup":
        out = _setup_actions(state)
    elif state.phase == "play":
        out = _turn_actions(state)
    elif state.phase == "place":
        out = [("place", s) for s in _placement_options(state.pos, state.to_move, state.drawn[0])]
    elif state.phase == "divination":
        out = _divination_actions(state)
    else:
        out = []
    state.memo["legal"] = out
    return out
