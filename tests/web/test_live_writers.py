"""Writer threads (``game/live/writers.py``): on PostgreSQL a socket's writes run in a few threads
of their own, so that acts of different games wait on the database at the same time; on SQLite
they stay in Channels' single database thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from game.live import writers
from game.live.turn import published

pytestmark = pytest.mark.django_db(transaction=True)


def test_sqlite_keeps_the_single_database_thread(settings):
    from django.db import connection

    if connection.vendor == "postgresql":
        assert writers.threads() == settings.LIVE_WRITE_THREADS
        settings.LIVE_WRITE_THREADS = 1
        assert writers.threads() == 1
    else:
        assert writers.threads() == 1


async def test_two_writes_wait_at_the_same_time(postgres_only, settings):
    """Two ``published`` calls that each wait for the other: one thread would never let them
    meet (the barrier times out), writer threads do."""
    settings.LIVE_WRITE_THREADS = 4
    barrier = threading.Barrier(2, timeout=5)

    def write(n):
        barrier.wait()
        return n, threading.current_thread().name

    got = await asyncio.gather(published(write, 1), published(write, 2))
    assert [g[0] for g in got] == [1, 2]
    assert all(name.startswith("gotweb-writer") for _, name in got) and got[0][1] != got[1][1]
