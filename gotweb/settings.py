"""Settings for gotweb, read from the environment (django-environ).

Environment variables (all optional):

* ``SECRET_KEY`` -- required unless ``DEBUG`` is on: without it (or with the public development
  key) the settings raise ``ImproperlyConfigured`` and nothing starts. With ``DEBUG=1`` a fixed,
  public development key is used when it is missing.
* ``DEBUG`` -- ``1``/``true`` for development (``make run`` sets it); default off.
* ``ALLOWED_HOSTS`` -- comma-separated host names; default ``127.0.0.1,localhost``.
* ``DATABASE_URL`` -- e.g. ``postgres://user:pass@host:5432/gotweb``; default the SQLite file
  ``db.sqlite3`` in the project directory.
* ``REDIS_URL`` -- e.g. ``redis://127.0.0.1:6379/0``; selects ``channels_redis`` as the channel
  layer (needed with more than one server process); default the in-memory layer (one process).
* ``REDIS_PREFIX`` -- key prefix of the channel layer in Redis (default ``gotweb``), so several
  sites can share one Redis server. ``REDIS_URL`` also selects Django's ``RedisCache`` as the
  default cache (key prefix ``<REDIS_PREFIX>-cache``), where the live sockets' limits per user and
  per IP are counted across every server process; default the local-memory cache (one process).
* ``CHANNEL_GROUP_EXPIRY`` -- seconds the channel layer keeps a group member after it joined
  (default 86400, channels' own default; at least 3). Each process's hub (``game/live/hub.py``)
  joins its groups again every third of it, so a game or lobby open for days keeps its pushes;
  tests set a few seconds.
* ``CSRF_TRUSTED_ORIGINS`` -- comma-separated origins (``https://play.example.org``) behind a proxy.
  When set, a websocket handshake is accepted only from exactly these origins (scheme, host and
  port; ``https://*.example.org`` for subdomains), see ``gotweb/asgi.py``; otherwise its Origin's
  host must be one of ``ALLOWED_HOSTS``.
* ``GOTWEB_UI_HARNESS`` -- ``1`` turns on the renderer test harness at ``/harness/`` (a fake
  client over a server-side engine position; never in production). Default off.
* ``GAME_BOT_DELAY`` -- seconds a bot waits before acting (default 0.8; ``none``: bots wait).
* ``GAME_BOT_BUDGET`` -- seconds of CPU a ``strong`` bot may think for one decision of a game with
  a live clock or none (default 2; never more than a twentieth of the seat's time left).
* ``GAME_BOT_BUDGET_CORRESPONDENCE`` -- the same for a game with correspondence deadlines
  (default 10).
* ``GAME_BOT_STRONG_MIN`` -- the least budget with which a stand-in plays the ``strong`` bot
  (where the game has one); below it a stand-in plays ``basic`` (default 0.5 seconds).
* ``GAME_BOT_WORKERS`` -- worker processes per server process in which ``strong`` bots think
  (default 1; started at the first such decision; ``0``: in the bot's own thread, for tests).
  The ``random`` and ``basic`` bots answer in a few milliseconds and always run in the thread.
  See ``docs/bots.md``.
* ``GAME_AGAINST_BOTS`` -- the games the home page's "Play against bots" offers, as
  ``ruleset:players`` separated by commas, the default first (default ``agot2:3,duke:2``).
* ``GAME_SNAPSHOT_EVERY`` -- actions between stored state snapshots (default 20).
* ``GAME_AWAY_AFTER`` -- seconds a player must have been awaited before another player may hand
  their seat to a stand-in bot (default 180).
* ``GAME_SCHEDULER`` -- where deadlines (clocks running out, vacations ending, overdue bot moves)
  are fired: ``auto`` (default: a thread of every server process, ``python -m gotweb.server``,
  daphne, uvicorn or ``runserver``; never in migrations, tests or other commands), ``on`` (a thread in any process
  that loads the app), ``off`` (only ``manage.py run_scheduler``). Several processes may run it:
  each deadline fires once (``game/live/scheduler.py``).
* ``GAME_SCHEDULER_INTERVAL`` -- seconds between the scheduler's looks for due deadlines (default 1).
* ``GAME_BOT_RESCUE`` -- seconds after which the scheduler makes an awaited bot's or stand-in's
  move of a timed game itself, should the process that scheduled it have stopped (default 15).
* ``GAME_VACATION_REST`` -- seconds after the end of a vacation before its player may start another
  one (default 60; each start and end is a line of the game's log).
* ``GAME_VOTE_TIME`` -- seconds a vote of the table stays open (default 300; in a game with
  correspondence deadlines, at least one deadline).
* ``GAME_VOTE_REST`` -- seconds after a player's vote failed or expired before they may ask for
  another (default 300; each vote is a few lines of the game's log).
* ``GAME_PAUSE_MAX`` -- the longest pause a vote may ask for, in seconds (default 3600).
* ``GAME_EXTEND_LIVE`` -- seconds a passed vote to extend adds to every live clock (default 600; a
  correspondence deadline gets one more ``per_move``).
* ``DB_CONN_MAX_AGE`` -- seconds a database connection is reused (default 60 on PostgreSQL, 0 on
  SQLite); ``0`` opens one per request or websocket call.
* ``BEHIND_HTTPS_PROXY`` -- ``1`` when a load balancer terminates HTTPS and sets
  ``X-Forwarded-Proto``: requests count as secure, cookies are sent over HTTPS only, plain HTTP
  is redirected to HTTPS and HSTS is sent (the four settings below default from it). The proxy
  is then trusted for the client's address too: the per-IP limits read the last (right-most)
  address of ``X-Forwarded-For``, the one the proxy itself appended; without it they use the
  peer address of the connection.
* ``TRUSTED_PROXIES`` -- comma-separated addresses or networks of the load balancers (e.g.
  ``127.0.0.1,10.0.0.0/8``): a request whose peer is one of them is counted by the last address
  of its ``X-Forwarded-For``, any other request by its peer, whatever it claims; with or without
  HTTPS (``deploy/nginx.conf`` appends the header). Default empty: then ``BEHIND_HTTPS_PROXY``
  decides alone, for any peer.
* ``SECURE_SSL_REDIRECT`` -- ``1`` redirects plain-HTTP requests to HTTPS (default: as
  ``BEHIND_HTTPS_PROXY``; ``0`` when the load balancer redirects itself and probes over HTTP).
* ``SECURE_HSTS_SECONDS`` -- the ``Strict-Transport-Security`` max-age in seconds (default
  31536000, one year, behind an HTTPS proxy; else 0: no header).
* ``SECURE_HSTS_INCLUDE_SUBDOMAINS`` -- HSTS covers subdomains too (default on).
* ``SECURE_HSTS_PRELOAD`` -- ask browsers' HSTS preload lists to include the domain (default
  off: joining a preload list is hard to undo, so it is the operator's decision; Django's
  deploy check ``security.W021`` is silenced while it is off).
* ``LIVE_SOCKETS_PER_USER`` / ``LIVE_SOCKETS_PER_IP`` -- how many websockets (game and lobby
  sockets together) one logged-in user, and the anonymous visitors of one IP address, may hold
  open at once (default 20 and 60); one more is closed with code 4429 (``docs/protocol.md``).
* ``GC_FULL_AFTER`` -- the cyclic garbage collector's third threshold in a server process
  (``gc.set_threshold``): how many collections of its middle generation come before a full
  collection (default 1000; Python's own is 10; a whole number, at least 1). A full collection
  walks every socket's and game's objects (80-160 ms with 1,000 sockets, the latency's whole
  tail); short-lived garbage is still collected by the young generations, and reference counting
  frees the rest. See ``gotweb/asgi.py``.
* ``LIVE_WRITE_THREADS`` -- on PostgreSQL, how many threads of each process write acts, chat
  lines and stand-ins at once, each with its own connection (default 4; ``1``: Channels' single
  database thread, as always on SQLite); see ``game/live/writers.py``. Also how many
  asynchronous connections each event loop holds for the acts it writes itself.
* ``LIVE_LOOP_WRITES`` -- on PostgreSQL, ``1`` (default) writes an act that this process can
  write optimistically on the event loop, with the budget counted there too, without a thread
  (``game/live/loopwrite.py``); ``0`` keeps every act in a writer thread.
* ``EMAIL_URL`` -- where mails go, as django-environ's ``email_url``: e.g.
  ``smtp+tls://user:password@smtp.example.org:587`` (default ``consolemail://``: mails are printed
  on the console, which is what ``make run`` shows). ``DEFAULT_FROM_EMAIL`` -- the sender
  (default ``gotweb <noreply@localhost>``). ``SITE_URL`` -- the site's address for links in
  mails (default ``http://127.0.0.1:8000``).
* ``NOTIFY_MAIL_AFTER`` -- seconds a game must have awaited a player before they are mailed
  "your turn" (default 300; at once in correspondence games); see ``game/site/notifications/``.
  ``NOTIFY_MAILS`` -- ``0`` sends no such mail at all (default ``1``).
* ``NOTIFY_DEADLINE_WARNING`` -- seconds before a correspondence deadline when its player is mailed
  "your deadline is in 2 hours" (default 7200).
* ``NOTIFY_SWEEP_EVERY`` -- seconds between a server process's sweeps for mails and pushes that are
  due (default 600, the first at start: what a restarted process's timers held; 0: none).
* ``DUKE_HARNESS`` -- ``1`` turns on ``/duke/harness/``, a development page for The Duke's board
  with a fake client (default off; 404 otherwise).
* ``GOTWEB_BENCH`` -- ``1`` adds the bench-only echo websocket ``/ws/bench/echo/<name>/`` (the
  baseline of ``python -m tests.bench.live``) and ``/ws/bench/hub-count/`` (the hub's member count,
  for tests against a real server); never in production. Default off.

Abuse limits (``game/site/throttle.py``; counted in Django's cache, per client IP: ``REMOTE_ADDR``,
or with ``BEHIND_HTTPS_PROXY`` the last ``X-Forwarded-For`` address; IPv6 per /64). Each limit is
``COUNT/SECONDS`` (a fixed window), or ``off``; over it a page answers HTTP 429 with a message:

* ``THROTTLE_GUEST`` -- guest accounts created per client IP (default ``5/3600``).
* ``THROTTLE_LOGIN_IP`` -- failed logins per client IP (default ``10/900``).
* ``THROTTLE_LOGIN_USER`` -- failed logins per username, from any address (default ``5/900``).
* ``THROTTLE_LOGIN_DEVICE`` -- failed logins per device cookie (default ``5/900``): a browser that
  logged in to an account before is counted by its signed cookie instead of by the username, so
  strangers' guesses cannot lock it out (``game/site/login_devices.py``).
* ``THROTTLE_LOBBY_PASSWORD`` -- wrong passwords per client IP and private lobby (default ``10/900``).
* ``THROTTLE_PUSH`` -- Web Push subscriptions stored per person (default ``20/3600``).
* ``THROTTLE_REPORT_USER`` / ``THROTTLE_REPORT_IP`` -- reports filed per person and per client
  address (defaults ``10/3600`` and ``20/3600``; a second report of the same thing counts nothing).
* ``THROTTLE_BOT_GAME_USER`` / ``THROTTLE_BOT_GAME_IP`` -- games against bots started from the home
  page per person and per client address (defaults ``10/3600`` and ``20/3600``): each seats bots
  that think on the server's workers.
* ``THROTTLE_CONFIRM_MAIL`` -- mails with a link to confirm an address, per person and per address
  (default ``5/3600``): saving a new address and "send the link again" both count
  (``game/site/notifications/confirm.py``).
* ``WEBPUSH_VAPID_PUBLIC_KEY``, ``WEBPUSH_VAPID_PRIVATE_KEY`` -- the VAPID key pair of Web Push
  ("your turn" on a closed page; ``manage.py webpush_keys`` makes one; default empty: push off).
  ``WEBPUSH_SUBJECT`` -- a ``mailto:`` or ``https:`` contact the push services may use (default
  ``mailto:noreply@localhost``). ``WEBPUSH_HOSTS`` -- comma-separated push service hosts a
  subscription may name (a leading dot admits subdomains; default the browsers' own services:
  ``fcm.googleapis.com,.push.services.mozilla.com,.notify.windows.com,.push.apple.com``).
* ``LOBBY_OPEN_PER_USER`` -- open lobbies (not yet started or cancelled) one user may have created
  (default ``3``; ``off``: no cap).
"""

