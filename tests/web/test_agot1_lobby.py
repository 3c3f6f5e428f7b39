"""The 1st edition ("agot1") in the lobby: a choice of the create page with a
description that says which parts are reconstructed (English and Chinese), a form offering 3 to
5 players and, for each count, the houses in play (no Martell; no Greyjoy with 4, nor Tyrell with
3); a lobby that starts a game whose page mounts the 1st edition's screen, with bots filling seats
as for the 2nd edition."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from game.models import Lobby

pytestmark = pytest.mark.django_db


def test_create_page_offers_the_first_edition_and_says_what_is_reconstructed(client_for, make_user):
    c = client_for(make_user("host"))
    html = c.get(reverse("lobby_create")).content.decode()
    choice = re.search(r'<nav class="game-choice".*?</nav>', html, re.S).group(0)
    assert 'data-game="agot1"' in choice and "(1st edition)" in choice
    html = c.get(reverse("lobby_create") + "?game=agot1").content.decode()
    assert re.search(r'data-game="agot1" aria-current="page"', html)
    about = re.search(r'<p class="game-about[^"]*" data-game="agot1">(.*?)</p>', html, re.S).group(1)
    assert "reconstructed" in about and "Westeros decks" in about and "borders of the board" in about
    zh = c.get(reverse("lobby_create") + "?game=agot1", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    about_zh = re.search(r'<p class="game-about[^"]*" data-game="agot1">(.*?)</p>', zh, re.S).group(1)
    assert "重建" in about_zh and "权力的游戏：桌游（第一版）" in zh


def test_form_offers_three_to_five_players_and_the_houses_of_each_count(client_for, make_user):
    html = client_for(make_user("host")).get(reverse("lobby_create") + "?game=agot1").content.decode()
    players = re.search(r'<select name="players".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\d+)"', players) == ["3", "4", "5"]
    assert "Tides of Battle" not in html and "Your house" in html
    house = re.search(r'<select name="house".*?</select>', html, re.S).group(0)
    seats = json.loads(re.search(r'data-seats="([^"]*)"', house).group(1).replace("&quot;", '"'))
    assert {n: [h for h, _ in v[1:]] for n, v in seats.items()} == {
        "3": ["stark", "lannister", "baratheon"],
        "4": ["stark", "lannister", "tyrell", "baratheon"],
        "5": ["stark", "lannister", "greyjoy", "tyrell", "baratheon"],
    }


def test_a_house_not_in_play_at_that_count_is_refused(client_for, make_user):
    c = client_for(make_user("host"))
    r = c.post(reverse("lobby_create") + "?game=agot1", {"name": "Old", "players": "3", "house": "tyrell"})
    assert r.status_code == 400 and not Lobby.objects.exists()
    r = c.post(reverse("lobby_create") + "?game=agot1", {"name": "Old", "players": "6", "house": ""})
    assert r.status_code == 400 and not Lobby.objects.exists()


def test_create_fill_with_bots_start_and_open_the_game_page(client_for, make_user):
    host = make_user("host")
    c = client_for(host)
    r = c.post(reverse("lobby_create") + "?game=agot1", {"name": "Old", "players": "3", "house": "stark"})
    assert r.status_code == 302, r.content.decode()[:2000]
    lobby = Lobby.objects.get()
    assert (lobby.ruleset, lobby.players, lobby.options) == ("agot1", 3, {})
    for _ in range(2):
        assert c.post(reverse("lobby_add_bot", args=[lobby.pk]), {"level": "basic"}).status_code in (200, 302)
    c.post(reverse("lobby_start", args=[lobby.pk]))
    lobby.refresh_from_db()
    assert lobby.status == "started"
    assert sorted(lobby.seats.values_list("house", flat=True)) == ["baratheon", "lannister", "stark"]
    page = c.get(reverse("game_play", args=[lobby.game.pk])).content.decode()
    config = json.loads(re.search(r'<script id="game-config" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert config["renderer"].endswith("js/rulesets/agot1.js")
    assert "A Game of Thrones: The Board Game (1st edition)" in page


def test_home_page_lists_the_first_edition(client):
    html = client.get(reverse("lobby_list")).content.decode()
    assert "A Game of Thrones: The Board Game (1st edition)" in html
    assert 'href="/lobby/new/?game=agot1"' in html


def test_a_shared_win_is_named_on_my_games(make_lobby, client):
    """A 1st-edition game can end in a shared win (``winner`` None, ``winners``): "My games" names
    every winner and counts it as won for each of them (not a draw)."""
    from game.models import Game

    from .live_helpers import start_game

    game, users = start_game(make_lobby, 3, ruleset="agot1")
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        result={"winner": None, "winners": ["stark", "lannister"], "reason": "shared",
                "ranking": ["stark", "lannister", "baratheon"]})
    client.force_login(users["stark"])
    html = client.get("/my/games/").content.decode()
    assert "Stark &amp; Lannister won" in html and "You won" in html and "Draw" not in html
    client.force_login(users["baratheon"])
    html = client.get("/my/games/").content.decode()
    assert "Stark &amp; Lannister won" in html and "You won" not in html
