"""``game.board_views.agot2_board_svg``: the board served as SVG (to be routed at
``/boards/agot2.svg``). Runs with the project's Django settings when present, else with a
minimal configuration so it also runs before the site settings exist."""

import os

import django
from django.conf import settings

if not settings.configured and not os.environ.get("DJANGO_SETTINGS_MODULE"):  # pragma: no cover - only before gotweb.settings exists
    settings.configure(ALLOWED_HOSTS=["*"], USE_I18N=True, LANGUAGE_CODE="en",
                       LANGUAGES=[("en", "English"), ("zh-hans", "简体中文")])
    django.setup()

import xml.etree.ElementTree as ET  # noqa: E402

from django.test import RequestFactory  # noqa: E402
from django.utils import translation  # noqa: E402

from game import board_views, mapdraw  # noqa: E402

RF = RequestFactory()


def get(path, **headers):
    return board_views.agot2_board_svg(RF.get(path, **headers))


def test_serves_the_board_svg_with_every_area():
    response = get("/boards/agot2.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)
    ids = {el.get("id") for el in root.iter() if el.get("id", "").startswith("area-")}
    assert ids == {f"area-{a}" for a in mapdraw.load_areas()}
    assert "max-age=86400" in response["Cache-Control"]


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
    assert board_views.agot2_board_svg(RF.post("/boards/agot2.svg")).status_code == 405
