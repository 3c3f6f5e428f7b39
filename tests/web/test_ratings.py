"""Ratings: rated games between people update their ratings with the finish; bots and
stand-ins make a game unrated; a failure in the ratings never stops a game from finishing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from game.models import GameRating, Rating

from .archive_helpers import clear_caches, play_to_end, start_duke
from .live_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield live_settings
    clear_caches()


def test_a_rated_duke_game_moves_both_ratings(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user)
    game = play_to_end(game.pk, users)
    record = GameRating.objects.get(game=game)
    assert record.rated and record.reason == ""
    winner = game.result["winner"]
    ratings = {h: Rating.objects.get(user=u, ruleset="duke") for h, u in users.items()}
    if winner:
        loser = next(h for h in users if h != winner)
        assert ratings[winner].score > 1500 > ratings[loser].score
        assert ratings[winner].wins == 1 and ratings[loser].wins == 0
    assert all(r.games == 1 and r.sigma < 350 for r in ratings.values())
    assert record.changes[winner or "light"]["before"] == 1500.0


def test_a_rated_agot_game_ranks_the_whole_table(make_lobby):
    game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users)
    assert GameRating.objects.get(game=game).rated
    ranking = game.result["ranking"]
    scores = [Rating.objects.get(user=users[h], ruleset="agot2").score for h in ranking]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    assert not Rating.objects.filter(ruleset="duke").exists()


def test_a_game_with_a_bot_is_unrated(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, bot=True)
    game = play_to_end(game.pk, users)
    record = GameRating.objects.get(game=game)
    assert not record.rated and record.reason == "bots"
    assert not Rating.objects.exists()


def test_a_game_a_stand_in_played_in_is_unrated(make_lobby, make_user):
    from game.models import Action

    game, users = start_duke(make_lobby, make_user)
    away = next(iter(users))
    game = play_to_end(game.pk, {h: u for h, u in users.items() if h != away} | {away: users[away]}, salt=1)
    # the same game with one action logged by a stand-in (no user): rated "stand_in" by the rule
    GameRating.objects.all().delete()
    Rating.objects.all().delete()
    Action.objects.filter(game=game, number=3).update(user=None)
    call_command("rate_games")
    record = GameRating.objects.get(game=game)
    assert not record.rated and record.reason == "stand_in" and not Rating.objects.exists()


def test_a_failing_rating_does_not_stop_the_finish(make_lobby, make_user, monkeypatch):
    from game.site import ratings

    def broken(game):
        Rating.objects.create(user=next(iter(users.values())), ruleset="duke", mu=1, sigma=1, score=1)
        raise RuntimeError("ratings are down")

    game, users = start_duke(make_lobby, make_user)
    monkeypatch.setattr(ratings, "rate_game", broken)
    game = play_to_end(game.pk, users)
    assert game.status == "finished"
    assert GameRating.objects.get(game=game).reason == "error"
    assert not Rating.objects.exists()  # the savepoint took back the half-done work
    monkeypatch.undo()
    call_command("rate_games")
    assert GameRating.objects.get(game=game).rated and Rating.objects.filter(ruleset="duke").count() == 2
    call_command("rate_games")  # idempotent: a game is rated once
    assert Rating.objects.get(user=next(iter(users.values())), ruleset="duke").games == 1


def test_leaderboard_lists_rated_people_best_first(make_lobby, make_user, client):
    game, users = start_duke(make_lobby, make_user)
    game = play_to_end(game.pk, users)
    r = client.get("/leaderboard/duke/")
    assert r.status_code == 200
    html = r.content.decode()
    names = [u.username for u in sorted(users.values(), key=lambda u: -Rating.objects.get(user=u).score)]
    assert html.index(f"/u/{names[0]}/") < html.index(f"/u/{names[1]}/")
    assert client.get("/leaderboard/").status_code == 302
    assert client.get("/leaderboard/chess/").status_code == 404
    assert "No rated game" in client.get("/leaderboard/agot2/").content.decode()


def test_a_shared_win_ranks_every_winner_first():
    """The 1st edition's last tie-break is a shared win (``winner`` None, ``winners``): the winners
    are tied first, the others follow the ranking."""
    from game.site.ratings import ranks

    result = {"winner": None, "winners": ["stark", "lannister"], "ranking": ["stark", "lannister", "baratheon"]}
    assert ranks(result, ["baratheon", "lannister", "stark"]) == [3, 1, 1]
    assert ranks({"winner": None, "winners": ["stark", "lannister"]}, ["baratheon", "stark"]) == [2, 1]
    assert ranks({"winner": "stark", "ranking": ["stark", "baratheon"]}, ["baratheon", "stark"]) == [2, 1]
