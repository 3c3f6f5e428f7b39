"""Shared pytest fixtures for the whole suite.

* The translation catalogues are compiled once per session (when GNU msgfmt exists), so plain
  ``pytest`` works without ``make``.
* ``redis_url`` / ``postgres_url``: a real server on 127.0.0.1, started (and installed with
  apt-get when running as root) if needed; otherwise the test is skipped naming the package.
* ``browser``: Debian's chromium through Playwright's sync API, one for the whole session (shared
  by tests/e2e and tests/map: a second sync Playwright in one process would fail); its
  assertions (``expect``) wait up to 15 s for their condition.
* ``make_user`` / ``client_for``: users (registered or guest) and logged-in test clients.
* Hypothesis: under CI (``CI`` set) the property tests are derandomized, so a CI run is
  reproducible and cannot turn red on a newly drawn example; elsewhere they draw new examples
  on every run, which is how they explore (a failure found so becomes an ``@example``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent


def _compile_messages() -> None:
    if not shutil.which("msgfmt"):
        return
    for po in (ROOT / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)


_compile_messages()  # before Django loads any catalogue

hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


# --- real services -----------------------------------------------------------------------------
def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def _wait_port(port: int, seconds: float = 20) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if port_open(port):
            return True
        time.sleep(0.2)
    return False


def _root_with_apt() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def _apt_install(*packages: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env, capture_output=True)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """``redis://127.0.0.1:6379/15`` once a Redis server answers there (Debian: redis-server)."""
    if not port_open(6379):
        if not _root_with_apt():
            pytest.skip("needs a Redis server on 127.0.0.1:6379 (Debian package: redis-server)")
        if not shutil.which("redis-server"):
            _apt_install("redis-server")
        subprocess.run(
            ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", ""],
            check=True,
            capture_output=True,
        )
        if not _wait_port(6379):
            pytest.skip("could not start redis-server on 127.0.0.1:6379 (Debian package: redis-server)")
    return "redis://127.0.0.1:6379/15"


def _pg_url_works(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A URL of a PostgreSQL server on 127.0.0.1:5432 whose user may create databases
    (Debian: postgresql). The server is started, and installed when root, if it is missing."""
    candidates = [
        os.environ.get("GOTWEB_TEST_POSTGRES_URL", ""),
        "postgres://postgres@127.0.0.1:5432/postgres",
        "postgres://postgres:postgres@127.0.0.1:5432/postgres",
    ]
    for url in filter(None, candidates):
        if _pg_url_works(url):
            return url
    if not _root_with_apt():
        pytest.skip("needs PostgreSQL on 127.0.0.1:5432 (Debian package: postgresql)")
    if not shutil.which("pg_ctlcluster"):
        _apt_install("postgresql")
    subprocess.run(["service", "postgresql", "start"], check=False, capture_output=True)
    if not _wait_port(5432):
        pytest.skip("could not start PostgreSQL on 127.0.0.1:5432 (Debian package: postgresql)")
    subprocess.run(
        ["su", "postgres", "-c", "psql -c \"ALTER USER postgres PASSWORD 'postgres'\""],
        check=False,
        capture_output=True,
    )
    url = "postgres://postgres:postgres@127.0.0.1:5432/postgres"
    if not _pg_url_works(url):
        pytest.skip("PostgreSQL on 127.0.0.1:5432 refused the test login (Debian package: postgresql)")
    return url


# --- users -------------------------------------------------------------------------------------
@pytest.fixture
def make_user(db):
    """``make_user("alice")`` -> a registered user (password ``pw-long-enough-1``);
    ``make_user("Bob", guest=True)`` -> a guest with that display name."""
    from django.contrib.auth import get_user_model

    from game.models import Profile

    User = get_user_model()
    counter = iter(range(1, 10_000))

    def make(name: str, guest: bool = False):
        if guest:
            user = User.objects.create(username=f"guest-test{next(counter)}")
            user.set_unusable_password()
            user.save()
        else:
            user = User.objects.create_user(name, password="pw-long-enough-1")
        Profile.objects.create(user=user, is_guest=guest, display_name=name)
        return user

    return make


@pytest.fixture
def client_for(client, db):
    """``client_for(user)`` -> a new logged-in test client."""
    from django.test import Client

    def make(user):
        c = Client()
        c.force_login(user)
        return c

    return make


# --- the real browser ----------------------------------------------------------------------------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright's sync API, one per session (a second sync
    Playwright in the same process would fail), skipped naming the package when missing."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (Debian package: chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    # an assertion waits for its condition up to 15 s, not Playwright's 5 s: on a loaded 2-core CI
    # host a page's modules alone took 4 s to load, and two runs failed on a 5 s wait for what
    # came a moment later (a passing assertion returns as soon as its condition holds)
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
