"""``game.boards.views.agot2_board_svg`` and ``agot1_board_svg``: the boards served as SVG at
``/boards/agot2.svg`` and ``/boards/agot1.svg``."""

import json
import xml.etree.ElementTree as ET

from django.test import Client, RequestFactory
from django.utils import translation

from game.boards import geometry, views

RF = RequestFactory()


def get(path, **headers):
    return views.agot2_board_svg(RF.get(path, **headers))


def test_serves_the_board_svg_with_every_area():
    response = get("/boards/agot2.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    ids = {el.get("id") for el in root.iter() if el.get("id", "").startswith("area-")}
    assert ids == {f"area-{a}" for a in geometry.load_areas()}
    assert "max-age=300" in response["Cache-Control"]


def test_language_from_query_or_active_language():
    assert "临冬城" in get("/boards/agot2.svg?lang=zh").content.decode()
    with translation.override("zh-hans"):
        assert "临冬城" in get("/boards/agot2.svg").content.decode()
    with translation.override("en"):
        body = get("/boards/agot2.svg").content.decode()
    assert "Winterfell" in body and "临冬城" not in body


def test_unknown_language_is_a_clear_400():
    response = get("/boards/agot2.svg?lang=xx")
    assert response.status_code == 400
    assert b"unsupported language" in response.content


def test_etag_revalidation():
    first = get("/boards/agot2.svg?lang=en")
    again = get("/boards/agot2.svg?lang=en", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_only_get():
    assert views.agot2_board_svg(RF.post("/boards/agot2.svg")).status_code == 405


def test_routed_at_boards_agot2_svg_with_an_element_for_every_area():
    """``/boards/agot2.svg`` holds one ``area-<id>`` element per area of areas.json."""
    areas = json.loads((geometry.DATA_DIR / "areas.json").read_text("utf-8"))
    response = Client().get("/boards/agot2.svg")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    ids = [el.get("id") for el in root.iter() if (el.get("id") or "").startswith("area-")]
    assert sorted(ids) == sorted(f"area-{a['id']}" for a in areas)


def test_routed_at_boards_agot1_svg_with_the_first_editions_areas():
    """``/boards/agot1.svg`` holds one ``area-<id>`` element per area of agot1's areas.json,
    in the asked language, revalidated by its own ETag."""
    areas = json.loads((geometry.DATA_ROOT / "agot1" / "areas.json").read_text("utf-8"))
    client = Client()
    response = client.get("/boards/agot1.svg?lang=zh")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    assert root.get("id") == "board-agot1"
    ids = [el.get("id") for el in root.iter() if (el.get("id") or "").startswith("area-")]
    assert sorted(ids) == sorted(f"area-{a['id']}" for a in areas)
    assert "夏日之海" in response.content.decode()
    assert response["ETag"] != client.get("/boards/agot2.svg?lang=zh")["ETag"]
    assert client.get("/boards/agot1.svg?lang=zh", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get("/boards/agot1.svg?lang=xx").status_code == 400
    assert client.post("/boards/agot1.svg").status_code == 405
