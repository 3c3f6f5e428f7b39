"""An interactive board within a second of the navigation: the game page carries the viewer's
first ``state`` message, exactly what the socket sends that viewer first (through the per-viewer
view: a player's hand and orders, nothing of another seat's), and asks the browser for every
module the screen imports and for the board's first fetches at once; it is never cached."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from .live_helpers import connect, legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


def _embedded(html: str, name: str = "game-state") -> dict | None:
    m = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', html, re.S)
    return json.loads(m.group(1)) if m else None


def _page(user, game_id: int, query: str = "", lang: str = "en"):
    c = Client()
    if user is not None:
        c.force_login(user)
    c.cookies["django_language"] = lang
    return c.get(reverse("game_play", args=[game_id]) + query)


def _played(game, users, n: int):
    """``n`` legal acts (each by the first awaited seat), so the views hold orders and hands."""
    from game.live import apply
    from game.live.snapshots import state_at
    from game.models import Game

    for _ in range(n):
        g = Game.objects.get(pk=game.pk)
        actor = g.rules.pending(state_at(g))[0].actor
        apply.act(g.pk, users[actor], legal_json(g.pk, actor), g.version)
    return Game.objects.get(pk=game.pk)


async def test_the_page_holds_the_first_state_the_socket_sends(application, make_lobby, make_user):
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    game = await sync_to_async(_played)(game, users, 2)  # two houses placed their orders
    watcher = await sync_to_async(make_user)("watcher")
    for user, lang in ((users["stark"], "en"), (users["lannister"], "zh-hans"), (watcher, "en"), (None, "zh-hans")):
        r = await sync_to_async(_page)(user, game.pk, lang=lang)
        assert r.status_code == 200
        embedded = _embedded(r.content.decode())
        ws, first = await connect(application, game.pk, user, lang=lang)
        first.pop("seats", None)
        assert embedded == first
        assert embedded["version"] == game.version
        await ws.disconnect()
    pages = {h: _embedded((await sync_to_async(_page)(users[h], game.pk)).content.decode()) for h in users}
    spectator = _embedded((await sync_to_async(_page)(None, game.pk)).content.decode())
    placed = [h for h, p in pages.items() if p["view"].get("my_orders")]
    assert len(placed) == 2
    # a player's own orders are theirs only; a spectator sees nobody's, nor anyone's options
    for h, p in pages.items():
        assert p["view"]["viewer"] == h
        assert all(("options" in d) == (d["actor"] == h) for d in p["pending"])
    assert not spectator["view"].get("my_orders") and spectator["view"]["viewer"] is None
    assert all("options" not in d for d in spectator["pending"])
    for h in placed:
        assert all(p["view"].get("my_orders") != pages[h]["view"]["my_orders"] for o, p in pages.items() if o != h)


def test_replay_mode_holds_its_first_step_and_the_page_is_never_cached(make_lobby):
    game, users = start_game(make_lobby, 3)
    r = _page(users["stark"], game.pk)
    assert _embedded(r.content.decode())["viewer"] == "stark"
    assert "no-store" in r["Cache-Control"] and "private" in r["Cache-Control"]
    game = _played(game, users, 2)
    for at, v in (("0", 0), ("-1", 0), ("1", 1), ("99999999999999999999", 2)):  # replay mode (clamped): its first step
        r = _page(users["stark"], game.pk, "?at=" + at)
        html = r.content.decode()
        assert r.status_code == 200 and _embedded(html) is None, at
        step = Client()
        step.force_login(users["stark"])
        assert _embedded(html, "replay-step") == json.loads(step.get(f"/game/{game.pk}/replay/{v}.json").content), at
    for at in ("1e3", "%3Cscript%3E", "%00", "", "0x1"):  # not a moment: the live page, with its state
        r = _page(users["stark"], game.pk, "?at=" + at)
        assert r.status_code == 200 and _embedded(r.content.decode())["viewer"] == "stark", at


def test_private_game_page_is_404_with_no_state(make_lobby, make_user):
    game, _ = start_game(make_lobby, 3, is_private=True, password="pw")
    for user in (None, make_user("stranger")):
        r = _page(user, game.pk)
        assert r.status_code == 404 and b"game-state" not in r.content
        r = _page(user, game.pk, "?at=0")
        assert r.status_code == 404 and b"replay-step" not in r.content
    for path in ("/game/99999999999999999999/", "/game/0/", "/game/-1/", "/game/x/"):
        assert Client().get(path).status_code == 404, path


def test_the_embedded_state_cannot_end_its_script_element(make_lobby, monkeypatch):
    """The state is JSON inside ``<script>``: ``<``, ``>`` and ``&`` are escaped in it, so no text
    of a payload (a name, a sentence) can close the element or open another."""
    from game.live import payloads

    game, users = start_game(make_lobby, 3)
    real = payloads.payload_text
    evil = "</script><script>alert(1)</script><!-- & -->"

    def with_evil_text(*args, **kwargs):
        version, text = real(*args, **kwargs)
        return version, text[:-1] + ',"note":' + json.dumps(evil) + "}"

    monkeypatch.setattr(payloads, "payload_text", with_evil_text)
    html = _page(users["stark"], game.pk).content.decode()
    raw = re.search(r'<script type="application/json" id="game-state">(.*?)</script>', html, re.S).group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw
    state = json.loads(raw)
    assert state["note"] == evil and state["viewer"] == "stark"


def test_the_page_preloads_every_module_and_the_board(make_lobby):
    game, users = start_game(make_lobby, 3)
    html = _page(users["stark"], game.pk, lang="zh-hans").content.decode()
    modules = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    for path in ("js/live/play.js", "js/live/client.js", "js/live.js", "js/rulesets/agot2.js", "js/board/decisions.js",
                 "js/board/names.js", "js/icons.js"):
        assert f"/static/{path}" in modules, path
    assert len(modules) == len(set(modules))
    fetches = re.findall(r'<link rel="preload" href="([^"]+)" as="fetch" crossorigin="anonymous">', html)
    assert fetches == ["/boards/agot2.svg?lang=zh", "/boards/agot2.json?lang=zh-hans"]
    assert '<link rel="stylesheet" href="/static/css/agot2.css">' in html
    c = Client()
    for url in modules + fetches:
        assert c.get(url).status_code == 200, url


def test_a_duke_page_preloads_the_duke_modules(make_lobby):
    from game.site import lobbies

    lobby = make_lobby(players=2, seated=1, ruleset="duke")
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    html = _page(lobby.creator, lobby.game.pk).content.decode()
    modules = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert "/static/js/rulesets/duke.js" in modules and "/static/js/duke/board.js" in modules
    assert not any("board/" in m or "agot2" in m for m in modules)
    assert 'rel="preload"' not in html
    assert _embedded(html)["viewer"] == lobby.seats.get(user=lobby.creator).house
