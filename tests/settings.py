"""The test session's settings: ``gotweb.settings`` with a test-only ``SECRET_KEY`` when the
environment gives none, so ``pytest`` and ``make test`` need no variable (with ``DEBUG`` off, as
in production, the settings refuse to load without a key). Set in the environment, the key is
inherited by the processes the tests start (daphne, ``manage.py``, child pytest runs).
pyproject.toml names this module as pytest-django's ``DJANGO_SETTINGS_MODULE``."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "t" * 40)

from gotweb.settings import *  # noqa: E402,F401,F403

# No turn or end-of-game mails in the session: their worker thread would read the test database
# while tests flush it. tests/web/test_notification_mails.py (and the pages' tests that need them)
# turn them on, in the committing thread.
NOTIFY_MAILS = False

# Ratings count from a new account's first game here, so that a test needs no aged accounts with
# games behind them; tests/web/test_rating_farms.py sets the production rule itself.
RATING_NEW_ACCOUNT_DAYS = 0
RATING_NEW_ACCOUNT_GAMES = 0
RATING_PAIR_GAMES = 10**6
# The test suite opens hundreds of sockets from one address in quick succession, as no browser
# does; tests/web/test_connect_rate.py sets the production limit itself.
LIVE_CONNECT_RATE = None
