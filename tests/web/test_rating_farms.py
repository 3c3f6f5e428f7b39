"""Ratings cannot be farmed: a game counts for ratings only between established accounts (old
enough, with finished games against several people behind them), and two accounts' rated games
together are capped per window (``game/site/ratings.py``). Before: a new account beat five fresh
accounts, one second a game, and went from 1500 to 1722, first on the leaderboard."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from game.models import GameRating, Lobby, Rating, Seat

from .archive_helpers import clear_caches, play_to_end
from .live_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _production_rule(live_settings):
    """The rule as deployed (the test settings rate from the first game)."""
    live_settings.RATING_NEW_ACCOUNT_DAYS = 3
    live_settings.RATING_NEW_ACCOUNT_GAMES = 3
    live_settings.RATING_PAIR_GAMES = 3
    live_settings.RATING_PAIR_DAYS = 30
    clear_caches()
    yield
    clear_caches()


def _duke_between(make_lobby, host, guest):
    from game.site import lobbies

    lobby = make_lobby(players=2, seated=1, ruleset="duke", creator=host)
    lobbies.join_lobby(lobby.pk, guest, invited=True)
    lobbies.start_lobby(lobby.pk, host)
    lobby.refresh_from_db()
    return lobby.game, {s.house: s.user for s in lobby.seats.select_related("user")}


def _establish(user, opponents, days: int = 10) -> None:
    """``user``'s account made ``days`` ago, with a finished game against each of ``opponents``."""
    type(user).objects.filter(pk=user.pk).update(date_joined=timezone.now() - datetime.timedelta(days=days))
    for other in opponents:
        lobby = Lobby.objects.create(name="old game", ruleset="duke", players=2, creator=user, status=Lobby.Status.FINISHED)
        Seat.objects.create(lobby=lobby, user=user, house="light")
        Seat.objects.create(lobby=lobby, user=other, house="dark")
    user.refresh_from_db()


def test_a_farm_of_fresh_accounts_moves_no_rating(make_lobby, make_user):
    farmer = make_user("farmer")
    for i in range(5):
        game, users = _duke_between(make_lobby, farmer, make_user(f"fresh{i}"))
        game = play_to_end(game.pk, users, salt=i)
        record = GameRating.objects.get(game=game)
        assert not record.rated and record.reason == "new_account"
    assert not Rating.objects.exists()


def test_established_accounts_are_rated_until_they_have_met_too_often(make_lobby, make_user):
    a, b = make_user("old-a"), make_user("old-b")
    others = [make_user(f"friend{i}") for i in range(3)]
    _establish(a, others)
    _establish(b, others)
    reasons = []
    for i in range(4):
        game, users = _duke_between(make_lobby, a, b)
        game = play_to_end(game.pk, users, salt=10 + i)
        record = GameRating.objects.get(game=game)
        reasons.append(record.reason if not record.rated else "rated")
    assert reasons == ["rated", "rated", "rated", "repeat"]
    assert Rating.objects.get(user=a, ruleset="duke").games == 3


def test_one_new_account_at_the_table_leaves_a_game_unrated(make_lobby, make_user):
    """AGoT, three people: two established, one made today."""
    game, users = start_game(make_lobby, 3)
    people = list(users.values())
    helpers = [make_user(f"h{i}") for i in range(3)]
    for person in people[:2]:
        _establish(person, helpers)
    game = play_to_end(game.pk, users)
    assert GameRating.objects.get(game=game).reason == "new_account" and not Rating.objects.exists()


def test_an_account_needs_games_against_several_people(make_lobby, make_user):
    a, b = make_user("lonely-a"), make_user("lonely-b")
    pal = make_user("pal")
    _establish(a, [pal, pal, pal])  # three games, one opponent
    _establish(b, [make_user(f"x{i}") for i in range(3)])
    game, users = _duke_between(make_lobby, a, b)
    game = play_to_end(game.pk, users)
    assert GameRating.objects.get(game=game).reason == "new_account"
