"""The board UI's copy of the Duke's tile catalogue (``static/js/duke/catalogue.js``) is exactly
``game.rules.duke.tiles.catalogue()``. After changing the tile data, regenerate it with
``python -m tests.web.test_duke_catalogue``."""

from __future__ import annotations

import json
from pathlib import Path

from game.rules.duke.tiles import catalogue

PATH = Path(__file__).resolve().parents[2] / "static" / "js" / "duke" / "catalogue.js"
HEAD = (
    "// Generated from game/data/duke/tiles.json by `python -m tests.web.test_duke_catalogue`; do not edit.\n"
    "// {id: {names: {en, zh-hans}, category, count, ability, start: [icon], back: [icon]}},\n"
    "// icon = {icon, dx, dy[, dir]} relative to the owner (dx right, dy forward).\n"
)


def render() -> str:
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in catalogue().items()]
    return HEAD + "export const TILES = {\n" + ",\n".join(lines) + "\n};\n"


def test_catalogue_module_matches_the_engine():
    assert PATH.read_text(encoding="utf-8") == render(), "run python -m tests.web.test_duke_catalogue"


if __name__ == "__main__":
    PATH.write_text(render(), encoding="utf-8")
