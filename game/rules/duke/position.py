"""What is on the board and what each tile may do there: the icon rules, captures, threats.

Pure functions over a :class:`Position` (the board, the Mountain, the Dragon). The engine
(:mod:`.engine`) adds turns, bags and randomness; the bots use these functions on a position
rebuilt from their own view.

Rulebook (公爵战棋基础规则): 移动一枚军队棋子 (moving a troop tile), 移动标识 (movement icons:
移动 Move, 跳跃 Jump, 行进 Slide, 跃进 Jump Slide, 攻击 Strike, 命令 Command, 恐惧 Dread,
防御 Defense), 俘获棋子 (capturing), 山峦棋子 (Mountain), 巨龙棋子 (Dragon: how a player enrages it).

Internal action tuples (squares are ints, see :mod:`.board`):

* ``("move", frm, to, dragon_facing)``: Move, Jump, Slide or Jump Slide to ``to``; when ``to`` is
  the calm Dragon's square the tile enrages it (``dragon_facing`` "n"/"s" if it becomes enraged,
  None if it is pushed onto a tile and captures it);
* ``("strike", frm, target, None)``;
* ``("command", frm, piece, to)``: the tile on ``frm`` commands the friendly tile on ``piece``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Mapping, NamedTuple

from . import board as B
from .tiles import TILES, TileSpec, compile_icons

__all__ = [
    "SEATS",
    "FACING",
    "Tile",
    "Dragon",
    "Position",
    "other",
    "frozen_squares",
    "pseudo_actions",
    "perform",
    "can_capture",
    "can_capture_slow",
    "potential_attackers",
    "duke_square",
    "duke_in_danger",
    "placement_squares",
]

SEATS = ("light", "dark")
#: troop tiles always face their owner (方向 / orientation)
FACING = {"light": "n", "dark": "s"}


def other(seat: str) -> str:
    return "dark" if seat == "light" else "light"


class Tile(NamedTuple):
    """A troop tile on the board: owner seat, tile id, and whether its back side is up."""

    owner: str
    kind: str
    back: bool = False


class Dragon(NamedTuple):
    """The neutral Dragon: its square, facing ("n", "e", "s", "w") and whether it is enraged."""

    square: int
    facing: str
    enraged: bool = False


@dataclass(frozen=True)
class Position:
    """The board: ``board[sq]`` is a :class:`Tile` or None; terrain beside it.

    ``custom`` maps extra tile ids to their :class:`TileSpec` (scenario tiles such as one with
    Dread or Defense icons); the base tiles come from :data:`.tiles.TILES`.
    """

    board: tuple
    mountain: int | None = None
    dragon: Dragon | None = None
    custom: Mapping[str, TileSpec] = field(default_factory=dict)

    def spec(self, kind: str) -> TileSpec:
        s = self.custom.get(kind) if self.custom else None
        return s if s is not None else TILES[kind]

    def icons(self, tile: Tile):
        spec = self.custom.get(tile.kind) if self.custom else None
        return compile_icons(spec if spec is not None else tile.kind, tile.back, FACING[tile.owner])

    def blocked(self, sq: int) -> bool:
        """Is anything (tile, Mountain, Dragon) standing on ``sq``?"""
        d = self.dragon
        return self.board[sq] is not None or sq == self.mountain or (d is not None and d.square == sq)


def duke_square(pos: Position, seat: str) -> int | None:
    """The square of ``seat``'s Duke, or None when it is no longer on the board."""
    for sq, t in enumerate(pos.board):
        if t is not None and t.kind == "duke" and t.owner == seat:
            return sq
    return None


def find_tile(pos: Position, seat: str, kind: str) -> int | None:
    """The square of ``seat``'s tile of ``kind`` (the first in square order; the Duchess and the
    Oracle are single tiles), or None when it is not on the board."""
    for sq, t in enumerate(pos.board):
        if t is not None and t.owner == seat and t.kind == kind:
            return sq
    return None


def _has_icon(spec: TileSpec, kind: str) -> bool:
    return any(i.kind == kind for i in spec.start) or any(i.kind == kind for i in spec.back)