import ipaddress
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
#: public (it is in this file): development only, refused when DEBUG is off
DEVELOPMENT_SECRET_KEY = "django-insecure-gotweb-development-key-change-me"
SECRET_KEY = env.str("SECRET_KEY", default="") or (DEVELOPMENT_SECRET_KEY if DEBUG else "")
if not DEBUG and SECRET_KEY in ("", DEVELOPMENT_SECRET_KEY):
    raise ImproperlyConfigured(
        "The SECRET_KEY environment variable is not set (or is the public development key) and DEBUG is off. "
        "Set SECRET_KEY to a long random string kept secret, e.g. the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))', or set DEBUG=1 for development."
    )
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
    # above WhiteNoise: compresses the static files it serves from the source folders and the boards
    "gotweb.compress.StaticGZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last: the first to see the response; an empty 405 to a GET gets a page (templates/405.html)
    "gotweb.not_allowed.MethodNotAllowedPage",
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
                "game.site.my_games.header_badge",
                "game.site.warnings.warnings",
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

# --- cache: the live sockets' limits per user and per IP (game/live/ratelimit.py) -------------
# Shared by every server process when REDIS_URL is set (their counts must add up); otherwise the
# local-memory cache of the one process.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("REDIS_PREFIX", default="gotweb") + "-cache",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "KEY_PREFIX": "gotweb-cache"}}

