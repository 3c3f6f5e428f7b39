"""game.site.lobbies: the rules of lobbies, on the database (SQLite here, PostgreSQL in test_postgres)."""

from __future__ import annotations

import pytest

from game.site import lobbies
from game.site.lobbies import LobbyError
from game.models import Lobby, Seat

pytestmark = pytest.mark.django_db


def test_create_seats_creator_and_stores_ruleset_and_options(make_user):
    host = make_user("host")
    lobby = lobbies.create_lobby(host, name="Westeros", players=4, options={"tides_of_battle": True}, house="stark")
    assert lobby.ruleset == "agot2"
    assert lobby.options == {"tides_of_battle": True}
    assert lobby.status == Lobby.Status.OPEN
    assert list(lobby.seats.values_list("user__username", "house")) == [("host", "stark")]
    assert lobby.houses() == ["stark", "lannister", "greyjoy", "baratheon"]


def test_private_password_is_hashed(make_user):
    lobby = lobbies.create_lobby(make_user("host"), name="x", players=3, is_private=True, password="s3cret")
    assert "s3cret" not in lobby.password
    assert lobby.password.count("$") >= 2  # algorithm$salt$hash
    assert lobby.check_password("s3cret") and not lobby.check_password("wrong")


def test_invite_tokens_are_long_and_distinct(make_lobby):
    a, b = make_lobby(), make_lobby()
    assert len(a.invite_token) >= 32 and a.invite_token != b.invite_token


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"players": 2}, "players"),
        ({"players": 7}, "players"),
        ({"players": 3, "house": "martell"}, "house"),  # Martell plays only with 6
        ({"players": 3, "ruleset": "chess"}, "ruleset"),
        ({"players": 3, "options": {"fog": True}}, None),
    ],
)
def test_create_refuses_bad_input_and_writes_nothing(make_user, snapshot, kwargs, field):
    host = make_user("host")
    before = snapshot()
    with pytest.raises(LobbyError) as e:
        lobbies.create_lobby(host, name="x", **kwargs)
    assert e.value.field == field
    assert snapshot() == before


def test_join_with_house_and_random(make_lobby, make_user):
    lobby = make_lobby(players=3)
    s1 = lobbies.join_lobby(lobby.pk, make_user("a"), house="lannister")
    s2 = lobbies.join_lobby(lobby.pk, make_user("b"))
    assert (s1.house, s2.house) == ("lannister", "")
    lobby.refresh_from_db()
    assert lobby.version == 3


@pytest.mark.parametrize(
    "case,message",
    [
        ("full", "This lobby is full."),
        ("started", "This game has already started; you can no longer join it."),
        ("taken", "That house is already taken. Choose another one."),
        ("not_in_play", "That house is not in play in this game."),
        ("second_seat", "You already have a seat in this lobby."),
        ("wrong_password", "Wrong password."),
        ("no_password_given", "Wrong password."),
        ("invite_only", "This private lobby can only be joined through its invite link."),
        ("missing", "This lobby does not exist."),
    ],
)
def test_join_refusals_write_nothing(make_lobby, make_user, snapshot, case, message):
    kwargs = {"house": "stark"}
    lobby_id = None
    user = make_user("joiner")
    password = ""
    if case == "full":
        lobby = make_lobby(players=3, seated=3)
    elif case == "started":
        lobby = make_lobby(players=3, seated=3)
        lobbies.start_lobby(lobby.pk, lobby.creator)
        kwargs = {}
    elif case == "taken":
        lobby = make_lobby(players=3, house="stark")
    elif case == "not_in_play":
        lobby = make_lobby(players=3)
        kwargs = {"house": "martell"}
    elif case == "second_seat":
        lobby = make_lobby(players=3)
        user = lobby.creator
        kwargs = {}
    elif case in ("wrong_password", "no_password_given"):
        lobby = make_lobby(players=3, is_private=True, password="right")
        password = "wrong" if case == "wrong_password" else ""
    elif case == "invite_only":
        lobby = make_lobby(players=3, is_private=True)
    else:
        lobby = make_lobby(players=3)
        lobby_id = 999_999
    before = snapshot()
    with pytest.raises(LobbyError) as e:
        lobbies.join_lobby(lobby_id or lobby.pk, user, password=password, **kwargs)
    assert str(e.value.message) == message
    assert snapshot() == before


def test_private_lobby_joins_with_password_or_invite(make_lobby, make_user):
    lobby = make_lobby(players=3, is_private=True, password="right")
    lobbies.join_lobby(lobby.pk, make_user("a"), password="right")
    lobbies.join_lobby(lobby.pk, make_user("b"), invited=True)
    assert lobby.seats.count() == 3


