"""An act written from the event loop itself, without a thread: on PostgreSQL (with Redis, the
site's production setup), the consumer counts the owner's shared budget with an asynchronous
Redis client and runs the optimistic write (:func:`game.live.optimistic.plan`, one
compare-and-swap statement) on an asynchronous psycopg connection, both awaited on the event loop.

Why: in a writer thread (:mod:`game.live.writers`) an act crosses four hand-overs (the event loop
to the thread, the thread to Redis and PostgreSQL and back, the thread to the event loop), each a
wait for the GIL or for a core, on a host whose cores are shared with the other daphne processes,
PostgreSQL and Redis. Here the event loop sends the two requests and goes on serving other sockets
until their answers come: 5-10 % less CPU per act on average, and more games held by two
processes in three of four alternated runs (``python -m tests.bench.capacity``; docs/architecture.md,
"Capacity", fifth round).

Everything else stays where it was: an act that cannot be written optimistically (no copy of the
game, a refusal, a row changed meanwhile, the end of a game, a snapshot due) goes to the locked
path in a writer thread (:func:`game.live.apply.act`), with the budget already counted; chat
lines and stand-ins stay in the threads. SQLite (most tests, ``make run``) keeps one thread for
everything; on PostgreSQL with the local-memory cache the budget is counted in place.

Connections: at most ``LIVE_WRITE_THREADS`` (default 4) per event loop, opened when first needed
with Django's own connection parameters and type adapters (the statement's values are prepared by
the model fields, as in the thread), in autocommit, closed after ``CONN_MAX_AGE`` seconds or when
broken. The statement is bound server-side and prepared per connection after five executions
(:data:`PREPARE_THRESHOLD`, or ``prepare_threshold`` in the database's ``OPTIONS``: a pooler
that cannot keep prepared statements, such as PgBouncer before 1.21 in transaction mode, takes
``None`` there). A database out of reach raises :class:`django.db.OperationalError`, as Django's
connection would (the consumer answers ``server.unavailable``).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections

from . import notify, optimistic, ratelimit

#: executions of one statement text on a connection before psycopg prepares it (psycopg's own
#: default; Django turns preparing off unless the database's ``OPTIONS`` set ``prepare_threshold``,
#: which this follows too)
PREPARE_THRESHOLD = 5
#: ``event loop -> its connections`` (a loop's connections are used by that loop only)
_POOLS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_DB = None  # an unconnected Django connection object: quoting and value preparation only


def enabled() -> bool:
    """Whether acts are written on the event loop: PostgreSQL and ``LIVE_LOOP_WRITES`` (default
    True). The budget is counted there when it is on Redis too (:meth:`ratelimit.SharedLimit.take_async`)."""
    return _db().vendor == "postgresql" and bool(settings.LIVE_LOOP_WRITES)


def _db():
    """A Django connection object of the default database that never connects: it quotes names
    and prepares values (:func:`optimistic.plan`) without touching the per-context connections
    of Django's handler (one object per asyncio context: one per socket)."""
    global _DB
    if _DB is None:
        _DB = connections.create_connection("default")
    return _DB


class _Pool:
    """At most ``size`` asynchronous connections for one event loop."""

    def __init__(self, size: int) -> None:
        self.idle: list[tuple[Any, float]] = []  # (connection, opened at)
        self.slots = asyncio.Semaphore(size)
        self.opened: set = set()

    async def get(self):
        await self.slots.acquire()
        try:
            max_age = _db().settings_dict.get("CONN_MAX_AGE", 0)  # None: no limit, as Django's
            while self.idle:
                conn, born = self.idle.pop()
                if conn.closed or conn.broken or (max_age is not None and time.monotonic() - born >= max_age):
                    await self._close(conn)
                    continue
                return conn, born
            return await self._open(), time.monotonic()
        except BaseException:
            self.slots.release()
            raise

    def put(self, conn, born: float) -> None:
        if conn.closed or conn.broken:
            self.opened.discard(conn)
        else:
            self.idle.append((conn, born))
        self.slots.release()

    async def _open(self):
        import psycopg

        params = _db().get_connection_params()
        # server-side binding, unlike Django's own connections: the act's statement is the same
        # text every time, so psycopg prepares it on each connection after its fifth execution
        # (``prepare_threshold``) and PostgreSQL no longer parses and plans it per act; the values
        # travel apart, in the C dumpers, instead of being quoted into the text
        params["cursor_factory"] = psycopg.AsyncCursor
        options = _db().settings_dict.get("OPTIONS") or {}
        params["prepare_threshold"] = options.get("prepare_threshold", PREPARE_THRESHOLD)  # Django's default: never
        try:
            conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        except psycopg.OperationalError as exc:
            raise OperationalError(str(exc)) from exc
        self.opened.add(conn)
        return conn

    async def _close(self, conn) -> None:
        self.opened.discard(conn)
        try:
            await conn.close()
        except Exception:
            pass


def _pool() -> _Pool:
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        from .writers import threads

        pool = _POOLS[loop] = _Pool(max(1, threads()))
    return pool


def close_all() -> None:
    """Close every event loop's connections at once (tests, between event loops: without awaiting,
    by closing each libpq connection)."""
    for pool in list(_POOLS.values()):
        for conn in list(pool.opened):
            try:
                conn.pgconn.finish()
            except Exception:
                pass
        pool.opened.clear()
        pool.idle.clear()
    _POOLS.clear()


async def execute(sql: str, params: list) -> int:
    """Run one statement in autocommit on this loop's connections; returns its row count. Raises
    :class:`django.db.OperationalError` when PostgreSQL cannot be reached or the connection broke
    (then whether a ``COMMIT`` happened is unknown, as with Django's connection: the next
    ``state`` shows it)."""
    import psycopg

    pool = _pool()
    conn, born = await pool.get()
    settled = False  # the connection is idle again (an answer, or an error the server sent)
    try:
        async with conn.cursor() as cur:
            await cur.execute(sql, params)
            settled = True
            return cur.rowcount
    except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
        raise OperationalError(str(exc)) from exc
    except psycopg.Error:
        settled = True
        raise
    finally:
        if not settled and not conn.closed:  # cancelled mid-statement: not reused
            conn.pgconn.finish()
        pool.put(conn, born)


async def act(limit: ratelimit.SharedLimit, game_id: int, user, data: Any, version: int | None):
    """Count the owner's budget and try the optimistic write of an act on the event loop.

    Returns ``(counted, version, messages)``: ``counted`` False when the budget was spent
    (nothing done; the caller answers ``rate_limited``); ``version`` the new version when the act
    was written, None when it must take the locked path (in a writer thread, without counting
    again); ``messages`` the group messages of the written act, ``[(group, message)]``, for the
    caller to publish through its hub (:func:`game.live.notify.held`, held around the commit's
    follow-up only, which awaits nothing). Raises :class:`django.db.OperationalError`."""
    if not await limit.take_async():
        return False, None, []
    ready = optimistic.plan(game_id, user, data, version, db=_db())
    if ready is None:
        return True, None, []
    rows = await execute(ready.sql, ready.params)
    with notify.held() as messages:
        v = ready.written(rows == 1)
    return True, v, messages
