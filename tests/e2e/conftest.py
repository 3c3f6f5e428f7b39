"""A live daphne server (HTTP + websockets) on a free port with its own migrated SQLite file, and
Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (re-exported for e2e tests)

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, env_extra: dict[str, str], name: str = "daphne", port: int | None = None):
    """Migrate, then start one daphne process (on ``port``, default a free one); returns
    ``(url, process)``."""
    port = port or _free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECRET_KEY": "e2e-" + "x" * 40,
        "STATIC_ROOT": str(tmp / "static"),
        **env_extra,
    }
    if "REDIS_URL" not in env_extra:
        env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    log_path = tmp / f"{name}.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "gotweb.asgi:application"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return f"http://127.0.0.1:{port}", proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"{name} did not start:\n" + log_path.read_text(errors="replace"))
            time.sleep(0.1)


def stop_server(proc) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    """``http://127.0.0.1:<port>`` of a daphne process serving gotweb (SQLite + in-memory layer)."""
    tmp = tmp_path_factory.mktemp("live")
    url, proc = start_server(tmp, {"DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}"})
    yield url
    stop_server(proc)


@pytest.fixture
def shots(request):
    """``shots("name")`` -> the path of a screenshot under test-results/<test name>/."""
    folder = ROOT / "test-results" / request.node.name.replace("/", "_")
    folder.mkdir(parents=True, exist_ok=True)

    def path(name: str) -> str:
        return str(folder / f"{name}.png")

    return path
