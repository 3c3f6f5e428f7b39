"""The game websocket (/ws/game/<id>/) through the real ASGI stack: connect, act, illegal act,
stale version and resync, spectators, bad input, and the simultaneous reveal."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


@pytest.fixture
def game3(make_lobby):
    return start_game(make_lobby, 3)


async def test_connect_sends_the_viewers_view(application, game3):
    game, users = await sync_to_async(lambda: game3)()
    ws, state = await connect(application, game.pk, users["stark"])
    assert state["version"] == 0 and state["viewer"] == "stark" and state["status"] == "running"
    assert state["view"]["viewer"] == "stark"
    mine = [d for d in state["pending"] if d["actor"] == "stark"]
    others = [d for d in state["pending"] if d["actor"] != "stark"]
    assert mine and "options" in mine[0]
    assert others and all("options" not in d for d in others)
    assert state["log"][0]["text"] == "A 3-player game begins: Stark, Lannister, Baratheon."
    await ws.disconnect()


async def test_spectator_sees_public_view_and_cannot_act(application, game3, make_user):
    game, users = await sync_to_async(lambda: game3)()
    watcher = await sync_to_async(make_user)("watcher")
    ws, state = await connect(application, game.pk, watcher)
    assert state["viewer"] is None and all("options" not in d for d in state["pending"])
    await ws.send_json_to({"type": "act", "id": 7, "version": 0, "action": {"type": "place_orders", "orders": {}}})
    reply = await ws.receive_json_from(timeout=5)
    assert reply == {"type": "result", "id": 7, "ok": False, "error": reply["error"]}
    assert reply["error"]["code"] == "act.spectator"
    anon, state = await connect(application, game.pk, None)
    assert state["viewer"] is None
    await ws.disconnect()
    await anon.disconnect()


async def test_act_is_applied_stored_and_pushed_to_everyone(application, game3):
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    lannister, _ = await connect(application, game.pk, users["lannister"])
    action = await sync_to_async(legal_json)(game.pk, "stark")
    await stark.send_json_to({"type": "act", "id": 1, "version": 0, "action": action})
    msgs = await drain(stark)
    assert {"type": "result", "id": 1, "ok": True, "version": 1} in msgs
    pushed = [m for m in msgs if m["type"] == "state"]
    assert pushed[-1]["version"] == 1 and pushed[-1]["view"]["my_orders"]
    other = [m for m in await drain(lannister) if m["type"] == "state"]
    assert other[-1]["version"] == 1
    assert "my_orders" not in other[-1]["view"] and other[-1]["view"]["orders_placed"] == ["stark"]
    from game.models import Action

    rows = await sync_to_async(lambda: list(Action.objects.filter(game=game).values_list("number", "actor", "action")))()
    assert rows == [(1, "stark", action)]
    await stark.disconnect()
    await lannister.disconnect()


async def test_illegal_act_answers_the_sender_only_and_changes_nothing(application, game3):
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"], lang="zh-hans")
    lannister, _ = await connect(application, game.pk, users["lannister"])
    await stark.send_json_to({"type": "act", "id": "a", "version": 0, "action": {"type": "place_orders", "orders": {}}})
    reply = await stark.receive_json_from(timeout=5)
    assert reply["ok"] is False and reply["id"] == "a"
    assert reply["error"]["code"].startswith("orders.") or reply["error"]["code"] == "action.malformed"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in reply["error"]["message"])  # translated to Chinese
    assert await drain(lannister) == [] and await drain(stark) == []
    from game.models import Action, Game

    assert await sync_to_async(Action.objects.count)() == 0
    assert (await sync_to_async(Game.objects.get)(pk=game.pk)).version == 0
    await stark.disconnect()
    await lannister.disconnect()


async def test_stale_version_is_refused_with_a_resync(application, game3):
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    await stark.send_json_to({"type": "act", "id": 1, "version": 5, "action": {"type": "place_orders", "orders": {}}})
    msgs = await drain(stark)
    assert msgs[0]["error"]["code"] == "version.stale"
    assert msgs[1]["type"] == "state" and msgs[1]["version"] == 0  # the resync
    await stark.disconnect()


async def test_an_unchanged_decision_may_answer_an_older_version(application, game3):
    """Simultaneous orders: Lannister placed at version 0 after Stark's orders made version 1;
    Lannister's decision did not change, so the submission counts."""
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    lannister, _ = await connect(application, game.pk, users["lannister"])
    await stark.send_json_to({"type": "act", "id": 1, "version": 0, "action": await sync_to_async(legal_json)(game.pk, "stark")})
    await drain(stark)
    await lannister.send_json_to({"type": "act", "id": 2, "version": 0, "action": await sync_to_async(legal_json)(game.pk, "lannister")})
    msgs = await drain(lannister)
    assert {"type": "result", "id": 2, "ok": True, "version": 2} in msgs
    await stark.disconnect()
    await lannister.disconnect()


