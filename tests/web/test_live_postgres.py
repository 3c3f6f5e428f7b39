"""Live play on a real PostgreSQL server: the services, the concurrency, the websocket, the
stand-in, the optimistic write and the websocket fuzzing tests (a shorter stream) run again in a child pytest with DATABASE_URL set (a
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
@pytest.mark.skipif(os.environ.get("GOTWEB_CHILD_RUN") == "1", reason="already inside the PostgreSQL run")
def test_live_play_on_postgresql(postgres_url):
    parts = urlsplit(postgres_url)
    url = urlunsplit(parts._replace(path=f"/gotweb_live_{os.getpid()}"))  # pytest-django creates test_<name>
    env = {**os.environ, "DATABASE_URL": url, "GOTWEB_CHILD_RUN": "1", "GOTWEB_FUZZ_MESSAGES": "400"}
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "tests/web/test_live_services.py", "tests/web/test_live_concurrency.py", "tests/web/test_live_game.py",
         "tests/web/test_live_fuzz.py", "tests/web/test_stand_in.py", "tests/web/test_live_optimistic.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "passed" in result.stdout and "failed" not in result.stdout and "skipped" not in result.stdout
