"""The "My games" page (``/my/games/``, ``game/site/my_games.py``) and the
header's badge of games awaiting the person, pushed live on the lobby-list socket."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from game.live import apply
from game.models import Game
from game.site.notifications import hints

from .archive_helpers import clear_caches, play_to_end, start_duke
from .live_helpers import ORIGIN, drain, legal_json, session_cookie, start_game


@pytest.fixture(autouse=True)
def _inline(live_settings):
    live_settings.NOTIFY_IN_THREAD = False
    clear_caches()
    hints.forget()
    yield
    clear_caches()
    hints.forget()


def _listed(html: bytes, section: str) -> list[int]:
    part = html.decode().split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return [int(x) for x in re.findall(r'class="my-game[^"]*" data-game="(\d+)"', part)]


def test_awaited_games_come_first_and_finished_ones_below(make_lobby, make_user, client):
    me = make_user("me")
    # a game awaiting me (AGoT's first orders await everyone)
    awaiting, _ = start_game(make_lobby, players=3, creator=me)
    # a game of The Duke where the other player is awaited, started after it
    duke, duke_users = start_duke(make_lobby, make_user, creator=me)
    first = Game.objects.get(pk=duke.pk).awaited_since
    mine = next(h for h, u in duke_users.items() if u == me)
    if mine in first:  # make it the other's turn
        from .archive_helpers import next_move

        actor, action, version = next_move(duke.pk)
        apply.act(duke.pk, duke_users[actor], action, version)
    assert mine not in Game.objects.get(pk=duke.pk).awaited_since
    # a finished game
    done, done_users = start_duke(make_lobby, make_user, creator=me)
    play_to_end(done.pk, done_users)

    client.force_login(me)
    page = client.get("/my/games/")
    assert page.status_code == 200
    assert _listed(page.content, "my-running") == [awaiting.pk, duke.pk]
    assert _listed(page.content, "my-finished") == [done.pk]
    assert f'href="/game/{done.pk}/"'.encode() in page.content
    assert b'data-mine="1"' in page.content and b'data-mine="0"' in page.content
    # the header's badge counts the one game awaiting me
    assert re.search(rb'id="my-games-badge" data-count="1"', page.content)


def test_only_ones_own_games_are_listed(make_lobby, make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    alices, _ = start_game(make_lobby, players=3, creator=alice)
    assert client.get("/my/games/").status_code == 302  # anonymous: log in first
    client.force_login(bob)
    page = client.get("/my/games/")
    assert page.status_code == 200 and _listed(page.content, "my-running") == []
    assert f"/game/{alices.pk}/".encode() not in page.content
    # no way to name someone else's list: the page takes no argument
    assert client.get(f"/my/games/?user={alice.pk}").content.count(b'class="my-game') == 0


async def _lobbies_socket(application, user):
    headers = [ORIGIN, (b"cookie", await sync_to_async(session_cookie)(user))]
    ws = WebsocketCommunicator(application, "/ws/lobbies/", headers=headers)
    ok, code = await ws.connect(timeout=10)
    assert ok, code
    return ws


@pytest.mark.django_db(transaction=True)
async def test_the_badge_count_is_pushed_on_the_lobby_list_socket(application, make_lobby, make_user):
    game, users = await sync_to_async(start_game)(make_lobby, players=3)
    house, other = list(users)[:2]
    ws = await _lobbies_socket(application, users[house])
    first = await ws.receive_json_from(timeout=10)
    assert first == {"type": "my_games", "awaiting": 1, "changed": False}
    watcher = await _lobbies_socket(application, users[other])
    assert (await watcher.receive_json_from(timeout=10))["awaiting"] == 1

    # the player places orders: no longer awaited in that game, the badge drops to 0
    await sync_to_async(apply.act)(game.pk, users[house], await sync_to_async(legal_json)(game.pk, house))
    pushed = [m for m in await drain(ws, timeout=1.0) if m["type"] == "my_games"]
    assert pushed and pushed[-1]["awaiting"] == 0
    # the other player, still awaited, is not told anything changed
    assert [m for m in await drain(watcher, timeout=0.5) if m["type"] == "my_games"] == []

    # anonymous visitors get the list's hints only; junk is ignored and the socket stays open
    anon = WebsocketCommunicator(application, "/ws/lobbies/", headers=[ORIGIN])
    assert (await anon.connect(timeout=10))[0]
    for junk in ("{", "[]", '{"type": 5}', '{"type": "sync"}', "x" * 20000):
        await anon.send_to(text_data=junk)
    answers = await drain(anon, timeout=0.5)
    assert all(m["type"] == "error" for m in answers) and [m["error"]["code"] for m in answers] == ["message.too_large"]
    await ws.send_to(text_data='{"type": "sync"}')
    assert (await ws.receive_json_from(timeout=10))["awaiting"] == 0
    for c in (ws, watcher, anon):
        await c.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_stand_in_bot_taking_and_giving_back_a_seat_moves_the_badge(application, make_lobby, settings):
    """A seat a stand-in bot plays does not await its person; taking it back does again."""
    from game.live import stand_ins

    settings.GAME_AWAY_AFTER = 0
    game, users = await sync_to_async(start_game)(make_lobby, players=3)
    away, other = list(users)[:2]
    ws = await _lobbies_socket(application, users[away])
    assert (await ws.receive_json_from(timeout=10))["awaiting"] == 1
    await sync_to_async(stand_ins.hand_to_bot)(game.pk, users[other], away)
    pushed = [m for m in await drain(ws, timeout=1.0) if m["type"] == "my_games"]
    assert pushed and pushed[-1]["awaiting"] == 0
    await sync_to_async(stand_ins.take_back)(game.pk, users[away])
    pushed = [m for m in await drain(ws, timeout=1.0) if m["type"] == "my_games"]
    assert pushed and pushed[-1]["awaiting"] == 1
    await ws.disconnect()


def test_the_time_left_comes_from_the_deadline_hook(make_lobby, make_user, client, monkeypatch):
    """Time controls are built elsewhere: the page asks ``deadline_of(game, seat)`` (None until
    they are wired in) and shows the time left on each awaited seat's deadline."""
    from datetime import timedelta

    from django.utils import timezone

    from game.site import my_games

    me = make_user("me")
    game, users = start_game(make_lobby, players=3, creator=me)
    mine = next(h for h, u in users.items() if u == me)
    client.force_login(me)
    assert b"my-game-left" not in client.get("/my/games/").content  # no deadline: nothing shown

    at = timezone.now() + timedelta(hours=2, minutes=1)
    monkeypatch.setattr(my_games, "deadline_of", lambda g, seat: at if seat == mine else None)
    page = client.get("/my/games/").content.decode()
    assert page.count('class="my-game-left"') == 1 and "2\xa0hours left" in page
    page = client.get("/my/games/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "剩余 2\xa0小时" in page


@pytest.mark.django_db(transaction=True)
async def test_a_seat_given_to_someone_else_moves_the_badge_of_the_new_player(application, make_lobby, make_user):
    """A moderator gives a seat to another person (the admin saves the seat): the next change of
    the game tells the new player, not the old one."""
    from game.models import Seat

    game, users = await sync_to_async(start_game)(make_lobby, players=3)
    house, other = list(users)[:2]
    newcomer = await sync_to_async(make_user)("newcomer")

    def give():
        seat = Seat.objects.get(lobby_id=game.lobby_id, house=house)
        seat.user = newcomer
        seat.save()

    await sync_to_async(give)()
    ws = await _lobbies_socket(application, newcomer)
    assert (await ws.receive_json_from(timeout=10))["awaiting"] == 1
    await sync_to_async(apply.act)(game.pk, newcomer, await sync_to_async(legal_json)(game.pk, house))
    pushed = [m for m in await drain(ws, timeout=1.0) if m["type"] == "my_games"]
    assert pushed and pushed[-1]["awaiting"] == 0
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_badge_is_live_on_the_game_page_through_the_game_socket(application, make_lobby, make_user):
    """The game page keeps one socket: after ``{"type": "my_games"}`` its game socket sends the
    count and then every change of it (here: another game of the player starts awaiting them,
    and a move in this game stops it awaiting them). A socket that did not ask hears nothing of
    it; anonymous visitors are told 0 and follow nothing; floods are refused within the shared
    budget; hostile extras change nothing."""
    from .live_helpers import connect

    me = await sync_to_async(make_user)("me")
    game, users = await sync_to_async(start_game)(make_lobby, players=3, creator=me)
    mine = next(h for h, u in users.items() if u == me)
    page, _ = await connect(application, game.pk, me)
    other_tab, _ = await connect(application, game.pk, me)  # a tab that did not ask
    spectator, _ = await connect(application, game.pk, None)

    await page.send_json_to({"type": "my_games", "id": 7, "junk": [[[]]], "awaiting": 99})
    assert await page.receive_json_from(timeout=5) == {"type": "my_games", "id": 7, "awaiting": 1, "changed": False}
    await page.send_json_to({"type": "my_games", "id": [1]})  # asking again: no second membership
    assert (await page.receive_json_from(timeout=5))["id"] is None

    # another game of mine starts (AGoT's first orders await me): the badge counts 2
    await sync_to_async(start_game)(make_lobby, players=3, creator=me)
    counts = [m["awaiting"] for m in await drain(page, timeout=1.0) if m["type"] == "my_games"]
    assert counts and counts[-1] == 2
    # my orders in this game are in: it no longer awaits me
    await sync_to_async(apply.act)(game.pk, me, await sync_to_async(legal_json)(game.pk, mine))
    pushed = [m for m in await drain(page, timeout=1.0) if m["type"] == "my_games"]
    assert pushed and pushed[-1] == {"type": "my_games", "id": None, "awaiting": 1, "changed": True}
    assert [m for m in await drain(other_tab, timeout=0.5) if m["type"] == "my_games"] == []

    await drain(spectator)  # the move's state
    await spectator.send_json_to({"type": "my_games", "id": "s"})
    assert await spectator.receive_json_from(timeout=5) == {"type": "my_games", "id": "s", "awaiting": 0, "changed": False}

    for _ in range(60):  # a flood: the owner's shared budget (40 per window) answers rate_limited
        await spectator.send_json_to({"type": "my_games"})
    answers = await drain(spectator, timeout=0.5)
    assert {m["type"] for m in answers} <= {"my_games", "error"}
    assert any(m["type"] == "error" and m["error"]["code"] == "rate_limited" for m in answers)
    for ws in (page, other_tab, spectator):
        await ws.disconnect()


def test_finished_games_offer_to_play_again(make_lobby, client_for):
    """Each finished game's row has "Play again" (game.site.rematch): it opens the rematch, then
    reads "Join the rematch" for the other players and "Go to the rematch" for those seated."""
    from django.urls import reverse

    game, users = start_game(make_lobby, players=3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result={"winner": "stark"})
    a, b, _ = users.values()
    form = f'action="{reverse("game_rematch", args=[game.pk])}"'
    html = client_for(a).get(reverse("my_games")).content.decode()
    assert form in html and ">Play again<" in html
    client_for(a).post(reverse("game_rematch", args=[game.pk]))
    assert ">Join the rematch<" in client_for(b).get(reverse("my_games")).content.decode()
    html = client_for(a).get(reverse("my_games")).content.decode()
    assert ">Go to the rematch<" in html
    # the rematch's lobby, not started yet, is listed as waiting to start
    assert 'id="my-waiting"' in html and "1 / 3 players" in html.split('id="my-waiting"', 1)[1]
    assert 'id="my-waiting"' not in client_for(b).get(reverse("my_games")).content.decode()
