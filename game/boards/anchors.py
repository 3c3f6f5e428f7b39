"""Anchors: where the browser's overlay puts units, tokens and labels in each area
(:func:`area_anchors`, sent as ``data-*`` attributes of every ``area-<id>`` path). Pure; every
function takes the board as the keyword ``board`` (default ``"agot2"``)."""

from __future__ import annotations

import math

from .geometry import CELL, DEFAULT_BOARD, area_cells, load_areas, load_geometry, per_board
from .labels import text_width, wrap_name


@per_board
def clearance_map(area_id: str, board) -> dict:
    """Half-cell lattice points inside the area -> distance to the nearest foreign cell/frame."""
    cells = set(area_cells(board=board)[area_id])
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


def hrun(area_id: str, p, board: str = DEFAULT_BOARD) -> float:
    """Width (grid units) of room for a label centred at ``p``: twice the distance to the
    nearer end of the area's horizontal run(s) of cells through ``p``."""
    cells = set(area_cells(board=board)[area_id])
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


@per_board
def anchors_grid(board) -> dict[str, dict[str, tuple[float, float]]]:
    """:func:`area_anchors` in grid units (tuples)."""
    g = load_geometry(board=board)
    areas = load_areas(board=board)
    out = {}
    for aid, area in areas.items():
        clear = clearance_map(aid, board=board)
        cells = area_cells(board=board)[aid]
        cx = sum(c[0] + 0.5 for c in cells) / len(cells)
        cy = sum(c[1] + 0.5 for c in cells) / len(cells)
        over = g.anchor_overrides.get(aid, {})

        min_x, min_y = min(c[0] for c in cells), min(c[1] for c in cells)
        n_rows = max(c[1] for c in cells) - min_y + 1
        widest = max(sum(1 for c in cells if c[1] == y) for y in {c[1] for c in cells})
        small = area.kind != "port" and len(cells) <= 12 and widest <= 3

        def label_score(p):
            score = (min(clear[p], 1.6) + 0.22 * min(hrun(aid, p, board), 6)
                     - 0.08 * math.dist(p, (cx, cy)))
            if small and n_rows >= 3:  # small area: name on top, room for tokens below
                score -= 0.8 * max(0.0, p[1] - (min_y + 0.75))
            elif small:  # small and flat: name on the left, tokens on the right
                score -= 0.3 * max(0.0, p[0] - (min_x + 1.0))
            return score

        label = over.get("label") or max(sorted(clear), key=label_score)
        chosen = {"label": label}
        # the label block (name in either language, and the icon row under it) stays free
        room = hrun(aid, label, board) * CELL - 4
        lines = wrap_name(area.name_en, "en", room) + wrap_name(area.name_zh, "zh", room)
        half_w = max(text_width(ln) for ln in lines) / 2 / CELL if area.kind != "port" else 0.3
        top, bottom = label[1] - 0.6, label[1] + (1.1 if area.kind == "land" else 0.6)

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


def area_anchors(board: str = DEFAULT_BOARD) -> dict[str, dict[str, list[float]]]:
    """Anchor points per area, in SVG user units, for the browser overlay.

    ``{area_id: {"label": [x, y], "units": [x, y], "order": [x, y], "power": [x, y]}}``;
    ``power`` only for land areas (power tokens go on land). The same points are on the area
    element as ``data-label``, ``data-units``, ``data-order``, ``data-power`` ("x,y").
    """
    return {
        aid: {k: [round(p[0] * CELL, 1), round(p[1] * CELL, 1)] for k, p in pts.items()}
        for aid, pts in anchors_grid(board=board).items()
    }