_DREAD = {tid: _has_icon(s, "dread") for tid, s in TILES.items()}
_DEFENSE = {tid: _has_icon(s, "defense") for tid, s in TILES.items()}
_BASE_DREAD = any(_DREAD.values())
_BASE_DEFENSE = any(_DEFENSE.values())
_NONE: frozenset[int] = frozenset()


def _flag(pos: Position, kind: str, table: dict, icon: str) -> bool:
    if pos.custom and kind in pos.custom:
        return _has_icon(pos.custom[kind], icon)
    return table.get(kind, False)


def frozen_squares(pos: Position) -> frozenset[int]:
    """Squares whose tile is frozen by a Dread icon (恐惧 / Dread).

    Every tile (either side's) on a square covered by the Dread icon of any tile's current side is
    frozen: it cannot act, be moved (also by Command or Summon) or be captured. Dukes and tiles
    bearing Dread icons are immune. The Dragon is immune.
    """
    if not pos.custom and not _BASE_DREAD:
        return _NONE
    out = set()
    for sq, t in enumerate(pos.board):
        if t is None or not _flag(pos, t.kind, _DREAD, "dread"):
            continue
        x, y = B.xy(sq)
        for ic in pos.icons(t):
            if ic.kind != "dread":
                continue
            s = B.at(x + ic.ax, y + ic.ay)
            if s is None:
                continue
            v = pos.board[s]
            if v is None or v.kind == "duke" or _flag(pos, v.kind, _DREAD, "dread"):
                continue
            out.add(s)
    return frozenset(out)


def _defended(pos: Position, sq: int) -> frozenset[int]:
    """Squares covered by the Defense icons of the tile on ``sq`` (防御 / Defense)."""
    if not pos.custom and not _BASE_DEFENSE:
        return _NONE
    t = pos.board[sq]
    if t is None or not _flag(pos, t.kind, _DEFENSE, "defense"):
        return _NONE
    x, y = B.xy(sq)
    out = set()
    for ic in pos.icons(t):
        if ic.kind == "defense":
            s = B.at(x + ic.ax, y + ic.ay)
            if s is not None:
                out.add(s)
    return frozenset(out)


@lru_cache(maxsize=None)
def _abs_paths(frm: int, ax: int, ay: int) -> tuple[tuple[int, ...], ...]:
    """The shortest paths from ``frm`` by ``(ax, ay)`` as tuples of intermediate squares."""
    x, y = B.xy(frm)
    out = []
    for p in B.paths(ax, ay):
        sqs = tuple(B.at(x + px, y + py) for px, py in p)
        if None not in sqs:
            out.append(sqs)
    return tuple(out)


def _defense_allows(pos: Position, frm: int, target: int, path_options: list[list[int]]) -> bool:
    """Can a tile starting on ``frm`` capture the tile on ``target`` along one of the paths?

    Defense: not when the attacker starts on a defended square, nor when every allowed path
    crosses a defended square (straight paths leave no choice).
    """
    d = _defended(pos, target)
    if not d:
        return True
    if frm in d:
        return False
    return any(not (set(p) & d) for p in path_options)


def _capturable(pos: Position, seat: str, sq: int, frozen: frozenset[int]) -> bool:
    t = pos.board[sq]
    return t is not None and t.owner != seat and sq not in frozen


def _enrage(pos: Position, seat: str, dsq: int, step: tuple[int, int], frozen, frm: int):
    """Enrage options for a Slide/Jump Slide reaching the calm Dragon on ``dsq`` moving by ``step``.

    Yields ``(action, captured_square)``. 巨龙棋子: the tile enters the Dragon's square and pushes it
    one square further the same way. Pushed onto a troop tile: that tile is captured and the Dragon
    stays calm (random facing left/right); otherwise (empty square or the Mountain) it is enraged
    and the player turns it toward either player ("n" or "s").
    """
    x, y = B.xy(dsq)
    push = B.at(x + step[0], y + step[1])
    if push is None:
        return
    t = pos.board[push]
    if t is not None:
        if push in frozen:
            return
        yield ("move", frm, dsq, None), push
    else:
        yield ("move", frm, dsq, "n"), None
        yield ("move", frm, dsq, "s"), None


