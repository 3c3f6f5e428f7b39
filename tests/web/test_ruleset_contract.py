"""The Ruleset contract is the only door into a game: a toy ruleset that lives only in the tests
(:mod:`tests.web.toy_ruleset`, Twenty-one), registered through the registry and edited nowhere
else, is played through the whole site: the home page and the lobby (its words, options and time
controls), the start, live acts over the socket with a face-down bid, the log's sentences, a bot
seat, a stand-in and a take-back, the end, the archive, the player page and the leaderboard, the
replay and the export."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from game import rules
from game.live import apply, bots, snapshots
from game.models import Game, Lobby
from game.rules import base

from .live_helpers import connect, drain

pytestmark = pytest.mark.django_db(transaction=True)
TOY = "twentyone"


@pytest.fixture
def toy(live_settings):
    """Twenty-one registered for the test, and nothing else of the site changed."""
    live_settings.GAME_AWAY_AFTER = 0
    rules.register(TOY, "tests.web.toy_ruleset:RULESET")
    snapshots.CACHE.clear()
    yield rules.get_ruleset(TOY)
    bots.wait_for_bots()
    rules.unregister(TOY)


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _lobby_pages(host, guest) -> Lobby:
    """The home page lists the toy, its create page shows its texts, and a lobby of it is made,
    joined by ``guest``, given a bot and started through the pages."""
    c = _client(host)
    home = c.get("/").content.decode()
    assert "Twenty-one" in home and f'data-game="{TOY}"' in home and "Create a game: Twenty-one" in home
    assert "2 to 3 players" in home
    page = c.get(reverse("lobby_create") + f"?game={TOY}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Bid face down, then count to 21 in turns." in html
    assert 'name="fog"' not in html and "Fast" in html and "Your side" in html
    assert "Live clock: 3 minutes + 2 seconds per decision" in html and "Correspondence: 6 hours per decision" in html
    zh = c.get(reverse("lobby_create") + f"?game={TOY}", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "先暗中出价，再轮流数到二十一。" in zh and "快速" in zh
    r = c.post(reverse("lobby_create") + f"?game={TOY}", {"name": "Count up", "players": "3", "house": "north", "time_control": "none"})
    assert r.status_code == 302, r.content.decode()[:3000]
    lobby = Lobby.objects.get(ruleset=TOY)
    assert _client(guest).post(reverse("lobby_join", args=[lobby.pk]), {"house": "south"}).status_code == 302
    assert c.post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "basic", "house": "east"}).status_code == 302
    c.post(reverse("lobby_start", args=[lobby.pk]))
    lobby.refresh_from_db()
    assert lobby.status == "started"
    return lobby


def _texts(state: dict) -> list[str]:
    return [line["text"] for line in state["log"]]


_UNREAD: dict[int, list] = {}  # id(socket) -> messages read by _answer before its result


async def _answer(ws, message: dict) -> dict:
    """Send ``message`` and return its ``result`` (what arrives before it is kept for :func:`_latest`)."""
    await ws.send_json_to(message)
    while True:
        got = await ws.receive_json_from(timeout=5)
        if got["type"] == "result" and got["id"] == message["id"]:
            return got
        _UNREAD.setdefault(id(ws), []).append(got)


async def _latest(ws) -> dict:
    """The latest ``state`` pushed to ``ws`` since it was last read."""
    states = [m for m in _UNREAD.pop(id(ws), []) + await drain(ws) if m["type"] == "state"]
    assert states, "no state was pushed"
    return states[-1]


async def test_a_toy_ruleset_plays_through_the_whole_site(toy, make_user):
    from gotweb.asgi import application

    host, guest = await sync_to_async(make_user)("host"), await sync_to_async(make_user)("guest")
    lobby = await sync_to_async(_lobby_pages)(host, guest)
    game = await sync_to_async(Game.objects.get)(lobby=lobby)

    # the game page mounts the generic screen (the toy names no renderer of its own)
    page = await sync_to_async(lambda: _client(host).get(f"/game/{game.pk}/"))()
    assert page.status_code == 200
    config = json.loads(page.content.decode().split('id="game-config" type="application/json">')[1].split("</script>")[0])
    assert config["renderer"].endswith("js/rulesets/generic.js") and config["ruleset"] == TOY

    north, first = await connect(application, game.pk, host)
    south, _ = await connect(application, game.pk, guest, lang="zh-hans")
    watcher, seen = await connect(application, game.pk, None)
    assert [d["kind"] for d in first["pending"] if d["actor"] == "north"] == ["bid"]
    assert seen["pending"] == [{"actor": a, "kind": "bid", "simultaneous": True} for a in ("north", "east", "south")]

    # a face-down bid: the bidder sees it, nobody else does, until the last bid is in
    await north.send_json_to({"type": "act", "id": 1, "action": {"type": "bid", "n": 3}, "version": first["version"]})
    answers = [m for m in await drain(north) if m["type"] == "result"]
    assert answers == [{"type": "result", "id": 1, "ok": True, "version": 1}]
    assert (await _latest(watcher))["view"]["bids"] == {}
    mine = await _latest(south)
    assert mine["view"]["bids"] == {} and mine["view"]["placed"] == ["north"]
    assert "北已出价。" in _texts(mine) and not any("3" in t for t in _texts(mine))
    assert (await sync_to_async(apply.bot_act)(game.pk)) == 2  # the bot seat bids
    await south.send_json_to({"type": "act", "id": 2, "action": {"type": "bid", "n": 1}, "version": 2})
    shown = await _latest(watcher)
    assert shown["view"]["bids"]["north"] == 3 and shown["view"]["phase"] == "count"
    assert any(t.startswith("The bids are shown: North starts.") for t in _texts(shown))
    await drain(north)
    await drain(south)

    # a refused act changes nothing and says why
    await south.send_json_to({"type": "act", "id": 3, "action": {"type": "add", "n": 2}})
    refused = [m for m in await drain(south) if m["type"] == "result"][0]
    assert refused["ok"] is False and refused["error"]["code"] == "action.not_your_turn"

    # north hands the absent south's seat to a stand-in once south is awaited; south takes it back
    assert (await _answer(north, {"type": "act", "id": 4, "action": {"type": "add", "n": 3}}))["ok"]
    assert await sync_to_async(apply.bot_act)(game.pk) is not None  # east adds
    assert await _answer(north, {"type": "stand_in", "id": 5, "seat": "south"}) == {"type": "result", "id": 5, "ok": True}
    assert await sync_to_async(apply.bot_act)(game.pk) is not None  # the stand-in plays south
    assert await _answer(south, {"type": "take_back", "id": 6}) == {"type": "result", "id": 6, "ok": True}
    told = _texts(await _latest(south))
    assert told[-3] == "现在由电脑玩家代打南。" and told[-2].startswith("南加") and told[-1] == "南回来了：电脑玩家不再代打。", told

    # play to the end: people through their sockets, the bot through its own path
    sockets = {"north": north, "south": south}
    for _ in range(40):
        g = await sync_to_async(Game.objects.get)(pk=game.pk)
        if g.status == "finished":
            break
        state = await sync_to_async(snapshots.state_at)(g)
        (decision,) = toy.pending(state)
        if decision.actor == "east":
            await sync_to_async(apply.bot_act)(game.pk)
        else:
            answer = await _answer(sockets[decision.actor], {"type": "act", "id": 99, "action": {"type": "add", "n": 3}})
            assert answer == {"type": "result", "id": 99, "ok": True, "version": g.version + 1}
    g = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert g.status == "finished" and g.result["reason"] == "twentyone" and g.result["total"] >= 21
    end = await _latest(watcher)
    assert end["view"]["winner"] == g.result["winner"] and end["pending"] == []
    for ws in (north, south, watcher):
        await ws.disconnect()

    await sync_to_async(_archive_replay_export)(g, host)


def _archive_replay_export(game: Game, host) -> None:
    c = _client(host)
    assert "Count up" in c.get(reverse("archive") + f"?game={TOY}").content.decode()
    assert "Twenty-one" in c.get(reverse("player", args=["host"])).content.decode()
    board = c.get(reverse("leaderboard_ruleset", args=[TOY]))
    assert board.status_code == 200 and "Twenty-one" in board.content.decode()

    index = json.loads(c.get(reverse("replay_index", args=[game.pk])).content)
    labels = [m["label"] for m in index["marks"]]
    assert index["open"] is True and labels[:2] == ["Turn 0 · Bids", "Turn 0 · Counting"] and "Turn 1 · Counting" in labels
    step = json.loads(c.get(reverse("replay_step", args=[game.pk, 1])).content)
    assert step["state"]["view"]["bids"] == {"north": 3}  # the box is open: the face-down bid shows

    export = json.loads(c.get(reverse("game_export", args=[game.pk])).content)
    assert export["ruleset"] == TOY
    toy = rules.get_ruleset(TOY)
    state = toy.new_game(export["players"], export["seed"], export["options"])
    for entry in export["actions"]:
        state = base.step(toy, state, entry["actor"], entry["action"])
    assert toy.result(state) == game.result
    notes = [e["action"]["type"] for e in export["actions"] if e["actor"] == base.SITE]
    assert notes == ["stand_in", "take_back"]
