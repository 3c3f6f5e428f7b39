"""The admin is entered only through the site's login, so its limits apply: ``/admin/login/``
checks no password (GET or POST) and sends the browser to ``/accounts/login/``, which refuses a
sixth wrong password for a username with 429. Before: 40 wrong staff passwords at
``/admin/login/``, then the right one, got in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def staff():
    return User.objects.create_user("boss", password="right-Password-1", is_staff=True, is_superuser=True)


def test_the_admins_own_login_checks_no_password(staff):
    c = Client(REMOTE_ADDR="192.0.2.50")
    for _ in range(40):
        r = c.post("/admin/login/?next=/admin/", {"username": "boss", "password": "wrong"})
        assert r.status_code == 302 and r["Location"] == "/accounts/login/?next=/admin/"
    r = c.post("/admin/login/", {"username": "boss", "password": "right-Password-1"})
    assert r.status_code == 302 and "_auth_user_id" not in c.session
    assert c.get("/admin/").status_code == 302  # still not in


def test_the_site_login_limits_guesses_at_staff_accounts(staff, monkeypatch):
    # the throttle's 15-minute window pinned to its middle: eight requests that straddle a window's
    # end would count in two windows and none would be refused (it happened once in a full run)
    from types import SimpleNamespace

    from game.site import throttle

    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: 2_000_000 * 900 + 450.0))
    guesses = [Client(REMOTE_ADDR=f"192.0.2.{60 + i}") for i in range(8)]  # many addresses: the username's budget
    codes = [g.post("/accounts/login/?next=/admin/", {"username": "boss", "password": f"wrong{i}"}).status_code for i, g in enumerate(guesses)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    late = Client(REMOTE_ADDR="192.0.2.90").post("/accounts/login/?next=/admin/", {"username": "boss", "password": "right-Password-1"})
    assert late.status_code == 429  # the right password too, until the window ends


def test_staff_get_into_the_admin_through_the_site_login(staff):
    c = Client()
    assert c.get("/admin/").status_code == 302
    r = c.post("/accounts/login/?next=/admin/", {"username": "boss", "password": "right-Password-1", "next": "/admin/"})
    assert r.status_code == 302 and r["Location"] == "/admin/"
    assert c.get("/admin/").status_code == 200


def test_a_foreign_next_goes_to_the_admin():
    r = Client().get("/admin/login/?next=https://evil.example/")
    assert r["Location"] == "/accounts/login/?next=/admin/"
