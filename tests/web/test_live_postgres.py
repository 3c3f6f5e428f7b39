"""Live play on a real PostgreSQL server: the services, the concurrency, the websocket, the
stand-in, the optimistic write, the seat reassignment, the stale versions, the malformed messages and the
websocket fuzzing tests (a shorter stream), the memory of games, the writer threads, the push path, the acts written on the event loop, the table's votes (two resolving at once) and the chat's blocks and mutes run again in a child pytest with DATABASE_URL set (a
database name of our own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.postgres
@pytest.mark.timeout(960)  # the child run's own limit, not the suite's 300 s per test
@pytest.mark.skipif(os.environ.get("GOTWEB_CHILD_RUN") == "1", reason="already inside the PostgreSQL run")
def test_live_play_on_postgresql(postgres_url):
    parts = urlsplit(postgres_url)
    name = f"gotweb_live_{os.getpid()}"
    url = urlunsplit(parts._replace(path=f"/{name}"))  # pytest-django creates test_<name>
    env = {**os.environ, "DATABASE_URL": url, "GOTWEB_CHILD_RUN": "1", "GOTWEB_FUZZ_MESSAGES": "400"}
    env.pop("REDIS_URL", None)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
             "tests/web/test_live_services.py", "tests/web/test_live_concurrency.py", "tests/web/test_live_game.py",
             "tests/web/test_live_fuzz.py", "tests/web/test_stand_in.py", "tests/web/test_live_optimistic.py",
             "tests/web/test_seat_reassignment.py", "tests/web/test_live_stale.py", "tests/web/test_live_malformed.py",
             "tests/web/test_notification_mails.py", "tests/web/test_live_memory.py", "tests/web/test_live_writers.py",
             "tests/web/test_live_push_path.py", "tests/web/test_live_loopwrite.py", "tests/web/test_change_of_mind.py",
             "tests/web/test_votes.py", "tests/web/test_chat_blocks.py", "tests/web/test_rematch.py",
             "tests/web/test_bench_echo.py"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
        )
    finally:  # the child's test database, should a lingering connection have kept it from dropping it
        import psycopg

        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "test_{name}" WITH (FORCE)')
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "passed" in result.stdout and "failed" not in result.stdout and "skipped" not in result.stdout
