"""Settings come from the environment: SQLite and the in-memory layer by default, PostgreSQL with
DATABASE_URL, channels_redis with REDIS_URL; production settings are safe: no
start without SECRET_KEY when DEBUG is off, ``manage.py check --deploy`` quiet with the README's
production variables, and websocket handshakes only from the trusted origins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, gotweb.settings as s; print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], "
    "'hosts': s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts'), 'debug': s.DEBUG, "
    "'allowed': s.ALLOWED_HOSTS, 'secret': s.SECRET_KEY}))"
)


#: what these tests set themselves; anything else of the environment (PATH...) passes through
OURS = {
    "DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "SECRET_KEY", "CSRF_TRUSTED_ORIGINS", "BEHIND_HTTPS_PROXY",
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
    "DJANGO_SETTINGS_MODULE",
}


def clean_env(**env) -> dict:
    return {**{k: v for k, v in os.environ.items() if k not in OURS}, **env}


def settings_with(**env) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=clean_env(**env), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def test_defaults_are_sqlite_and_in_memory_layer():
    s = settings_with(SECRET_KEY="k" * 50)
    assert s["db"] == "django.db.backends.sqlite3" and s["name"] == str(ROOT / "db.sqlite3")
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["debug"] is False and s["allowed"] == ["127.0.0.1", "localhost"]


def test_environment_selects_postgres_and_redis():
    s = settings_with(
        DATABASE_URL="postgres://u:p@db.example:5432/gw",
        REDIS_URL="redis://cache.example:6379/0",
        DEBUG="1",
        ALLOWED_HOSTS="play.example.org,www.example.org",
        SECRET_KEY="k" * 50,
    )
    assert s["db"] == "django.db.backends.postgresql" and s["name"] == "gw"
    assert s["layer"] == "channels_redis.core.RedisChannelLayer" and s["hosts"] == ["redis://cache.example:6379/0"]
    assert s["debug"] is True and s["allowed"] == ["play.example.org", "www.example.org"] and s["secret"] == "k" * 50


def test_websockets_are_origin_checked_and_authenticated():
    from channels.auth import AuthMiddleware
    from channels.security.websocket import OriginValidator

    from gotweb.asgi import application

    ws = application.application_mapping["websocket"]
    assert isinstance(ws, OriginValidator)
    inner = ws.application
    while not isinstance(inner, AuthMiddleware):
        inner = inner.inner
    assert isinstance(inner, AuthMiddleware)


# --- SECRET_KEY: no start without it when DEBUG is off ------------------------------------------
def manage(*args: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean_env(**env), capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "env",
    [{}, {"DEBUG": "0"}, {"SECRET_KEY": ""}, {"SECRET_KEY": "django-insecure-gotweb-development-key-change-me"}],
    ids=["nothing", "debug-off", "empty-key", "public-development-key"],
)
def test_without_a_secret_key_debug_off_refuses_to_start(env):
    """Before, the public development key was used silently. Now the settings raise
    ImproperlyConfigured naming the variable, for ``manage.py`` and for daphne alike."""
    got = manage("check", **env)
    assert got.returncode != 0
    assert "ImproperlyConfigured" in got.stderr and "The SECRET_KEY environment variable is not set" in got.stderr, got.stderr
    from tests.daphne import free_port

    daphne = subprocess.run(
        [sys.executable, "-m", "gotweb.server", "-b", "127.0.0.1", "-p", str(free_port()), "gotweb.asgi:application"],
        cwd=ROOT, env=clean_env(**env), capture_output=True, text=True, timeout=120,
    )  # exits at once: it never listens
    assert daphne.returncode != 0 and "The SECRET_KEY environment variable is not set" in daphne.stderr, daphne.stderr[-2000:]


def test_development_needs_no_variable():
    """``make run`` (DEBUG=1) works without SECRET_KEY: the development key."""
    assert settings_with(DEBUG="1")["secret"] == "django-insecure-gotweb-development-key-change-me"
    assert manage("check", DEBUG="1").returncode == 0


# --- manage.py check --deploy: quiet with the README's production variables -------------------
PRODUCTION = {  # README, "Running at scale"
    "SECRET_KEY": "Zr0-3xq7-pF1vB9uYt2kLw8sN4cE6hJ0aQmR5dG7iO1zX3vC9bN2mK4lP6jH8gF0",
    "ALLOWED_HOSTS": "play.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://play.example.org",
    "BEHIND_HTTPS_PROXY": "1",
    "DATABASE_URL": "postgres://gotweb:secret@10.0.0.5:5432/gotweb",
    "REDIS_URL": "redis://10.0.0.6:6379/0",
}


def test_check_deploy_is_quiet_with_the_production_variables():
    """Before: security.W004 (no HSTS) and security.W008 (no HTTPS redirect)."""
    got = manage("check", "--deploy", **PRODUCTION)
    assert got.returncode == 0, got.stderr
    assert "WARNING" not in got.stdout + got.stderr and "System check identified no issues" in got.stdout, got.stdout + got.stderr


def test_https_settings_default_from_behind_https_proxy():
    probe = (
        "import json, gotweb.settings as s; print(json.dumps([s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS,"
        " s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE]))"
    )

    def probe_with(**env):
        out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=clean_env(**env), check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    assert probe_with(**PRODUCTION) == [True, 31_536_000, True, False, True, True]
    assert probe_with(SECRET_KEY="k" * 50) == [False, 0, True, False, False, False]  # plain HTTP: no HSTS
    assert probe_with(**PRODUCTION, SECURE_HSTS_SECONDS="3600", SECURE_SSL_REDIRECT="0", SECURE_HSTS_PRELOAD="1")[:4] == [
        False, 3600, True, True
    ]
    # opting in to preloading lets Django's reminder speak again: nothing is silenced then
    got = manage("check", "--deploy", **PRODUCTION, SECURE_HSTS_PRELOAD="1")
    assert got.returncode == 0 and "System check identified no issues (0 silenced)" in got.stdout, got.stdout


# --- websocket origins ----------------------------------------------------------------------------
TRUSTED = "https://play.example.org"


async def _handshake(origin: bytes | None, path: str) -> bool:
    from channels.testing import WebsocketCommunicator

    from gotweb.asgi import application

    headers = [] if origin is None else [(b"origin", origin)]
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect(timeout=10)
    if connected:
        await ws.disconnect()
    return connected


@pytest.fixture
def lobby_path(settings, make_lobby):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.ALLOWED_HOSTS = ["play.example.org", "127.0.0.1"]
    return f"/ws/lobby/{make_lobby(players=3).pk}/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin, accepted",
    [
        (b"https://play.example.org", True),
        (b"https://PLAY.example.org", True),  # host names are case-insensitive
        (b"https://play.example.org:443", True),  # the same origin, its port spelt out
        (b"http://play.example.org", False),  # wrong scheme
        (b"https://play.example.org:8443", False),  # wrong port
        (b"http://127.0.0.1:9999", False),  # an allowed host, but not a trusted origin
        (b"https://evil.example", False),
        (b"https://play.example.org.evil.example", False),
        (b"https://sub.play.example.org", False),
        (b"null", False),
        (b"", False),
        (None, False),
        # hostile spellings: refused, never an exception in the handshake
        (b"https://play.example.org:99999", False),
        (b"https://play.example.org:x", False),
        (b"http://[::1", False),
        ("https://play.exämple.org".encode("utf-8"), False),  # non-ASCII, read as latin-1 by Channels
    ],
)
async def test_with_trusted_origins_only_those_origins_open_a_websocket(settings, lobby_path, origin, accepted):
    """Before: Channels' AllowedHostsOriginValidator compared host names only, so
    ``http://127.0.0.1:9999``, ``http://play.example.org`` or a port out of range passed, and an
    Origin that urlparse refuses (``http://[::1``) raised in the handshake."""
    settings.CSRF_TRUSTED_ORIGINS = [TRUSTED]
    assert await _handshake(origin, lobby_path) is accepted


@pytest.mark.django_db(transaction=True)
async def test_a_wildcard_trusted_origin_admits_subdomains_with_its_scheme(settings, lobby_path):
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.org"]
    assert await _handshake(b"https://play.example.org", lobby_path)
    assert not await _handshake(b"http://play.example.org", lobby_path)
    assert not await _handshake(b"https://example.org.evil.example", lobby_path)


@pytest.mark.django_db(transaction=True)
async def test_without_trusted_origins_the_host_is_checked_as_before(settings, lobby_path):
    """No CSRF_TRUSTED_ORIGINS (``make run``, the tests' servers): the Origin's host must be one of
    ALLOWED_HOSTS, whatever its scheme and port."""
    settings.CSRF_TRUSTED_ORIGINS = []
    assert await _handshake(b"http://127.0.0.1:9999", lobby_path)
    assert await _handshake(b"https://play.example.org", lobby_path)
    assert not await _handshake(b"https://evil.example", lobby_path)
    assert not await _handshake(b"http://[::1", lobby_path)


def test_channel_group_expiry_reaches_both_layers_and_refuses_nonsense():
    """``CHANNEL_GROUP_EXPIRY`` (default 86400 s) is the layer's ``group_expiry``, in memory and
    on Redis; a value under 3 s, or not a number, stops the start with a clear error."""
    probe = "import json, gotweb.settings as s; print(json.dumps(s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('group_expiry')))"

    def expiry(**env):
        clean = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CHANNEL_GROUP_EXPIRY"}}
        return subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True)

    assert json.loads(expiry().stdout) == 86400
    assert json.loads(expiry(CHANNEL_GROUP_EXPIRY="30").stdout) == 30
    assert json.loads(expiry(CHANNEL_GROUP_EXPIRY="30", REDIS_URL="redis://cache.example:6379/0").stdout) == 30
    for bad in ("2", "-5", "soon"):
        out = expiry(CHANNEL_GROUP_EXPIRY=bad)
        assert out.returncode != 0 and "CHANNEL_GROUP_EXPIRY must be a whole number of seconds" in out.stderr, out.stderr[-300:]


def test_server_process_full_garbage_collections_wait_for_gc_full_after():
    """The ASGI application sets the cyclic collector's third threshold to ``GC_FULL_AFTER``
    (default 1000, Python's own 10: a full collection walks every socket's objects and was the
    latency's tail, docs/capacity.md, second round), keeps the first two as Python has them, and
    freezes what was loaded; a value under 1, or not a number, stops the start with a clear error."""
    probe = "import gc, json, gotweb.asgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count() > 0]))"

    def run(**env):
        clean = {k: v for k, v in os.environ.items() if k != "GC_FULL_AFTER"}
        return subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True)

    assert json.loads(run().stdout) == [[700, 10, 1000], True]
    assert json.loads(run(GC_FULL_AFTER="50").stdout) == [[700, 10, 50], True]
    for bad in ("0", "-3", "often"):
        out = run(GC_FULL_AFTER=bad)
        assert out.returncode != 0 and "GC_FULL_AFTER must be a whole number" in out.stderr, out.stderr[-300:]