# --- live play (game/live/apply.py, game/live/consumer.py) -------------------------------------
#: seconds a bot waits before it acts (``GAME_BOT_DELAY``; ``none`` disables background bots)
_bot_delay = env.str("GAME_BOT_DELAY", default="0.8")
GAME_BOT_DELAY = None if _bot_delay.lower() == "none" else float(_bot_delay)
#: a strong bot's CPU seconds per decision: live (or untimed) games, correspondence games; the
#: least budget for a strong stand-in; its worker processes per server process (docs/bots.md)
GAME_BOT_BUDGET = env.float("GAME_BOT_BUDGET", default=2.0)
GAME_BOT_BUDGET_CORRESPONDENCE = env.float("GAME_BOT_BUDGET_CORRESPONDENCE", default=10.0)
GAME_BOT_STRONG_MIN = env.float("GAME_BOT_STRONG_MIN", default=0.5)
GAME_BOT_WORKERS = env.int("GAME_BOT_WORKERS", default=1)
#: [(ruleset id, players)] of the home page's "Play against bots", the default first
GAME_AGAINST_BOTS = [
    (r.strip(), int(n)) for r, _, n in (x.partition(":") for x in env.list("GAME_AGAINST_BOTS", default=["agot2:3", "duke:2"]))
]
GAME_SNAPSHOT_EVERY = env.int("GAME_SNAPSHOT_EVERY", default=20)  # actions between stored snapshots
#: seconds a seat must have been awaited before another player may hand it to a stand-in bot
GAME_AWAY_AFTER = env.float("GAME_AWAY_AFTER", default=180.0)
#: time control's scheduler (game/live/scheduler.py): auto | on | off, its period, the bot rescue
GAME_SCHEDULER = env.str("GAME_SCHEDULER", default="auto")
GAME_SCHEDULER_INTERVAL = env.float("GAME_SCHEDULER_INTERVAL", default=1.0)
GAME_BOT_RESCUE = env.float("GAME_BOT_RESCUE", default=15.0)
GAME_VACATION_REST = env.float("GAME_VACATION_REST", default=60.0)
#: the table's votes (game/live/votes.py): how long one stays open, a failed asker's rest, the
#: longest pause, what an extension adds to a live clock
GAME_VOTE_TIME = env.float("GAME_VOTE_TIME", default=300.0)
GAME_VOTE_REST = env.float("GAME_VOTE_REST", default=300.0)
GAME_PAUSE_MAX = env.float("GAME_PAUSE_MAX", default=3600.0)
GAME_EXTEND_LIVE = env.float("GAME_EXTEND_LIVE", default=600.0)
# (limits: docs/protocol.md, "Limits"; the lobby sockets of game/site/lobby_consumer.py share them)
LIVE_MAX_MESSAGE = 16384  # characters per websocket message from a browser
LIVE_MAX_DEPTH = 32  # objects and lists nested in one such message (deeper: message.malformed)
#: messages per second per connection, and the burst allowed; the same budget (counted in windows
#: of LIVE_BURST / LIVE_RATE seconds) per user, or per IP for anonymous visitors, for the messages
#: that cost the database (act, stand_in, take_back, sync) over all their sockets and processes
LIVE_RATE, LIVE_BURST = 20, 40
#: threads that write acts, chat lines and stand-ins on PostgreSQL, each with its own connection
#: (game/live/writers.py; 1: Channels' single database thread, as on SQLite)
LIVE_WRITE_THREADS = env.int("LIVE_WRITE_THREADS", default=4)
LIVE_LOOP_WRITES = env.bool("LIVE_LOOP_WRITES", default=True)
#: gc.set_threshold's third value in a server process (gotweb/asgi.py): middle-generation
#: collections before a full one (Python's default 10)
try:
    GC_FULL_AFTER = env.int("GC_FULL_AFTER", default=1000)
