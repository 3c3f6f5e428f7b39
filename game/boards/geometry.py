"""The board of Westeros read from the project's own geometry: the grid, its areas, and the
adjacency that falls out of it.

Each board (:data:`BOARDS`: ``"agot2"`` the 2nd edition, ``"agot1"`` the 1st) is authored as a
coarse grid of cells (``game/data/<board>/map/grid.txt``), each cell labelled with a 2-character
code that ``game/data/<board>/map/legend.json`` maps to an area id of
``game/data/<board>/areas.json``. Rivers and bridges are polylines along cell edges (legend
``rivers`` and ``bridges``). Two areas are adjacent on the drawn board when they share a cell edge
that is not a river, or that is a bridge (:func:`drawn_adjacency`); ``tests/map`` proves this
equals ``adjacency.json``, i.e. the drawing is the board (2nd ed. rulebook, 地图 / The Game Board;
rivers and bridges as in ``game/data/agot2/README.md``; the 1st edition's board as in
``docs/agot1.md``, Board).

Every function that reads a board takes it as the keyword ``board`` (default ``"agot2"``) and
caches per board; an unknown board raises ``ValueError``.

Coordinates: grid vertex ``(x, y)`` is the top-left corner of the cell in column ``x``, row
``y`` (north is row 0). SVG user units are :data:`CELL` per grid unit. Pure: reads only the
project's data folder. Raises :class:`MapDataError` on inconsistent files.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

DATA_ROOT = Path(__file__).resolve().parent.parent / "data"
#: the boards with a drawn map (``game/data/<board>/map/``); the first is the default
BOARDS = ("agot2", "agot1")
DEFAULT_BOARD = BOARDS[0]
DATA_DIR = DATA_ROOT / DEFAULT_BOARD
MAP_DIR = DATA_DIR / "map"

#: SVG user units per grid cell.
CELL = 24
#: Languages :func:`render_board` accepts (Django's ``zh-hans`` etc. map to ``zh``).
LANGS = ("en", "zh")

Vertex = tuple[int, int]
Edge = tuple[Vertex, Vertex]  # sorted pair of grid vertices one unit apart


class MapDataError(ValueError):
    """The map geometry files are inconsistent (unknown code, ragged grid, bad river...)."""


def check_board(board: str) -> str:
    """``board`` if it is one of :data:`BOARDS`; ``ValueError`` naming the known ones else."""
    if board not in BOARDS:
        raise ValueError(f"unknown board {board!r}; use one of {BOARDS}")
    return board


def per_board(fn):
    """Cache ``fn(*args, board)`` per board; the wrapper takes ``board`` as a keyword only
    (default :data:`DEFAULT_BOARD`) and checks it, so every call form shares one cache entry."""
    cached = functools.cache(fn)

    @functools.wraps(fn)
    def wrapper(*args, board: str = DEFAULT_BOARD):
        return cached(*args, check_board(board))

    wrapper.cache_clear = cached.cache_clear
    return wrapper


# ----------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Area:
    """One board area, as in ``areas.json`` (only the keys the drawing needs)."""

    id: str
    name_en: str
    name_zh: str
    kind: str  # "land" | "sea" | "port"
    castle: str | None  # None | "castle" | "stronghold"
    supply: int  # barrels
    power: int  # crowns
    home_of: str | None
    island: bool
    port_of: str | None
    port_sea: str | None


@dataclass(frozen=True)
class River:
    """A river: an id and its polyline of grid vertices (axis-aligned unit steps implied)."""

    id: str
    path: tuple[Vertex, ...]


@dataclass(frozen=True)
class Geometry:
    """The parsed map geometry.

    ``cells`` maps ``(x, y)`` (column, row) to an area id; ``river_edges`` and ``bridge_edges``
    are sets of unit cell edges; ``anchor_overrides`` maps area id to ``{name: (x, y)}`` in grid
    units (optional hand placement of label/units/order/power points).
    """

    width: int
    height: int
    cells: dict
    rivers: tuple[River, ...]
    river_edges: frozenset
    bridge_edges: frozenset
    anchor_overrides: dict


@per_board
def load_areas(board) -> dict[str, Area]:
    """All areas from ``game/data/<board>/areas.json`` (58 for agot2, 45 for agot1), keyed by
    id, in file order."""
    raw = json.loads((DATA_ROOT / board / "areas.json").read_text(encoding="utf-8"))
    return {
        a["id"]: Area(
            id=a["id"], name_en=a["name_en"], name_zh=a["name_zh"], kind=a["kind"],
            castle=a["castle"], supply=a["supply"], power=a["power"], home_of=a["home_of"],
            island=bool(a["island"]), port_of=a.get("port_of"), port_sea=a.get("port_sea"),
        )
        for a in raw
    }


@per_board
def load_adjacency(board) -> frozenset[frozenset[str]]:
    """The rules' adjacency: unordered pairs from ``game/data/<board>/adjacency.json`` (143 for
    agot2, 111 for agot1)."""
    raw = json.loads((DATA_ROOT / board / "adjacency.json").read_text(encoding="utf-8"))
    return frozenset(frozenset(p) for p in raw["pairs"])


def grid_edge(a: Vertex, b: Vertex) -> Edge:
    return (a, b) if a <= b else (b, a)


def polyline_edges(path, what: str) -> list[Edge]:
    edges = []
    for (x1, y1), (x2, y2) in zip(path, path[1:]):
        if x1 != x2 and y1 != y2:
            raise MapDataError(f"{what}: segment {(x1, y1)}->{(x2, y2)} is not along a grid line")
        if x1 == x2:
            step = 1 if y2 > y1 else -1
            edges += [grid_edge((x1, y), (x1, y + step)) for y in range(y1, y2, step)]
        else:
            step = 1 if x2 > x1 else -1
            edges += [grid_edge((x, y1), (x + step, y1)) for x in range(x1, x2, step)]
    return edges


@per_board
def load_geometry(board) -> Geometry:
    """The board's map: ``game/data/<board>/map/grid.txt`` and ``legend.json`` via
    :func:`parse_geometry`."""
    map_dir = DATA_ROOT / board / "map"
    return parse_geometry(
        (map_dir / "grid.txt").read_text(encoding="utf-8"),
        json.loads((map_dir / "legend.json").read_text(encoding="utf-8")),
        board=board,
    )


def parse_geometry(grid_text: str, legend: dict, board: str = DEFAULT_BOARD) -> Geometry:
    """Parse a grid (rows of 2-character codes) and its legend (see ``docs/map.md``).

    Raises :class:`MapDataError` with the place of the problem on an empty or ragged grid, an
    unknown code, a code for an unknown area, an anchor override for an unknown area, a river
    not along grid lines, outside the grid or not between two different areas, or a bridge that
    is not one unit edge of a river. The area ids are those of ``board``'s ``areas.json``.
    """
    codes: dict[str, str] = legend.get("codes", {})
    areas = load_areas(board=board)
    for code, area_id in codes.items():
        if len(code) != 2:
            raise MapDataError(f"code {code!r} is not 2 characters")
        if area_id not in areas:
            raise MapDataError(f"code {code!r} names unknown area {area_id!r}")
    lines = [ln for ln in grid_text.splitlines() if ln.strip()]
    if not lines:
        raise MapDataError("the grid is empty")
    width = len(lines[0]) // 2
    cells = {}
    for y, ln in enumerate(lines):
        if len(ln) != 2 * width:
            raise MapDataError(f"grid row {y} has {len(ln)} characters, expected {2 * width}")
        for x in range(width):
            code = ln[2 * x: 2 * x + 2]
            if code not in codes:
                raise MapDataError(f"grid cell ({x}, {y}) has unknown code {code!r}")
            cells[(x, y)] = codes[code]
    height = len(lines)
    rivers = []
    river_edges: set[Edge] = set()
    for r in legend.get("rivers", []):
        path = tuple(tuple(v) for v in r["path"])
        for vx, vy in path:
            if not (0 <= vx <= width and 0 <= vy <= height):
                raise MapDataError(f"river {r['id']}: vertex {(vx, vy)} outside the grid")
        rivers.append(River(r["id"], path))
        river_edges.update(polyline_edges(path, f"river {r['id']}"))
    bridge_edges = set()
    for a, b in legend.get("bridges", []):
        e = polyline_edges((tuple(a), tuple(b)), "bridge")
        if len(e) != 1 or e[0] not in river_edges:
            raise MapDataError(f"bridge {a}-{b} is not one unit edge of a river")
        bridge_edges.add(e[0])
    overrides = {}
    for aid, pts in legend.get("anchors", {}).items():
        if aid not in areas:
            raise MapDataError(f"anchor override for unknown area {aid!r}")
        overrides[aid] = {k: tuple(v) for k, v in pts.items()}
    for e in river_edges:
        sides = _sides_in(cells, e)
        if None in sides or sides[0] == sides[1]:
            raise MapDataError(f"river edge {e} does not run between two areas")
    return Geometry(width, height, MappingProxyType(cells), tuple(rivers),
                    frozenset(river_edges), frozenset(bridge_edges), MappingProxyType(overrides))


# ----------------------------------------------------------------------------------------------
# Topology: edges between areas, adjacency as drawn


def _sides_in(cells, e: Edge) -> tuple[str | None, str | None]:
    """The areas on both sides of unit edge ``e`` (None outside the grid)."""
    (x1, y1), (x2, y2) = e
    if y1 == y2:  # horizontal edge at row line y1, between cells (x1, y1-1) and (x1, y1)
        return cells.get((x1, y1 - 1)), cells.get((x1, y1))
    return cells.get((x1 - 1, y1)), cells.get((x1, y1))  # vertical edge


@per_board
def boundary(board) -> dict:
    """Every unit edge where the area changes: ``{edge: (area_a, area_b, kind)}``.

    ``kind`` is ``"river"`` (a river without a bridge: separates), ``"bridge"`` (joins) or
    ``"border"``. Outside the grid is ``None``.
    """
    g = load_geometry(board=board)
    out = {}
    for (x, y), a in g.cells.items():
        for e in (grid_edge((x, y), (x + 1, y)), grid_edge((x, y), (x, y + 1)),
                  grid_edge((x + 1, y), (x + 1, y + 1)), grid_edge((x, y + 1), (x + 1, y + 1))):
            if e in out:
                continue
            s1, s2 = _sides_in(g.cells, e)
            if s1 == s2:
                continue
            if e in g.bridge_edges:
                kind = "bridge"
            elif e in g.river_edges:
                kind = "river"
            else:
                kind = "border"
            out[e] = (s1, s2, kind)
    return out


def drawn_adjacency(board: str = DEFAULT_BOARD) -> set[frozenset[str]]:
    """Pairs of areas that share a drawn border that is not a river (bridges join).

    This is the adjacency a player reads off the drawn board; ``tests/map`` checks it equals
    :func:`load_adjacency`.
    """
    return {
        frozenset((a, b))
        for a, b, kind in boundary(board=board).values()
        if a is not None and b is not None and kind != "river"
    }


def touching_pairs(board: str = DEFAULT_BOARD) -> set[frozenset[str]]:
    """Pairs of areas whose cells share at least one edge (river, bridge or open border)."""
    return {frozenset((a, b)) for a, b, _ in boundary(board=board).values() if a and b}


def river_pairs(board: str = DEFAULT_BOARD) -> set[frozenset[str]]:
    """Pairs of different areas with a river (no bridge) along some of their shared border."""
    return {frozenset((a, b)) for a, b, k in boundary(board=board).values() if k == "river" and a and b}


def bridge_pairs(board: str = DEFAULT_BOARD) -> set[frozenset[str]]:
    """Pairs of areas joined by a bridge over a river."""
    return {frozenset((a, b)) for a, b, k in boundary(board=board).values() if k == "bridge"}


@per_board
def area_cells(board) -> dict[str, list]:
    """Each area's cells ``(x, y)``, in reading order (row by row)."""
    out: dict[str, list] = {}
    for xy, a in sorted(load_geometry(board=board).cells.items(), key=lambda t: (t[0][1], t[0][0])):
        out.setdefault(a, []).append(xy)
    return out


@per_board
def junction_vertices(board) -> frozenset:
    """Grid vertices where outlines stay sharp.

    A junction is a vertex where the boundary label (pair of areas, river/bridge/border)
    changes, where more or fewer than two boundary edges meet, or that lies on the frame. Curves
    pass exactly through junctions, so every stretch of border between two junctions is drawn
    identically by the areas on both sides.
    """
    g = load_geometry(board=board)
    incident: dict[Vertex, list] = {}
    for e, (a, b, kind) in boundary(board=board).items():
        for v in e:
            incident.setdefault(v, []).append((frozenset((a, b)), kind))
    return frozenset(
        v for v, labels in incident.items()
        if len(labels) != 2 or labels[0] != labels[1]
        or v[0] in (0, g.width) or v[1] in (0, g.height)
    )
