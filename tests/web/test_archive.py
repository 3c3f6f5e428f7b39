"""The archive of finished games: filters, pagination, and who sees which games."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from game.models import Game

from .archive_helpers import clear_caches, play_to_end, start_duke

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield live_settings
    clear_caches()


def _ids(response) -> list[int]:
    return [row["game"].pk for row in response.context["rows"]]


@pytest.fixture
def games(make_lobby, make_user):
    """Three finished Duke games (one private) and one running; ``{name: (game, users)}``."""
    out = {}
    for name, kwargs in (("a", {}), ("b", {}), ("secret", {"is_private": True, "password": "pw-secret-1"})):
        game, users = start_duke(make_lobby, make_user, name=f"Game {name}", **kwargs)
        out[name] = (play_to_end(game.pk, users), users)
    out["running"] = start_duke(make_lobby, make_user, name="Game running")
    return out


def test_anonymous_visitors_see_public_finished_games(games, client):
    r = client.get("/archive/")
    assert r.status_code == 200
    assert set(_ids(r)) == {games["a"][0].pk, games["b"][0].pk}  # not the private one, not the running one
    html = r.content.decode()
    assert f"/game/{games['a'][0].pk}/export.json" in html and "Game a" in html


def test_private_games_are_listed_to_their_players_only(games, make_user):
    player = next(iter(games["secret"][1].values()))
    c = Client()
    c.force_login(player)
    assert games["secret"][0].pk in _ids(c.get("/archive/"))
    c.force_login(make_user("outsider"))
    assert games["secret"][0].pk not in _ids(c.get("/archive/"))


def test_filters(games, make_lobby, make_user, client):
    a, users_a = games["a"]
    agot = Game.objects.create(lobby=make_lobby(players=3), ruleset="agot2", players=3, seed=1, status="finished", result={"winner": "stark"})
    assert set(_ids(client.get("/archive/?game=agot2"))) == {agot.pk}
    assert agot.pk not in _ids(client.get("/archive/?game=duke"))
    assert _ids(client.get("/archive/?players=3")) == [agot.pk]
    name = next(iter(users_a.values())).username
    assert _ids(client.get(f"/archive/?player={name}")) == [a.pk]
    assert _ids(client.get(f"/archive/?player={name.upper()}")) == [a.pk]
    Game.objects.filter(pk=a.pk).update(finished_at=datetime.datetime(2020, 5, 1, tzinfo=datetime.timezone.utc))
    assert _ids(client.get("/archive/?until=2020-12-31")) == [a.pk]
    assert a.pk not in _ids(client.get("/archive/?since=2021-01-01"))
    # the finish time is finished_at: a later write to the row (updated_at) does not move it
    Game.objects.filter(pk=a.pk).update(updated_at=datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc))
    assert _ids(client.get("/archive/?until=2020-12-31")) == [a.pk]
    assert a.pk not in _ids(client.get("/archive/?since=2024-01-01"))
    for bad in ("game=chess", "players=99", "players=x", "since=yesterday", "player=" + "x" * 200):
        r = client.get(f"/archive/?{bad}")
        assert r.status_code == 400 and _ids(r) == [] and "errorlist" in r.content.decode()


def test_pagination(games, client, settings):
    from game.site import archive

    archive.PAGE_SIZE, old = 1, archive.PAGE_SIZE
    try:
        first, second = client.get("/archive/"), client.get("/archive/?page=2")
        assert len(_ids(first)) == 1 and len(_ids(second)) == 1 and _ids(first) != _ids(second)
        assert 'rel="next"' in first.content.decode()
        for bad in ("0", "x", "999999999999999999999"):
            assert client.get(f"/archive/?page={bad}").status_code == 200
        assert "game=duke&amp;page=2" in client.get("/archive/?game=duke").content.decode()
    finally:
        archive.PAGE_SIZE = old


def test_the_header_links_to_archive_and_leaderboard(client):
    html = client.get("/").content.decode()
    assert 'href="/archive/"' in html and 'href="/leaderboard/"' in html
