"""The optimistic write of an act (game/live/optimistic.py ``act``, PostgreSQL only): one
statement when this process wrote the game last or read it at a socket's admission, the locked path whenever the row changed
meanwhile, and simultaneous submissions still revealed once. Runs on PostgreSQL in
test_live_postgres.py (skipped on SQLite, where every act takes the locked path)."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from game.live import apply, rows, snapshots
from game.models import Action, Game

from .live_helpers import legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


@pytest.fixture(autouse=True)
def _fresh_caches():
    snapshots.CACHE.clear()
    rows._LAST_ROW.clear()
    rows._SEAT_OF.clear()


def _awaited(game_id: int) -> list[str]:
    game = Game.objects.get(pk=game_id)
    return [d.actor for d in game.rules.pending(snapshots.state_at(game))]


def _play_until_round(game, users, rnd: int) -> None:
    """Every awaited house acts (legal random choices) until round ``rnd``'s planning."""
    for i in range(500):
        game.refresh_from_db()
        state = snapshots.state_at(game)
        if state.round >= rnd and state.phase == "planning":
            return
        actor = _awaited(game.pk)[0]
        apply.act(game.pk, users[actor], legal_json(game.pk, actor, seed=i), game.version)
    raise AssertionError("round not reached")


def _replays_to_the_cache(game) -> None:
    game.refresh_from_db()
    cached = snapshots.CACHE.get(game.pk, game.version)
    snapshots.CACHE.clear()
    stored = snapshots.state_at(game)
    assert game.rules.view(stored, None) == game.rules.view(cached, None)
    assert list(Action.objects.filter(game=game).order_by("number").values_list("number", flat=True)) == list(range(1, game.version + 1))


def test_an_act_after_this_process_wrote_the_game_is_one_statement(make_lobby, django_assert_num_queries):
    game, users = start_game(make_lobby, 3)
    for h in ["stark", "lannister", "baratheon"]:  # locked acts: each seat learnt, the row kept
        apply.act(game.pk, users[h], legal_json(game.pk, h), None)
    game.refresh_from_db()
    actor = _awaited(game.pk)[0]
    action = legal_json(game.pk, actor)
    with django_assert_num_queries(1):
        v = apply.act(game.pk, users[actor], action, game.version)
    assert v == game.version + 1
    _replays_to_the_cache(game)
    assert Action.objects.get(game=game, number=v).action == action


def test_an_act_that_makes_a_snapshot_due_is_one_statement_that_stores_it(make_lobby, django_assert_num_queries, settings):
    """Every ``GAME_SNAPSHOT_EVERY``-th act writes the snapshot in its own compare-and-swap
    statement (before, it took the locked path: a thread hop and a transaction, the slowest acts
    of live play; docs/capacity.md, "Sixteenth round")."""
    settings.GAME_SNAPSHOT_EVERY = 5
    game, users = start_game(make_lobby, 3)
    for h in ["stark", "lannister", "baratheon"]:  # locked acts: each seat learnt, the row kept
        apply.act(game.pk, users[h], legal_json(game.pk, h), None)
    game.refresh_from_db()
    actor = _awaited(game.pk)[0]
    assert apply.act(game.pk, users[actor], legal_json(game.pk, actor), game.version) == 4
    game.refresh_from_db()
    assert game.snapshot_version < 5
    actor = _awaited(game.pk)[0]
    action = legal_json(game.pk, actor)
    with django_assert_num_queries(1):
        assert apply.act(game.pk, users[actor], action, game.version) == 5
    game.refresh_from_db()
    assert (game.snapshot_version, game.snapshot_key) == (5, snapshots.code_key(game.ruleset))
    version, stored = snapshots.load_snapshot(game)
    assert game.rules.view(stored, None) == game.rules.view(snapshots.CACHE.get(game.pk, 5), None)
    _replays_to_the_cache(game)


def test_a_row_and_seat_read_at_admission_make_the_first_act_one_statement(make_lobby, django_assert_num_queries):
    """A socket's admission reads the row and the player's seat (``rows.learn``): the
    player's first act in this process, which had written nothing of the game, is then one
    statement too (before, it took the locked path only to learn the seat)."""
    game, users = start_game(make_lobby, 3)
    snapshots.CACHE.clear()
    rows._LAST_ROW.clear()
    rows._SEAT_OF.clear()
    actor = _awaited(game.pk)[0]  # reads the state of version 0 into this process's cache
    game.refresh_from_db()
    rows.learn(game, users[actor].pk, actor)
    action = legal_json(game.pk, actor)
    with django_assert_num_queries(1):
        v = apply.act(game.pk, users[actor], action, game.version)
    assert v == 1
    _replays_to_the_cache(game)
    # a spectator's admission (no seat) keeps the row only
    rows.learn(game, None, None)
    assert set(rows._SEAT_OF) == {(game.pk, users[actor].pk)}


