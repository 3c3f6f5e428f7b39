"""Accounts: register, log in / out, play as guest, claim a guest account."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from game.models import Profile

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_register_logs_in_and_creates_profile(client):
    r = client.post(
        reverse("register"),
        {"username": "alice", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"},
        follow=True,
    )
    assert r.status_code == 200
    assert r.context["user"].username == "alice"
    assert Profile.objects.get(user__username="alice").is_guest is False
    assert "Welcome, alice!" in r.content.decode()


@pytest.mark.parametrize(
    "data,field,message",
    [
        ({"username": "bob", "password1": "a-Long-pass-42", "password2": "other-pass-42"}, "password2",
         "The two password fields didn’t match."),
        ({"username": "bob", "password1": "123", "password2": "123"}, "password2", "This password is too short."),
        ({"username": "", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}, "username",
         "This field is required."),
        ({"username": "bad name!", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}, "username",
         "Enter a valid username."),
    ],
)
def test_register_errors_beside_field_and_nothing_written(client, data, field, message):
    r = client.post(reverse("register"), data)
    assert r.status_code == 400
    assert any(message in e for e in r.context["form"].errors[field])
    assert f'id="id_{field}_error"' in r.content.decode()
    assert not User.objects.exists()


def test_register_duplicate_username(client, make_user):
    make_user("alice")
    r = client.post(reverse("register"), {"username": "alice", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"})
    assert r.status_code == 400 and "username" in r.context["form"].errors
    assert User.objects.count() == 1


def test_login_and_logout(client, make_user):
    make_user("alice")
    r = client.post(reverse("login"), {"username": "alice", "password": "pw-long-enough-1"}, follow=True)
    assert r.context["user"].is_authenticated
    r = client.post(reverse("logout"), follow=True)
    assert not r.context["user"].is_authenticated


def test_login_wrong_password(client, make_user):
    make_user("alice")
    r = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert r.status_code == 200 and not r.context["user"].is_authenticated
    assert "Please enter a correct username and password." in r.content.decode()


def test_guest_gets_a_real_user_and_is_logged_in(client):
    r = client.post(reverse("guest"), {"display_name": "Arya"}, follow=True)
    user = r.context["user"]
    assert user.is_authenticated and not user.has_usable_password()
    assert user.profile.is_guest and user.profile.display_name == "Arya"
    assert "Arya" in r.content.decode()


def test_guest_follows_safe_next_only(client):
    r = client.post(reverse("guest") + "?next=/spectate/", {"display_name": "Arya", "next": "/spectate/"})
    assert r["Location"] == "/spectate/"
    client.logout()
    r = client.post(reverse("guest"), {"display_name": "Bran", "next": "https://evil.example/"})
    assert r["Location"] == reverse("lobby_list")
    client.logout()
    r = client.post(reverse("guest"), {"display_name": "Rickon", "next": reverse("guest") + "?next=/"})
    assert r["Location"] == reverse("lobby_list")


@pytest.mark.parametrize("name,message", [("", "This field is required."), ("A", "at least 2 characters"), ("x" * 31, "at most 30 characters")])
def test_guest_bad_name(client, name, message):
    r = client.post(reverse("guest"), {"display_name": name})
    assert r.status_code == 400
    assert any(message in e for e in r.context["form"].errors["display_name"])
    assert not User.objects.exists()


def test_guest_claims_account_and_can_log_in_later(client):
    client.post(reverse("guest"), {"display_name": "Arya"})
    r = client.post(reverse("claim"), {"username": "arya", "password1": "needle-Sharp-9", "password2": "needle-Sharp-9"}, follow=True)
    assert r.status_code == 200
    user = User.objects.get(username="arya")
    assert user.check_password("needle-Sharp-9") and not user.profile.is_guest
    assert r.context["user"].is_authenticated  # still logged in after the password change
    client.logout()
    assert client.login(username="arya", password="needle-Sharp-9")


def test_claim_errors_change_nothing(client, make_user):
    make_user("taken")
    client.post(reverse("guest"), {"display_name": "Arya"})
    guest = User.objects.get(profile__display_name="Arya")
    for data in (
        {"username": "taken", "password1": "needle-Sharp-9", "password2": "needle-Sharp-9"},
        {"username": "arya", "password1": "password", "password2": "password"},
    ):
        r = client.post(reverse("claim"), data)
        assert r.status_code == 400 and r.context["form"].errors
    guest.refresh_from_db()
    assert guest.username.startswith("guest-") and not guest.has_usable_password() and guest.profile.is_guest


def test_claim_is_for_guests_only(client, make_user):
    client.force_login(make_user("alice"))
    r = client.get(reverse("claim"), follow=True)
    assert "Your account already has a password." in r.content.decode()


def test_logout_needs_post(client, make_user):
    client.force_login(make_user("alice"))
    assert client.get(reverse("logout")).status_code == 405


def test_guest_session_lasts_a_year(client):
    client.post(reverse("guest"), {"display_name": "Arya"})
    assert client.session.get_expiry_age() >= 364 * 24 * 3600
