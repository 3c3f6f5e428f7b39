"""The lobby rules on a real PostgreSQL server (row locks, partial unique constraints): the
service tests and the concurrency test run again in a child pytest with DATABASE_URL set."""

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
def test_lobby_rules_on_postgresql(postgres_url):
    parts = urlsplit(postgres_url)
    url = urlunsplit(parts._replace(path=f"/gotweb_{os.getpid()}"))  # pytest-django creates test_<name>
    env = {**os.environ, "DATABASE_URL": url, "GOTWEB_CHILD_RUN": "1"}
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--create-db",
         "tests/web/test_lobby_services.py", "tests/web/test_lobby_views.py", "tests/web/test_concurrency.py",
         "tests/web/test_abuse_limits.py", "tests/web/test_hostile_paths.py", "tests/web/test_mail_confirmation.py",
         "tests/web/test_reports.py", "tests/web/test_moderation.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "passed" in result.stdout and "failed" not in result.stdout
