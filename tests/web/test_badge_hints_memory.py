"""What a process remembers for the badge hints (``game/site/notifications/hints.py``): at most
``REMEMBER`` lobbies' seats and games' awaited players, the least recently used forgotten first,
safe to share between threads."""

from __future__ import annotations

import threading

import pytest

from game.site.notifications import hints


@pytest.fixture(autouse=True)
def _fresh():
    hints.forget()
    yield
    hints.forget()


def test_the_seats_of_at_most_4096_lobbies_the_least_recently_used_forgotten(monkeypatch):
    reads = []
    monkeypatch.setattr(hints, "people_seats", lambda lobby_id: reads.append(lobby_id) or {"stark": lobby_id})
    assert hints.REMEMBER == 4096
    for lobby_id in range(hints.REMEMBER):
        hints._people_seats_cached(lobby_id)
    hints._people_seats_cached(0)  # used again: now the most recent
    hints._people_seats_cached(hints.REMEMBER)  # one more: lobby 1 is forgotten, not everything
    assert len(hints._SEATS) == hints.REMEMBER
    assert 0 in hints._SEATS and 1 not in hints._SEATS and 2 in hints._SEATS
    assert len(reads) == hints.REMEMBER + 1  # lobby 0 was read once
    hints.forget_seats(2)
    assert 2 not in hints._SEATS and hints._people_seats_cached(2) == {"stark": 2}


def test_the_awaited_players_of_at_most_4096_games(monkeypatch):
    told = []
    monkeypatch.setattr(hints.notify, "user_games_changed", told.append)

    class Row:  # the fields of a committed game that _tell reads
        def __init__(self, pk):
            self.pk, self.status, self.awaited_since, self.stand_ins = pk, "running", {"stark": 1.0}, {}

    for pk in range(hints.REMEMBER + 1):
        hints._tell(Row(pk), {"stark": 7}, False)
    assert len(hints._LAST_AWAITED) == hints.REMEMBER and 0 not in hints._LAST_AWAITED
    told.clear()
    hints._tell(Row(1), {"stark": 7}, False)  # remembered, nothing changed: nobody is told
    assert told == []
    hints.forget_game(1)
    hints._tell(Row(1), {"stark": 7}, False)  # forgotten: told as a game first seen
    assert told == [[7]]


def test_threads_share_the_memory(monkeypatch):
    monkeypatch.setattr(hints, "people_seats", lambda lobby_id: {"stark": lobby_id})

    def churn(offset):
        for i in range(3000):
            hints._people_seats_cached((offset + i) % 5000)
            hints.forget_seats((offset + 2 * i) % 5000)

    threads = [threading.Thread(target=churn, args=(n * 997,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(hints._SEATS) <= hints.REMEMBER
    assert all(hints._SEATS[k] == {"stark": k} for k in list(hints._SEATS.keys()))
