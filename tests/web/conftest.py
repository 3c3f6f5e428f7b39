"""Fixtures for the site's tests: lobbies in a given state, a snapshot of what is stored, and
the server's random draws pinned per test."""

from __future__ import annotations

import random
import zlib

import pytest


@pytest.fixture(autouse=True)
def _pinned_draws(request, monkeypatch):
    """The server's two random draws made from the system's source, pinned per test: a started
    game's 63-bit seed (``game/live/apply.py``, ``secrets.randbits``) and the shuffle that gives
    random houses (``game/site/lobbies.py``, ``secrets.SystemRandom``). Each comes from a generator
    seeded by the test's id (CRC-32, stable across runs and processes), so a test meets the same
    games on every run, and a child pytest run (the PostgreSQL replays) the same as its parent:
    a test cannot pass or fail by the game it drew. Successive games in one test still differ. A
    test that needs a given seed patches ``apply.secrets.randbits`` itself (its patch wins)."""
    from game.live import apply
    from game.site import lobbies

    rnd = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: rnd.getrandbits(bits))
    monkeypatch.setattr(lobbies.secrets, "SystemRandom", lambda: random.Random(rnd.getrandbits(64)))


@pytest.fixture
def make_lobby(make_user):
    """``make_lobby(players=3, seated=1, **create_kwargs)`` -> an open lobby created by a new user
    ``host`` and with ``seated - 1`` more players (``p2``, ``p3``...) on random houses."""
    from game.site import lobbies

    def make(players: int = 3, seated: int = 1, creator=None, **kwargs):
        creator = creator or make_user(f"host{make.n}")
        make.n += 1
        kwargs.setdefault("name", "Test lobby")
        lobby = lobbies.create_lobby(creator, players=players, **kwargs)
        for i in range(2, seated + 1):
            lobbies.join_lobby(lobby.pk, make_user(f"p{i}-{lobby.pk}"), invited=True)
        return lobby

    make.n = 1
    return make


@pytest.fixture
def snapshot(db):
    """``snapshot()`` -> a comparable picture of every lobby and seat row (to prove that a refused
    request wrote nothing)."""
    from game.models import Lobby, Seat

    def take():
        return (
            sorted(Lobby.objects.values_list("pk", "status", "version", "players", "password", "started_at")),
            sorted(Seat.objects.values_list("pk", "lobby_id", "user_id", "house", "random_house")),
        )

    return take


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Hash passwords quickly in tests (Django's slow default hasher is for production)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in English (a request in Chinese leaves its language active on the thread)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def application():
    """The project's ASGI application (websockets through the real routing and middleware)."""
    from gotweb.asgi import application

    return application


@pytest.fixture
def live_settings(settings):
    """Live-play tests drive bots themselves and use the in-memory channel layer."""
    settings.GAME_BOT_DELAY = None
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return settings


@pytest.fixture
def inline_mails(live_settings):
    """Notification mails on, sent in the committing thread (after the commit) so each test sees
    them at once, with links to ``https://play.example.org``; the archive's caches and the
    notification hints emptied before and after."""
    from game.site.notifications import hints

    from .archive_helpers import clear_caches

    live_settings.NOTIFY_IN_THREAD = False
    live_settings.NOTIFY_MAILS = True
    live_settings.NOTIFY_MAIL_AFTER = 300
    live_settings.SITE_URL = "https://play.example.org"
    clear_caches()
    hints.forget()
    yield live_settings
    clear_caches()
    hints.forget()


@pytest.fixture
def clock(monkeypatch):
    """``clock.t``: the services' current unix time (``time.time``), moved by the test
    (``clock.t += 10``); it starts at the real time."""
    import time

    class Clock:
        t = time.time()

    monkeypatch.setattr(time, "time", lambda: Clock.t)
    return Clock


@pytest.fixture
def postgres_only(settings):
    """Skips the test unless the database is PostgreSQL: it needs real concurrent connections
    (test_live_postgres.py runs it there); bots act only when the test asks."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's concurrent connections (runs on PostgreSQL in test_live_postgres.py)")
    settings.GAME_BOT_DELAY = None
    return settings


@pytest.fixture(autouse=True)
def _fresh_abuse_limits():
    """Each test starts with no abuse-limit counters (``game/site/throttle.py`` counts in Django's
    cache, which would otherwise carry one test's guests and failed logins into the next)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fresh_replay_rows():
    """Each test starts with no kept replay books or finished games' rows (``game/live/replay.py``
    keeps them per process, and test databases reuse game ids)."""
    from game.live import replay

    replay.forget()
    yield
    replay.forget()
