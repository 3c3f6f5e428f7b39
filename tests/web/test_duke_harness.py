"""The Duke's development harness (``/duke/harness/``) exists only with ``DUKE_HARNESS``; with it,
its fake-client API plays through the real engine and shows each seat only its own view."""

from __future__ import annotations

import json

import pytest

from game.devtools import duke_harness


@pytest.fixture(autouse=True)
def _fresh_games():
    duke_harness._GAMES.clear()
    yield
    duke_harness._GAMES.clear()


def test_off_by_default(client, settings):
    assert settings.DUKE_HARNESS is False
    assert client.get("/duke/harness/").status_code == 404
    assert client.get("/duke/harness/api/g/").status_code == 404
    assert client.post("/duke/harness/api/g/", "{}", content_type="application/json").status_code == 404


def test_page_mounts_the_renderer(client, settings):
    settings.DUKE_HARNESS = True
    html = client.get("/duke/harness/?game=g&seat=dark&lang=zh-hans").content.decode()
    assert 'id="board-root"' in html and 'data-seat="dark"' in html and 'data-lang="zh-hans"' in html
    assert "js/duke/harness.js" in html


def post(client, game, seat, action):
    r = client.post(f"/duke/harness/api/{game}/", json.dumps({"seat": seat, "action": action}), content_type="application/json")
    assert r.status_code == 200
    return r.json()


def test_api_plays_through_the_engine(client, settings):
    settings.DUKE_HARNESS = True
    first = client.get("/duke/harness/api/g/?seed=2&seat=light").json()
    seat = first["view"]["to_move"]
    other = "dark" if seat == "light" else "light"
    mine = client.get(f"/duke/harness/api/g/?seat={seat}").json()
    assert mine["pending"][0]["kind"] == "setup" and mine["pending"][0]["options"]["actions"]
    theirs = client.get(f"/duke/harness/api/g/?seat={other}").json()
    assert theirs["pending"] == [{"actor": seat, "kind": "setup", "simultaneous": False}]
    # refused: wrong seat, malformed, spectator; nothing changes
    assert post(client, "g", other, {"type": "draw"})["error"]["code"] == "turn.not_your_turn"
    assert post(client, "g", seat, {"type": "fly"})["error"]["code"] == "action.malformed"
    assert post(client, "g", None, {"type": "draw"})["ok"] is False
    assert client.get("/duke/harness/api/g/").json()["version"] == 0
    action = mine["pending"][0]["options"]["actions"][0]
    assert post(client, "g", seat, action) == {"ok": True}
    after = client.get("/duke/harness/api/g/").json()
    assert after["version"] == 1 and after["view"]["viewer"] is None
    assert len(after["view"]["tiles"]) == 3


def test_bot_seat_answers(client, settings):
    settings.DUKE_HARNESS = True
    d = client.get("/duke/harness/api/b/?seed=4&bot=light:basic,dark:basic").json()
    assert d["view"]["result"] is not None  # two bots play the whole game at once


@pytest.mark.parametrize("name", sorted(duke_harness.SCENARIOS))
def test_scenarios_start_with_light_to_move(client, settings, name):
    settings.DUKE_HARNESS = True
    d = client.get(f"/duke/harness/api/s-{name}/?scenario={name}&seat=light").json()
    assert d["view"]["phase"] == "play" and d["pending"][0]["actor"] == "light"
    kinds = {a["type"] for a in d["pending"][0]["options"]["actions"]}
    if name == "showcase":
        assert {"move", "command", "summon", "divine", "draw"} <= kinds
    else:
        assert d["view"]["guard"] == "light"
