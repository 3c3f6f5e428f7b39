"""A live daphne server (HTTP + websockets) on a free port with its own migrated SQLite file, and
Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (re-exported for e2e tests)
from tests.daphne import free_port, launch

from .faults import migrated_template  # noqa: F401  (a session fixture of the fault tests)

ROOT = Path(__file__).resolve().parents[2]


def start_server(tmp: Path, env_extra: dict[str, str], name: str = "daphne", port: int | None = None):
    """Migrate, then start one daphne process (on ``port``, default a free one); returns
    ``(url, process)``."""
    port = port or free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECRET_KEY": "e2e-" + "x" * 40,
        "STATIC_ROOT": str(tmp / "static"),
        # every browser of the session comes from 127.0.0.1: one test session makes more guests
        # than one address may in an hour (tests/web/test_abuse_limits.py tests the limit itself)
        "THROTTLE_GUEST": "1000/3600",
        # stand-ins play the basic bot: these tests watch a stand-in take a seat and move, which a
        # strong one thinking 2 s a move on a loaded host made a race against the page's waits
        # (tests/web/test_bot_levels.py tests when a stand-in plays strong)
        "GAME_BOT_STRONG_MIN": "1e9",
        # a strong bot chosen by a test searches for 0.2 CPU seconds, not 2: its worker runs at
        # nice 10 and on a loaded host got a tenth of a core, so a 2 s search (two, when the bot
        # draws and places) outlasted the page's 60 s wait for the player's next turn
        "GAME_BOT_BUDGET": "0.2",
        **env_extra,
    }
    if "REDIS_URL" not in env_extra:
        env.pop("REDIS_URL", None)
    try:
        return launch(env, port, tmp / f"{name}.log")
    except RuntimeError as exc:
        pytest.fail(f"{name}: {exc}")


def stop_server(proc) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def server_on_sqlite(tmp: Path, name: str, **env_extra: str):
    """A test's own daphne on a fresh SQLite file in ``tmp``, as a context manager for a fixture:
    gives ``(url, env)``, where ``env`` holds ``DATABASE_URL`` and ``env_extra`` (what a setup
    script run beside the server needs), then stops the server."""
    env = {"DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", **env_extra}
    url, proc = start_server(tmp, env, name)
    try:
        yield url, env
    finally:
        stop_server(proc)


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
