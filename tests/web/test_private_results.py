"""A private game's result is its players' own: strangers do not see it on the players' pages, in
the archive or through a rating (private games are never rated). Before: the player page and the
leaderboard showed private games' results to anyone, though the games answered 404."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from game.models import GameRating, Rating

from .archive_helpers import clear_caches, play_to_end, start_duke

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield
    clear_caches()


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _played(html: str) -> str:
    return re.search(r'data-played="(\d+)"', html).group(1)


def test_a_private_games_result_stays_with_its_players(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, is_private=True)
    game = play_to_end(game.pk, users)
    host, guest = users["light"], users["dark"]
    stranger = make_user("stranger")
    record = GameRating.objects.get(game=game)
    assert not record.rated and record.reason == "private" and not Rating.objects.exists()
    page = reverse("player", args=[host.username])
    assert _played(_client(stranger).get(page).content.decode()) == "0"
    assert _played(_client().get(page).content.decode()) == "0"
    assert _played(_client(guest).get(page).content.decode()) == "1"  # the other player saw it
    assert _played(_client(host).get(page).content.decode()) == "1"
    assert "Test lobby" not in _client(stranger).get(reverse("archive")).content.decode()
    assert "Test lobby" in _client(guest).get(reverse("archive")).content.decode()
    board = _client(stranger).get(reverse("leaderboard_ruleset", args=["duke"])).content.decode()
    assert host.username not in board


def test_a_public_game_is_told_to_everyone(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user)
    play_to_end(game.pk, users)
    page = reverse("player", args=[users["light"].username])
    assert _played(_client().get(page).content.decode()) == "1"
