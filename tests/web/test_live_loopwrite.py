"""Acts written on the event loop (``game/live/loopwrite.py``, PostgreSQL only): an act this
process can write optimistically is counted and written without a thread, on the loop's own
asynchronous connection; every other act still takes the locked path in a writer thread, counted
once; the sockets see the same versions either way. Runs on PostgreSQL in test_live_postgres.py
(skipped on SQLite, where every act stays in the thread)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from game.live import loopwrite, notify, ratelimit, rows, snapshots, writers
from game.models import Action, Game
from game.site.notifications import hints as badge_hints

from .live_helpers import ORIGIN, connect, drain, legal_json, session_cookie, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


@pytest.fixture(autouse=True)
def _fresh(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.LIVE_LOOP_WRITES = True
    snapshots.CACHE.clear()
    rows._LAST_ROW.clear()
    rows._SEAT_OF.clear()
    yield
    loopwrite.close_all()  # each test has an event loop of its own


class _ThreadCalls:
    """Counts the act calls that reach a writer thread (``writers.in_writer``)."""

    def __init__(self, monkeypatch):
        self.names: list[str] = []
        real = writers.in_writer

        def counting(fn):
            self.names.append(getattr(fn, "__name__", "?"))
            return real(fn)

        monkeypatch.setattr(writers, "in_writer", counting)


async def _act(ws, game_id: int, actor: str, rid: int, seed: int = 1) -> dict:
    game = await sync_to_async(Game.objects.get)(pk=game_id)
    action = await sync_to_async(legal_json)(game_id, actor, seed)
    await ws.send_json_to({"type": "act", "id": rid, "action": action, "version": game.version})
    got = await drain(ws, 1.0)
    for m in got:
        if m.get("type") == "result" and m.get("id") == rid:
            return m
    raise AssertionError(f"no result: {[(m.get('type'), m.get('id'), m.get('version'), m.get('error')) for m in got]}")


async def _awaited(game_id: int) -> str:
    def first():
        game = Game.objects.get(pk=game_id)
        return game.rules.pending(snapshots.state_at(game))[0].actor

    return await sync_to_async(first)()


async def _play(sockets: dict, game_id: int, acts: range) -> list[dict]:
    """Each awaited player acts through their socket, request ids ``acts``; their results."""
    results = []
    for rid in acts:
        actor = await _awaited(game_id)
        results.append(await _act(sockets[actor], game_id, actor, rid, seed=rid))
    return results


async def test_every_act_of_a_connected_player_is_written_on_the_event_loop(application, make_lobby, monkeypatch):
    """From a player's first act on: the socket's admission read the row and the seat, so no
    act needs the locked path to learn them."""
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    snapshots.CACHE.clear()
    rows._LAST_ROW.clear()  # this process has written nothing of the game
    calls = _ThreadCalls(monkeypatch)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    watcher, _ = await connect(application, game.pk, None)
    results = await _play(sockets, game.pk, range(1, 7))  # planning of round 1, then more
    assert all(r["ok"] for r in results), results
    assert [r["version"] for r in results] == list(range(1, 7))
    assert calls.names.count("run") == 0  # no act went to a writer thread
    assert loopwrite._POOLS, "no connection was opened on the event loop"
    numbers = await sync_to_async(lambda: list(Action.objects.filter(game=game).order_by("number").values_list("number", flat=True)))()
    assert numbers == list(range(1, 7))
    versions = [m["version"] for m in await drain(watcher, 0.5) if m.get("type") == "state"]
    assert versions and versions[-1] == 6  # the spectator holds the last version
    for ws in [*sockets.values(), watcher]:
        await ws.disconnect()


async def test_an_act_that_makes_a_snapshot_due_is_written_on_the_event_loop_with_it(application, make_lobby, monkeypatch, settings):
    """The snapshot every ``GAME_SNAPSHOT_EVERY`` acts goes in the act's own statement: no writer
    thread, and the stored snapshot is the state the act made (docs/capacity.md, "Sixteenth round")."""
    settings.GAME_SNAPSHOT_EVERY = 3
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    calls = _ThreadCalls(monkeypatch)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    assert all(r["ok"] for r in await _play(sockets, game.pk, range(1, 7)))
    assert calls.names.count("run") == 0  # the snapshot acts (3 and 6) too
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (row.version, row.snapshot_version, row.snapshot_key) == (6, 6, snapshots.code_key(row.ruleset))
    version, stored = snapshots.load_snapshot(row)
    assert row.rules.view(stored, None) == row.rules.view(snapshots.CACHE.get(game.pk, 6), None)
    for ws in sockets.values():
        await ws.disconnect()


async def test_with_loop_writes_off_every_act_goes_to_a_thread(application, make_lobby, monkeypatch, settings):
    settings.LIVE_LOOP_WRITES = False
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    calls = _ThreadCalls(monkeypatch)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    assert all(r["ok"] for r in await _play(sockets, game.pk, range(1, 6)))
    assert calls.names.count("run") == 5 and not loopwrite._POOLS
    for ws in sockets.values():
        await ws.disconnect()


async def test_the_budget_is_counted_once_per_act_on_either_path(application, make_lobby, settings, monkeypatch):
    """Each act counts once in its owner's shared budget: the locked path's (counted on the loop,
    not again in the thread) and the loop's write alike."""
    settings.LIVE_RATE, settings.LIVE_BURST = 0.001, 1000  # one window for the whole test
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    sent: dict[str, int] = {h: 0 for h in users}
    calls = _ThreadCalls(monkeypatch)
    for rid in range(1, 7):
        if rid == 4:
            rows._SEAT_OF.clear()  # the seats forgotten: the next acts take the locked path
        actor = await _awaited(game.pk)
        assert (await _act(sockets[actor], game.pk, actor, rid, seed=rid))["ok"]
        sent[actor] += 1
    assert 0 < calls.names.count("run") < 6  # both paths were taken
    for house, user in users.items():
        limit = ratelimit.SharedLimit("requests", f"u{user.pk}", 0.001, 1000)
        key = limit.prefix + str(int(limit.clock() // limit.window))
        assert ratelimit._cache().get(key) == sent[house], house
    for ws in sockets.values():
        await ws.disconnect()


async def test_an_act_over_the_budget_is_refused_and_writes_nothing(application, make_lobby, settings):
    """A legal act that the loop would write, from a player whose shared budget the other sockets
    and processes have spent (here: counted directly), is answered ``rate_limited`` and writes
    nothing."""
    settings.LIVE_RATE, settings.LIVE_BURST = 0.001, 5
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    assert all(r["ok"] for r in await _play(sockets, game.pk, range(1, 4)))
    actor = await _awaited(game.pk)
    limit = ratelimit.SharedLimit("requests", f"u{users[actor].pk}", 0.001, 5)
    spent = [await sync_to_async(limit.take)() for _ in range(4)]  # 1 act + 4 = the burst of 5
    assert spent == [True] * 4
    r = await _act(sockets[actor], game.pk, actor, 4, seed=4)
    assert not r["ok"] and r["error"]["code"] == "rate_limited", r
    after = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert after.version == 3 and await sync_to_async(Action.objects.filter(game=game).count)() == 3
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_row_changed_elsewhere_sends_the_act_to_the_locked_path(application, make_lobby, monkeypatch):
    """The row changed behind this process's copy (another process, the scheduler, a moderator:
    here its waiting times): the loop's compare-and-swap writes nothing, and the act is applied
    under the lock in a writer thread, and counts."""
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    assert all(r["ok"] for r in await _play(sockets, game.pk, range(1, 5)))
    calls = _ThreadCalls(monkeypatch)
    actor = await _awaited(game.pk)
    assert (await _act(sockets[actor], game.pk, actor, 5, seed=5))["ok"]
    assert calls.names == []  # written on the loop

    def touch():
        row = Game.objects.get(pk=game.pk)
        Game.objects.filter(pk=game.pk).update(awaited_since={h: t - 1 for h, t in row.awaited_since.items()})

    await sync_to_async(touch)()
    actor = await _awaited(game.pk)
    r = await _act(sockets[actor], game.pk, actor, 6, seed=6)
    assert r["ok"] and r["version"] == 6, r
    assert calls.names == ["run"]  # the locked path, once
    numbers = await sync_to_async(lambda: list(Action.objects.filter(game=game).order_by("number").values_list("number", flat=True)))()
    assert numbers == list(range(1, 7))
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_database_out_of_reach_is_answered_server_unavailable(application, make_lobby, monkeypatch):
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    assert all(r["ok"] for r in await _play(sockets, game.pk, range(1, 4)))
    loopwrite.close_all()
    params = loopwrite._db().get_connection_params

    def unreachable():
        p = params()
        p["port"], p["host"], p["connect_timeout"] = 1, "127.0.0.1", 2
        return p

    monkeypatch.setattr(loopwrite._db(), "get_connection_params", unreachable)
    actor = await _awaited(game.pk)
    before = await sync_to_async(Game.objects.get)(pk=game.pk)
    r = await _act(sockets[actor], game.pk, actor, 9, seed=9)
    assert not r["ok"] and r["error"]["code"] == "server.unavailable", r
    after = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert after.version == before.version
    for ws in sockets.values():
        await ws.disconnect()


async def test_the_loop_holds_at_most_its_share_of_connections(settings):
    settings.LIVE_WRITE_THREADS = 2
    loopwrite.close_all()
    rows = await asyncio.gather(*[loopwrite.execute("SELECT pg_sleep(0.05)", []) for _ in range(6)])
    assert rows == [1] * 6
    stats = loopwrite._POOLS[asyncio.get_running_loop()].get_stats()
    assert stats["pool_size"] == 2 and stats["connections_num"] == 2, stats


async def _backend_pid() -> int:
    """The server process of the connection this loop's pool hands out next."""
    async with (await loopwrite._pool()).connection() as conn:
        return conn.info.backend_pid


async def test_a_statement_cancelled_midway_leaves_its_connection_unused(settings):
    """An act cancelled while its statement runs (its socket closed): the connection, whose
    answer never came, is closed, and the next statement runs on another."""
    settings.LIVE_WRITE_THREADS = 1
    loopwrite.close_all()
    first = await _backend_pid()
    task = asyncio.ensure_future(loopwrite.execute("SELECT pg_sleep(5)", []))
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await loopwrite.execute("SELECT 1", []) == 1
    assert await _backend_pid() != first


async def test_a_connection_older_than_conn_max_age_is_replaced(settings, monkeypatch):
    settings.LIVE_WRITE_THREADS = 1
    monkeypatch.setitem(loopwrite._db().settings_dict, "CONN_MAX_AGE", 0.3)
    loopwrite.close_all()
    first = await _backend_pid()
    assert await loopwrite.execute("SELECT 1", []) == 1 and await _backend_pid() == first  # young: reused
    await asyncio.sleep(0.5)
    assert await loopwrite.execute("SELECT 1", []) == 1  # handed back too old: closed and replaced
    assert await _backend_pid() != first


async def test_a_connection_the_server_closed_raises_operational_error_and_is_not_reused(settings):
    import psycopg
    from django.db import OperationalError

    settings.LIVE_WRITE_THREADS = 1
    loopwrite.close_all()
    first = await _backend_pid()
    admin = await psycopg.AsyncConnection.connect(**loopwrite._connect_kwargs())
    try:
        await admin.execute("SELECT pg_terminate_backend(%s)", [first])
    finally:
        await admin.close()
    with pytest.raises(OperationalError):
        await loopwrite.execute("SELECT 1", [])
    assert await loopwrite.execute("SELECT 1", []) == 1
    assert await _backend_pid() != first


async def test_badge_hints_of_a_game_first_seen_go_out_from_the_loop(application, make_lobby, monkeypatch):
    """An act written on the loop for a game whose seats this process has not read: the seats are
    read in a worker thread and every player's lobby-list socket is then told (``my_games`` with
    ``changed``), from the event loop: the thread starts no event loop of its own for them (an
    ``async_to_sync`` there cost a new loop and channel-layer connection per hint)."""
    def no_loop_of_its_own(fn):
        raise AssertionError("a hint sent through async_to_sync")

    monkeypatch.setattr(notify, "async_to_sync", no_loop_of_its_own)
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    badge_hints.forget()  # no seats read in this process
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    actor = await _awaited(game.pk)
    watcher = next(h for h in users if h != actor)
    lobbies = WebsocketCommunicator(application, "/ws/lobbies/", headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(users[watcher]))])
    assert (await lobbies.connect(timeout=10))[0]
    await drain(lobbies, 0.5)
    assert not badge_hints._SEATS
    assert (await _act(sockets[actor], game.pk, actor, 1))["ok"]
    hints = [m for m in await drain(lobbies, 1.0) if m.get("type") == "my_games"]
    assert hints and hints[-1]["changed"] is True, hints
    assert game.lobby_id in badge_hints._SEATS
    for ws in [*sockets.values(), lobbies]:
        await ws.disconnect()


