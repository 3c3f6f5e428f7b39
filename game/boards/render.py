"""The board of Westeros as one SVG document, drawn with svgwrite from the project's geometry.

* every area is ONE ``<path id="area-<id>">`` (its outline from :mod:`game.boards.outline`), with
  class ``area land|sea|port``, ``<title>``, ``aria-label``, ``tabindex`` and ``data-*`` anchor
  points for the browser overlay (:mod:`game.boards.anchors`);
* coastlines, rivers, bridges, castles and strongholds, barrels, crowns, home-area crests and
  area names (English or simplified Chinese) are drawn on top, non-interactive.

One drawing code for every board (:data:`game.boards.geometry.BOARDS`: ``agot2``, ``agot1``).
Public API: :func:`render_board`; ``python -m game.boards.render`` writes it to a file.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import svgwrite

from .anchors import anchors_grid, clearance_map, hrun
from .geometry import (
    BOARDS, CELL, DEFAULT_BOARD, Area, boundary, check_board, drawn_adjacency, load_adjacency, load_areas, load_geometry,
    polyline_edges,
)
from .labels import normalize_lang, text_width, wrap_name
from .outline import area_rings, fmt_num, smooth_path, trace_paths, vertex_positions


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
.name{fill:#3a2d1c;font-size:15px;text-anchor:middle;paint-order:stroke;stroke:#f7efd9;stroke-width:3px;stroke-linejoin:round}
.name.sea{fill:#23506d;font-style:italic;font-size:15.5px;stroke:#cfe6f1;letter-spacing:.2px}
.name.zh{font-size:15.5px;letter-spacing:0}
.name.sea.zh{font-size:16px}
.name.big{font-size:17px}
.name.zh.big{font-size:17.5px}
.name.sea.big{font-size:17.5px}
.name.sea.zh.big{font-size:18px}
.compass{pointer-events:none}
"""



def _colouring(kind: str, tones: tuple, board: str) -> dict[str, str]:
    """Greedy colouring so that touching areas of the same kind get different tones."""
    areas = load_areas(board=board)
    touching: dict[str, set] = {}
    for a, b, _ in boundary(board=board).values():
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
def _render(lang: str, board: str) -> str:
    g = load_geometry(board=board)
    areas = load_areas(board=board)
    anchors = anchors_grid(board=board)
    w, h = g.width * CELL, g.height * CELL
    dwg = svgwrite.Drawing(size=("100%", "100%"), viewBox=f"0 0 {w} {h}", debug=False,
                           profile="full")
    dwg["class"] = "board"
    dwg["id"] = f"board-{board}"
    dwg["data-board"] = board
    dwg["preserveAspectRatio"] = "xMidYMid meet"
    dwg["role"] = "group"
    dwg["aria-label"] = "Westeros" if lang == "en" else "维斯特洛"
    dwg["lang"] = "en" if lang == "en" else "zh-Hans"
    dwg.add(dwg.style(STYLE))
    _defs(dwg)

    land_tone = _colouring("land", LAND_TONES, board)
    sea_tone = _colouring("sea", SEA_TONES, board)

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
        d = "".join(smooth_path(ring, True, board) for ring in area_rings(aid, board))
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
            path[f"data-{key}"] = f"{fmt_num(p[0] * CELL)},{fmt_num(p[1] * CELL)}"
        path.set_desc(title=name)
        layer[{"land": "lands", "sea": "seas", "port": "ports"}[area.kind]].add(path)

    # coastlines: land against sea or port; shallows: a pale band on the sea side
    b = boundary(board=board)

    def kind_of(a):
        return areas[a].kind if a else None

    coast_edges = {e for e, (p, q, _) in b.items()
                   if {kind_of(p), kind_of(q)} in ({"land", "sea"}, {"land", "port"})}
    coast_d = "".join(smooth_path(vs, closed, board) for vs, closed in trace_paths(coast_edges))
    dwg.defs.add(dwg.path(d=coast_d, id="coastline"))
    layer["shallows"].add(dwg.use("#coastline", class_="shallows"))
    layer["coast"].add(dwg.use("#coastline", class_="coast"))

    pos = vertex_positions(board=board)
    for river in g.rivers:
        edges = set(polyline_edges(river.path, river.id))
        d = "".join(smooth_path(vs, closed, board) for vs, closed in trace_paths(edges))
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
        grp = dwg.g(class_="bridge", transform=f"translate({fmt_num(mx)} {fmt_num(my)}) rotate({fmt_num(angle)})")
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
            label["data-box"] = _box(lx - 5.5, ly - 5.5, lx + 5.5, ly + 5.5)
            continue
        name = area.name_en if lang == "en" else area.name_zh
        room = hrun(aid, pts["label"], board) * CELL - 4
        lines = wrap_name(name, lang, room)
        icons = area.kind == "land" and (area.castle or area.supply or area.power or area.home_of)
        big = (clearance_map(aid, board=board)[pts["label"]] >= 1.4
               and room >= 1.35 * max(text_width(ln) for ln in lines))
        lh = 18 if big else 16
        top = ly - (len(lines) - 1) * lh / 2 - (5 if icons else 0)
        cls = f"name {area.kind}" + (" zh" if lang == "zh" else "") + (" big" if big else "")
        t = dwg.text("", insert=(round(lx, 1), round(top + 5, 1)), class_=cls)
        if len(lines) == 1:
            t.text = lines[0]
        else:
            for i, ln in enumerate(lines):
                t.add(dwg.tspan(ln, x=[round(lx, 1)], dy=[0 if i == 0 else lh]))
        label.add(t)
        # the name's box (the overlay keeps its pieces off it without measuring the text): the
        # estimated width with a margin, the type's ascent and descent
        size = _NAME_PX[(area.kind == "sea", lang == "zh", big)]
        half = max(text_width(ln) for ln in lines) * size / 15 * 1.1 / 2
        base = top + 5
        label["data-box"] = _box(lx - half, base - 0.9 * size, lx + half, base + (len(lines) - 1) * lh + 0.3 * size)
        if icons:
            _icon_row(dwg, label, area, lx, top + (len(lines) - 1) * lh + 15)

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