except ValueError:
    GC_FULL_AFTER = 0
if GC_FULL_AFTER < 1:
    raise ImproperlyConfigured("GC_FULL_AFTER must be a whole number, at least 1")
#: chat lines per second and burst, per connection and (in windows of burst / rate seconds) per user
LIVE_CHAT_RATE, LIVE_CHAT_BURST = 0.5, 5
LIVE_SOCKETS_PER_USER = env.int("LIVE_SOCKETS_PER_USER", default=20)  # open sockets of one logged-in user
LIVE_SOCKETS_PER_IP = env.int("LIVE_SOCKETS_PER_IP", default=60)  # open sockets of anonymous visitors of one IP
LIVE_SOCKET_LEASE = 60  # seconds: an open socket re-counts itself once per lease; a dead process's are forgotten in 2
LIVE_LIMITS_CACHE = "default"  # the cache (CACHES alias) that counts the limits above
#: new websockets per client address and second in one process, after a burst (a reconnect storm
#: is refused with 4431, which browsers back off from; LIVE_CONNECT_RATE=none: no limit)
_connect_rate = env.str("LIVE_CONNECT_RATE", default="2").strip().lower()
LIVE_CONNECT_RATE = None if _connect_rate in ("off", "none", "") else float(_connect_rate)
LIVE_CONNECT_BURST = env.int("LIVE_CONNECT_BURST", default=20)