async def test_reconnect_gets_the_current_state(application, game3):
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    await stark.send_json_to({"type": "act", "id": 1, "version": 0, "action": await sync_to_async(legal_json)(game.pk, "stark")})
    await drain(stark)
    await stark.disconnect()
    again, state = await connect(application, game.pk, users["stark"])
    assert state["version"] == 1 and state["view"]["my_orders"]
    await again.send_json_to({"type": "sync"})
    assert (await again.receive_json_from(timeout=5))["version"] == 1
    await again.disconnect()


async def test_bad_input_gets_errors_and_the_connection_stays_usable(application, game3, settings):
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    await stark.send_to(text_data="{not json")
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "message.malformed"
    await stark.send_to(text_data="[1, 2]")
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "message.malformed"
    await stark.send_to(bytes_data=b"\x00\x01")
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "message.malformed"
    await stark.send_json_to({"type": "launch_missiles", "id": 3})
    err = await stark.receive_json_from(timeout=5)
    assert err["error"]["code"] == "message.unknown_type" and err["id"] == 3
    await stark.send_to(text_data=json.dumps({"type": "chat", "text": "x" * 20000}))
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "message.too_large"
    await stark.send_json_to({"type": "act", "id": 4, "version": "zero", "action": {}})
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "message.malformed"
    await stark.send_json_to({"type": "act", "id": 5, "action": "place all my orders"})
    assert (await stark.receive_json_from(timeout=5))["error"]["code"] == "action.malformed"
    await stark.send_json_to({"type": "ping", "id": 6})
    assert await stark.receive_json_from(timeout=5) == {"type": "pong", "id": 6}
    await stark.disconnect()


async def test_flooding_is_rate_limited(application, game3, settings):
    settings.LIVE_RATE, settings.LIVE_BURST = 1, 5
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    for i in range(12):
        await stark.send_json_to({"type": "ping", "id": i})
    msgs = await drain(stark)
    assert sum(m["type"] == "pong" for m in msgs) <= 6
    assert any(m["type"] == "error" and m["error"]["code"] == "rate_limited" for m in msgs)
    await stark.disconnect()


async def test_unknown_game_is_closed(application):
    from .live_helpers import refusal

    assert await refusal(application, "/ws/game/999999/") == 4404


async def test_foreign_origin_is_refused(application, game3):
    from channels.testing import WebsocketCommunicator

    game, _ = await sync_to_async(lambda: game3)()
    ws = WebsocketCommunicator(application, f"/ws/game/{game.pk}/", headers=[(b"origin", b"https://evil.example")])
    ok, _ = await ws.connect()
    assert not ok


async def test_simultaneous_orders_are_revealed_once_to_all(application, game3):
    """3 houses submit orders from 3 connections: before the last one nobody holds another
    house's orders; after it all three receive the revealed orders in the same version."""
    game, users = await sync_to_async(lambda: game3)()
    houses = ["stark", "lannister", "baratheon"]
    socks = {h: (await connect(application, game.pk, users[h]))[0] for h in houses}
    seen: dict[str, list[dict]] = {h: [] for h in houses}
    actions = {h: await sync_to_async(legal_json)(game.pk, h) for h in houses}
    for i, h in enumerate(houses[:2]):
        await socks[h].send_json_to({"type": "act", "id": i, "version": i, "action": actions[h]})
        for x in houses:
            seen[x] += await drain(socks[x])
    for h in houses:
        for m in seen[h]:
            if m["type"] == "state":
                assert m["view"]["orders"] == {}
                mine = m["view"].get("my_orders", {})
                assert set(mine.values()) <= {t for t in actions[h]["orders"].values()}
    await socks["baratheon"].send_json_to({"type": "act", "id": 9, "version": 2, "action": actions["baratheon"]})
    finals = {}
    for h in houses:
        states = [m for m in await drain(socks[h]) if m["type"] == "state"]
        finals[h] = states[-1]
    assert {f["version"] for f in finals.values()} == {3}
    for f in finals.values():
        revealed = {(a, o["token"]) for a, o in f["view"]["orders"].items()}
        expected = {(a, t) for h in houses for a, t in actions[h]["orders"].items()}
        assert expected <= revealed
    for ws in socks.values():
        await ws.disconnect()
