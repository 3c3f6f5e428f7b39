"""Chat blocks and mutes: any person hides another's chat lines for themselves (in every game,
never told to anyone else); a moderator's mute refuses a player's lines everywhere with a clear
error while they go on playing. Refusals change nothing."""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from game.live import apply, chat, chat_blocks, snapshots
from game.models import ChatBlock, ChatMessage, Mute
from game.rules import IllegalAction

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(live_settings):
    live_settings.LIVE_CHAT_RATE, live_settings.LIVE_CHAT_BURST = 100, 100
    snapshots.CACHE.clear()


def refused(code, fn, *args):
    with pytest.raises(IllegalAction) as e:
        fn(*args)
    assert e.value.code == code, e.value.code
    return e.value


def lines(messages) -> list[str]:
    return [m["text"] for msg in messages if msg["type"] == "chat" for m in msg["messages"]]


@pytest.mark.asyncio
async def test_a_hidden_players_lines_never_reach_the_one_who_hides_them(make_lobby, make_user, application):
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    stark, lannister = users["stark"], users["lannister"]
    first = await sync_to_async(chat.post_chat)(game.pk, lannister, "public", "before")
    a, _ = await connect(application, game.pk, stark)
    watcher, _ = await connect(application, game.pk, await sync_to_async(make_user)("watcher"))
    await a.send_json_to({"type": "hide", "id": 1, "message": first["id"]})
    answer = (await drain(a))[0]
    assert answer["ok"] is True and [p["name"] for p in answer["hidden"]] == [lannister.username]
    await sync_to_async(chat.post_chat)(game.pk, lannister, "public", "after")
    await sync_to_async(chat.post_chat)(game.pk, users["baratheon"], "public", "others still")
    assert lines(await drain(a)) == ["others still"]
    assert lines(await drain(watcher)) == ["after", "others still"]  # nobody else is told
    # in this game's history and in every other game
    b, _ = await connect(application, game.pk, stark, first=False)
    got = [await b.receive_json_from(timeout=5) for _ in range(3)]
    assert lines(got) == ["others still"]
    # shown again
    await a.send_json_to({"type": "unhide", "id": 2, "block": answer["hidden"][0]["block"]})
    assert (await drain(a))[0] == {"type": "result", "id": 2, "ok": True, "hidden": []}
    await sync_to_async(chat.post_chat)(game.pk, lannister, "public", "again")
    assert lines(await drain(a)) == ["again"]
    for ws in (a, b, watcher):
        await ws.disconnect()


@pytest.mark.asyncio
async def test_another_tab_of_the_same_person_follows(make_lobby, application):
    game, users = await sync_to_async(start_game)(make_lobby, 2, ruleset="duke")
    line = await sync_to_async(chat.post_chat)(game.pk, users["dark"], "public", "hi")
    one, _ = await connect(application, game.pk, users["light"])
    two, _ = await connect(application, game.pk, users["light"])
    await two.send_json_to({"type": "my_games", "id": "m"})  # the page asks: it follows the person's group
    await drain(two)
    await one.send_json_to({"type": "hide", "id": 1, "message": line["id"]})
    await drain(one)
    told = await drain(two)
    assert told and told[-1]["type"] == "hidden" and told[-1]["players"][0]["name"] == users["dark"].username
    await sync_to_async(chat.post_chat)(game.pk, users["dark"], "public", "unseen")
    assert lines(await drain(two)) == []
    await one.disconnect()
    await two.disconnect()


def test_refusals_change_nothing(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    other, other_users = start_game(make_lobby, 2, ruleset="duke")
    mine = chat.post_chat(game.pk, users["stark"], "public", "mine")
    private = chat.post_chat(game.pk, users["lannister"], "private", "psst", "baratheon")
    elsewhere = chat.post_chat(other.pk, other_users["light"], "public", "elsewhere")
    spectators = chat.post_chat(game.pk, make_user("fan"), "spectators", "go")
    before = list(ChatBlock.objects.values_list("pk", flat=True))
    refused("chat.hide_login", chat_blocks.hide, game.pk, None, mine["id"])
    refused("chat.hide_self", chat_blocks.hide, game.pk, users["stark"], mine["id"])
    refused("chat.no_line", chat_blocks.hide, game.pk, users["stark"], private["id"])  # not the viewer's to read
    refused("chat.no_line", chat_blocks.hide, game.pk, users["stark"], spectators["id"])
    refused("chat.no_line", chat_blocks.hide, game.pk, users["stark"], elsewhere["id"])  # another game's
    refused("chat.no_line", chat_blocks.hide, 987654, users["stark"], mine["id"])
    for bad in (str(mine["id"]), None, True, 1.5, [mine["id"]], {"id": 1}):
        refused("chat.no_line", chat_blocks.hide, game.pk, users["lannister"], bad)
    refused("chat.not_hidden", chat_blocks.unhide, users["stark"], 12345)
    refused("chat.not_hidden", chat_blocks.unhide, users["stark"], "1")
    refused("chat.hide_login", chat_blocks.unhide, None, 1)
    assert list(ChatBlock.objects.values_list("pk", flat=True)) == before
    hidden, listed = chat_blocks.hide(game.pk, users["lannister"], mine["id"])
    assert hidden == {users["stark"].pk}
    refused("chat.not_hidden", chat_blocks.unhide, users["baratheon"], listed[0]["block"])  # someone else's block
    assert chat_blocks.hide(game.pk, users["lannister"], mine["id"])[0] == hidden  # twice: one block
    assert ChatBlock.objects.count() == 1


def _mute(user, minutes: float) -> None:
    Mute.objects.update_or_create(user=user, defaults={"until": timezone.now() + datetime.timedelta(minutes=minutes), "reason": "insults"})


def test_a_muted_player_cannot_chat_but_still_plays(make_lobby):
    game, users = start_game(make_lobby, 3)
    _mute(users["stark"], 30)
    count = ChatMessage.objects.count()
    e = refused("chat.muted", chat.post_chat, game.pk, users["stark"], "public", "you all")
    assert e.params["minutes"] == 30 and e.params["until"]
    refused("chat.muted", chat.post_chat, game.pk, users["stark"], "private", "psst", "lannister")
    assert ChatMessage.objects.count() == count
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))  # a muted player still plays
    _mute(users["stark"], -1)  # the mute ran out
    chat.post_chat(game.pk, users["stark"], "public", "back")


def test_a_banned_players_open_socket_cannot_chat(make_lobby):
    game, users = start_game(make_lobby, 3)
    stark = users["stark"]
    type(stark).objects.filter(pk=stark.pk).update(is_active=False)  # the socket's user object is the old one
    refused("chat.bad_channel", chat.post_chat, game.pk, stark, "public", "still here?")


@pytest.mark.asyncio
async def test_the_mute_is_told_in_the_sockets_language(make_lobby, application):
    game, users = await sync_to_async(start_game)(make_lobby, 2, ruleset="duke")
    await sync_to_async(_mute)(users["light"], 5)
    ws, _ = await connect(application, game.pk, users["light"], lang="zh-hans")
    await ws.send_json_to({"type": "chat", "id": 9, "channel": "public", "text": "hi"})
    answer = (await drain(ws))[0]
    assert answer["ok"] is False and answer["error"]["code"] == "chat.muted"
    assert "禁言" in answer["error"]["message"] and "5" in answer["error"]["message"]
    await ws.disconnect()
