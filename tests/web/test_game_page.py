"""The game page (/game/<id>/), the lobby's links to it, and seating bots from the lobby."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from game.site import lobbies

from .live_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_background_bots(settings):
    settings.GAME_BOT_DELAY = None


def _config(html: str) -> dict:
    start = html.index('<script id="game-config" type="application/json">') + len('<script id="game-config" type="application/json">')
    return json.loads(html[start : html.index("</script>", start)])


def test_player_page_names_the_seat_and_socket(make_lobby, client_for):
    game, users = start_game(make_lobby, 3)
    html = client_for(users["stark"]).get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'id="board-root"' in html and "You play Stark." in html and "js/live/play.js" in html
    cfg = _config(html)
    assert cfg["viewer"] == "stark" and cfg["socket"] == f"/ws/game/{game.pk}/" and cfg["ruleset"] == "agot2"
    assert {s["seat"] for s in cfg["seats"]} == {"stark", "lannister", "baratheon"}
    assert 'value="private|lannister"' in html and 'value="private|stark"' not in html


def test_the_seats_read_as_each_language_writes_a_label(make_lobby, client_for):
    """The Players card: "Stark: host1" in English, "史塔克：host1" (a full-width colon) in Chinese."""
    game, users = start_game(make_lobby, 3)
    c = client_for(users["stark"])
    name = users["stark"].profile.display_name
    assert f"Stark: {name}" in c.get(reverse("game_play", args=[game.pk])).content.decode()
    html = c.get(reverse("game_play", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert f"史塔克：{name}" in html


def test_spectator_page(make_lobby, client, make_user, client_for):
    game, _ = start_game(make_lobby, 3)
    html = client.get(reverse("game_play", args=[game.pk])).content.decode()
    assert "You are watching as a spectator." in html and _config(html)["viewer"] is None
    html = client_for(make_user("w")).get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'value="spectators"' in html and 'value="public"' not in html


def test_private_game_is_hidden_from_strangers(make_lobby, client):
    game, _ = start_game(make_lobby, 3, is_private=True, password="pw")
    assert client.get(reverse("game_play", args=[game.pk])).status_code == 404


def test_unknown_game_is_404(client):
    assert client.get(reverse("game_play", args=[424242])).status_code == 404


def test_started_lobby_links_to_the_game(make_lobby, client_for, client):
    game, users = start_game(make_lobby, 3)
    html = client_for(users["stark"]).get(game.lobby.get_absolute_url()).content.decode()
    assert f'href="/game/{game.pk}/"' in html and "Go to the game" in html
    assert f'href="/game/{game.pk}/"' in client.get(reverse("spectate_list")).content.decode()


def test_starting_creates_the_game_with_a_server_seed(make_lobby):
    game, users = start_game(make_lobby, 4)
    assert game.version == 0 and game.players == 4 and game.ruleset == "agot2" and game.status == "running"
    assert 0 <= game.seed < 2**63 and game.snapshot_version == 0


def test_creator_seats_bots(make_lobby, client_for, make_user):
    lobby = make_lobby(players=3, house="stark")
    c = client_for(lobby.creator)
    assert "Add a bot" in c.get(lobby.get_absolute_url()).content.decode()
    c.post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "basic"})
    c.post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "random", "house": "lannister"})
    assert sorted(lobby.seats.exclude(bot="").values_list("bot", flat=True)) == ["basic", "random"]
    assert lobby.seats.get(bot="random").house == "lannister"
    r = c.post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "basic"}, follow=True)
    assert "This lobby is full." in r.content.decode()


def test_only_the_creator_seats_bots(make_lobby, client_for, make_user, snapshot):
    lobby = make_lobby(players=3)
    before = snapshot()
    r = client_for(make_user("x")).post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "basic"}, follow=True)
    assert "Only the lobby&#x27;s creator can add bots." in r.content.decode()
    assert snapshot() == before
    with pytest.raises(lobbies.LobbyError):
        lobbies.add_bot(lobby.pk, lobby.creator, level="genius")
