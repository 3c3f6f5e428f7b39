"""Tile catalogue: each tile's icons on both sides, compiled to board offsets.

Source: ``game/data/duke/tiles.json`` (see its README; facts from the 2013 rulebook's tile pages).
Rulebook: 公爵战棋基础规则, 移动标识 (movement icons) and 方向 (orientation): every troop tile faces its
owner, so the dark player's offsets are turned 180 degrees; the Dragon faces along the board.

Offsets here are *absolute* board offsets ``(ax, ay)``: ``ax`` toward file f, ``ay`` toward rank 6.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Mapping, NamedTuple

__all__ = [
    "ICON_KINDS",
    "FACINGS",
    "Icon",
    "TileSpec",
    "TILES",
    "TROOP_IDS",
    "compile_icons",
    "spec_from_json",
]

#: every icon kind a grid may carry (rulebook 移动标识: 移动, 跳跃, 行进, 跃进, 攻击, 命令, 恐惧, 防御)
ICON_KINDS = ("move", "jump", "slide", "jump_slide", "strike", "command", "dread", "defense")

#: facing name -> unit vector (n = toward rank 6, the dark player's home row)
FACINGS: dict[str, tuple[int, int]] = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


class Icon(NamedTuple):
    """One icon of a grid. ``dx, dy`` relative (right, forward); ``dir`` for slides only."""

    kind: str
    dx: int
    dy: int
    dir: tuple[int, int] | None = None


class TileSpec(NamedTuple):
    """A tile kind: id, names, category, count, enhanced ability and both sides' icons."""

    id: str
    names: Mapping[str, str]
    category: str  # "troop" | "enhanced" | "terrain"
    count: int
    ability: str | None  # None | "summon" | "divination"
    start: tuple[Icon, ...]
    back: tuple[Icon, ...]


def _icons(raw: list[dict]) -> tuple[Icon, ...]:
    out = []
    for e in raw:
        kind = e["icon"]
        if kind not in ICON_KINDS:
            raise ValueError(f"unknown icon kind {kind!r}")
        d = e.get("dir")
        out.append(Icon(kind, int(e["dx"]), int(e["dy"]), (int(d[0]), int(d[1])) if d else None))
    return tuple(out)


def spec_from_json(tile_id: str, raw: Mapping) -> TileSpec:
    """A :class:`TileSpec` from one entry of the data file's ``tiles`` object (same schema).

    Scenarios use it to define custom tiles (e.g. one carrying Dread or Defense icons).
    """
    return TileSpec(
        id=tile_id,
        names=dict(raw.get("name") or {"en": tile_id, "zh-hans": tile_id}),
        category=raw.get("kind", "troop"),
        count=int(raw.get("count", 1)),
        ability=raw.get("ability"),
        start=_icons(raw.get("start", [])),
        back=_icons(raw.get("back", [])),
    )


def _load() -> dict[str, TileSpec]:
    path = Path(__file__).resolve().parents[2] / "data" / "duke" / "tiles.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {tid: spec_from_json(tid, raw) for tid, raw in data["tiles"].items()}


#: every tile kind in the data file, by id ("duke", "footman", ..., "dragon", "mountain")
TILES: dict[str, TileSpec] = _load()

#: the troop tiles of the base set, in the order the rulebook lists them
TROOP_IDS = tuple(t for t, s in TILES.items() if s.category == "troop")


class Compiled(NamedTuple):
    """A side's icons turned to absolute board offsets for one facing."""

    kind: str
    ax: int
    ay: int
    dir: tuple[int, int] | None


def _turn(dx: int, dy: int, facing: str) -> tuple[int, int]:
    fx, fy = FACINGS[facing]
    rx, ry = fy, -fx  # the figure's right-hand side
    return dx * rx + dy * fx, dx * ry + dy * fy


def _compile(icons: tuple[Icon, ...], facing: str) -> tuple[Compiled, ...]:
    out = []
    for ic in icons:
        ax, ay = _turn(ic.dx, ic.dy, facing)
        d = _turn(ic.dir[0], ic.dir[1], facing) if ic.dir else None
        out.append(Compiled(ic.kind, ax, ay, d))
    return tuple(out)


@lru_cache(maxsize=None)
def _compiled_base(tile_id: str, back: bool, facing: str) -> tuple[Compiled, ...]:
    spec = TILES[tile_id]
    return _compile(spec.back if back else spec.start, facing)


def compile_icons(
    spec_or_id: TileSpec | str, back: bool, facing: str
) -> tuple[Compiled, ...]:
    """The icons of one side as absolute offsets for a tile facing ``facing`` ("n", "e", "s", "w").

    Troop tiles face their owner: light faces "n", dark faces "s".
    """
    if isinstance(spec_or_id, str):
        return _compiled_base(spec_or_id, back, facing)
    if TILES.get(spec_or_id.id) is spec_or_id:
        return _compiled_base(spec_or_id.id, back, facing)
    return _compile(spec_or_id.back if back else spec_or_id.start, facing)
