"""Lobby pages and their POST views: every refusal is a clear message and writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game.models import Lobby, Seat, display_name
from game.site import lobbies

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- create ------------------------------------------------------------------------------------
def test_create_page_needs_login(client):
    r = client.get(reverse("lobby_create"))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


def test_create_lobby(client_for, make_user):
    c = client_for(make_user("host"))
    r = c.post(
        reverse("lobby_create"),
        {"name": "Fire and Blood", "players": "5", "house": "tyrell", "tides_of_battle": "on", "is_private": "on", "password": "pw"},
    )
    lobby = Lobby.objects.get()
    assert r.status_code == 302 and r["Location"] == lobby.get_absolute_url()
    assert (lobby.name, lobby.players, lobby.options, lobby.is_private) == ("Fire and Blood", 5, {"tides_of_battle": True}, True)
    assert lobby.check_password("pw")
    assert list(lobby.seats.values_list("house", flat=True)) == ["tyrell"]


@pytest.mark.parametrize(
    "data,field,message",
    [
        ({"name": "x" * 61, "players": "3"}, "name", "at most 60 characters"),
        ({"name": "x", "players": "7"}, "players", "Select a valid choice."),
        ({"name": "x", "players": "3", "house": "martell"}, "house", "That house is not in play with 3 players."),
        ({"name": "x", "players": "3", "password": "pw"}, "password", "Only a private lobby has a password."),
    ],
)
def test_create_errors_beside_field(client_for, make_user, snapshot, data, field, message):
    c = client_for(make_user("host"))
    before = snapshot()
    r = c.post(reverse("lobby_create"), data)
    assert r.status_code == 400
    assert any(message in e for e in r.context["form"].errors[field])
    assert f'id="id_{field}_error"' in r.content.decode()
    assert snapshot() == before


def test_a_game_without_a_name_is_named_after_its_creator(client_for, make_user):
    c = client_for(make_user("host"))
    page = c.get(reverse("lobby_create")).content.decode()
    assert 'value="host&#x27;s game"' in page  # filled in already, to keep or change
    r = c.post(reverse("lobby_create"), {"name": "  ", "players": "3"})
    assert r.status_code == 302 and Lobby.objects.get().name == "host's game"


# --- lists -------------------------------------------------------------------------------------
def test_lobby_list_shows_open_and_password_lobbies_not_invite_only(client, make_lobby):
    make_lobby(name="Public one")
    make_lobby(name="Password one", is_private=True, password="pw")
    make_lobby(name="Secret one", is_private=True)
    started = make_lobby(name="Running one", players=3, seated=3)
    lobbies.start_lobby(started.pk, started.creator)
    html = client.get(reverse("lobby_list")).content.decode()
    assert "Public one" in html and "Password one" in html
    assert "Secret one" not in html and "Running one" not in html


def test_spectate_lists_public_started_games(client, make_lobby):
    started = make_lobby(name="Running one", players=3, seated=3)
    lobbies.start_lobby(started.pk, started.creator)
    hidden = make_lobby(name="Private running", players=3, seated=3, is_private=True)
    lobbies.start_lobby(hidden.pk, hidden.creator)
    make_lobby(name="Still open")
    html = client.get(reverse("spectate_list")).content.decode()
    assert "Running one" in html and "Private running" not in html and "Still open" not in html
    # each card says who plays it and since when
    names = [display_name(s.user) for s in started.seats.select_related("user__profile")]
    assert len(names) == 3 and ", ".join(names) in html and "started 0\xa0minutes ago" in html


def test_spectate_cards_name_bots_and_speak_chinese(client, make_lobby):
    started = make_lobby(name="With a bot", players=3, seated=2)
    lobbies.add_bot(started.pk, started.creator, level="basic")
    lobbies.start_lobby(started.pk, started.creator)
    html = client.get(reverse("spectate_list"), HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert f"host1、p2-{started.pk}、机器人 1（基础）" in html  # a Chinese list: "、" and "0\xa0分钟前开始" in html


def test_my_games_on_the_list(client_for, make_lobby):
    lobby = make_lobby(name="Mine", is_private=True)
    html = client_for(lobby.creator).get(reverse("lobby_list")).content.decode()
    assert "Your games" in html and "Mine" in html


# --- lobby page --------------------------------------------------------------------------------
def test_detail_page_shows_seats_and_join_form(client_for, make_user, make_lobby):
    lobby = make_lobby(players=4, house="stark")
    r = client_for(make_user("guesty", guest=True)).get(lobby.get_absolute_url())
    html = r.content.decode()
    assert r.status_code == 200
    assert "host1" in html and "Stark" in html and html.count("Waiting for a player") == 3
    house_choices = [v for v, _ in r.context["join_form"].fields["house"].widget.choices]
    assert house_choices == ["", "lannister", "greyjoy", "baratheon"]
    assert lobby.invite_token not in html  # only seated players see the invite link


def test_detail_missing_lobby_is_404(client):
    assert client.get(reverse("lobby_detail", args=[424242])).status_code == 404
    assert client.get(reverse("lobby_live", args=[424242])).status_code == 404


def test_anonymous_sees_guest_and_login_buttons(client, make_lobby):
    html = client.get(make_lobby().get_absolute_url()).content.decode()
    assert "Play as guest" in html and "join-form" not in html


def test_seated_player_sees_invite_link(client_for, make_lobby):
    lobby = make_lobby(is_private=True)
    html = client_for(lobby.creator).get(lobby.get_absolute_url()).content.decode()
    assert lobby.invite_token in html


# --- join --------------------------------------------------------------------------------------
def test_join(client_for, make_user, make_lobby):
    lobby = make_lobby(players=3)
    user = make_user("arya", guest=True)
    r = client_for(user).post(reverse("lobby_join", args=[lobby.pk]), {"house": "lannister"}, follow=True)
    assert "You have joined the lobby." in messages_of(r)
    assert Seat.objects.get(lobby=lobby, user=user).house == "lannister"


def test_join_needs_login_and_post(client, make_lobby, snapshot):
    lobby = make_lobby()
    before = snapshot()
    r = client.post(reverse("lobby_join", args=[lobby.pk]), {"house": ""})
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    assert client.get(reverse("lobby_join", args=[lobby.pk])).status_code == 405
    assert snapshot() == before


def test_join_without_csrf_token_is_refused(make_user, make_lobby, snapshot):
    from django.test import Client

    lobby = make_lobby()
    c = Client(enforce_csrf_checks=True)
    c.force_login(make_user("a"))
    before = snapshot()
    assert c.post(reverse("lobby_join", args=[lobby.pk]), {"house": ""}).status_code == 403
    assert snapshot() == before


@pytest.mark.parametrize(
    "case,message,field",
    [
        ("full", "This lobby is full.", None),
        ("started", "This game has already started; you can no longer join it.", None),
        ("taken", "That house is already taken. Choose another one.", "house"),
        ("second_seat", "You already have a seat in this lobby.", None),
        ("wrong_password", "Wrong password.", "password"),
        ("missing_password", "This field is required.", "password"),
    ],
)
def test_join_refused_with_clear_message_and_nothing_written(client_for, make_user, make_lobby, snapshot, case, message, field):
    user = make_user("joiner")
    data = {"house": ""}
    if case == "full":
        lobby = make_lobby(players=3, seated=3)
    elif case == "started":
        lobby = make_lobby(players=3, seated=3)
        lobbies.start_lobby(lobby.pk, lobby.creator)
    elif case == "taken":
        lobby = make_lobby(players=3, house="baratheon")
        data = {"house": "baratheon"}
    elif case == "second_seat":
        lobby = make_lobby(players=3)
        user = lobby.creator
    else:
        lobby = make_lobby(players=3, is_private=True, password="right")
        if case == "wrong_password":
            data["password"] = "wrong"
    before = snapshot()
    r = client_for(user).post(reverse("lobby_join", args=[lobby.pk]), data)
    assert r.status_code == 400
    html = r.content.decode()
    assert message.replace("’", "&#x27;") in html or message in html
    if field:
        assert message in r.context["join_form"].errors[field]
        assert f'id="id_{field}_error"' in html
    assert snapshot() == before


def test_join_missing_lobby_is_404(client_for, make_user):
    r = client_for(make_user("a")).post(reverse("lobby_join", args=[999999]), {"house": ""})
    assert r.status_code == 404


def test_invite_link_lets_a_player_join_a_private_lobby_without_password(client_for, make_user, make_lobby):
    lobby = make_lobby(players=3, is_private=True, password="right")
    c = client_for(make_user("friend"))
    r = c.get(reverse("lobby_invite", args=[lobby.invite_token]))
    assert r.status_code == 302 and r["Location"] == lobby.get_absolute_url()
    assert "password" not in c.get(lobby.get_absolute_url()).context["join_form"].fields
    c.post(reverse("lobby_join", args=[lobby.pk]), {"house": ""})
    assert lobby.seats.count() == 2


def test_bad_invite_link(client):
    r = client.get(reverse("lobby_invite", args=["not-a-token"]), follow=True)
    assert "This invite link is not valid." in messages_of(r)


# --- leave, kick, start, cancel ----------------------------------------------------------------
def test_leave(client_for, make_lobby):
    lobby = make_lobby(players=3, seated=2)
    seat = lobby.seats.exclude(user=lobby.creator).get()
    r = client_for(seat.user).post(reverse("lobby_leave", args=[lobby.pk]), follow=True)
    assert "You have left the lobby." in messages_of(r)
    assert lobby.seats.count() == 1


def test_kick_by_non_creator_is_refused(client_for, make_lobby, snapshot):
    lobby = make_lobby(players=3, seated=3)
    seats = list(lobby.seats.exclude(user=lobby.creator))
    before = snapshot()
    r = client_for(seats[0].user).post(reverse("lobby_kick", args=[lobby.pk, seats[1].pk]), follow=True)
    assert "Only the lobby's creator can remove players." in messages_of(r)
    assert snapshot() == before


def test_kick_by_creator(client_for, make_lobby):
    lobby = make_lobby(players=3, seated=2)
    seat = lobby.seats.exclude(user=lobby.creator).get()
    r = client_for(lobby.creator).post(reverse("lobby_kick", args=[lobby.pk, seat.pk]), follow=True)
    assert "The player has been removed." in messages_of(r)
    assert not Seat.objects.filter(pk=seat.pk).exists()


def test_start_before_full_is_refused(client_for, make_lobby, snapshot):
    lobby = make_lobby(players=3, seated=2)
    before = snapshot()
    r = client_for(lobby.creator).post(reverse("lobby_start", args=[lobby.pk]), follow=True)
    assert "Wait until every seat is filled (2 of 3)." in messages_of(r)
    assert snapshot() == before


def test_start_by_non_creator_is_refused(client_for, make_lobby, snapshot):
    lobby = make_lobby(players=3, seated=3)
    other = lobby.seats.exclude(user=lobby.creator).first().user
    before = snapshot()
    r = client_for(other).post(reverse("lobby_start", args=[lobby.pk]), follow=True)
    assert "Only the lobby's creator can start the game." in messages_of(r)
    assert snapshot() == before


def test_start_shows_the_houses(client_for, make_lobby):
    lobby = make_lobby(players=3, seated=3)
    client = client_for(lobby.creator)
    r = client.post(reverse("lobby_start", args=[lobby.pk]), follow=True)
    assert "The game has started!" in messages_of(r)
    lobby.refresh_from_db()
    assert r.redirect_chain[-1][0] == lobby.play_url  # the creator is taken to the game
    html = client.get(lobby.get_absolute_url()).content.decode()
    assert "The game has started. Houses:" in html
    for name in ("Stark", "Lannister", "Baratheon"):
        assert name in html


def test_cancel(client_for, make_lobby):
    lobby = make_lobby(players=3)
    r = client_for(lobby.creator).post(reverse("lobby_cancel", args=[lobby.pk]), follow=True)
    assert "The lobby was cancelled." in messages_of(r)
    lobby.refresh_from_db()
    assert lobby.status == "cancelled"


def test_actions_on_missing_lobby_do_not_crash(client_for, make_user):
    c = client_for(make_user("a"))
    for name in ("lobby_leave", "lobby_start", "lobby_cancel"):
        r = c.post(reverse(name, args=[31337]), follow=True)
        assert r.status_code == 200 and "This lobby does not exist." in messages_of(r)
    r = c.post(reverse("lobby_kick", args=[31337, 1]), follow=True)
    assert "This lobby does not exist." in messages_of(r)
