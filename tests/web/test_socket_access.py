"""Who may open which socket: a private game or lobby is seen only by its seated
players, those who hold its invitation (the invite link, or its password typed into the join
form) and staff; anyone else's socket is closed with 4403 and the pages answer 404. Public games
and lobbies are unchanged. One rule decides for the pages and both sockets
(``game/live/access.py``)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game.site import lobbies

from .live_helpers import ORIGIN, refusal, session_cookie, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


def _cookie_of(client: Client) -> list[tuple[bytes, bytes]]:
    return [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode())]


def _user_headers(user) -> list[tuple[bytes, bytes]]:
    return [ORIGIN, (b"cookie", session_cookie(user))]


def _invited_by_link(lobby) -> Client:
    """An anonymous visitor's session that opened the lobby's invite link."""
    c = Client()
    assert c.get(reverse("lobby_invite", args=[lobby.invite_token])).status_code == 302
    return c


def _invited_by_password(make_user, lobby, password: str, name: str = "knows-the-password") -> Client:
    """A logged-in stranger who typed the right password into the join form of a full lobby (the
    join itself is refused: no seat left) and so holds the invitation."""
    c = Client()
    c.force_login(make_user(name))
    c.post(reverse("lobby_join", args=[lobby.pk]), {"house": "", "password": password})
    return c


async def _state_or_code(application, path: str, headers) -> str | int:
    """``"state"``/``"lobby"`` (the first message's type) when the socket is let in, else its
    close code."""
    from channels.testing import WebsocketCommunicator

    ws = WebsocketCommunicator(application, path, headers=headers)
    ok, code = await ws.connect(timeout=10)
    assert ok, code
    out = await ws.receive_output(timeout=10)
    if out["type"] == "websocket.close":
        return out["code"]
    await ws.disconnect()
    import json

    return json.loads(out["text"])["type"]


@pytest.fixture
def private_game(make_lobby, make_user):
    """A started private game (password ``pw``) and the clients of everyone concerned."""
    lobby = make_lobby(players=3, seated=3, is_private=True, password="pw")
    password_holder = _invited_by_password(make_user, lobby, "pw")
    wrong_password = _invited_by_password(make_user, lobby, "not-it", "wrong")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    seated = lobby.seats.select_related("user").first().user
    staff = get_user_model().objects.create_user("mod", password="pw-long-enough-1", is_staff=True)
    return {
        "game": lobby.game,
        "lobby": lobby,
        "anonymous": [ORIGIN],
        "stranger": _user_headers(make_user("stranger")),
        "wrong password": _cookie_of(wrong_password),
        "forged cookie": [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}=forged-session-key".encode())],
        "seated": _user_headers(seated),
        "staff": _user_headers(staff),
        "invited by link": _cookie_of(_invited_by_link(lobby)),
        "invited by password": _cookie_of(password_holder),
    }


@pytest.mark.parametrize("who", ["anonymous", "stranger", "wrong password", "forged cookie"])
async def test_a_private_game_refuses_strangers_sockets_with_4403(application, private_game, who):
    game = private_game["game"]
    assert await _state_or_code(application, f"/ws/game/{game.pk}/", private_game[who]) == 4403


@pytest.mark.parametrize("who", ["seated", "staff", "invited by link", "invited by password"])
async def test_a_private_game_lets_in_its_players_invited_and_staff(application, private_game, who):
    game = private_game["game"]
    assert await _state_or_code(application, f"/ws/game/{game.pk}/", private_game[who]) == "state"


@pytest.mark.parametrize("who", ["anonymous", "stranger", "forged cookie"])
async def test_a_private_lobby_refuses_strangers_sockets_with_4403(application, make_lobby, make_user, who):
    lobby = await sync_to_async(make_lobby)(players=3, is_private=True)
    headers = {"anonymous": [ORIGIN], "forged cookie": [ORIGIN, (b"cookie", b"sessionid=nope")]}.get(who)
    if headers is None:
        headers = await sync_to_async(_user_headers)(await sync_to_async(make_user)("stranger"))
    assert await _state_or_code(application, f"/ws/lobby/{lobby.pk}/", headers) == 4403


async def test_a_private_lobby_lets_in_the_invited_the_seated_and_staff(application, make_lobby, make_user):
    lobby = await sync_to_async(make_lobby)(players=3, is_private=True, password="pw")
    path = f"/ws/lobby/{lobby.pk}/"
    link = await sync_to_async(lambda: _cookie_of(_invited_by_link(lobby)))()
    assert await _state_or_code(application, path, link) == "lobby"

    def joined_by_password():
        c = Client()
        user = make_user("joiner")
        c.force_login(user)
        assert c.post(reverse("lobby_join", args=[lobby.pk]), {"house": "", "password": "pw"}).status_code == 302
        return _user_headers(user)  # a fresh session of the seated user: the seat is enough

    assert await _state_or_code(application, path, await sync_to_async(joined_by_password)()) == "lobby"
    staff = await sync_to_async(get_user_model().objects.create_user)("mod", password="pw-long-enough-1", is_staff=True)
    assert await _state_or_code(application, path, await sync_to_async(_user_headers)(staff)) == "lobby"


async def test_public_games_and_lobbies_are_unchanged(application, make_lobby):
    game, _ = await sync_to_async(start_game)(make_lobby, 3)
    assert await _state_or_code(application, f"/ws/game/{game.pk}/", [ORIGIN]) == "state"
    lobby = await sync_to_async(make_lobby)(players=3)
    assert await _state_or_code(application, f"/ws/lobby/{lobby.pk}/", [ORIGIN]) == "lobby"


@pytest.mark.parametrize("path", ["/ws/game/99999999999999999999999/", "/ws/lobby/99999999999999999999999/", "/ws/game/0/"])
async def test_hostile_ids_are_not_found(application, path):
    assert await refusal(application, path) == 4404


async def test_a_stranger_removed_from_a_private_lobby_is_closed_at_its_next_change(application, make_lobby, make_user):
    """A kicked player without the invitation loses the lobby's socket at the next push."""
    lobby = await sync_to_async(make_lobby)(players=3, seated=2, is_private=True)
    seat = await sync_to_async(lambda: lobby.seats.exclude(user=lobby.creator).select_related("user").get())()
    from channels.testing import WebsocketCommunicator

    ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=await sync_to_async(_user_headers)(seat.user))
    assert (await ws.connect(timeout=10))[0]
    assert (await ws.receive_json_from(timeout=10))["type"] == "lobby"
    await sync_to_async(lobbies.kick)(lobby.pk, lobby.creator, seat.pk)
    out = await ws.receive_output(timeout=10)
    assert out == {"type": "websocket.close", "code": 4403} or out.get("code") == 4403, out


