"""Simultaneous submissions on real concurrent connections (PostgreSQL; run by test_live_postgres):
the game row lock applies them one at a time, so the last one reveals the orders exactly once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from game.live import apply, snapshots
from game.models import Action
from game.rules import IllegalAction

from .live_helpers import legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def race(fns) -> list:
    barrier = threading.Barrier(len(fns))
    results: list = [None] * len(fns)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = fns[i]()
        except IllegalAction as e:
            results[i] = e.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(fns))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.parametrize("players", [3, 6])
def test_concurrent_orders_reveal_once(make_lobby, players):
    game, users = start_game(make_lobby, players)
    actions = {h: legal_json(game.pk, h) for h in users}
    results = race([lambda h=h: apply.act(game.pk, users[h], actions[h], 0) for h in users])
    assert sorted(results) == list(range(1, players + 1))  # every submission counted, one version each
    game.refresh_from_db()
    snapshots.CACHE.clear()
    state = snapshots.state_at(game)
    kinds = [e["kind"] for e in game.rules.view(state, None)["events"]]
    assert kinds.count("orders_revealed") == 1
    assert sorted(Action.objects.filter(game=game).values_list("number", flat=True)) == list(range(1, players + 1))


def test_the_same_house_twice_at_once_counts_once(make_lobby):
    game, users = start_game(make_lobby, 3)
    action = legal_json(game.pk, "stark")
    results = race([lambda: apply.act(game.pk, users["stark"], action, 0) for _ in range(4)])
    assert results.count(1) == 1, results
    assert set(results) - {1} <= {"version.stale", "action.not_your_turn"}, results  # Stark's decision is gone
    assert Action.objects.filter(game=game).count() == 1
