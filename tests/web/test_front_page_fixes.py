"""Small items on the front page: "Your games" counts every seat of a game (not only
the user's own), and a bot's name is told in the page's language."""

from __future__ import annotations

import re

from game.site import lobbies

from .archive_helpers import start_duke


def test_your_games_counts_every_seat(make_lobby, make_user, client, live_settings):
    game, users = start_duke(make_lobby, make_user)  # a running 2-player game
    client.force_login(next(iter(users.values())))
    page = client.get("/").content.decode()
    mine = page.split("Your games", 1)[1].split('id="open-lobbies"', 1)[0]
    assert re.findall(r"(\d+) / (\d+) players", mine) == [("2", "2")]


def test_a_bots_name_is_translated(make_lobby, client):
    lobby = make_lobby(players=3, house="stark")
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    client.force_login(lobby.creator)
    english = client.get(f"/lobby/{lobby.pk}/").content.decode()
    assert "Bot 1 (basic)" in english
    chinese = client.get(f"/lobby/{lobby.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Bot 1 (basic)" not in chinese and "机器人 1（基础）" in chinese
