"""``python manage.py rate_games``: rate the finished games that were not rated yet.

Ratings are normally written with a game's finish (:mod:`game.site.ratings`); this catches up
after a failure there (``GameRating.reason == "error"``, retried) or for games finished before
ratings existed, oldest first, each in its own transaction. Prints how many were rated.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

from game.models import Game, GameRating
from game.site import ratings


class Command(BaseCommand):
    help = "Rate finished games that have no rating record yet (and retry failed ones)."

    def handle(self, *args, **opts):
        GameRating.objects.filter(reason="error").delete()
        rated = unrated = 0
        for game in Game.objects.filter(status=Game.Status.FINISHED, rating__isnull=True).defer("snapshot").order_by("finished_at", "pk"):
            with transaction.atomic():
                record = ratings.rate_game(game)
            rated += record.rated
            unrated += not record.rated
        self.stdout.write(f"rated {rated}, unrated {unrated}")