# --- accounts --------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# --- mail (game/site/notifications/) --------------------------------------------------------------
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="gotweb <noreply@localhost>")
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
#: Web Push (game/site/webpush.py): off unless both keys are set
WEBPUSH_VAPID_PUBLIC_KEY = env.str("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_SUBJECT = env.str("WEBPUSH_SUBJECT", default="mailto:noreply@localhost")
WEBPUSH_HOSTS = env.list("WEBPUSH_HOSTS", default=["fcm.googleapis.com", ".push.services.mozilla.com", ".notify.windows.com", ".push.apple.com"])
WEBPUSH_INSECURE = False  # tests only: http endpoints and any port (a fake push service on 127.0.0.1)
WEBPUSH_TTL = 3600  # seconds a push service keeps a "your turn" for a phone that is off
WEBPUSH_THREADS = env.int("WEBPUSH_THREADS", default=4)  # threads per process that send pushes (0: in the mail worker)
NOTIFY_MAIL_AFTER = env.float("NOTIFY_MAIL_AFTER", default=300.0)
NOTIFY_DEADLINE_WARNING = env.float("NOTIFY_DEADLINE_WARNING", default=7200.0)  # "your deadline is in 2 hours"
NOTIFY_SWEEP_EVERY = env.float("NOTIFY_SWEEP_EVERY", default=600.0)  # a server process's own sweeps (0: none)
NOTIFY_MAILS = env.bool("NOTIFY_MAILS", default=True)  # False: no turn or end-of-game mails at all
#: mails and badge hints in the process's notification thread (False: in the committing thread, tests)
NOTIFY_IN_THREAD = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby_list"
LOGOUT_REDIRECT_URL = "lobby_list"

# --- abuse limits (game/site/throttle.py, game/site/lobbies.py) ----------------------------------
def _limit(name: str, default: str):
    """``(count, seconds)`` from ``COUNT/SECONDS`` in the environment, or None for ``off``."""
    raw = env.str(name, default=default).strip().lower()
    if raw in ("off", "none", ""):
        return None
    try:
        count, seconds = (int(x) for x in raw.split("/"))
    except ValueError:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"{name} must be COUNT/SECONDS (e.g. 5/3600) or off, not {raw!r}") from None
    return count, seconds