#: the names' type size (units) by (sea, Chinese, big), as in STYLE
_NAME_PX = {(False, False, False): 15, (True, False, False): 15.5, (False, True, False): 15.5, (True, True, False): 16,
            (False, False, True): 17, (False, True, True): 17.5, (True, False, True): 17.5, (True, True, True): 18}


def _box(x0: float, y0: float, x1: float, y1: float) -> str:
    return ",".join(fmt_num(round(v, 1)) for v in (x0, y0, x1, y1))


def _compass(dwg, x: float, y: float, north: str):
    """A small compass rose (decoration, hidden from assistive technology)."""
    grp = dwg.g(class_="compass", transform=f"translate({fmt_num(x)} {fmt_num(y)})")
    grp["data-box"] = _box(x - 19, y - 36, x + 19, y + 19)
    grp["aria-hidden"] = "true"
    grp.add(dwg.circle(center=(0, 0), r=13, fill="none", stroke="#2d5670", stroke_width=.8,
                       opacity=.7))
    grp.add(dwg.path(d="M0-18 3.2 0 0 18-3.2 0zM-18 0 0-3.2 18 0 0 3.2z", fill="#f7efd9",
                     stroke="#2d5670", stroke_width=.8, stroke_linejoin="round"))
    grp.add(dwg.path(d="M0-18 3.2 0H-3.2zM18 0 0 3.2V-3.2z", fill="#2d5670"))
    t = dwg.text(north, insert=(0, -21), class_="name sea")
    grp.add(t)
    return grp


def render_board(lang: str = "en", board: str = DEFAULT_BOARD) -> str:
    """The whole board as an SVG document string (cached per language and board).

    ``lang``: ``"en"`` or ``"zh"`` (``"zh-hans"``, ``"en-us"``... are accepted); ``board``: one
    of :data:`~game.boards.geometry.BOARDS` (``"agot2"``, ``"agot1"``). Raises ``ValueError``
    for any other language or board. The root ``<svg id="board-<board>">`` has ``viewBox``
    only (it scales to its container); each area is
    ``<path id="area-<id>" class="area land|sea|port">``.
    """
    return _render(normalize_lang(lang), check_board(board))


def main(argv=None) -> int:
    """``python -m game.boards.render [--board agot2|agot1] [--lang en|zh] [--out FILE]``: write the
    SVG, print figures and any difference between the drawn adjacency and ``adjacency.json`` (exit
    1 if any)."""
    import argparse
    import gzip
    import sys
    import time

    parser = argparse.ArgumentParser(prog="python -m game.boards.render", description=main.__doc__)
    parser.add_argument("--board", default=DEFAULT_BOARD, choices=BOARDS, help="board (default agot2)")
    parser.add_argument("--lang", default="en", help="en or zh (default en)")
    parser.add_argument("--out", default="-", help="output file (default: none, '-' = skip)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    svg = render_board(args.lang, args.board)
    elapsed = time.perf_counter() - t0
    if args.out != "-":
        Path(args.out).write_text(svg, encoding="utf-8")
    raw = svg.encode()
    print(f"board {args.board} {args.lang}: {len(raw)} bytes raw, {len(gzip.compress(raw, 9))} bytes gzipped, "
          f"rendered in {elapsed:.3f} s", file=sys.stderr)
    drawn, rules = drawn_adjacency(args.board), set(load_adjacency(board=args.board))
    for label, pairs in (("missing on the map", rules - drawn), ("extra on the map", drawn - rules)):
        for pair in sorted(tuple(sorted(p)) for p in pairs):
            print(f"{label}: {pair[0]} - {pair[1]}", file=sys.stderr)
    return 1 if drawn != rules else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