def _tile_actions(pos: Position, sq: int, frozen: frozenset[int]) -> Iterator[tuple[tuple, int | None]]:
    t = pos.board[sq]
    seat = t.owner
    x, y = B.xy(sq)
    board = pos.board
    mountain = pos.mountain
    dragon = pos.dragon
    dsq = dragon.square if dragon is not None else -1
    command: list[int] = []
    for ic in pos.icons(t):
        k = ic.kind
        if k in ("move", "jump", "strike"):
            to = B.at(x + ic.ax, y + ic.ay)
            if to is None or to == mountain:
                continue
            options = _abs_paths(sq, ic.ax, ic.ay)
            if k == "move":
                options = [p for p in options if not any(pos.blocked(s) for s in p)]
            elif k == "jump":
                options = [p for p in options if mountain not in p]
            else:  # strike: the line between centres may not cross the Mountain
                if mountain is not None:
                    mx, my = B.xy(mountain)
                    if B.strike_line_crosses(ic.ax, ic.ay, mx - x, my - y):
                        continue
            if not options:
                continue
            v = board[to]
            if k == "strike":
                if v is not None and _capturable(pos, seat, to, frozen) and _defense_allows(pos, sq, to, options):
                    yield ("strike", sq, to, None), to
                continue
            if to == dsq:
                continue
            if v is None:
                yield ("move", sq, to, None), None
            elif _capturable(pos, seat, to, frozen) and _defense_allows(pos, sq, to, options):
                yield ("move", sq, to, None), to
        elif k in ("slide", "jump_slide"):
            dx, dy = ic.dir
            first = B.at(x + ic.ax, y + ic.ay)
            if first is None:
                continue
            trail: list[int] = []
            if k == "jump_slide":
                jumped = _abs_paths(sq, ic.ax, ic.ay)[0]
                if mountain in jumped:
                    continue
                trail = list(jumped)
            cur = first
            while cur is not None:
                if cur == mountain:
                    break
                if cur == dsq:
                    if not dragon.enraged:
                        yield from _enrage(pos, seat, cur, (dx, dy), frozen, sq)
                    break
                v = board[cur]
                if v is None:
                    yield ("move", sq, cur, None), None
                else:
                    if _capturable(pos, seat, cur, frozen) and _defense_allows(pos, sq, cur, [trail]):
                        yield ("move", sq, cur, None), cur
                    break
                trail.append(cur)
                cx, cy = B.xy(cur)
                cur = B.at(cx + dx, cy + dy)
        elif k == "command":
            c = B.at(x + ic.ax, y + ic.ay)
            if c is not None and c not in command:
                command.append(c)
    if len(command) >= 2:
        for piece in command:
            v = board[piece]
            if v is None or v.owner != seat or piece in frozen:
                continue
            for to in command:
                if to == piece or to == mountain or to == dsq:
                    continue
                w = board[to]
                if w is None:
                    yield ("command", sq, piece, to), None
                elif w.owner != seat and to not in frozen:  # Command ignores Defense
                    yield ("command", sq, piece, to), to


def pseudo_actions(
    pos: Position, seat: str, frozen: frozenset[int] | None = None
) -> list[tuple[tuple, int | None]]:
    """Every icon use open to ``seat``'s tiles, before the Duke-safety rule.

    Returns ``[(action_tuple, captured_square_or_None)]`` in board order. Frozen tiles do nothing.
    """
    if frozen is None:
        frozen = frozen_squares(pos)
    out: list[tuple[tuple, int | None]] = []
    for sq, t in enumerate(pos.board):
        if t is not None and t.owner == seat and sq not in frozen:
            out.extend(_tile_actions(pos, sq, frozen))
    return out


class Outcome(NamedTuple):
    """What :func:`perform` did: the new position and the captured tiles ``[(square, Tile)]``."""

    position: Position
    captured: list
    enraged: bool  # the Dragon was pushed and enraged
    pushed: bool  # the Dragon was pushed (enraged, or onto a tile)


