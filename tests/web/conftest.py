"""Fixtures for the site's tests: lobbies in a given state, and a snapshot of what is stored."""

from __future__ import annotations

import pytest


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
