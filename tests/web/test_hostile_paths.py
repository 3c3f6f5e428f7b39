"""URLs that name something by text (a player, an invitation, an unsubscribe or confirmation
token, a game's leaderboard) with hostile text: a NUL character (which PostgreSQL refuses to
compare, so it must never reach a query), very long or odd names: a 404 or a typed refusal,
never a 500.
Runs on PostgreSQL too (``tests/web/test_postgres.py``)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HOSTILE = ("%00", "a%00b", "%00%00", "x" * 300, "%F0%9F%92%A9", "..%2F..", "%E2%80%AE", "%C0%AF")


@pytest.mark.parametrize(
    "prefix", ["/u/", "/invite/", "/leaderboard/", "/accounts/notifications/unsubscribe/", "/accounts/notifications/confirm/"]
)
def test_text_in_a_path_never_breaks_the_server(prefix, make_user):
    for who in (None, make_user("visitor")):
        c = Client(raise_request_exception=False)
        if who is not None:
            c.force_login(who)
        for text in HOSTILE:
            r = c.get(f"{prefix}{text}/")
            assert r.status_code in (302, 400, 404), (prefix, text, r.status_code)