THROTTLE_GUEST = _limit("THROTTLE_GUEST", "5/3600")  # guest accounts per client IP per hour
THROTTLE_REGISTER = _limit("THROTTLE_REGISTER", "5/3600")  # registered accounts per client IP per hour
THROTTLE_LOGIN_IP = _limit("THROTTLE_LOGIN_IP", "10/900")  # failed logins per client IP per 15 min
THROTTLE_LOGIN_USER = _limit("THROTTLE_LOGIN_USER", "5/900")  # failed logins per username per 15 min
THROTTLE_LOGIN_DEVICE = _limit("THROTTLE_LOGIN_DEVICE", "5/900")  # failed logins per device cookie per 15 min
THROTTLE_LOBBY_PASSWORD = _limit("THROTTLE_LOBBY_PASSWORD", "10/900")  # wrong passwords per IP per lobby
THROTTLE_PUSH = _limit("THROTTLE_PUSH", "20/3600")  # Web Push subscriptions stored per person per hour
THROTTLE_CONFIRM_MAIL = _limit("THROTTLE_CONFIRM_MAIL", "5/3600")  # confirmation mails per person and per address per hour
THROTTLE_REPORT_USER = _limit("THROTTLE_REPORT_USER", "10/3600")  # reports filed per person per hour
THROTTLE_REPORT_IP = _limit("THROTTLE_REPORT_IP", "20/3600")  # reports filed per client address per hour
THROTTLE_BOT_GAME_USER = _limit("THROTTLE_BOT_GAME_USER", "10/3600")  # games against bots per person per hour
THROTTLE_BOT_GAME_IP = _limit("THROTTLE_BOT_GAME_IP", "20/3600")  # games against bots per client address per hour
#: ratings (game/site/ratings.py): a player is rated once their account is this many days old and
#: has finished this many games against as many different people; two players' rated games
#: together are capped per window of days
RATING_NEW_ACCOUNT_DAYS = env.float("RATING_NEW_ACCOUNT_DAYS", default=3.0)
RATING_NEW_ACCOUNT_GAMES = env.int("RATING_NEW_ACCOUNT_GAMES", default=3)
RATING_PAIR_GAMES = env.int("RATING_PAIR_GAMES", default=3)
RATING_PAIR_DAYS = env.float("RATING_PAIR_DAYS", default=30.0)
_open_cap = env.str("LOBBY_OPEN_PER_USER", default="3").strip().lower()
LOBBY_OPEN_PER_USER = None if _open_cap in ("off", "none", "") else int(_open_cap)  # open lobbies per creator

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
# collectstatic writes a gzip file (and a brotli one, with the brotli package) beside each static
# file, which WhiteNoise serves; files served from the source folders are compressed on the way
# out (gotweb/compress.py)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# A development page for The Duke's board (a fake client playing through the engine in this
# process, no lobby): ``/duke/harness/``. Off by default; ``DUKE_HARNESS=1`` turns it on.
DUKE_HARNESS = env.bool("DUKE_HARNESS", default=False)

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

X_FRAME_OPTIONS = "DENY"

# The game-screen harness (game/devtools/ui_harness.py): off unless asked for (tests, local development).
UI_HARNESS = env.bool("GOTWEB_UI_HARNESS", default=False)
# The raw fan-out baseline of the live benchmark (game/devtools/bench_echo.py): off unless asked for.
BENCH_ECHO = env.bool("GOTWEB_BENCH", default=False)
#: the load balancer terminates HTTPS: secure cookies, HTTPS redirects, HSTS, and the client's IP
#: is the proxy's last X-Forwarded-For address (game.live.clients.client_ip)
BEHIND_HTTPS_PROXY = env.bool("BEHIND_HTTPS_PROXY", default=False)
#: the load balancers whose X-Forwarded-For is read (addresses or networks); empty: any peer, and
#: only with BEHIND_HTTPS_PROXY
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy.strip(), strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: not an address or network: {_proxy!r}") from None
if BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = BEHIND_HTTPS_PROXY
# HTTPS only, once the site is served over HTTPS (manage.py check --deploy: no warnings with the
# README's production variables). HSTS makes browsers refuse plain HTTP for SECURE_HSTS_SECONDS.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=BEHIND_HTTPS_PROXY)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if BEHIND_HTTPS_PROXY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# Preloading is an opt-in with lasting effects (browsers ship the list): not a default, and
# Django's reminder of it (security.W021) stays quiet until the operator opts in.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# One handler prints each record once. Django first applies its own DEFAULT_LOGGING, whose
# "django" logger has a console handler of its own and propagates to the root: without the
# "django" entry below, every django.* line (runserver's and daphne's request lines included)
# was printed twice. "django" keeps its INFO level (the request lines) and stops at its handler.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