async def test_the_act_statement_is_bound_server_side_and_prepared(application, make_lobby, monkeypatch):
    """A timed game (clocks and a deadline in the statement), eight acts in a row: every one is
    written on the loop, each value bound apart from the text, and from the fifth on the
    statement is prepared on the loop's connection, so PostgreSQL no longer parses and plans it
    per act (psycopg's ``prepare_threshold``)."""
    live = {"kind": "live", "bank": 600, "increment": 5, "max_timeouts": 3}
    game, users = await sync_to_async(start_game)(make_lobby, 3, time_control=live)
    calls = _ThreadCalls(monkeypatch)
    sockets = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    sent: list[str] = []
    real = loopwrite.execute

    async def spying(sql, params):
        sent.append(sql)
        return await real(sql, params)

    monkeypatch.setattr(loopwrite, "execute", spying)
    for rid in range(1, 9):
        actor = await _awaited(game.pk)
        result = await _act(sockets[actor], game.pk, actor, rid, seed=rid)
        assert result["ok"] and result["version"] == rid, result
    assert calls.names.count("run") == 0 and len(sent) == 8
    assert "%s" in sent[0] and str(game.pk) not in sent[0].split("WHERE")[1][:40]  # values travel apart
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.version == 8 and row.deadline is not None and row.clocks  # the clocks ran on the loop's writes
    async with loopwrite._POOLS[asyncio.get_running_loop()].connection() as conn:
        async with conn.cursor() as cur:
            await cur.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["WITH g AS (UPDATE%"])
            (prepared,) = await cur.fetchone()
    assert prepared == 1
    for ws in sockets.values():
        await ws.disconnect()
