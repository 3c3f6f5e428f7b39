"""Settings come from the environment: SQLite and the in-memory layer by default, PostgreSQL with
DATABASE_URL, channels_redis with REDIS_URL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, gotweb.settings as s; print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], "
    "'hosts': s.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts'), 'debug': s.DEBUG, "
    "'allowed': s.ALLOWED_HOSTS, 'secret': s.SECRET_KEY}))"
)


def settings_with(**env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS", "SECRET_KEY"}}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**clean, **env}, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def test_defaults_are_sqlite_and_in_memory_layer():
    s = settings_with()
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
