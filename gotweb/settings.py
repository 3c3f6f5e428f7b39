"""Settings for gotweb, read from the environment (django-environ).

Environment variables (all optional):

* ``SECRET_KEY`` -- required in production; a fixed development key is used otherwise.
* ``DEBUG`` -- ``1``/``true`` for development; default off.
* ``ALLOWED_HOSTS`` -- comma-separated host names; default ``127.0.0.1,localhost``.
* ``DATABASE_URL`` -- e.g. ``postgres://user:pass@host:5432/gotweb``; default the SQLite file
  ``db.sqlite3`` in the project directory.
* ``REDIS_URL`` -- e.g. ``redis://127.0.0.1:6379/0``; selects ``channels_redis`` as the channel
  layer (needed with more than one server process); default the in-memory layer (one process).
* ``REDIS_PREFIX`` -- key prefix of the channel layer in Redis (default ``gotweb``), so several
  sites can share one Redis server.
* ``CHANNEL_GROUP_EXPIRY`` -- seconds the channel layer keeps a group member after it joined
  (default 86400, channels' own default; at least 3). Each process's hub (``game/live/hub.py``)
  joins its groups again every third of it, so a game or lobby open for days keeps its pushes;
  tests set a few seconds.
* ``CSRF_TRUSTED_ORIGINS`` -- comma-separated origins (``https://play.example.org``) behind a proxy.
* ``GOTWEB_UI_HARNESS`` -- ``1`` turns on the renderer test harness at ``/harness/`` (a fake
  client over a server-side engine position; never in production). Default off.
* ``GAME_BOT_DELAY`` -- seconds a bot waits before acting (default 0.8; ``none``: bots wait).
* ``GAME_SNAPSHOT_EVERY`` -- actions between stored state snapshots (default 20).
* ``GAME_AWAY_AFTER`` -- seconds a player must have been awaited before another player may hand
  their seat to a stand-in bot (default 180).
* ``DB_CONN_MAX_AGE`` -- seconds a database connection is reused (default 60 on PostgreSQL, 0 on
  SQLite); ``0`` opens one per request or websocket call.
* ``BEHIND_HTTPS_PROXY`` -- ``1`` when a load balancer terminates HTTPS and sets
  ``X-Forwarded-Proto``: requests count as secure and cookies are sent over HTTPS only.
* ``DUKE_HARNESS`` -- ``1`` turns on ``/duke/harness/``, a development page for The Duke's board
  with a fake client (default off; 404 otherwise).
* ``GOTWEB_BENCH`` -- ``1`` adds the bench-only echo websocket ``/ws/bench/echo/<name>/`` (the
  baseline of ``python -m tests.bench.live``; never in production). Default off.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-gotweb-development-key-change-me")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves websockets too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "gotweb.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "gotweb.asgi.application"

# --- database --------------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# Seconds a database connection is kept for the next request or websocket message (``0``: a new
# connection each time). Live play sends actions many per second, and each new PostgreSQL
# connection costs a server process: kept 60 s by default there (SQLite: 0, opening is cheap).
_sqlite = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0 if _sqlite else 60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time, taken at the start of each transaction: the SQLite stand-in for
    # PostgreSQL's row locks (select_for_update), so concurrent joins cannot both take a seat.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels --------------------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
#: seconds a channel-layer group member is kept after its (last) ``group_add``; the hub re-joins
#: every third of it (``game/live/hub.py``)
try:
    CHANNEL_GROUP_EXPIRY = env.int("CHANNEL_GROUP_EXPIRY", default=86400)
except ValueError:
    CHANNEL_GROUP_EXPIRY = -1
if CHANNEL_GROUP_EXPIRY < 3:
    raise ImproperlyConfigured("CHANNEL_GROUP_EXPIRY must be a whole number of seconds, at least 3")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": env.str("REDIS_PREFIX", default="gotweb"),
                "group_expiry": CHANNEL_GROUP_EXPIRY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"group_expiry": CHANNEL_GROUP_EXPIRY}}
    }

# --- live play (game/live/apply.py, game/live/consumer.py) -------------------------------------
#: seconds a bot waits before it acts (``GAME_BOT_DELAY``; ``none`` disables background bots)
_bot_delay = env.str("GAME_BOT_DELAY", default="0.8")
GAME_BOT_DELAY = None if _bot_delay.lower() == "none" else float(_bot_delay)
GAME_SNAPSHOT_EVERY = env.int("GAME_SNAPSHOT_EVERY", default=20)  # actions between stored snapshots
#: seconds a seat must have been awaited before another player may hand it to a stand-in bot
GAME_AWAY_AFTER = env.float("GAME_AWAY_AFTER", default=180.0)
LIVE_MAX_MESSAGE = 16384  # characters per websocket message from a browser
LIVE_RATE, LIVE_BURST = 20, 40  # messages per second per connection, and the burst allowed
LIVE_CHAT_RATE, LIVE_CHAT_BURST = 0.5, 5  # chat lines per second per connection, and the burst

# --- accounts --------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby_list"
LOGOUT_REDIRECT_URL = "lobby_list"

# --- i18n ------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hans", _("Simplified Chinese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static files ----------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)  # whitenoise expects it; collectstatic fills it
# Serve straight from the source folders too, so no collectstatic step is needed to run.
WHITENOISE_USE_FINDERS = True

# A development page for The Duke's board (a fake client playing through the engine in this
# process, no lobby): ``/duke/harness/``. Off by default; ``DUKE_HARNESS=1`` turns it on.
DUKE_HARNESS = env.bool("DUKE_HARNESS", default=False)

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

X_FRAME_OPTIONS = "DENY"

# The game-screen harness (game/devtools/ui_harness.py): off unless asked for (tests, local development).
UI_HARNESS = env.bool("GOTWEB_UI_HARNESS", default=False)
# The raw fan-out baseline of the live benchmark (game/devtools/bench_echo.py): off unless asked for.
BENCH_ECHO = env.bool("GOTWEB_BENCH", default=False)
if env.bool("BEHIND_HTTPS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
