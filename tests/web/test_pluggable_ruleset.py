"""A new ruleset plugs into the lobbies through the registry alone (The Duke will, later)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game import rules
from game.models import Lobby

pytestmark = pytest.mark.django_db


class FakeDuel:
    """Just enough of the Ruleset contract for lobbies: two seats, one option."""

    id = "duel"
    min_players = 2
    max_players = 2
    names = {"en": "Duel", "zh-hans": "决斗"}
    default_options = {"fog": False}

    def seats(self, players, options=None):
        if players != 2:
            raise ValueError(players)
        return ["white", "black"]

    def seat_names(self):
        return {"white": {"en": "White", "zh-hans": "白方"}, "black": {"en": "Black", "zh-hans": "黑方"}}


FAKE = FakeDuel()


@pytest.fixture
def duel(monkeypatch):
    monkeypatch.setitem(rules.REGISTRY, "duel", f"{__name__}:FAKE")


def test_create_and_fill_a_lobby_of_another_game(duel, client_for, make_user):
    host, other = make_user("host"), make_user("other")
    c = client_for(host)
    page = c.get(reverse("lobby_create") + "?game=duel")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Duel" in html and 'name="fog"' in html and "Tides of Battle" not in html
    r = c.post(reverse("lobby_create") + "?game=duel", {"name": "Duel at dawn", "players": "2", "house": "black", "fog": "on"})
    assert r.status_code == 302, r.content.decode()[:2000]
    lobby = Lobby.objects.get()
    assert (lobby.ruleset, lobby.players, lobby.options) == ("duel", 2, {"fog": True})
    client_for(other).post(reverse("lobby_join", args=[lobby.pk]), {"house": ""})
    c.post(reverse("lobby_start", args=[lobby.pk]))
    lobby.refresh_from_db()
    assert lobby.status == "started"
    assert dict(lobby.seats.values_list("user__username", "house")) == {"host": "black", "other": "white"}
    assert "White" in c.get(lobby.get_absolute_url()).content.decode()


def test_unknown_game_is_404(client_for, make_user):
    assert client_for(make_user("a")).get(reverse("lobby_create") + "?game=nope").status_code == 404