def perform(pos: Position, act: tuple, push_facing: str = "e") -> Outcome:
    """Apply a move/strike/command action tuple (assumed legal). The acting tile flips.

    ``push_facing`` is the calm Dragon's new facing when a push makes it capture a tile
    (the engine draws it at random).
    """
    kind, frm, a, b = act
    board = list(pos.board)
    captured = []
    dragon = pos.dragon
    enraged = pushed = False
    t = board[frm]
    if kind == "move":
        to = a
        if dragon is not None and to == dragon.square:
            fx, fy = B.xy(frm)
            tx, ty = B.xy(to)
            sx, sy = (tx > fx) - (tx < fx), (ty > fy) - (ty < fy)
            push = B.at(tx + sx, ty + sy)
            pushed = True
            v = board[push]
            if v is not None:
                captured.append((push, v))
                board[push] = None
                dragon = Dragon(push, push_facing, False)
            else:
                dragon = Dragon(push, b, True)
                enraged = True
        elif board[to] is not None:
            captured.append((to, board[to]))
        board[to] = t._replace(back=not t.back)
        board[frm] = None
    elif kind == "strike":
        captured.append((a, board[a]))
        board[a] = None
        board[frm] = t._replace(back=not t.back)
    elif kind == "command":
        piece, to = a, b
        if board[to] is not None:
            captured.append((to, board[to]))
        board[to] = board[piece]
        board[piece] = None
        board[frm] = t._replace(back=not t.back)
    else:  # pragma: no cover - engine bug
        raise ValueError(kind)
    return Outcome(Position(tuple(board), pos.mountain, dragon, pos.custom), captured, enraged, pushed)


def can_capture_slow(pos: Position, seat: str, target: int) -> bool:
    """:func:`can_capture` by generating every action (the reference the fast one is tested
    against)."""
    for _, cap in pseudo_actions(pos, seat):
        if cap == target:
            return True
    return False


@lru_cache(maxsize=None)
def _index(icons: tuple) -> tuple[dict, tuple, tuple]:
    """Icons grouped for targeted look-ups: ``(fixed {(ax, ay): kinds}, rays, command offsets)``."""
    fixed: dict[tuple[int, int], list[str]] = {}
    rays = []
    command = []
    for ic in icons:
        if ic.kind in ("move", "jump", "strike"):
            fixed.setdefault((ic.ax, ic.ay), []).append(ic.kind)
        elif ic.kind in ("slide", "jump_slide"):
            rays.append(ic)
        elif ic.kind == "command" and (ic.ax, ic.ay) not in command:
            command.append((ic.ax, ic.ay))
    return {k: tuple(v) for k, v in fixed.items()}, tuple(rays), tuple(command)


@lru_cache(maxsize=None)
def _base_index(kind: str, back: bool, facing: str) -> tuple[dict, tuple, tuple]:
    return _index(compile_icons(kind, back, facing))


def _on_ray(rel: tuple[int, int], ic) -> int | None:
    """How many squares past the ray's first square ``rel`` lies (None when not on the ray)."""
    ddx, ddy = ic.dir
    rx, ry = rel[0] - ic.ax, rel[1] - ic.ay
    if ddx:
        if rx % ddx or rx // ddx < 0:
            return None
        m = rx // ddx
        return m if ry == m * ddy else None
    if rx != 0 or not ddy or ry % ddy or ry // ddy < 0:
        return None
    return ry // ddy


