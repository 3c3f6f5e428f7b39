"""Moderation through the Django admin, and garbage input that must never cause a server error."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from game.site import lobbies

pytestmark = pytest.mark.django_db


def test_admin_lists_lobbies_seats_and_profiles(client, make_lobby):
    lobby = make_lobby(players=3, seated=2, is_private=True, password="pw")
    admin = get_user_model().objects.create_superuser("mod", "mod@example.org", "pw-long-enough-1")
    client.force_login(admin)
    assert "Test lobby" in client.get(reverse("admin:game_lobby_changelist")).content.decode()
    page = client.get(reverse("admin:game_lobby_change", args=[lobby.pk])).content.decode()
    assert "host1" in page
    assert lobby.password not in page and lobby.invite_token not in page
    assert client.get(reverse("admin:game_profile_changelist")).status_code == 200


def test_moderator_cancels_open_lobbies_from_the_admin(client, make_lobby):
    open_one, started = make_lobby(players=3), make_lobby(players=3, seated=3)
    lobbies.start_lobby(started.pk, started.creator)
    admin = get_user_model().objects.create_superuser("mod", "mod@example.org", "pw-long-enough-1")
    client.force_login(admin)
    r = client.post(
        reverse("admin:game_lobby_changelist"),
        {"action": "cancel_open_lobbies", "_selected_action": [open_one.pk, started.pk]},
        follow=True,
    )
    assert "1 lobby cancelled." in r.content.decode()
    open_one.refresh_from_db(), started.refresh_from_db()
    assert (open_one.status, started.status) == ("cancelled", "started")


def test_superuser_without_profile_can_use_the_site(client):
    admin = get_user_model().objects.create_superuser("mod", "mod@example.org", "pw-long-enough-1")
    client.force_login(admin)
    assert "mod" in client.get(reverse("lobby_list")).content.decode()
    r = client.post(reverse("lobby_create"), {"name": "Mod game", "players": "3"})
    assert r.status_code == 302


GARBAGE = [
    {},
    {"house": "x" * 500, "password": "y" * 5000},
    {"house": "'; DROP TABLE game_seat; --"},
    {"house": ["stark", "lannister"]},
    {"name": "\x00", "players": "nine", "house": "\u202e", "is_private": "maybe"},
    {"name": "x" * 10_000, "players": "-3"},
    {"players": "3.5", "tides_of_battle": "on", "password": "\ud800".encode("utf-8", "surrogatepass").decode("latin-1")},
]


@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_posts_never_fail_with_500(client_for, make_user, make_lobby, data):
    lobby = make_lobby(players=3, seated=2)
    other = lobby.seats.exclude(user=lobby.creator).get()
    for user in (make_user(f"g{len(str(data))}"), lobby.creator, other.user):
        c = client_for(user)
        for url in (
            reverse("lobby_create"),
            reverse("lobby_join", args=[lobby.pk]),
            reverse("lobby_leave", args=[lobby.pk]),
            reverse("lobby_kick", args=[lobby.pk, other.pk + 1000]),
            reverse("lobby_start", args=[lobby.pk]),
            reverse("guest"),
            reverse("claim"),
            reverse("register"),
        ):
            r = c.post(url, data)
            assert r.status_code < 500, (url, data)


def test_live_fragment_for_every_status(client, make_lobby):
    started = make_lobby(players=3, seated=3)
    lobbies.start_lobby(started.pk, started.creator)
    cancelled = make_lobby(players=3)
    lobbies.cancel_lobby(cancelled.pk, cancelled.creator)
    assert "The game has started" in client.get(reverse("lobby_live", args=[started.pk])).content.decode()
    assert "This lobby was cancelled." in client.get(reverse("lobby_live", args=[cancelled.pk])).content.decode()
