"""The SVG from ``game.boards.render.render_board``: one element per area, names in the chosen
language, rivers, bridges and the printed icons (castles, strongholds, barrels, crowns, crests).
"""

import xml.etree.ElementTree as ET

import pytest

from game.boards import geometry, render
from game.boards.anchors import area_anchors

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
AREAS = geometry.load_areas()


def parse(lang):
    return ET.fromstring(render.render_board(lang))


def area_elements(root):
    return [el for el in root.iter() if el.get("id", "").startswith("area-")]


def label_texts(root):
    """Visible names: the text of every <text> in the labels layer (tspans joined)."""
    layer = next(el for el in root.iter() if el.get("id") == "layer-labels")
    return ["\n".join(t.strip() for t in el.itertext() if t.strip())
            for el in layer.iter(SVG + "text")]


def uses(root, href):
    return [el for el in root.iter(SVG + "use")
            if (el.get(XLINK + "href") or el.get("href")) == href]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_exactly_one_element_per_area(lang):
    ids = [el.get("id") for el in area_elements(parse(lang))]
    assert sorted(ids) == sorted(f"area-{a}" for a in AREAS)
    assert len(ids) == len(set(ids)) == 58


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_area_elements_are_focusable_labelled_paths_with_anchors(lang):
    anchors = area_anchors()
    for el in area_elements(parse(lang)):
        aid = el.get("id")[len("area-"):]
        area = AREAS[aid]
        name = area.name_en if lang == "en" else area.name_zh
        assert el.tag == SVG + "path"
        assert el.get("d", "").startswith("M")
        assert el.get("class").split() == ["area", area.kind]
        assert el.get("tabindex") == "0"
        assert el.get("aria-label") == name
        assert el.find(SVG + "title").text == name
        assert el.get("data-area") == aid
        for key, (x, y) in anchors[aid].items():
            ax, ay = (float(v) for v in el.get(f"data-{key}").split(","))
            assert (ax, ay) == pytest.approx((x, y), abs=0.051)


def test_names_in_english():
    texts = label_texts(parse("en"))
    joined = " ".join(t.replace("\n", " ") for t in texts)
    for area in AREAS.values():
        if area.kind != "port":  # ports carry an anchor icon; their name is in <title>
            assert area.name_en in [t.replace("\n", " ") for t in texts], area.id
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in joined)


def test_names_in_chinese():
    texts = [t.replace("\n", "") for t in label_texts(parse("zh"))]
    for area in AREAS.values():
        if area.kind != "port":
            assert area.name_zh in texts, area.id
    assert not any(area.name_en in texts for area in AREAS.values())
    assert "Winterfell" not in render.render_board("zh")


def test_language_aliases_and_unknown_language():
    assert render.render_board("zh-hans") == render.render_board("zh")
    assert render.render_board("en-us") == render.render_board()
    with pytest.raises(ValueError):
        render.render_board("fr")


def test_scales_to_its_container():
    root = parse("en")
    g = geometry.load_geometry()
    assert root.get("viewBox") == f"0 0 {g.width * geometry.CELL} {g.height * geometry.CELL}"
    assert root.get("width") == "100%" and root.get("height") == "100%"


def test_rivers_and_bridges_are_drawn():
    root = parse("en")
    rivers = [el for el in root.iter(SVG + "path") if "river" in (el.get("class") or "").split()]
    separated = {frozenset(s.split()) for el in rivers
                 for s in el.get("data-separates").split(";") if s}
    assert separated == geometry.river_pairs()
    bridges = [el for el in root.iter(SVG + "g") if el.get("class") == "bridge"]
    assert {frozenset(el.get("data-joins").split()) for el in bridges} == {
        frozenset(("seagard", "the-twins")),
        frozenset(("crackclaw-point", "the-mountains-of-the-moon")),
    }


def test_coastline_is_drawn():
    root = parse("en")
    coast = next(el for el in root.iter(SVG + "path") if el.get("id") == "coastline")
    assert coast.get("d").count("M") >= 4  # the mainland and three islands
    assert len(uses(root, "#coastline")) == 2  # shallows band and the coast line


def test_castles_strongholds_barrels_crowns_and_crests():
    root = parse("en")
    values = list(AREAS.values())
    assert len(uses(root, "#i-stronghold")) == sum(a.castle == "stronghold" for a in values) == 10
    assert len(uses(root, "#i-castle")) == sum(a.castle == "castle" for a in values) == 10
    assert len(uses(root, "#i-barrel")) == sum(a.supply for a in values) == 24
    assert len(uses(root, "#i-crown")) == sum(a.power for a in values) == 19
    crests = [el for el in root.iter(SVG + "use")
              if (el.get(XLINK + "href") or "").startswith("#crest-")]
    assert sorted(el.get(XLINK + "href") for el in crests) == sorted(
        f"#crest-{a.home_of}" for a in values if a.home_of)
    assert len(uses(root, "#i-anchor")) == 8  # one per port


def test_render_is_cached_and_compact():
    assert render.render_board("en") is render.render_board("en")
    import gzip
    assert len(gzip.compress(render.render_board("zh").encode())) < 150_000


def test_each_area_has_one_label_group_with_its_own_icons():
    root = parse("en")
    groups = [el for el in root.iter(SVG + "g") if el.get("class") == "label"]
    assert sorted(el.get("data-area") for el in groups) == sorted(AREAS)
    for el in groups:
        area = AREAS[el.get("data-area")]
        hrefs = [u.get(XLINK + "href") for u in el.iter(SVG + "use")]
        expected = []
        if area.kind == "port":
            expected = ["#i-anchor"]
        else:
            if area.home_of:
                expected.append(f"#crest-{area.home_of}")
            if area.castle:
                expected.append("#i-castle" if area.castle == "castle" else "#i-stronghold")
            expected += ["#i-barrel"] * area.supply + ["#i-crown"] * area.power
        assert hrefs == expected, area.id


def test_keyboard_order_runs_north_to_south():
    root = parse("en")
    for layer_id in ("layer-seas", "layer-ports", "layer-lands"):
        layer = next(el for el in root.iter() if el.get("id") == layer_id)
        ys = [float(el.get("data-label").split(",")[1]) for el in layer]
        assert ys == sorted(ys), layer_id


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
            "print(hashlib.sha256(render.render_board('zh').encode()).hexdigest())")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONHASHSEED="12345")
    other = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert other == hashlib.sha256(render.render_board("zh").encode()).hexdigest()
