"""The UI harness is off unless the setting turns it on; when on it serves live play's state
shape and applies actions through the engine. The board data JSON names every area, house,
card and token in both languages."""

import json

import pytest
from django.test import override_settings

from game.boards.data import agot2_board_data
from game.rules.agot.data import board


@pytest.mark.django_db
def test_harness_is_off_by_default(client):
    assert client.get("/harness/agot2/?position=start3").status_code == 404
    assert client.get("/harness/agot2/1/state").status_code == 404


@pytest.mark.django_db
@override_settings(UI_HARNESS=True)
def test_harness_state_and_actions(client):
    r = client.get("/harness/agot2/?position=start3&viewer=stark")
    assert r.status_code == 302
    gid = r["Location"].split("/")[3]
    page = client.get(r["Location"])
    # the AGoT screen (either edition), here on the 2nd-edition board
    assert b'id="board-root"' in page.content and b"js/board/screen.js" in page.content
    assert b'"board": "agot2"' in page.content
    st = client.get(f"/harness/agot2/{gid}/state?viewer=stark").json()
    assert set(st) == {"view", "pending", "version", "log"}
    mine = [p for p in st["pending"] if p["actor"] == "stark"][0]
    assert mine["kind"] == "place_orders" and "options" in mine
    assert all("options" not in p for p in st["pending"] if p["actor"] != "stark")
    bad = client.post(f"/harness/agot2/{gid}/act", json.dumps({"actor": "stark", "action": {"type": "bid", "amount": 1}}),
                      content_type="application/json").json()
    assert bad["ok"] is False and bad["error"]["code"] == "action.unexpected"
    orders = {"winterfell": "march", "white-harbor": "support", "the-shivering-sea": "raid"}
    ok = client.post(f"/harness/agot2/{gid}/act", json.dumps({"actor": "stark", "action": {"type": "place_orders", "orders": orders}}),
                     content_type="application/json").json()
    assert ok == {"ok": True}
    assert client.get(f"/harness/agot2/{gid}/state?viewer=stark").json()["view"]["my_orders"] == orders
    assert "my_orders" not in client.get(f"/harness/agot2/{gid}/state").json()["view"]
    assert [s["ok"] for s in client.get(f"/harness/agot2/{gid}/sent").json()] == [False, True]
    assert client.get("/harness/agot2/?position=nope").status_code == 404


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_board_data_names_everything(lang):
    d = agot2_board_data(lang)
    b = board()
    assert set(d["areas"]) == set(b.areas) and set(d["houses"]) == set(b.houses)
    assert set(d["house_cards"]) == set(b.house_cards) and set(d["tokens"]) == set(b.order_tokens)
    assert all(a["name"] for a in d["areas"].values())
    assert len({h["letter"] for h in d["houses"].values()}) == 6  # a distinct letter per house
    if lang == "zh-hans":
        assert d["areas"]["winterfell"]["name"] == b.areas["winterfell"].name_zh
        assert d["tokens"]["march"]["name"] == "行军"


@pytest.mark.django_db
def test_board_data_view(client):
    r = client.get("/boards/agot2.json?lang=zh-hans")
    assert r.status_code == 200 and r.json()["lang"] == "zh-hans"
    assert "max-age=300" in r["Cache-Control"] and r["ETag"]
    assert client.get("/boards/agot2.json?lang=zh-hans", HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304
    assert client.get("/boards/agot2.json?lang=en", HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 200


@pytest.mark.parametrize("name", sorted(__import__("game.devtools.ui_harness", fromlist=["POSITIONS"]).POSITIONS))
def test_every_harness_position_builds(name):
    """Each named position builds (its steps, if any, are accepted) and awaits a decision."""
    from game.rules.agot import RULESET
    from game.devtools.ui_harness import new_position

    state = new_position(name)
    assert RULESET.view(state, None)["pending"]


def test_board_data_has_the_tides_of_battle_cards():
    d = agot2_board_data("en")
    assert set(d["tides_cards"]) == {g["id"] for g in board().tides["groups"]}
    assert d["tides_cards"]["skull"] == {"strength": 0, "swords": 0, "fortifications": 0, "skulls": 1}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_first_edition_board_data(client, lang):
    """/boards/agot1.json: the 1st edition's 45 areas, its 35 house cards (strength 0-3 with swords
    and fortifications), 3 to 5 players, and what it lacks (ports, garrisons, siege engines,
    Tides of Battle, wildling cards)."""
    r = client.get(f"/boards/agot1.json?lang={lang}")
    assert r.status_code == 200
    d = r.json()
    assert d["board"] == "agot1" and d["players"] == [3, 5]
    assert len(d["areas"]) == 45 and "summer-sea" in d["areas"] and "salt-shore" not in d["areas"]
    assert d["areas"]["summer-sea"]["name"] == ("夏日之海" if lang == "zh-hans" else "Summer Sea")
    cards = d["house_cards"]
    assert len(cards) == 35 and {c["strength"] for c in cards.values()} == {0, 1, 2, 3}
    assert (cards["stannis-baratheon"]["swords"], cards["stannis-baratheon"]["fortifications"]) == (1, 1)
    assert not any(c["house"] == "martell" for c in cards.values())
    assert d["has"] == {"ports": False, "garrisons": False, "siege_engines": False, "tides_of_battle": False, "wildling_cards": False}
    assert d["tides_cards"] == {} and d["wildling_cards"] == {}
    assert set(d["kings_court_stars"]) == {"3", "4", "5"}
    assert client.get(f"/boards/agot1.json?lang={lang}", HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304
    assert r["ETag"] != client.get(f"/boards/agot2.json?lang={lang}")["ETag"]
