"""``render_board(lang, "agot1")``: the 1st-edition board as SVG, one element per area, names in
both languages, its rivers and bridges and the printed icons; no ports."""

import xml.etree.ElementTree as ET

import pytest

from game.boards import geometry, render
from game.boards.anchors import area_anchors

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
BOARD = "agot1"
AREAS = geometry.load_areas(board=BOARD)


def parse(lang):
    return ET.fromstring(render.render_board(lang, BOARD))


def uses(root, href):
    return [el for el in root.iter(SVG + "use") if el.get(XLINK + "href") == href]


def label_texts(root):
    layer = next(el for el in root.iter() if el.get("id") == "layer-labels")
    return ["".join(t.strip() for t in el.itertext() if t.strip()) if "zh" in el.get("class") else
            " ".join(t.strip() for t in el.itertext() if t.strip()) for el in layer.iter(SVG + "text")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_focusable_labelled_path_per_area(lang):
    root = parse(lang)
    assert root.get("id") == "board-agot1"
    anchors = area_anchors(BOARD)
    els = [el for el in root.iter() if (el.get("id") or "").startswith("area-")]
    assert sorted(el.get("id") for el in els) == sorted(f"area-{a}" for a in AREAS)
    assert len(els) == 45
    for el in els:
        aid = el.get("id")[len("area-"):]
        name = AREAS[aid].name_en if lang == "en" else AREAS[aid].name_zh
        assert el.tag == SVG + "path" and el.get("d", "").startswith("M")
        assert el.get("class").split() == ["area", AREAS[aid].kind]
        assert el.get("tabindex") == "0" and el.get("aria-label") == name
        assert el.find(SVG + "title").text == name
        for key, (x, y) in anchors[aid].items():
            ax, ay = (float(v) for v in el.get(f"data-{key}").split(","))
            assert (ax, ay) == pytest.approx((x, y), abs=0.051)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_names_in_the_chosen_language(lang):
    texts = label_texts(parse(lang))
    for area in AREAS.values():
        assert (area.name_en if lang == "en" else area.name_zh) in texts, area.id
    svg = render.render_board(lang, BOARD)
    if lang == "en":
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in " ".join(texts))
    else:
        assert "Winterfell" not in svg and "夏日之海" in svg


def test_rivers_bridges_and_no_ports():
    root = parse("en")
    rivers = [el for el in root.iter(SVG + "path") if "river" in (el.get("class") or "").split()]
    separated = {frozenset(s.split()) for el in rivers for s in el.get("data-separates").split(";") if s}
    assert separated == geometry.river_pairs(BOARD)
    assert frozenset(("oldtown", "starfall")) in separated
    bridges = [el for el in root.iter(SVG + "g") if el.get("class") == "bridge"]
    assert {frozenset(el.get("data-joins").split()) for el in bridges} == geometry.bridge_pairs(BOARD)
    assert not uses(root, "#i-anchor")
    assert not [el for el in root.iter(SVG + "path") if "port" in (el.get("class") or "").split()]


def test_castles_strongholds_barrels_crowns_and_crests():
    root = parse("en")
    assert len(uses(root, "#i-stronghold")) == 8
    assert len(uses(root, "#i-castle")) == 10
    assert len(uses(root, "#i-barrel")) == 21
    assert len(uses(root, "#i-crown")) == 17
    crests = sorted(el.get(XLINK + "href") for el in root.iter(SVG + "use")
                    if (el.get(XLINK + "href") or "").startswith("#crest-"))
    assert crests == sorted(f"#crest-{h}" for h in ("stark", "greyjoy", "lannister", "baratheon", "tyrell"))


def test_each_board_is_its_own_drawing_cached_and_compact():
    import gzip
    assert render.render_board("en", BOARD) is render.render_board("en-us", board=BOARD)
    assert render.render_board("en", BOARD) != render.render_board("en")
    assert len(gzip.compress(render.render_board("zh", BOARD).encode())) < 150_000
    with pytest.raises(ValueError):
        render.render_board("en", "agot3")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ids_are_unique_and_references_resolve(lang):
    root = parse(lang)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    refs = {(el.get(XLINK + "href") or "")[1:] for el in root.iter(SVG + "use")}
    assert refs <= set(ids)


def test_same_bytes_in_every_process():
    """Several server processes must serve the same SVG (and so the same ETag)."""
    import hashlib
    import os
    import subprocess
    import sys

    code = ("import hashlib; from game.boards import render; "
            "print(hashlib.sha256(render.render_board('zh', 'agot1').encode()).hexdigest())")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONHASHSEED="4242")
    other = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert other == hashlib.sha256(render.render_board("zh", BOARD).encode()).hexdigest()
