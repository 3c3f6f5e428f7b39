"""The board of Westeros as SVG, drawn from the project's own geometry.

The board is authored as a coarse grid of cells (``game/data/agot2/map/grid.txt``), each cell
labelled with a 2-character code that ``game/data/agot2/map/legend.json`` maps to an area id of
``game/data/agot2/areas.json``. Rivers and bridges are polylines along cell edges (legend
``rivers`` and ``bridges``). Everything else falls out of the grid:

* every area is ONE ``<path id="area-<id>">`` (its cells' outline smoothed into curves that the
  neighbours on both sides share exactly, holes for islands, ``fill-rule: evenodd``), with class
  ``area land|sea|port``, ``<title>``, ``aria-label``, ``tabindex`` and ``data-*`` anchor
  points for the browser overlay (:func:`area_anchors`);
* two areas are adjacent on the drawn board when they share a cell edge that is not a river, or
  that is a bridge (:func:`drawn_adjacency`). ``tests/map`` proves this equals
  ``adjacency.json``, i.e. the drawing is the board (2nd ed. rulebook, 地图 / The Game Board;
  rivers and bridges as in ``/work/shared/reference/agot2/README.md``);
* coastlines, rivers, bridges, castles and strongholds, barrels, crowns, home-area crests and
  area names (English or simplified Chinese) are drawn on top, non-interactive.

This module is pure (no Django): it reads only the project's data folder. Public API:
:func:`render_board`, :func:`area_anchors`, :func:`drawn_adjacency`, :func:`touching_pairs`,
:func:`river_pairs`, :func:`bridge_pairs`, :func:`load_geometry`, :func:`parse_geometry`,
:func:`load_areas`, :func:`load_adjacency`.

Coordinates: grid vertex ``(x, y)`` is the top-left corner of the cell in column ``x``, row
``y`` (north is row 0). SVG user units are ``CELL`` per grid unit.
"""

from __future__ import annotations

import functools
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import svgwrite

DATA_DIR = Path(__file__).resolve().parent / "data" / "agot2"
MAP_DIR = DATA_DIR / "map"

#: SVG user units per grid cell.
CELL = 24
#: Languages :func:`render_board` accepts (Django's ``zh-hans`` etc. map to ``zh``).
LANGS = ("en", "zh")

Vertex = tuple[int, int]
Edge = tuple[Vertex, Vertex]  # sorted pair of grid vertices one unit apart


class MapDataError(ValueError):
    """The map geometry files are inconsistent (unknown code, ragged grid, bad river...)."""


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


@functools.cache
def load_areas() -> dict[str, Area]:
    """All 58 areas from ``game/data/agot2/areas.json``, keyed by id, in file order."""
    raw = json.loads((DATA_DIR / "areas.json").read_text(encoding="utf-8"))
    return {
        a["id"]: Area(
            id=a["id"], name_en=a["name_en"], name_zh=a["name_zh"], kind=a["kind"],
            castle=a["castle"], supply=a["supply"], power=a["power"], home_of=a["home_of"],
            island=bool(a["island"]), port_of=a.get("port_of"), port_sea=a.get("port_sea"),
        )
        for a in raw
    }


@functools.cache
def load_adjacency() -> frozenset[frozenset[str]]:
    """The rules' adjacency: 143 unordered pairs from ``game/data/agot2/adjacency.json``."""
    raw = json.loads((DATA_DIR / "adjacency.json").read_text(encoding="utf-8"))
    return frozenset(frozenset(p) for p in raw["pairs"])


def _edge(a: Vertex, b: Vertex) -> Edge:
    return (a, b) if a <= b else (b, a)


def _polyline_edges(path, what: str) -> list[Edge]:
    edges = []
    for (x1, y1), (x2, y2) in zip(path, path[1:]):
        if x1 != x2 and y1 != y2:
            raise MapDataError(f"{what}: segment {(x1, y1)}->{(x2, y2)} is not along a grid line")
        if x1 == x2:
            step = 1 if y2 > y1 else -1
            edges += [_edge((x1, y), (x1, y + step)) for y in range(y1, y2, step)]
        else:
            step = 1 if x2 > x1 else -1
            edges += [_edge((x, y1), (x + step, y1)) for x in range(x1, x2, step)]
    return edges


@functools.cache
def load_geometry() -> Geometry:
    """The project's map: ``map/grid.txt`` and ``map/legend.json`` via :func:`parse_geometry`."""
    return parse_geometry(
        (MAP_DIR / "grid.txt").read_text(encoding="utf-8"),
        json.loads((MAP_DIR / "legend.json").read_text(encoding="utf-8")),
    )


def parse_geometry(grid_text: str, legend: dict) -> Geometry:
    """Parse a grid (rows of 2-character codes) and its legend (see ``docs/map.md``).

    Raises :class:`MapDataError` with the place of the problem on an empty or ragged grid, an
    unknown code, a code for an unknown area, an anchor override for an unknown area, a river
    not along grid lines, outside the grid or not between two different areas, or a bridge that
    is not one unit edge of a river.
    """
    codes: dict[str, str] = legend.get("codes", {})
    areas = load_areas()
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
        river_edges.update(_polyline_edges(path, f"river {r['id']}"))
    bridge_edges = set()
    for a, b in legend.get("bridges", []):
        e = _polyline_edges((tuple(a), tuple(b)), "bridge")
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


