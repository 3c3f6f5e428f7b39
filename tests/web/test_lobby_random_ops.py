"""Random sequences of lobby operations by random users never break the lobby's invariants, and
every refused operation leaves the database exactly as it was."""

from __future__ import annotations

import random

import pytest

from game.site import lobbies
from game.site.lobbies import LobbyError
from game.models import Lobby

pytestmark = pytest.mark.django_db


def check_invariants(lobby: Lobby) -> None:
    lobby.refresh_from_db()
    seats = list(lobby.seats.all())
    houses = [s.house for s in seats if s.house]
    assert len(seats) <= lobby.players
    assert len(houses) == len(set(houses)) and set(houses) <= set(lobby.houses())
    assert len({s.user_id for s in seats}) == len(seats)
    assert any(s.user_id == lobby.creator_id for s in seats)
    if lobby.status == Lobby.Status.STARTED:
        assert len(seats) == lobby.players and sorted(houses) == sorted(lobby.houses())
        assert lobby.started_at is not None


@pytest.mark.parametrize("seed", range(4))
def test_random_operations_keep_invariants(seed, make_user, snapshot):
    rng = random.Random(seed)
    users = [make_user(f"u{seed}-{i}") for i in range(8)]
    players = rng.randint(3, 6)
    lobby = lobbies.create_lobby(
        users[0], name="r", players=players, is_private=rng.random() < 0.5, password=rng.choice(["", "pw"])
    )
    last_version = lobby.version
    for _ in range(60):
        user = rng.choice(users)
        seat_ids = list(lobby.seats.values_list("pk", flat=True)) + [10**9]
        op = rng.choice(["join", "join", "join", "leave", "kick", "start", "cancel"])
        calls = {
            "join": lambda: lobbies.join_lobby(
                lobby.pk, user, house=rng.choice(["", "stark", "martell", "tyrell", "nope"]),
                password=rng.choice(["", "pw", "bad"]), invited=rng.random() < 0.3,
            ),
            "leave": lambda: lobbies.leave_lobby(lobby.pk, user),
            "kick": lambda: lobbies.kick(lobby.pk, rng.choice([users[0], user]), rng.choice(seat_ids)),
            "start": lambda: lobbies.start_lobby(lobby.pk, rng.choice([users[0], user])),
            "cancel": lambda: lobbies.cancel_lobby(lobby.pk, user) if rng.random() < 0.1 else None,
        }
        before = snapshot()
        try:
            calls[op]()
        except LobbyError as e:
            assert str(e.message)
            assert snapshot() == before
        check_invariants(lobby)
        assert lobby.version >= last_version
        last_version = lobby.version
