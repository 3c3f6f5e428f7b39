"""Area outlines as smooth SVG paths: the grid's boundary vertices wobbled and relaxed, each
area's rings traced and smoothed into curves that the neighbours on both sides share exactly
(holes for islands, ``fill-rule: evenodd``). Pure; from :mod:`game.boards.geometry`. Every
function that reads a board takes it as the keyword ``board`` (default ``"agot2"``)."""

from __future__ import annotations

import math
import zlib

from .geometry import (
    CELL, DEFAULT_BOARD, Edge, Vertex, area_cells, boundary, grid_edge, junction_vertices, load_areas, load_geometry,
    per_board,
)


WOBBLE = 0.2  # largest vertex displacement in grid units
COAST_WOBBLE = 1.8  # coast vertices wobble this much more
RELAX = 4  # rounds of Taubin smoothing of vertex positions
COAST_BUMP = 0.22  # sideways push of the extra midpoint of each coast edge (grid units)
RIVER_BUMP = 0.3  # the same for river edges


def fmt_num(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _hash01(x: int, y: int, salt: int) -> float:
    h = zlib.crc32(f"{x},{y},{salt}".encode())
    return (h & 0xFFFF) / 0xFFFF


@per_board
def vertex_positions(board) -> dict[Vertex, tuple[float, float]]:
    """Where each boundary vertex is drawn: the grid point plus a small fixed wobble.

    The wobble is a deterministic function of the vertex, so every curve that passes through a
    vertex (both areas' outlines, coast, river) passes through the same point. Frame vertices
    only slide along the frame.
    """
    g = load_geometry(board=board)
    areas = load_areas(board=board)
    coastal = set()
    for e, (a, b, _) in boundary(board=board).items():
        kinds = {areas[a].kind if a else None, areas[b].kind if b else None}
        if "land" in kinds and ("sea" in kinds or "port" in kinds):
            coastal.update(e)
    nbrs: dict[Vertex, set] = {}
    for a, b in boundary(board=board):
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


@per_board
def _coast_bumps(board) -> dict[Edge, tuple[float, float]]:
    """For each coast edge (land against sea or port) and river edge, a midpoint pushed
    sideways a little (rivers meander, shores are irregular).

    A function of the edge alone, so the coast, the land and the sea outlines share it.
    """
    areas = load_areas(board=board)
    pos = vertex_positions(board=board)
    out = {}
    for e, (a, b, kind) in boundary(board=board).items():
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
    return f"{fmt_num(p[0] * CELL)} {fmt_num(p[1] * CELL)}"


def _mid(a, b):
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def smooth_path(verts: list, closed: bool, board: str = DEFAULT_BOARD) -> str:
    """Path data through grid vertices: a quadratic B-spline that stays sharp at junctions.

    Each non-junction vertex is the control point of a quadratic curve between the midpoints
    of its two segments; junctions (and the ends of an open line) are passed through exactly.
    The result depends only on the vertices, not on the direction of travel, so two areas
    sharing a border draw the same curve.
    """
    junctions = junction_vertices(board=board)
    pos = vertex_positions(board=board)
    if closed and verts[0] == verts[-1]:
        verts = verts[:-1]
    n = len(verts)
    is_j = [v in junctions or (not closed and i in (0, n - 1)) for i, v in enumerate(verts)]
    P = [pos[v] for v in verts]
    # coast and river edges get an extra, displaced midpoint: irregular shores, meanders
    bumps = _coast_bumps(board=board)
    P2, J2 = [], []
    for i in range(n):
        P2.append(P[i])
        J2.append(is_j[i])
        if closed or i < n - 1:
            e = grid_edge(verts[i], verts[(i + 1) % n])
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


def area_rings(area_id: str, board: str = DEFAULT_BOARD) -> list[list[Vertex]]:
    """Closed boundary rings of an area (outer outline and holes), as vertex lists."""
    cells = set(area_cells(board=board)[area_id])
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


def trace_paths(edges: set) -> list[tuple[list[Vertex], bool]]:
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
            if grid_edge(s, nb) in used:
                continue
            path = [s]
            prev, cur = s, nb
            used.add(grid_edge(prev, cur))
            while True:
                path.append(cur)
                if len(adj[cur]) != 2:
                    break
                nxt = next(w for w in adj[cur] if w != prev)
                if grid_edge(cur, nxt) in used:
                    break
                used.add(grid_edge(cur, nxt))
                prev, cur = cur, nxt
            paths.append((path, False))
    for s in sorted(adj):  # remaining closed loops
        for nb in adj[s]:
            if grid_edge(s, nb) in used:
                continue
            path = [s]
            prev, cur = s, nb
            used.add(grid_edge(prev, cur))
            while cur != s:
                path.append(cur)
                nxt = next(w for w in adj[cur] if w != prev and grid_edge(cur, w) not in used)
                used.add(grid_edge(cur, nxt))
                prev, cur = cur, nxt
            paths.append((path, True))
    return paths
