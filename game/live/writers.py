"""Where a socket's writes run (an act, a chat line, a stand-in): on PostgreSQL, a few writer
threads, each with its own connection; elsewhere Channels' single database thread.

Every database call of Channels' consumers (``database_sync_to_async``) runs in one thread per
process, one after another. An act spends most of its time there waiting: a Redis round trip
(the shared budget), a statement and its commit on PostgreSQL. With that one thread a process
writes at most one act per round-trip time, and under a busy host (slow round trips, slow
commits) the acts of every game of the process queue behind each other while its CPU idles
(``python -m tests.bench.capacity``). Writer threads let several acts wait at once.

Nothing about who writes a game changes: one writer per game is PostgreSQL's row lock and
compare-and-swap (:mod:`game.live.apply`), which already serialise acts from any number of
processes, and so from any number of threads. Each thread holds its own connection (closed
when too old, as Channels' thread does). ``LIVE_WRITE_THREADS`` (default 4; 1 keeps the
database thread) sets how many. SQLite (tests, ``make run``) keeps the single thread: its
writers lock the whole file.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def threads() -> int:
    """How many writer threads: ``LIVE_WRITE_THREADS`` on PostgreSQL, else 1."""
    if connections["default"].vendor != "postgresql":
        return 1
    return max(1, int(settings.LIVE_WRITE_THREADS))


def _executor(n: int) -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="gotweb-writer")
        return _pool


def in_writer(fn):
    """``fn`` (a blocking function that uses the database) as a coroutine function that runs it
    in a writer thread (or the database thread), closing old connections around it."""
    n = threads()
    if n <= 1:
        return database_sync_to_async(fn)
    return database_sync_to_async(fn, thread_sensitive=False, executor=_executor(n))
