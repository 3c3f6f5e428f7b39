"""Creating a lobby lets one choose the game; The Duke has two seats (light, dark), two players and
its own options (no Tides of Battle)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from game.models import Lobby

pytestmark = pytest.mark.django_db


def test_create_page_offers_both_games(client_for, make_user):
    html = client_for(make_user("host")).get(reverse("lobby_create")).content.decode()
    choice = re.search(r'<nav class="game-choice".*?</nav>', html, re.S).group(0)
    assert 'data-game="agot2"' in choice and 'data-game="duke"' in choice
    assert "The Duke" in choice
    # the default game is AGoT, marked as the current one
    assert re.search(r'data-game="agot2" aria-current="page"', choice)
    assert "Tides of Battle" in html and "Your house" in html


def test_duke_form_two_seats_fixed_count_no_tides(client_for, make_user):
    html = client_for(make_user("host")).get(reverse("lobby_create") + "?game=duke").content.decode()
    assert re.search(r'data-game="duke" aria-current="page"', html)
    assert "Tides of Battle" not in html
    assert 'type="hidden" name="players" value="2"' in html and "2 players" in html
    house = re.search(r'<select name="house".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\w*)"', house) == ["", "light", "dark"]
    assert "Light" in house and "Dark" in house and "Random side" in house
    for option in ("mountain", "dragon", "duchess", "oracle"):
        assert f'name="{option}"' in html
    assert "Mountain" in html and "Oracle" in html


def test_duke_form_in_chinese(client_for, make_user):
    c = client_for(make_user("host"))
    html = c.get(reverse("lobby_create") + "?game=duke", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "浅色方" in html and "深色方" in html and "公爵战棋" in html


def test_create_and_start_a_duke_game(client_for, make_user):
    host, other = make_user("host"), make_user("other")
    c = client_for(host)
    r = c.post(
        reverse("lobby_create") + "?game=duke",
        {"name": "Duel", "players": "2", "house": "dark", "dragon": "on"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    lobby = Lobby.objects.get()
    assert (lobby.ruleset, lobby.players) == ("duke", 2)
    assert lobby.options == {"mountain": False, "dragon": True, "duchess": False, "oracle": False}
    client_for(other).post(reverse("lobby_join", args=[lobby.pk]), {"house": ""})
    c.post(reverse("lobby_start", args=[lobby.pk]))
    lobby.refresh_from_db()
    assert lobby.status == "started"
    assert dict(lobby.seats.values_list("user__username", "house")) == {"host": "dark", "other": "light"}


def test_duke_refuses_other_player_counts(client_for, make_user):
    r = client_for(make_user("host")).post(
        reverse("lobby_create") + "?game=duke", {"name": "Crowd", "players": "3", "house": ""}
    )
    assert r.status_code == 400
    assert not Lobby.objects.exists()


def test_duke_lobby_speaks_of_sides(client_for, make_user):
    """The Duke's lobby names a seat a "side", in its join form, its refusals and its seat list."""
    host, other = make_user("host"), make_user("other")
    client_for(host).post(reverse("lobby_create") + "?game=duke", {"name": "Duel", "players": "2", "house": "dark"})
    lobby = Lobby.objects.get()
    c = client_for(other)
    html = c.get(reverse("lobby_detail", args=[lobby.pk])).content.decode()
    assert "Your side" in html and "Your house" not in html
    r = c.post(reverse("lobby_join", args=[lobby.pk]), {"house": "dark"}, follow=True)
    page = r.content.decode()
    assert "That side is already taken. Choose another one." in page
    assert not lobby.seats.filter(user=other).exists()
    c.post(reverse("lobby_join", args=[lobby.pk]), {"house": ""})
    live = c.get(reverse("lobby_live", args=[lobby.pk])).content.decode()
    assert "Random side" in live and "Random house" not in live