# --- the pages, by the same rule -------------------------------------------------------------------
def test_the_pages_of_a_private_game_and_lobby_follow_the_same_rule(private_game, make_lobby, make_user, client):
    game, lobby = private_game["game"], private_game["lobby"]
    play = reverse("game_play", args=[game.pk])
    assert client.get(play).status_code == 404
    stranger = Client()
    stranger.force_login(make_user("stranger2"))
    assert stranger.get(play).status_code == 404
    assert _invited_by_link(lobby).get(play).status_code == 200
    # the lobby page of a started private lobby: 404 to strangers (no password to type any more)
    assert client.get(reverse("lobby_detail", args=[lobby.pk])).status_code == 404
    assert client.get(reverse("lobby_live", args=[lobby.pk])).status_code == 404
    # an invite-only lobby: 404; an open one with a password: the join form, but not who sits there
    secret = make_lobby(players=3, is_private=True)
    assert client.get(reverse("lobby_detail", args=[secret.pk])).status_code == 404
    locked = make_lobby(players=3, seated=2, is_private=True, password="pw")
    html = stranger.get(reverse("lobby_detail", args=[locked.pk])).content.decode()
    assert 'id="join-form"' in html and 'id="seats-private"' in html
    names = [s.user.profile.display_name for s in locked.seats.select_related("user__profile")]
    assert len(names) == 2 and not any(name in html for name in names), names
    assert "js/lobby.js" not in html  # no socket that would be refused
    assert stranger.get(reverse("lobby_live", args=[locked.pk])).status_code == 404
    assert _invited_by_link(locked).get(reverse("lobby_live", args=[locked.pk])).status_code == 200