def test_a_row_read_before_this_process_wrote_a_newer_one_is_not_kept(make_lobby):
    """An admission's read that is older than this process's own commit (the act was written
    while the admission's query ran) leaves the newer row; a newer read replaces an older row."""
    game, users = start_game(make_lobby, 3)
    old = Game.objects.get(pk=game.pk)
    actor = _awaited(game.pk)[0]
    apply.act(game.pk, users[actor], legal_json(game.pk, actor), None)
    assert rows._LAST_ROW[game.pk]["version"] == 1
    rows.learn(old, users[actor].pk, actor)
    assert rows._LAST_ROW[game.pk]["version"] == 1
    rows._LAST_ROW[game.pk] = {**rows._LAST_ROW[game.pk], "version": 0}
    rows.learn(Game.objects.get(pk=game.pk), users[actor].pk, actor)
    assert rows._LAST_ROW[game.pk]["version"] == 1


def test_a_row_changed_meanwhile_takes_the_locked_path(make_lobby):
    """Another process's write (here: the waiting times changed behind this process's back)
    makes the compare-and-swap write nothing; the act then goes through the lock, against the row
    as it is, and keeps what the other wrote."""
    game, users = start_game(make_lobby, 3)
    for h in ["stark", "lannister", "baratheon"]:
        apply.act(game.pk, users[h], legal_json(game.pk, h), None)
    game.refresh_from_db()
    awaited = _awaited(game.pk)
    actor = awaited[0]
    others = {h: 1000.0 for h in awaited if h != actor}
    Game.objects.filter(pk=game.pk).update(awaited_since={**game.awaited_since, **others})
    v = apply.act(game.pk, users[actor], legal_json(game.pk, actor), game.version)
    game.refresh_from_db()
    assert v == game.version
    for h in set(_awaited(game.pk)) & set(others):
        assert game.awaited_since[h] == 1000.0  # the other's write survived
    _replays_to_the_cache(game)


def test_a_stale_copy_takes_the_locked_path(make_lobby):
    """This process's copy of the row one version behind (another process acted): nothing is
    written by the optimistic statement, the locked path applies the action to the real state."""
    game, users = start_game(make_lobby, 3)
    for h in ["stark", "lannister", "baratheon"]:
        apply.act(game.pk, users[h], legal_json(game.pk, h), None)
    game.refresh_from_db()
    actor = _awaited(game.pk)[0]
    apply.act(game.pk, users[actor], legal_json(game.pk, actor), game.version)
    game.refresh_from_db()
    rows._LAST_ROW[game.pk] = {**rows._LAST_ROW[game.pk], "version": game.version - 1}
    actor = _awaited(game.pk)[0]
    v = apply.act(game.pk, users[actor], legal_json(game.pk, actor, seed=5), None)
    assert v == game.version + 1
    _replays_to_the_cache(game)


def test_simultaneous_orders_with_known_seats_reveal_once(make_lobby):
    """Round 2's orders, every seat known to this process: the three submissions race through
    the optimistic write; one wins each version, the others retry under the lock, and the orders
    are revealed exactly once."""
    game, users = start_game(make_lobby, 3)
    _play_until_round(game, users, 2)
    game.refresh_from_db()
    start = game.version
    actions = {h: legal_json(game.pk, h) for h in users}
    results, barrier = {}, threading.Barrier(len(users))

    def run(h):
        try:
            barrier.wait()
            results[h] = apply.act(game.pk, users[h], actions[h], start)
        except Exception as exc:  # noqa: BLE001 (reported below)
            results[h] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(h,)) for h in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results.values()) == [start + 1, start + 2, start + 3], results
    game.refresh_from_db()
    _replays_to_the_cache(game)
    state = snapshots.state_at(game)
    revealed = [e for e in game.rules.view(state, None)["events"] if e["kind"] == "orders_revealed" and e["round"] == 2]
    assert len(revealed) == 1