@functools.cache
def _boundary() -> dict:
    """Every unit edge where the area changes: ``{edge: (area_a, area_b, kind)}``.

    ``kind`` is ``"river"`` (a river without a bridge: separates), ``"bridge"`` (joins) or
    ``"border"``. Outside the grid is ``None``.
    """
    g = load_geometry()
    out = {}
    for (x, y), a in g.cells.items():
        for e in (_edge((x, y), (x + 1, y)), _edge((x, y), (x, y + 1)),
                  _edge((x + 1, y), (x + 1, y + 1)), _edge((x, y + 1), (x + 1, y + 1))):
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


def drawn_adjacency() -> set[frozenset[str]]:
    """Pairs of areas that share a drawn border that is not a river (bridges join).

    This is the adjacency a player reads off the drawn board; ``tests/map`` checks it equals
    :func:`load_adjacency`.
    """
    return {
        frozenset((a, b))
        for a, b, kind in _boundary().values()
        if a is not None and b is not None and kind != "river"
    }


def touching_pairs() -> set[frozenset[str]]:
    """Pairs of areas whose cells share at least one edge (river, bridge or open border)."""
    return {frozenset((a, b)) for a, b, _ in _boundary().values() if a and b}


def river_pairs() -> set[frozenset[str]]:
    """Pairs of different areas with a river (no bridge) along some of their shared border."""
    return {frozenset((a, b)) for a, b, k in _boundary().values() if k == "river" and a and b}


def bridge_pairs() -> set[frozenset[str]]:
    """Pairs of areas joined by a bridge over a river."""
    return {frozenset((a, b)) for a, b, k in _boundary().values() if k == "bridge"}


@functools.cache
def _area_cells() -> dict[str, list]:
    out: dict[str, list] = {}
    for xy, a in sorted(load_geometry().cells.items(), key=lambda t: (t[0][1], t[0][0])):
        out.setdefault(a, []).append(xy)
    return out


@functools.cache
def _junctions() -> frozenset:
    """Grid vertices where outlines stay sharp.

    A junction is a vertex where the boundary label (pair of areas, river/bridge/border)
    changes, where more or fewer than two boundary edges meet, or that lies on the frame. Curves
    pass exactly through junctions, so every stretch of border between two junctions is drawn
    identically by the areas on both sides.
    """
    g = load_geometry()
    incident: dict[Vertex, list] = {}
    for e, (a, b, kind) in _boundary().items():
        for v in e:
            incident.setdefault(v, []).append((frozenset((a, b)), kind))
    return frozenset(
        v for v, labels in incident.items()
        if len(labels) != 2 or labels[0] != labels[1]
        or v[0] in (0, g.width) or v[1] in (0, g.height)
    )


# ----------------------------------------------------------------------------------------------
# Curves


WOBBLE = 0.2  # largest vertex displacement in grid units
COAST_WOBBLE = 1.8  # coast vertices wobble this much more
RELAX = 4  # rounds of Taubin smoothing of vertex positions
COAST_BUMP = 0.22  # sideways push of the extra midpoint of each coast edge (grid units)
RIVER_BUMP = 0.3  # the same for river edges


