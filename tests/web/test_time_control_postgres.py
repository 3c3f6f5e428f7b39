"""Time control on a real PostgreSQL server: test_time_control.py (with the scheduler's
exactly-once claim across concurrent connections, ``SKIP LOCKED``), the stand-in and the
optimistic write (which now writes the clocks too) run again in a child pytest with DATABASE_URL
set (a database name of our own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.postgres
@pytest.mark.timeout(660)  # the child run's own limit, not the suite's 300 s per test
@pytest.mark.skipif(os.environ.get("GOTWEB_CHILD_RUN") == "1", reason="already inside the PostgreSQL run")
def test_time_control_on_postgresql(postgres_url):
    parts = urlsplit(postgres_url)
    name = f"gotweb_clock_{os.getpid()}"
    url = urlunsplit(parts._replace(path=f"/{name}"))  # pytest-django creates test_<name>
    env = {**os.environ, "DATABASE_URL": url, "GOTWEB_CHILD_RUN": "1"}
    env.pop("REDIS_URL", None)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
             "tests/web/test_time_control.py", "tests/web/test_stand_in.py", "tests/web/test_live_optimistic.py"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )
    finally:
        import psycopg

        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "test_{name}" WITH (FORCE)')
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "passed" in result.stdout and "failed" not in result.stdout and "skipped" not in result.stdout