def test_leave_and_creator_cannot_leave(make_lobby, make_user, snapshot):
    lobby = make_lobby(players=3)
    user = make_user("a")
    lobbies.join_lobby(lobby.pk, user)
    lobbies.leave_lobby(lobby.pk, user)
    assert not lobby.seats.filter(user=user).exists()
    before = snapshot()
    with pytest.raises(LobbyError, match="cancel it instead"):
        lobbies.leave_lobby(lobby.pk, lobby.creator)
    with pytest.raises(LobbyError, match="do not have a seat"):
        lobbies.leave_lobby(lobby.pk, user)
    assert snapshot() == before


def test_kick_only_by_creator(make_lobby, make_user, snapshot):
    lobby = make_lobby(players=3, seated=2)
    other = lobby.seats.exclude(user=lobby.creator).get()
    stranger = make_user("stranger")
    before = snapshot()
    with pytest.raises(LobbyError, match="Only the lobby's creator can remove players."):
        lobbies.kick(lobby.pk, other.user, other.pk)
    with pytest.raises(LobbyError, match="Only the lobby's creator"):
        lobbies.kick(lobby.pk, stranger, other.pk)
    with pytest.raises(LobbyError, match="cannot remove yourself"):
        lobbies.kick(lobby.pk, lobby.creator, lobby.seats.get(user=lobby.creator).pk)
    with pytest.raises(LobbyError, match="That seat does not exist."):
        lobbies.kick(lobby.pk, lobby.creator, 987654)
    assert snapshot() == before
    lobbies.kick(lobby.pk, lobby.creator, other.pk)
    assert lobby.seats.count() == 1


def test_start_before_full_or_by_other_is_refused(make_lobby, snapshot):
    lobby = make_lobby(players=4, seated=3)
    other = lobby.seats.exclude(user=lobby.creator).first().user
    before = snapshot()
    with pytest.raises(LobbyError, match=r"Wait until every seat is filled \(3 of 4\)."):
        lobbies.start_lobby(lobby.pk, lobby.creator)
    with pytest.raises(LobbyError, match="Only the lobby's creator can start the game."):
        lobbies.start_lobby(lobby.pk, other)
    assert snapshot() == before


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_start_draws_the_free_houses(make_lobby, players):
    lobby = make_lobby(players=players, seated=players, house="stark")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.STARTED and lobby.started_at is not None
    seats = list(lobby.seats.all())
    assert sorted(s.house for s in seats) == sorted(lobby.houses())
    assert [s.random_house for s in seats] == [False] + [True] * (players - 1)
    assert seats[0].house == "stark"


def test_started_lobby_is_frozen(make_lobby, snapshot):
    lobby = make_lobby(players=3, seated=3)
    lobbies.start_lobby(lobby.pk, lobby.creator)
    seat = lobby.seats.exclude(user=lobby.creator).first()
    before = snapshot()
    for call in (
        lambda: lobbies.start_lobby(lobby.pk, lobby.creator),
        lambda: lobbies.leave_lobby(lobby.pk, seat.user),
        lambda: lobbies.kick(lobby.pk, lobby.creator, seat.pk),
        lambda: lobbies.cancel_lobby(lobby.pk, lobby.creator),
    ):
        with pytest.raises(LobbyError):
            call()
    assert snapshot() == before


def test_cancel(make_lobby, make_user, snapshot):
    lobby = make_lobby(players=3, seated=2)
    before = snapshot()
    with pytest.raises(LobbyError, match="Only the lobby's creator can cancel it."):
        lobbies.cancel_lobby(lobby.pk, make_user("x"))
    assert snapshot() == before
    lobbies.cancel_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.CANCELLED


def test_database_refuses_two_seats_for_one_house(make_lobby, make_user):
    from django.db import IntegrityError, transaction

    lobby = make_lobby(players=3, house="stark")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(lobby=lobby, user=make_user("a"), house="stark")
    # but any number of seats may wait for a random house
    Seat.objects.create(lobby=lobby, user=make_user("b"), house="")
    Seat.objects.create(lobby=lobby, user=make_user("c"), house="")


def test_lobby_state_shape(make_lobby):
    lobby = make_lobby(players=3, seated=2, house="stark")
    state = lobbies.lobby_state(lobby)
    assert state["filled"] == 2 and state["players"] == 3 and state["status"] == "open"
    assert state["seats"][0] == {"id": state["seats"][0]["id"], "player": "host1", "guest": False, "house": "stark", "random": False}
    assert state["seats"][1]["house"] is None
    assert "password" not in str(state) and lobby.invite_token not in str(state)
