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
game, a refusal, a row changed meanwhile, the end of a game) goes to the locked
path in a writer thread (:func:`game.live.apply.act`), with the budget already counted; chat
lines and stand-ins stay in the threads. SQLite (most tests, ``make run``) keeps one thread for
everything; on PostgreSQL with the local-memory cache the budget is counted in place.

Connections: psycopg's own pool (``psycopg_pool.AsyncConnectionPool``), one per event loop, of at
most ``LIVE_WRITE_THREADS`` (default 4) connections, opened when first needed with Django's own
connection parameters and type adapters (the statement's values are prepared by the model fields,
as in the thread), in autocommit. A connection older than ``CONN_MAX_AGE`` seconds is closed when
it is handed back and replaced (the pool's ``max_lifetime``; ``None``: never); one cancelled
mid-statement or broken is closed, never reused. The statement is bound server-side and prepared
per connection after five executions (:data:`PREPARE_THRESHOLD`, or ``prepare_threshold`` in the
database's ``OPTIONS``: a pooler that cannot keep prepared statements, such as PgBouncer before
1.21 in transaction mode, takes ``None`` there). A database out of reach raises
:class:`django.db.OperationalError`, as Django's connection would (the consumer answers
``server.unavailable``): when the pool fails to connect twice in a row it is closed, failing every
act that waits for it, and forgotten; the next act makes a new one. An act waits at most
:data:`POOL_TIMEOUT` seconds for a connection. The pool's bookkeeping costs the event loop about
15-20 microseconds of CPU per statement more than a hand-written pool (30-50 when acts wait for a
connection), well under 1 % of an act's CPU (5-7 ms, ``python -m tests.bench.capacity``); the
latency of acts was the same within the host's noise (``python -m tests.bench.live``).
"""

from __future__ import annotations

import asyncio
import math
import weakref
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections

from . import notify, optimistic, ratelimit

#: executions of one statement text on a connection before psycopg prepares it (psycopg's own
#: default; Django turns preparing off unless the database's ``OPTIONS`` set ``prepare_threshold``,
#: which this follows too)
PREPARE_THRESHOLD = 5
#: seconds an act waits for a connection of its loop's pool (all busy, or being opened) before
#: :class:`django.db.OperationalError`
POOL_TIMEOUT = 30.0
#: ``event loop -> its pool`` (a loop's connections are used by that loop only)
_POOLS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: every pool's connections, as they open (:func:`close_all` closes them without an event loop)
_CONNECTIONS: weakref.WeakSet = weakref.WeakSet()
_CLOSING: set = set()  # pools being closed in a task of their loop (held until done)
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


def _connect_kwargs() -> dict[str, Any]:
    """The arguments of ``psycopg.AsyncConnection.connect`` for a new connection: Django's own
    (read at each connection, as Django does), in autocommit."""
    import psycopg

    params = _db().get_connection_params()
    # server-side binding, unlike Django's own connections: the act's statement is the same text
    # every time, so psycopg prepares it on each connection after its fifth execution
    # (``prepare_threshold``) and PostgreSQL no longer parses and plans it per act; the values
    # travel apart, in the C dumpers, instead of being quoted into the text
    params["cursor_factory"] = psycopg.AsyncCursor
    options = _db().settings_dict.get("OPTIONS") or {}
    params["prepare_threshold"] = options.get("prepare_threshold", PREPARE_THRESHOLD)  # Django's default: never
    params["autocommit"] = True
    return params


async def _opened(conn) -> None:
    """The pool's ``configure``: each new connection is remembered for :func:`close_all`."""
    _CONNECTIONS.add(conn)


def _unreachable(pool) -> None:
    """The pool's ``reconnect_failed`` (with ``reconnect_timeout=0``: a second attempt in a row
    failed): forget ``pool`` and close it, which fails the acts waiting for it with ``PoolClosed``;
    the next act makes a new pool. Closed in a task: ``close`` waits for the pool's workers, and
    one of them is running this."""
    for loop, known in list(_POOLS.items()):
        if known is pool:
            del _POOLS[loop]
    _close_later(pool)


def _close_later(pool) -> None:
    task = asyncio.get_running_loop().create_task(pool.close())
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


async def _pool():
    """The running loop's pool, made and opened on first use."""
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        from psycopg_pool import AsyncConnectionPool

        from .writers import threads

        max_age = _db().settings_dict.get("CONN_MAX_AGE", 0)  # None: no limit, as Django's
        pool = _POOLS[loop] = AsyncConnectionPool(
            kwargs=_connect_kwargs,
            min_size=0,  # opened when first needed
            max_size=max(1, threads()),
            open=False,
            configure=_opened,
            max_lifetime=math.inf if max_age is None else float(max_age),
            timeout=POOL_TIMEOUT,
            reconnect_timeout=0,  # no retrying in the background: the second failure calls _unreachable
            reconnect_failed=_unreachable,
            name="gotweb-live-writes",
        )
    if pool.closed:  # not opened yet (opening one already open does nothing)
        await pool.open()
    return pool


def close_all() -> None:
    """Close every event loop's connections at once (tests, between event loops: without awaiting,
    by closing each libpq connection) and forget the pools. A pool of the running loop is also
    closed in a task; another loop's pool tasks end with their loop."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    for conn in list(_CONNECTIONS):
        try:
            conn.pgconn.finish()
        except Exception:
            pass
    _CONNECTIONS.clear()
    for loop, pool in list(_POOLS.items()):
        if loop is running:
            _close_later(pool)
    _POOLS.clear()


async def execute(sql: str, params: list) -> int:
    """Run one statement in autocommit on this loop's connections; returns its row count. Raises
    :class:`django.db.OperationalError` when PostgreSQL cannot be reached or the connection broke
    (then whether a ``COMMIT`` happened is unknown, as with Django's connection: the next
    ``state`` shows it)."""
    import psycopg

    try:
        pool = await _pool()
        conn = await pool.getconn()
    except psycopg.OperationalError as exc:  # PoolTimeout, PoolClosed: no connection to be had
        raise OperationalError(str(exc)) from exc
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
        if (not settled or conn.broken) and not conn.closed:  # cancelled mid-statement, or broken: not reused
            conn.pgconn.finish()
        await pool.putconn(conn)  # a closed connection is dropped, and the pool opens another


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
