"""Game.finished_at: set by the action that ends the game, the archive's and player
pages' finish time and duration (not ``updated_at``, which later writes move); the migration
that adds it gives finished games the time of their last logged action."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from game.models import Action, Game

from .archive_helpers import clear_caches, play_to_end, start_duke

T0 = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield live_settings
    clear_caches()


@pytest.mark.django_db
def test_the_last_action_sets_finished_at_and_the_pages_show_it(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, name="Finish line")
    assert game.finished_at is None
    game = play_to_end(game.pk, users)
    last = Action.objects.filter(game=game).order_by("-number").first()
    assert game.finished_at is not None and abs(game.finished_at - last.created_at) < datetime.timedelta(seconds=2)
    # the row written again later (an admin's edit, a rating): the finish stays where it was
    Game.objects.filter(pk=game.pk).update(created_at=T0, finished_at=T0 + datetime.timedelta(minutes=95),
                                           updated_at=T0 + datetime.timedelta(days=30))
    player = next(iter(users.values()))
    c = Client()
    c.force_login(player)
    for url in ("/archive/", f"/u/{player.username}/"):
        html = c.get(url).content.decode()
        assert "1 h 35 min" in html, url
        assert '<time datetime="2026-03-01T13:35:00+00:00">' in html, url


@pytest.mark.django_db(transaction=True)
def test_the_migration_backfills_from_the_last_action(latest_schema_after):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("game", "0011_push_subscriptions")], [("game", "0012_game_finished_at")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, Lobby, OldGame, OldAction = (old.get_model(*m) for m in (("auth", "User"), ("game", "Lobby"), ("game", "Game"), ("game", "Action")))
    host = User.objects.create(username="host")
    for name, status, actions in (("done", "finished", 3), ("bare", "finished", 0), ("running", "running", 2)):
        lobby = Lobby.objects.create(name=name, players=2, creator=host)
        g = OldGame.objects.create(lobby=lobby, ruleset="duke", players=2, seed=1, status=status, version=actions)
        for n in range(1, actions + 1):
            OldAction.objects.create(game=g, number=n, actor="a", action={}, created_at=T0)
        OldAction.objects.filter(game=g).update(created_at=T0)
        OldAction.objects.filter(game=g, number=actions).update(created_at=T0 + datetime.timedelta(hours=2))
        OldGame.objects.filter(pk=g.pk).update(updated_at=T0 + datetime.timedelta(days=9))
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("game", "Game")
    got = dict(new.objects.values_list("lobby__name", "finished_at"))
    assert got == {"done": T0 + datetime.timedelta(hours=2), "bare": T0 + datetime.timedelta(days=9), "running": None}


@pytest.fixture
def latest_schema_after():
    """The database migrated forward to the latest migrations after the test, whatever happened."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
