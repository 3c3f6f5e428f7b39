"""The 6x6 board: squares, names, straight and non-straight paths, strike lines.

Squares are integers ``0..35``: ``index = y * 6 + x`` with ``x`` the file (a-f, left to right as the
light player sees it) and ``y`` the rank (1-6; rank 1 is the light player's home row, rank 6 the
dark player's). Names are ``"a1"`` .. ``"f6"``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

__all__ = [
    "SIZE",
    "SQUARES",
    "name",
    "parse_square",
    "xy",
    "at",
    "orthogonal_neighbours",
    "paths",
    "strike_line_crosses",
    "HOME_MIDDLE",
    "CENTRE",
]

SIZE = 6
SQUARES = range(SIZE * SIZE)
_FILES = "abcdef"


def xy(sq: int) -> tuple[int, int]:
    """``(x, y)`` of a square index."""
    return sq % SIZE, sq // SIZE


def at(x: int, y: int) -> int | None:
    """The square at ``(x, y)``, or None off the board."""
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return y * SIZE + x
    return None


def name(sq: int) -> str:
    """``"a1"`` .. ``"f6"``."""
    x, y = xy(sq)
    return f"{_FILES[x]}{y + 1}"


_BY_NAME = {name(s): s for s in SQUARES}


def parse_square(value: object) -> int | None:
    """The square named ``value`` (``"c1"``), or None if it is not a square name."""
    if isinstance(value, str):
        return _BY_NAME.get(value.strip().lower())
    return None


def orthogonal_neighbours(sq: int) -> list[int]:
    """Squares sharing an edge with ``sq`` (a corner is not enough), in a fixed order."""
    x, y = xy(sq)
    out = []
    for dx, dy in ((0, 1), (-1, 0), (1, 0), (0, -1)):
        s = at(x + dx, y + dy)
        if s is not None:
            out.append(s)
    return out


#: the two middle squares of each home row, where the Duke starts (创建游戏 / set-up)
HOME_MIDDLE = {"light": (at(2, 0), at(3, 0)), "dark": (at(2, 5), at(3, 5))}
#: the four centre squares, where the Dragon starts (巨龙棋子)
CENTRE = (at(2, 2), at(3, 2), at(2, 3), at(3, 3))


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


@lru_cache(maxsize=None)
def paths(ax: int, ay: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The shortest paths from the origin to ``(ax, ay)``, as tuples of *intermediate* offsets.

    A straight offset (orthogonal or diagonal) has exactly one path, the straight line. Any other
    offset (e.g. the Knight's (1, 2)) has every shortest path of single king steps; (1, 2) has two:
    via (0, 1) or via (1, 1). Rulebook 防御 (Defense) and 山峦棋子 (Mountain): a straight path must be
    used when there is one; otherwise any path that avoids the obstacle may be chosen.
    """
    n = max(abs(ax), abs(ay))
    if n <= 1:
        return ((),)
    if ax == 0 or ay == 0 or abs(ax) == abs(ay):
        sx, sy = _sign(ax), _sign(ay)
        return (tuple((sx * k, sy * k) for k in range(1, n)),)
    out: list[tuple[tuple[int, int], ...]] = []

    def walk(x: int, y: int, trail: tuple[tuple[int, int], ...]) -> None:
        if (x, y) == (ax, ay):
            out.append(trail[:-1])
            return
        left = max(abs(ax - x), abs(ay - y))
        for mx in (-1, 0, 1):
            for my in (-1, 0, 1):
                if (mx, my) == (0, 0):
                    continue
                nx, ny = x + mx, y + my
                if max(abs(ax - nx), abs(ay - ny)) == left - 1:
                    walk(nx, ny, trail + ((nx, ny),))

    walk(0, 0, ())
    return tuple(sorted(set(out)))


@lru_cache(maxsize=None)
def strike_line_crosses(ax: int, ay: int, mx: int, my: int) -> bool:
    """Does the line from the centre of square (0, 0) to the centre of (ax, ay) cross the
    interior of square (mx, my)? Touching only a corner (or an edge) does not count.

    Rulebook 山峦棋子 (Mountain): a Strike is blocked when the line between the centres crosses any
    part of the Mountain's square, but a line through one corner point of it is allowed.
    """
    # segment P(t) = (0.5 + t*ax, 0.5 + t*ay), t in [0, 1]; open box (mx, mx+1) x (my, my+1)
    lo, hi = Fraction(0), Fraction(1)
    for p0, d, a in ((Fraction(1, 2), ax, mx), (Fraction(1, 2), ay, my)):
        if d == 0:
            if not (a < p0 < a + 1):
                return False
            continue
        t1, t2 = (a - p0) / d, (a + 1 - p0) / d
        if t1 > t2:
            t1, t2 = t2, t1
        lo, hi = max(lo, t1), min(hi, t2)
    return lo < hi
