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


def test_the_moderation_and_report_pages_read_hostile_text_safely(make_user, make_lobby):
    """A moderator's pages and forms, the report form's query and the seat-taking path, with the
    same hostile text: a 404, a 400 or a redirect, never a 500."""
    from django.contrib.auth.models import Permission

    from .live_helpers import start_game

    mod = make_user("mod")
    mod.user_permissions.add(*Permission.objects.filter(codename__in=["view_report", "ban_user", "mute_user", "warn_user", "change_report"]))
    game, _ = start_game(make_lobby, 2, ruleset="duke")
    c = Client(raise_request_exception=False)
    c.force_login(mod)
    for text in HOSTILE:
        assert c.get(f"/moderation/user/{text}/").status_code == 404, text
        for key in ("user", "line", "game"):
            assert c.get(f"/report/?{key}={text}").status_code == 404, (key, text)
        assert c.post(f"/game/{game.pk}/take/{text}/").status_code in (302, 404), text
    for raw in ("a\x00b", "\x00", "x" * 400, "é" * 200):
        r = c.post("/moderation/act/", {"user": raw, "kind": "ban", "reason": "x"})
        assert r.status_code == 400, raw
        r = c.post("/moderation/act/", {"report": raw, "kind": "dismiss", "reason": raw})
        assert r.status_code == 400, raw
        r = c.post("/report/?user=mod", {"reason": raw, "text": raw})
        assert r.status_code in (400, 302), raw