def _num(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _hash01(x: int, y: int, salt: int) -> float:
    h = zlib.crc32(f"{x},{y},{salt}".encode())
    return (h & 0xFFFF) / 0xFFFF


@functools.cache
def _positions() -> dict[Vertex, tuple[float, float]]:
    """Where each boundary vertex is drawn: the grid point plus a small fixed wobble.

    The wobble is a deterministic function of the vertex, so every curve that passes through a
    vertex (both areas' outlines, coast, river) passes through the same point. Frame vertices
    only slide along the frame.
    """
    g = load_geometry()
    areas = load_areas()
    coastal = set()
    for e, (a, b, _) in _boundary().items():
        kinds = {areas[a].kind if a else None, areas[b].kind if b else None}
        if "land" in kinds and ("sea" in kinds or "port" in kinds):
            coastal.update(e)
    nbrs: dict[Vertex, set] = {}
    for a, b in _boundary():
        nbrs.setdefault(a, set()).add(b)
        nbrs.setdefault(b, set()).add(a)
    pos = {}
    for v in nbrs:
        x, y = v
        amp = WOBBLE * (COAST_WOBBLE if v in coastal else 1.0)
        pos[v] = (x + (2 * _hash01(x, y, 1) - 1) * amp, y + (2 * _hash01(x, y, 2) - 1) * amp)
    # Taubin smoothing (a shrinking then an inflating Laplacian step) softens the grid's right
    # angles without shrinking small areas and islands much
    for factor in (0.5, -0.53) * RELAX:
        nxt = {}
        for v, ns in nbrs.items():
            ax = sum(pos[n][0] for n in ns) / len(ns)
            ay = sum(pos[n][1] for n in ns) / len(ns)
            px, py = pos[v]
            nxt[v] = (px + (ax - px) * factor, py + (ay - py) * factor)
        pos = nxt
    out = {}
    for v, (px, py) in pos.items():
        x, y = v
        out[v] = (x if x in (0, g.width) else px, y if y in (0, g.height) else py)
    return out


@functools.cache
def _coast_bumps() -> dict[Edge, tuple[float, float]]:
    """For each coast edge (land against sea or port) and river edge, a midpoint pushed
    sideways a little (rivers meander, shores are irregular).

    A function of the edge alone, so the coast, the land and the sea outlines share it.
    """
    areas = load_areas()
    pos = _positions()
    out = {}
    for e, (a, b, kind) in _boundary().items():
        kinds = {areas[a].kind if a else None, areas[b].kind if b else None}
        if kind in ("river", "bridge"):
            amp = RIVER_BUMP
        elif "land" in kinds and kinds & {"sea", "port"}:
            amp = COAST_BUMP
        else:
            continue
        (ax, ay), (bx, by) = pos[e[0]], pos[e[1]]
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = (ay - by) / length, (bx - ax) / length  # unit normal
        k = (2 * _hash01(e[0][0] + e[1][0], e[0][1] + e[1][1], 3) - 1) * amp
        if kind == "bridge":
            k = 0.0  # keep the bridge where it is drawn
        out[e] = ((ax + bx) / 2 + nx * k, (ay + by) / 2 + ny * k)
    return out


def _pt(p) -> str:
    return f"{_num(p[0] * CELL)} {_num(p[1] * CELL)}"


def _mid(a, b):
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _smooth(verts: list, closed: bool) -> str:
    """Path data through grid vertices: a quadratic B-spline that stays sharp at junctions.

    Each non-junction vertex is the control point of a quadratic curve between the midpoints
    of its two segments; junctions (and the ends of an open line) are passed through exactly.
    The result depends only on the vertices, not on the direction of travel, so two areas
    sharing a border draw the same curve.
    """
    junctions = _junctions()
    pos = _positions()
    if closed and verts[0] == verts[-1]:
        verts = verts[:-1]
    n = len(verts)
    is_j = [v in junctions or (not closed and i in (0, n - 1)) for i, v in enumerate(verts)]
    P = [pos[v] for v in verts]
    # coast and river edges get an extra, displaced midpoint: irregular shores, meanders
    bumps = _coast_bumps()
    P2, J2 = [], []
    for i in range(n):
        P2.append(P[i])
        J2.append(is_j[i])
        if closed or i < n - 1:
            e = _edge(verts[i], verts[(i + 1) % n])
            if e in bumps:
                P2.append(bumps[e])
                J2.append(False)
    P, is_j, n = P2, J2, len(P2)
    out = []
    if closed and not any(is_j):
        out.append("M" + _pt(_mid(P[-1], P[0])))
        for i in range(n):
            out.append("Q" + _pt(P[i]) + " " + _pt(_mid(P[i], P[(i + 1) % n])))
        out.append("Z")
        return "".join(out)
    if closed:
        s = is_j.index(True)  # start on a junction
        P, is_j = P[s:] + P[:s], is_j[s:] + is_j[:s]
        P.append(P[0])
        is_j.append(True)
    out.append("M" + _pt(P[0]))
    for i in range(1, len(P)):
        if is_j[i]:
            out.append("L" + _pt(P[i]))
        else:
            if is_j[i - 1]:
                out.append("L" + _pt(_mid(P[i - 1], P[i])))
            out.append("Q" + _pt(P[i]) + " " + _pt(_mid(P[i], P[i + 1])))
    if closed:
        out.append("Z")
    return "".join(out)


def _rings(area_id: str) -> list[list[Vertex]]:
    """Closed boundary rings of an area (outer outline and holes), as vertex lists."""
    cells = set(_area_cells()[area_id])
    nexts: dict[Vertex, list[Vertex]] = {}
    for x, y in cells:
        # clockwise on screen (y down): top, right, bottom, left
        for (a, b), nb in ((((x, y), (x + 1, y)), (x, y - 1)),
                           (((x + 1, y), (x + 1, y + 1)), (x + 1, y)),
                           (((x + 1, y + 1), (x, y + 1)), (x, y + 1)),
                           (((x, y + 1), (x, y)), (x - 1, y))):
            if nb not in cells:
                nexts.setdefault(a, []).append(b)
    rings = []
    for start in sorted(nexts):
        while nexts.get(start):
            ring = [start]
            v = nexts[start].pop()
            while v != start:
                ring.append(v)
                v = nexts[v].pop()
            rings.append(ring)
    return rings


def _trace_paths(edges: set) -> list[tuple[list[Vertex], bool]]:
    """Split a set of unit edges into maximal polylines (breaking at vertices of degree != 2).

    Returns ``[(vertices, closed)]`` in a deterministic order.
    """
    adj: dict[Vertex, list[Vertex]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj:
        adj[v].sort()
    used = set()
    paths = []
    ends = sorted(v for v, ns in adj.items() if len(ns) != 2)
    for s in ends:
        for nb in adj[s]:
            if _edge(s, nb) in used:
                continue
            path = [s]
            prev, cur = s, nb
            used.add(_edge(prev, cur))
            while True:
                path.append(cur)
                if len(adj[cur]) != 2:
                    break
                nxt = next(w for w in adj[cur] if w != prev)
                if _edge(cur, nxt) in used:
                    break
                used.add(_edge(cur, nxt))
                prev, cur = cur, nxt
            paths.append((path, False))
    for s in sorted(adj):  # remaining closed loops
        for nb in adj[s]:
            if _edge(s, nb) in used:
                continue
            path = [s]
            prev, cur = s, nb
            used.add(_edge(prev, cur))
            while cur != s:
                path.append(cur)
                nxt = next(w for w in adj[cur] if w != prev and _edge(cur, w) not in used)
                used.add(_edge(cur, nxt))
                prev, cur = cur, nxt
            paths.append((path, True))
    return paths


# ----------------------------------------------------------------------------------------------
# Anchors (where the overlay puts things)


@functools.cache
def _clearance_map(area_id: str) -> dict:
    """Half-cell lattice points inside the area -> distance to the nearest foreign cell/frame."""
    cells = set(_area_cells()[area_id])
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    # the nearest cell outside the area is always one that touches the area (or the frame)
    foreign = {(x + dx, y + dy) for x, y in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    foreign -= cells
    pts = {}
    for i in range(2 * min(xs) + 1, 2 * max(xs) + 2):
        for j in range(2 * min(ys) + 1, 2 * max(ys) + 2):
            px, py = i / 2, j / 2
            touching = {(math.floor(px - 0.25 + dx), math.floor(py - 0.25 + dy))
                        for dx in (0, 0.5) for dy in (0, 0.5)}
            if not touching <= cells:
                continue
            best = 9.0
            for fx, fy in foreign:
                ddx = max(fx - px, 0, px - (fx + 1))
                ddy = max(fy - py, 0, py - (fy + 1))
                best = min(best, math.hypot(ddx, ddy))
            pts[(px, py)] = best
    return pts


def _hrun(area_id: str, p) -> float:
    """Width (grid units) of room for a label centred at ``p``: twice the distance to the
    nearer end of the area's horizontal run(s) of cells through ``p``."""
    cells = set(_area_cells()[area_id])
    rows = {math.floor(p[1] - 0.25), math.floor(p[1] + 0.25)}
    x0 = math.floor(p[0] - 0.25)
    width = 99.0
    for yy in rows:
        if (x0, yy) not in cells:
            return 0.0
        lo = hi = x0
        while (lo - 1, yy) in cells:
            lo -= 1
        while (hi + 1, yy) in cells:
            hi += 1
        width = min(width, 2 * min(p[0] - lo, hi + 1 - p[0]))
    return width


@functools.cache
def _anchors_grid() -> dict[str, dict[str, tuple[float, float]]]:
    g = load_geometry()
    areas = load_areas()
    out = {}
    for aid, area in areas.items():
        clear = _clearance_map(aid)
        cells = _area_cells()[aid]
        cx = sum(c[0] + 0.5 for c in cells) / len(cells)
        cy = sum(c[1] + 0.5 for c in cells) / len(cells)
        over = g.anchor_overrides.get(aid, {})

        min_x, min_y = min(c[0] for c in cells), min(c[1] for c in cells)
        n_rows = max(c[1] for c in cells) - min_y + 1
        widest = max(sum(1 for c in cells if c[1] == y) for y in {c[1] for c in cells})
        small = area.kind != "port" and len(cells) <= 12 and widest <= 3

        def label_score(p):
            score = (min(clear[p], 1.6) + 0.22 * min(_hrun(aid, p), 6)
                     - 0.08 * math.dist(p, (cx, cy)))
            if small and n_rows >= 3:  # small area: name on top, room for tokens below
                score -= 0.8 * max(0.0, p[1] - (min_y + 0.75))
            elif small:  # small and flat: name on the left, tokens on the right
                score -= 0.3 * max(0.0, p[0] - (min_x + 1.0))
            return score

        label = over.get("label") or max(sorted(clear), key=label_score)
        chosen = {"label": label}
        # the label block (name in either language, and the icon row under it) stays free
        room = _hrun(aid, label) * CELL - 4
        lines = _wrap(area.name_en, "en", room) + _wrap(area.name_zh, "zh", room)
        half_w = max(_text_width(ln) for ln in lines) / 2 / CELL if area.kind != "port" else 0.3
        top, bottom = label[1] - 0.5, label[1] + (0.95 if area.kind == "land" else 0.5)

        def room_from_label(p):
            dx = max(abs(p[0] - label[0]) - half_w, 0)
            dy = max(top - p[1], 0, p[1] - bottom)
            return math.hypot(dx, dy)

        names = ["units", "order"] + (["power"] if area.kind == "land" else [])
        for name in names:
            if name in over:
                chosen[name] = over[name]
                continue
            others = [q for k, q in chosen.items() if k != "label"]

            def score(p):
                d = room_from_label(p)
                if others:
                    d = min(d, min(math.dist(p, q) for q in others) - 0.7)
                return (0.8 * min(clear[p], 1.2) + min(d, 1.8) - (1.5 if d < 0.35 else 0)
                        - 0.04 * math.dist(p, (cx, cy)))

            free = [p for p in sorted(clear) if p not in chosen.values()] or sorted(clear)
            chosen[name] = max(free, key=score)
        out[aid] = chosen
    return out


def area_anchors() -> dict[str, dict[str, list[float]]]:
    """Anchor points per area, in SVG user units, for the browser overlay.

    ``{area_id: {"label": [x, y], "units": [x, y], "order": [x, y], "power": [x, y]}}``;
    ``power`` only for land areas (power tokens go on land). The same points are on the area
    element as ``data-label``, ``data-units``, ``data-order``, ``data-power`` ("x,y").
    """
    return {
        aid: {k: [round(p[0] * CELL, 1), round(p[1] * CELL, 1)] for k, p in pts.items()}
        for aid, pts in _anchors_grid().items()
    }


# ----------------------------------------------------------------------------------------------
# Drawing

LAND_TONES = ("#efe2bf", "#e4d3a6", "#dedfb6", "#ecd6b0", "#e6dcc4")
SEA_TONES = ("#a3c9de", "#98c0d8", "#abd0e2")
HOUSE_COLOURS = {
    "stark": ("#7d8791", "#f4f4f4"),
    "lannister": ("#a3262a", "#f2c84b"),
    "greyjoy": ("#2b2b2b", "#e6c350"),
    "tyrell": ("#3d7a37", "#f2d65a"),
    "baratheon": ("#e3b52a", "#2a2a2a"),
    "martell": ("#dc7a2c", "#b3261e"),
}

STYLE = """
.board{font-family:Georgia,'Noto Serif','Noto Serif CJK SC','Source Han Serif SC','Songti SC','SimSun',serif}
.area{stroke-linejoin:round;fill-rule:evenodd;cursor:pointer}
.area.land{stroke:#9b845c;stroke-width:1}
.area.sea{stroke:#6f9fbd;stroke-width:1;stroke-dasharray:5 4}
.area.port{fill:#c4dfec;stroke:#6f9fbd;stroke-width:1;stroke-dasharray:2 2}
.area:focus{outline:none;stroke:#c0392b;stroke-width:3;stroke-dasharray:none}
.area:hover{filter:brightness(1.06)}
.shallows{fill:none;stroke:#cfe6f1;stroke-width:9;stroke-linejoin:round;stroke-linecap:round}
.coast{fill:none;stroke:#4b5d66;stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}
.river{fill:none;stroke:#4f8dbf;stroke-width:3.4;stroke-linejoin:round;stroke-linecap:round}
.bridge rect{fill:#b08a5a;stroke:#5a4126;stroke-width:.8}
.deco,.labels{pointer-events:none}
.name{fill:#3a2d1c;font-size:10px;text-anchor:middle;paint-order:stroke;stroke:#f7efd9;stroke-width:2.6px;stroke-linejoin:round}
.name.sea{fill:#23506d;font-style:italic;font-size:11px;stroke:#cfe6f1;letter-spacing:.3px}
.name.zh{font-size:11px;letter-spacing:0}
.name.sea.zh{font-size:12px}
.name.big{font-size:12.5px}
.name.zh.big{font-size:13.5px}
.name.sea.big{font-size:13px}
.name.sea.zh.big{font-size:14px}
.compass{pointer-events:none}
"""


def normalize_lang(lang: str) -> str:
    """``"en"`` or ``"zh"`` for a language code (``zh-hans``, ``en-us``...); ValueError else."""
    key = (lang or "en").lower().replace("_", "-")
    if key.startswith("zh"):
        return "zh"
    if key.startswith("en"):
        return "en"
    raise ValueError(f"unsupported language {lang!r}; use one of {LANGS}")


def _colouring(kind: str, tones: tuple) -> dict[str, str]:
    """Greedy colouring so that touching areas of the same kind get different tones."""
    areas = load_areas()
    touching: dict[str, set] = {}
    for a, b, _ in _boundary().values():
        if a and b:
            touching.setdefault(a, set()).add(b)
            touching.setdefault(b, set()).add(a)
    out: dict[str, str] = {}
    ids = [a for a in areas if areas[a].kind == kind]
    ids.sort(key=lambda a: (-len(touching.get(a, ())), a))
    for a in ids:
        used = {out[n] for n in touching.get(a, ()) if n in out}
        out[a] = next((t for t in tones if t not in used), tones[0])
    return out


def _text_width(line: str) -> float:
    """Rough rendered width of a label line in user units (CJK glyphs are wider)."""
    return sum(11 if ord(ch) > 0x2E80 else 5.5 for ch in line)


def _wrap(name: str, lang: str, room: float) -> list[str]:
    """Split a name into lines that fit ``room`` user units (rough glyph widths)."""
    if lang == "zh":
        return [name] if len(name) * 11 <= max(room, 44) or len(name) <= 4 else \
            [name[: (len(name) + 1) // 2], name[(len(name) + 1) // 2:]]
    if _text_width(name) <= room or " " not in name:
        return [name]
    words = name.split(" ")
    best = None
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        cost = max(len(a), len(b))
        if best is None or cost < best[0]:
            best = (cost, [a, b])
    return best[1]


def _defs(dwg) -> None:
    s = dwg.symbol(id="i-castle", viewBox="0 0 12 12")
    s.add(dwg.path(d="M2 11V4h1.6v1.4h1.3V4h2.2v1.4h1.3V4H10v7z", fill="#f6f0e0", stroke="#3b2f20",
                   stroke_width=1, stroke_linejoin="round"))
    s.add(dwg.rect(insert=(5, 7.6), size=(2, 3.4), fill="#3b2f20"))
    dwg.defs.add(s)
    s = dwg.symbol(id="i-stronghold", viewBox="0 0 16 13")
    s.add(dwg.path(d="M1 12.5V3h2v1.6h1.4V3h2v3.5h3.2V3h2v1.6H13V3h2v9.5z", fill="#f6f0e0",
                   stroke="#3b2f20", stroke_width=1.1, stroke_linejoin="round"))
    s.add(dwg.path(d="M6.5 12.5V9.5a1.5 1.5 0 0 1 3 0v3z", fill="#3b2f20"))
    dwg.defs.add(s)
    s = dwg.symbol(id="i-barrel", viewBox="0 0 10 12")
    s.add(dwg.path(d="M2 1h6q1.6 5 0 10H2Q.4 6 2 1z", fill="#b07a3e", stroke="#4a3015",
                   stroke_width=.9))
    s.add(dwg.path(d="M1.2 4h7.6M1.2 8h7.6", stroke="#4a3015", stroke_width=.8))
    dwg.defs.add(s)
    s = dwg.symbol(id="i-crown", viewBox="0 0 12 10")
    s.add(dwg.path(d="M1 8.5 .6 2.2 3.6 5 6 1l2.4 4 3-2.8-.4 6.3z", fill="#e9c046",
                   stroke="#6b4f0e", stroke_width=.8, stroke_linejoin="round"))
    dwg.defs.add(s)
    s = dwg.symbol(id="i-anchor", viewBox="0 0 12 12")
    s.add(dwg.path(d="M6 2.6v8M3.6 4.6h4.8M1.8 7.2Q2.4 10.6 6 10.6T10.2 7.2", fill="none",
                   stroke="#2d5670", stroke_width=1.2, stroke_linecap="round"))
    s.add(dwg.circle(center=(6, 2), r=1.2, fill="none", stroke="#2d5670", stroke_width=1))
    dwg.defs.add(s)
    shield = "M1 1h12v6.2q0 4.4-6 6.8Q1 11.6 1 7.2z"
    marks = {
        # simple geometric house marks (not the printed art)
        "stark": "M3.6 3.4 7 5.4l3.4-2-1 4.4L7 11 4.6 7.8z",  # wolf's head, as a lozenge
        "lannister": "M3 8.6 4.2 4.2 7 6.4l2.8-2.2L11 8.6z",  # crown-like peaks
        "greyjoy": "M7 2.8a2.2 2.2 0 1 1 0 4.4 2.2 2.2 0 1 1 0-4.4zM4.6 7.6l-1 3.6M6.2 7.8 6 11.6"
                   "M7.8 7.8l.2 3.8M9.4 7.6l1 3.6",  # kraken: head and arms
        "tyrell": "M7 3.2a1.6 1.6 0 0 1 1.6 1.6 1.6 1.6 0 0 1 1.6 1.8 1.6 1.6 0 0 1-1 2.6 1.6 1.6"
                  " 0 0 1-2.2 1 1.6 1.6 0 0 1-2.2-1 1.6 1.6 0 0 1-1-2.6 1.6 1.6 0 0 1 1.6-1.8A1.6"
                  " 1.6 0 0 1 7 3.2z",  # rose
        "baratheon": "M3 3.4 5 7.2 7 5.6l2 1.6 2-3.8M5 7.2 7 10.6l2-3.4",  # antlers / stag
        "martell": "M7 4.2a2.6 2.6 0 1 1 0 5.2 2.6 2.6 0 1 1 0-5.2zM7 2.2v1.4M7 10.2v1.4M3.6 6.8"
                   "h1.4M9 6.8h1.4",  # sun with rays
    }
    for house, (field, tincture) in HOUSE_COLOURS.items():
        s = dwg.symbol(id=f"crest-{house}", viewBox="0 0 14 15")
        s.add(dwg.path(d=shield, fill=field, stroke="#2a2118", stroke_width=1))
        stroked = house in ("greyjoy", "baratheon", "martell")
        s.add(dwg.path(d=marks[house], fill="none" if stroked and house != "martell" else tincture,
                       stroke=tincture if stroked else "none", stroke_width=1.3,
                       stroke_linecap="round", stroke_linejoin="round"))
        dwg.defs.add(s)


def _icon_row(dwg, group, area: Area, x: float, y: float) -> None:
    """Crest, castle or stronghold, barrels and crowns, centred at (x, y) (user units)."""
    items = []
    if area.home_of:
        items.append((f"#crest-{area.home_of}", 11, 12, f"crest {area.home_of}"))
    if area.castle == "stronghold":
        items.append(("#i-stronghold", 14, 11.4, "stronghold"))
    elif area.castle == "castle":
        items.append(("#i-castle", 11, 11, "castle"))
    items += [("#i-barrel", 7.5, 9, "barrel")] * area.supply
    items += [("#i-crown", 10, 8.3, "crown")] * area.power
    if not items:
        return
    gap = 1.6
    total = sum(w for _, w, _, _ in items) + gap * (len(items) - 1)
    cx = x - total / 2
    for href, w, h, cls in items:
        use = dwg.use(href, insert=(round(cx, 1), round(y - h / 2, 1)), size=(w, h))
        use["class"] = "icon " + cls.split()[0]
        group.add(use)
        cx += w + gap


@functools.cache
def _render(lang: str) -> str:
    g = load_geometry()
    areas = load_areas()
    anchors = _anchors_grid()
    w, h = g.width * CELL, g.height * CELL
    dwg = svgwrite.Drawing(size=("100%", "100%"), viewBox=f"0 0 {w} {h}", debug=False,
                           profile="full")
    dwg["class"] = "board"
    dwg["id"] = "board-agot2"
    dwg["preserveAspectRatio"] = "xMidYMid meet"
    dwg["role"] = "group"
    dwg["aria-label"] = "Westeros" if lang == "en" else "维斯特洛"
    dwg["lang"] = "en" if lang == "en" else "zh-Hans"
    dwg.add(dwg.style(STYLE))
    _defs(dwg)

    land_tone = _colouring("land", LAND_TONES)
    sea_tone = _colouring("sea", SEA_TONES)

    dwg.add(dwg.rect(insert=(0, 0), size=(w, h), fill=SEA_TONES[0], class_="frame"))
    layer = {name: dwg.g(id=f"layer-{name}") for name in
             ("seas", "ports", "shallows", "lands", "coast", "rivers", "bridges", "labels")}
    for name in ("shallows", "coast", "rivers", "bridges", "labels"):
        layer[name]["class"] = "deco" if name != "labels" else "labels"
        layer[name]["aria-hidden"] = "true"
    order = ["seas", "shallows", "ports", "lands", "coast", "rivers", "bridges", "labels"]

    # document order (and so keyboard order): seas, ports, lands, each north to south
    reading = sorted(areas, key=lambda a: (anchors[a]["label"][1], anchors[a]["label"][0]))
    for aid in reading:
        area = areas[aid]
        d = "".join(_smooth(ring, closed=True) for ring in _rings(aid))
        name = area.name_en if lang == "en" else area.name_zh
        path = dwg.path(d=d, id=f"area-{aid}")
        path["class"] = f"area {area.kind}"
        if area.kind == "land":
            path["fill"] = land_tone[aid]
        elif area.kind == "sea":
            path["fill"] = sea_tone[aid]
        path["tabindex"] = "0"
        path["role"] = "button"
        path["aria-label"] = name
        path["data-area"] = aid
        for key, p in anchors[aid].items():
            path[f"data-{key}"] = f"{_num(p[0] * CELL)},{_num(p[1] * CELL)}"
        path.set_desc(title=name)
        layer[{"land": "lands", "sea": "seas", "port": "ports"}[area.kind]].add(path)

    # coastlines: land against sea or port; shallows: a pale band on the sea side
    b = _boundary()

    def kind_of(a):
        return areas[a].kind if a else None

    coast_edges = {e for e, (p, q, _) in b.items()
                   if {kind_of(p), kind_of(q)} in ({"land", "sea"}, {"land", "port"})}
    coast_d = "".join(_smooth(vs, closed) for vs, closed in _trace_paths(coast_edges))
    dwg.defs.add(dwg.path(d=coast_d, id="coastline"))
    layer["shallows"].add(dwg.use("#coastline", class_="shallows"))
    layer["coast"].add(dwg.use("#coastline", class_="coast"))

    pos = _positions()
    for river in g.rivers:
        edges = set(_polyline_edges(river.path, river.id))
        d = "".join(_smooth(vs, closed) for vs, closed in _trace_paths(edges))
        el = dwg.path(d=d, class_="river", id=f"river-{river.id}")
        sep = sorted({" ".join(sorted((p, q))) for e in edges for (p, q, k) in [b.get(e, (None,) * 3)]
                      if k == "river" and p and q and p != q})
        el["data-separates"] = ";".join(sep)
        layer["rivers"].add(el)

    for e in sorted(g.bridge_edges):
        (ax, ay), (bx, by) = pos[e[0]], pos[e[1]]
        mx, my = (ax + bx) / 2 * CELL, (ay + by) / 2 * CELL
        angle = math.degrees(math.atan2(by - ay, bx - ax))  # along the river
        p, q, _ = b[e]
        grp = dwg.g(class_="bridge", transform=f"translate({_num(mx)} {_num(my)}) rotate({_num(angle)})")
        grp["data-joins"] = " ".join(sorted((p, q)))
        grp.add(dwg.rect(insert=(-3.5, -8), size=(7, 16), rx=1.5))
        grp.add(dwg.path(d="M-3.5-8v16M3.5-8v16", stroke="#5a4126", stroke_width=1.6))
        layer["bridges"].add(grp)

    for aid, area in areas.items():
        pts = anchors[aid]
        lx, ly = pts["label"][0] * CELL, pts["label"][1] * CELL
        label = dwg.g(class_="label")  # one group per area, so the overlay can dim or hide it
        label["data-area"] = aid
        layer["labels"].add(label)
        if area.kind == "port":
            label.add(dwg.use("#i-anchor", insert=(round(lx - 5.5, 1), round(ly - 5.5, 1)),
                              size=(11, 11)))
            continue
        name = area.name_en if lang == "en" else area.name_zh
        room = _hrun(aid, pts["label"]) * CELL - 4
        lines = _wrap(name, lang, room)
        icons = area.kind == "land" and (area.castle or area.supply or area.power or area.home_of)
        big = (_clearance_map(aid)[pts["label"]] >= 1.4
               and room >= 1.35 * max(_text_width(ln) for ln in lines))
        lh = 13 if big else 11
        top = ly - (len(lines) - 1) * lh / 2 - (4 if icons else 0)
        cls = f"name {area.kind}" + (" zh" if lang == "zh" else "") + (" big" if big else "")
        t = dwg.text("", insert=(round(lx, 1), round(top + 3.4, 1)), class_=cls)
        if len(lines) == 1:
            t.text = lines[0]
        else:
            for i, ln in enumerate(lines):
                t.add(dwg.tspan(ln, x=[round(lx, 1)], dy=[0 if i == 0 else lh]))
        label.add(t)
        if icons:
            _icon_row(dwg, label, area, lx, top + (len(lines) - 1) * lh + 12.5)

    for name in order:
        dwg.add(layer[name])
    # the Wall: an icy band along the top of Castle Black (decoration)
    wall_cols = sorted(x for (x, y), a in g.cells.items() if a == "castle-black" and y == 0)
    if wall_cols:
        x0, x1 = pos[(wall_cols[0], 0)][0] * CELL, pos[(wall_cols[-1] + 1, 0)][0] * CELL
        wall = dwg.g(class_="deco wall")
        wall["aria-hidden"] = "true"
        wall.add(dwg.rect(insert=(x0, 0), size=(x1 - x0, 9), fill="#eef5f9", stroke="#8fa9ba",
                          stroke_width=1))
        wall.add(dwg.line(start=(x0, 4.5), end=(x1, 4.5), stroke="#b9ccd8", stroke_width=1,
                          stroke_dasharray="6 3"))
        dwg.add(wall)
    dwg.add(_compass(dwg, 2.1 * CELL, 2.3 * CELL, "N" if lang == "en" else "北"))
    frame = dwg.rect(insert=(1, 1), size=(w - 2, h - 2), fill="none", stroke="#2d5670",
                     stroke_width=2, class_="deco")
    frame["aria-hidden"] = "true"
    dwg.add(frame)
    return dwg.tostring()


def _compass(dwg, x: float, y: float, north: str):
    """A small compass rose (decoration, hidden from assistive technology)."""
    grp = dwg.g(class_="compass", transform=f"translate({_num(x)} {_num(y)})")
    grp["aria-hidden"] = "true"
    grp.add(dwg.circle(center=(0, 0), r=13, fill="none", stroke="#2d5670", stroke_width=.8,
                       opacity=.7))
    grp.add(dwg.path(d="M0-18 3.2 0 0 18-3.2 0zM-18 0 0-3.2 18 0 0 3.2z", fill="#f7efd9",
                     stroke="#2d5670", stroke_width=.8, stroke_linejoin="round"))
    grp.add(dwg.path(d="M0-18 3.2 0H-3.2zM18 0 0 3.2V-3.2z", fill="#2d5670"))
    t = dwg.text(north, insert=(0, -21), class_="name sea")
    grp.add(t)
    return grp


def render_board(lang: str = "en") -> str:
    """The whole board as an SVG document string (cached per language).

    ``lang``: ``"en"`` or ``"zh"`` (``"zh-hans"``, ``"en-us"``... are accepted). Raises
    ``ValueError`` for any other language. The root ``<svg>`` has ``viewBox`` only (it scales
    to its container); each area is ``<path id="area-<id>" class="area land|sea|port">``.
    """
    return _render(normalize_lang(lang))


def main(argv=None) -> int:
    """``python -m game.mapdraw [--lang en|zh] [--out FILE]``: write the SVG, print figures and
    any difference between the drawn adjacency and ``adjacency.json`` (exit 1 if any)."""
    import argparse
    import gzip
    import sys
    import time

    parser = argparse.ArgumentParser(prog="python -m game.mapdraw", description=main.__doc__)
    parser.add_argument("--lang", default="en", help="en or zh (default en)")
    parser.add_argument("--out", default="-", help="output file (default: none, '-' = skip)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    svg = render_board(args.lang)
    elapsed = time.perf_counter() - t0
    if args.out != "-":
        Path(args.out).write_text(svg, encoding="utf-8")
    raw = svg.encode()
    print(f"board {args.lang}: {len(raw)} bytes raw, {len(gzip.compress(raw, 9))} bytes gzipped, "
          f"rendered in {elapsed:.3f} s", file=sys.stderr)
    drawn, rules = drawn_adjacency(), set(load_adjacency())
    for label, pairs in (("missing on the map", rules - drawn), ("extra on the map", drawn - rules)):
        for pair in sorted(tuple(sorted(p)) for p in pairs):
            print(f"{label}: {pair[0]} - {pair[1]}", file=sys.stderr)
    return 1 if drawn != rules else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
