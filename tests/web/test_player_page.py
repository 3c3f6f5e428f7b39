"""Player pages ``/u/<name>/``: games played and won by game and house, ratings,
recent games; guests have one, and keep it when they claim their account."""

from __future__ import annotations

import pytest
from django.test import Client

from .archive_helpers import clear_caches, play_to_end, start_duke

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield live_settings
    clear_caches()


def test_a_players_page(make_lobby, make_user, client):
    game, users = start_duke(make_lobby, make_user)
    game = play_to_end(game.pk, users)
    seat, user = next((h, u) for h, u in users.items())
    r = client.get(f"/u/{user.username}/")
    assert r.status_code == 200
    ctx = r.context
    won = int(game.result["winner"] == seat)
    assert (ctx["played"], ctx["won"]) == (1, won)
    assert ctx["by_game"] == [{"name": "The Duke", "played": 1, "won": won}]
    assert ctx["by_house"][0]["house"] == ("Light" if seat == "light" else "Dark")
    assert [row["game"].pk for row in ctx["recent"]] == [game.pk]
    assert ctx["ratings"][0]["ruleset"] == "duke" and ctx["ratings"][0]["games"] == 1
    assert client.get("/u/nobody-here/").status_code == 404


def test_a_guest_has_a_page_and_keeps_it_when_claiming(make_lobby, make_user):
    guest = make_user("Arya", guest=True)
    game, users = start_duke(make_lobby, make_user, creator=guest)
    play_to_end(game.pk, users)
    c = Client()
    c.force_login(guest)
    before = c.get(f"/u/{guest.username}/")
    assert before.status_code == 200 and before.context["guest"] and before.context["name"] == "Arya"
    assert f'href="/u/{guest.username}/"' in before.content.decode()  # the header links to it
    # a guest's page is also found by the name shown for them (their username is internal)
    by_name = Client().get("/u/Arya/")
    assert by_name.status_code == 200 and by_name.context["name"] == "Arya" and by_name.context["played"] == before.context["played"]
    r = c.post("/accounts/claim/", {"username": "arya-stark", "password1": "a-long-pass-123", "password2": "a-long-pass-123"})
    assert r.status_code == 302
    after = Client().get("/u/arya-stark/")
    assert after.status_code == 200 and not after.context["guest"]
    assert (after.context["played"], after.context["ratings"]) == (before.context["played"], before.context["ratings"])
    assert Client().get(f"/u/{guest.username}/").status_code == 404


def test_private_games_are_neither_counted_nor_shown_to_strangers(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, is_private=True, password="pw-secret-1")
    play_to_end(game.pk, users)
    user = next(iter(users.values()))
    r = Client().get(f"/u/{user.username}/")
    assert r.context["played"] == 0 and r.context["recent"] == [] and r.context["by_house"] == []
    c = Client()
    c.force_login(user)
    mine = c.get(f"/u/{user.username}/").context
    assert mine["played"] == 1 and [row["game"].pk for row in mine["recent"]] == [game.pk]


def test_playing_now_counts_every_seat_of_a_running_game(make_lobby, make_user):
    """"Playing now" shows a running game's seats as "3 / 3 players", not only the player's own."""
    from .live_helpers import start_game

    game, users = start_game(make_lobby, 3)
    user = users["stark"]
    r = Client().get(f"/u/{user.username}/")
    assert [(lobby.pk, lobby.filled) for lobby in r.context["running"]] == [(game.lobby_id, 3)]
    assert "3 / 3 players" in r.content.decode()
