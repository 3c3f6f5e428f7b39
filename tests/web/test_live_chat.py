"""Game chat over the game websocket: public, private between two seats, spectators' own channel;
stored with history, length- and rate-limited."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from .live_helpers import connect, drain, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


@pytest.fixture
def table(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    return game, users, make_user("watcher"), make_user("watcher2")


def _texts(msgs):
    return [line["text"] for m in msgs if m["type"] == "chat" for line in m["messages"]]


async def _all(application, table):
    game, users, w1, w2 = await sync_to_async(lambda: table)()
    socks = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    socks["w1"] = (await connect(application, game.pk, w1))[0]
    socks["w2"] = (await connect(application, game.pk, w2))[0]
    return game, users, socks


async def test_public_chat_reaches_players_and_spectators(application, table):
    game, users, socks = await _all(application, table)
    await socks["stark"].send_json_to({"type": "chat", "id": 1, "channel": "public", "text": "Winter is coming"})
    for name, ws in socks.items():
        msgs = await drain(ws)
        assert _texts(msgs) == ["Winter is coming"], name
        line = next(m for m in msgs if m["type"] == "chat")["messages"][0]
        assert line["seat"] == "stark" and line["channel"] == "public"
    for ws in socks.values():
        await ws.disconnect()


async def test_private_chat_only_reaches_the_two_seats(application, table):
    game, users, socks = await _all(application, table)
    await socks["stark"].send_json_to({"type": "chat", "id": 1, "channel": "private", "to": "lannister", "text": "truce?"})
    assert _texts(await drain(socks["stark"])) == ["truce?"]
    assert _texts(await drain(socks["lannister"])) == ["truce?"]
    for name in ("baratheon", "w1", "w2"):
        assert await drain(socks[name]) == [], name
    for ws in socks.values():
        await ws.disconnect()


async def test_history_is_filtered_per_viewer(application, table):
    game, users, socks = await _all(application, table)
    await socks["stark"].send_json_to({"type": "chat", "channel": "private", "to": "lannister", "text": "secret"})
    await socks["w1"].send_json_to({"type": "chat", "channel": "spectators", "text": "stark is doomed"})
    await socks["baratheon"].send_json_to({"type": "chat", "channel": "public", "text": "hello all"})
    for ws in socks.values():
        await drain(ws)
        await ws.disconnect()

    async def history(user):
        ws, _ = await connect(application, game.pk, user, first=False)
        await ws.receive_json_from(timeout=5)
        chat = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return [m["text"] for m in chat["messages"]]

    _, _, w1, w2 = await sync_to_async(lambda: table)()
    assert await history(users["lannister"]) == ["secret", "hello all"]
    assert await history(users["baratheon"]) == ["hello all"]
    assert await history(w2) == ["stark is doomed", "hello all"]
    assert await history(None) == ["stark is doomed", "hello all"]


async def test_spectators_channel_is_not_read_by_players(application, table):
    game, users, socks = await _all(application, table)
    await socks["w1"].send_json_to({"type": "chat", "id": 2, "channel": "spectators", "text": "look north"})
    assert _texts(await drain(socks["w2"])) == ["look north"]
    for h in users:
        assert await drain(socks[h]) == []
    for ws in socks.values():
        await ws.disconnect()


@pytest.mark.parametrize(
    "who,msg,code",
    [
        ("w1", {"channel": "public", "text": "hi"}, "chat.bad_channel"),
        ("stark", {"channel": "spectators", "text": "hi"}, "chat.bad_channel"),
        ("stark", {"channel": "private", "to": "stark", "text": "hi"}, "chat.bad_channel"),
        ("stark", {"channel": "private", "to": "tyrell", "text": "hi"}, "chat.bad_channel"),
        ("stark", {"channel": "public", "text": "   "}, "chat.empty"),
        ("stark", {"channel": "public", "text": 42}, "chat.empty"),
        ("stark", {"channel": "public", "text": "x" * 501}, "chat.too_long"),
    ],
)
async def test_refused_chat_writes_nothing(application, table, who, msg, code):
    game, users, socks = await _all(application, table)
    await socks[who].send_json_to({"type": "chat", "id": 5, **msg})
    reply = await socks[who].receive_json_from(timeout=5)
    assert reply["ok"] is False and reply["error"]["code"] == code
    from game.models import ChatMessage

    assert await sync_to_async(ChatMessage.objects.count)() == 0
    for ws in socks.values():
        await ws.disconnect()


async def test_anonymous_spectators_cannot_chat(application, table):
    game, *_ = await sync_to_async(lambda: table)()
    ws, _ = await connect(application, game.pk, None)
    await ws.send_json_to({"type": "chat", "id": 1, "channel": "spectators", "text": "hi"})
    assert (await ws.receive_json_from(timeout=5))["error"]["code"] == "chat.bad_channel"
    await ws.disconnect()


async def test_chat_is_rate_limited(application, table):
    game, users, _, _ = await sync_to_async(lambda: table)()
    ws, _ = await connect(application, game.pk, users["stark"])
    for i in range(8):
        await ws.send_json_to({"type": "chat", "id": i, "channel": "public", "text": f"spam {i}"})
    msgs = await drain(ws)
    refused = [m for m in msgs if m["type"] == "result" and not m["ok"]]
    assert refused and all(m["error"]["code"] == "rate_limited" for m in refused)
    assert len(_texts(msgs)) <= 6
    await ws.disconnect()


async def test_chat_text_is_stored_as_plain_text(application, table):
    game, users, _, _ = await sync_to_async(lambda: table)()
    ws, _ = await connect(application, game.pk, users["stark"])
    await ws.send_json_to({"type": "chat", "channel": "public", "text": "<script>alert(1)</script>\x07"})
    msgs = await drain(ws)
    assert _texts(msgs) == ["<script>alert(1)</script>"]  # control characters removed; the page uses textContent
    await ws.disconnect()