def potential_attackers(pos: Position, seat: str, target: int) -> tuple[int, ...] | None:
    """Squares of ``seat``'s tiles with an icon aimed at ``target`` whatever stands between
    (None when this shortcut does not apply: custom tiles, or a calm Dragon that a push could
    land on ``target``). Another player's action cannot add to them, so the engine checks only
    these when testing each candidate action for Duke safety."""
    if pos.custom:
        return None
    d = pos.dragon
    tx, ty = target % 6, target // 6
    if d is not None and not d.enraged:
        if max(abs(d.square % 6 - tx), abs(d.square // 6 - ty)) == 1:
            return None
    facing = FACING[seat]
    out = []
    for sq, t in enumerate(pos.board):
        if t is None or t.owner != seat:
            continue
        rel = (tx - sq % 6, ty - sq // 6)
        fixed, rays, command = _base_index(t.kind, t.back, facing)
        if rel in fixed or rel in command or any(_on_ray(rel, ic) is not None for ic in rays):
            out.append(sq)
    return tuple(out)


def can_capture(pos: Position, seat: str, target: int, only: tuple[int, ...] | None = None) -> bool:
    """Could ``seat`` capture the tile on ``target`` with one icon use now (ignoring whether that
    would expose ``seat``'s own Duke, since capturing the Duke ends the game)?

    Same answer as generating every action of ``seat`` (:func:`can_capture_slow`), faster: only
    the icons that can reach ``target`` are examined (and, with ``only``, only the tiles on those
    squares: see :func:`potential_attackers`).
    """
    victim = pos.board[target]
    if victim is None or victim.owner == seat:
        return False
    d = pos.dragon
    if d is not None and not d.enraged:
        dx_, dy_ = B.xy(d.square)
        tx_, ty_ = B.xy(target)
        if max(abs(dx_ - tx_), abs(dy_ - ty_)) == 1:  # a push could land the Dragon on it
            return can_capture_slow(pos, seat, target)
    frozen = frozen_squares(pos)
    if target in frozen:
        return False
    board = pos.board
    mountain = pos.mountain
    dsq = d.square if d is not None else -1
    tx, ty = target % 6, target // 6
    facing = FACING[seat]
    custom = pos.custom
    squares = range(36) if only is None else only
    for sq in squares:
        t = board[sq]
        if t is None or t.owner != seat or sq in frozen:
            continue
        x, y = sq % 6, sq // 6
        rel = (tx - x, ty - y)
        if custom and t.kind in custom:
            fixed, rays, command = _index(pos.icons(t))
        else:
            fixed, rays, command = _base_index(t.kind, t.back, facing)
        kinds = fixed.get(rel)
        if kinds:
            options = _abs_paths(sq, rel[0], rel[1])
            for k in kinds:
                if k == "move":
                    ok = [p for p in options if not any(pos.blocked(s) for s in p)]
                elif k == "jump":
                    ok = [p for p in options if mountain not in p]
                else:
                    if mountain is not None:
                        mx, my = B.xy(mountain)
                        if B.strike_line_crosses(rel[0], rel[1], mx - x, my - y):
                            continue
                    ok = list(options)
                if ok and _defense_allows(pos, sq, target, ok):
                    return True
        for ic in rays:
            ddx, ddy = ic.dir
            m = _on_ray(rel, ic)  # target = first + m * dir
            if m is None:
                continue
            trail: list[int] = []
            if ic.kind == "jump_slide":
                jumped = _abs_paths(sq, ic.ax, ic.ay)
                if not jumped or mountain in jumped[0]:
                    continue
                trail = list(jumped[0])
            fx, fy = x + ic.ax, y + ic.ay
            clear = True
            for k in range(m):
                s = B.at(fx + k * ddx, fy + k * ddy)
                if s is None or board[s] is not None or s == mountain or s == dsq:
                    clear = False
                    break
                trail.append(s)
            if clear and _defense_allows(pos, sq, target, [trail]):
                return True
        if len(command) >= 2 and rel in command:
            for cx, cy in command:
                if (cx, cy) == rel:
                    continue
                c = B.at(x + cx, y + cy)
                if c is None:
                    continue
                v = board[c]
                if v is not None and v.owner == seat and c not in frozen:
                    return True
    return False


def duke_in_danger(pos: Position, seat: str, only: tuple[int, ...] | None = None) -> bool:
    """Is ``seat``'s Duke gone, or capturable by the opponent's next action?

    使公爵陷入危机: a player may not make a move after which the opponent could capture their Duke.
    ``only``: see :func:`can_capture`.
    """
    d = duke_square(pos, seat)
    return d is None or can_capture(pos, other(seat), d, only)


def placement_squares(pos: Position, seat: str) -> list[int]:
    """Empty squares sharing an edge with ``seat``'s Duke (放置新棋子 / placing a new tile);
    never the Mountain or the Dragon's square."""
    d = duke_square(pos, seat)
    if d is None:
        return []
    return [s for s in B.orthogonal_neighbours(d) if not pos.blocked(s)]
