"""The Dragon's in-between turn (巨龙棋子 / the Dragon terrain tile).

After every player turn the neutral Dragon takes an in-between turn (中间回合), except right after
a player pushed it (enraging it "consumes the Dragon's next in-between turn"). Readings chosen where
the rules text is silent are in ``docs/duke.md`` ("The Dragon").

* **Calm** (start side): if one of its Move icons reaches a troop tile (Move rules: straight path
  empty, never onto the Mountain), it moves there and captures it (a random one if several), then
  takes a random new facing, left or right along the board. Otherwise it stays where it is.
* **Enraged** (back side): it Strikes up to two troop tiles (chosen at random if more). If it
  captured nothing, it moves to a random one of its Move squares (it may enter the Mountain;
  a tile there is captured) and turns to face the way it moved, then Strikes again if it captured
  nothing. As soon as it captures, it calms down (flips to the start side, random facing left or
  right) and captures nothing more this in-between turn.

The Dragon captures either player's tiles, frozen tiles excepted (Dread). Strikes obey the Mountain
line rule and Defense. Tiles it captures are not captured "by the opponent"; a Duke it captures
loses its owner the game (see ``docs/duke.md``).
"""

from __future__ import annotations

from dataclasses import replace

from . import board as B
from . import rng as R
from .position import Dragon, Position, _abs_paths, _defense_allows, frozen_squares
from .tiles import compile_icons

__all__ = ["dragon_turn", "calm_targets", "strike_targets"]

_SIDEWAYS = ("e", "w")


def _icons(d: Dragon):
    return compile_icons("dragon", d.enraged, d.facing)


def calm_targets(pos: Position) -> list[int]:
    """Squares holding a troop tile that the calm Dragon's Move icons reach now."""
    d = pos.dragon
    if d is None or d.enraged:
        return []
    frozen = frozen_squares(pos)
    x, y = B.xy(d.square)
    out = []
    for ic in _icons(d):
        if ic.kind != "move":
            continue
        to = B.at(x + ic.ax, y + ic.ay)
        if to is None or to == pos.mountain or pos.board[to] is None or to in frozen:
            continue
        ok = [p for p in _abs_paths(d.square, ic.ax, ic.ay) if not any(pos.blocked(s) for s in p)]
        if ok and _defense_allows(pos, d.square, to, ok) and to not in out:
            out.append(to)
    return out


def strike_targets(pos: Position, d: Dragon | None = None) -> list[int]:
    """Squares holding a troop tile that the enraged Dragon's Strike icons hit now."""
    d = d or pos.dragon
    if d is None or not d.enraged:
        return []
    frozen = frozen_squares(pos)
    x, y = B.xy(d.square)
    out = []
    for ic in _icons(d):
        if ic.kind != "strike":
            continue
        to = B.at(x + ic.ax, y + ic.ay)
        if to is None or pos.board[to] is None or to in frozen:
            continue
        if pos.mountain is not None and pos.mountain != d.square:
            mx, my = B.xy(pos.mountain)
            if B.strike_line_crosses(ic.ax, ic.ay, mx - x, my - y):
                continue
        if _defense_allows(pos, d.square, to, _abs_paths(d.square, ic.ax, ic.ay)) and to not in out:
            out.append(to)
    return out


def _calm(pos: Position, square: int, rng: int) -> tuple[Position, int]:
    rng, k = R.randbelow(rng, 2)
    return replace(pos, dragon=Dragon(square, _SIDEWAYS[k], False)), rng


def _strike(pos: Position, rng: int, captured: list, targets: list[int]) -> tuple[Position, int]:
    if len(targets) > 2:
        rng, picked = R.shuffle(rng, targets)
        targets = sorted(picked[:2])
    board = list(pos.board)
    for t in targets:
        captured.append((t, board[t]))
        board[t] = None
    pos = replace(pos, board=tuple(board))
    return _calm(pos, pos.dragon.square, rng)


def dragon_turn(pos: Position, rng: int) -> tuple[Position, int, list, list[dict]]:
    """The Dragon's in-between turn: ``(position, rng, captured [(square, Tile)], events)``."""
    d = pos.dragon
    captured: list = []
    events: list[dict] = []
    if d is None:
        return pos, rng, captured, events
    if not d.enraged:
        targets = calm_targets(pos)
        if not targets:
            return pos, rng, captured, events
        rng, k = R.randbelow(rng, len(targets))
        to = targets[k]
        board = list(pos.board)
        captured.append((to, board[to]))
        board[to] = None
        pos = replace(pos, board=tuple(board))
        pos, rng = _calm(pos, to, rng)
        events.append({"type": "dragon_move", "from": B.name(d.square), "to": B.name(to)})
    else:
        targets = strike_targets(pos)
        if targets:
            pos, rng = _strike(pos, rng, captured, targets)
            events.append({"type": "dragon_strike", "squares": [B.name(s) for s, _ in captured]})
        else:
            x, y = B.xy(d.square)
            frozen = frozen_squares(pos)
            moves = []
            for ic in _icons(d):
                if ic.kind != "move":
                    continue
                to = B.at(x + ic.ax, y + ic.ay)
                if to is None or to in frozen:
                    continue
                paths = [p for p in _abs_paths(d.square, ic.ax, ic.ay) if not any(pos.blocked(s) for s in p)]
                if paths:
                    moves.append((to, ic.ax, ic.ay))
            if moves:
                rng, k = R.randbelow(rng, len(moves))
                to, ax, ay = moves[k]
                facing = {(1, 0): "e", (-1, 0): "w", (0, 1): "n", (0, -1): "s"}.get(
                    ((ax > 0) - (ax < 0), (ay > 0) - (ay < 0)) if (ax == 0 or ay == 0) else (0, 0),
                    d.facing,
                )
                board = list(pos.board)
                if board[to] is not None:
                    captured.append((to, board[to]))
                    board[to] = None
                pos = replace(pos, board=tuple(board), dragon=Dragon(to, facing, True))
                events.append({"type": "dragon_move", "from": B.name(d.square), "to": B.name(to)})
                if captured:
                    pos, rng = _calm(pos, to, rng)
                else:
                    targets = strike_targets(pos)
                    if targets:
                        pos, rng = _strike(pos, rng, captured, targets)
                        events.append({"type": "dragon_strike", "squares": [B.name(s) for s, _ in captured]})
    if captured and pos.dragon.enraged is False and d.enraged:
        events.append({"type": "dragon_calm"})
    for sq, t in captured:
        events.append({"type": "capture", "by": "dragon", "square": B.name(sq), "owner": t.owner, "kind": t.kind})
    return pos, rng, captured, events
