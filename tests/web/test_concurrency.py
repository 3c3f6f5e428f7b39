"""Simultaneous requests: the lobby row lock lets exactly one player take the last seat, and a
house once. Needs a database with real concurrent connections (PostgreSQL; see test_postgres)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from game.site import lobbies
from game.site.lobbies import LobbyError

pytestmark = pytest.mark.django_db(transaction=True)


def race(n: int, fn) -> list:
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = fn(i)
        except LobbyError as e:
            results[i] = str(e.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("runs on PostgreSQL (tests/web/test_postgres.py runs it there)")


def test_one_winner_for_the_last_seat(make_lobby, make_user):
    lobby = make_lobby(players=3, seated=2)
    users = [make_user(f"racer{i}") for i in range(6)]
    results = race(6, lambda i: lobbies.join_lobby(lobby.pk, users[i]))
    assert sum(1 for r in results if not isinstance(r, str)) == 1
    assert results.count("This lobby is full.") == 5
    assert lobby.seats.count() == 3


def test_one_winner_for_a_house(make_lobby, make_user):
    lobby = make_lobby(players=6)
    users = [make_user(f"racer{i}") for i in range(5)]
    results = race(5, lambda i: lobbies.join_lobby(lobby.pk, users[i], house="martell"))
    assert results.count("That house is already taken. Choose another one.") == 4
    assert lobby.seats.filter(house="martell").count() == 1
