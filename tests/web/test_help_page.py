"""The how-to-play page (/help/): English and Chinese, the Game of Thrones round, the screen's
controls, the 1st edition and The Duke, linked from every page's header and from the game page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse


def test_the_page_in_english_and_chinese(client):
    page = client.get("/help/").content.decode()
    for words in ["How to play", "A round", "Westeros phase", "Planning phase", "Action phase", "Battles",
                  "Fiefdoms track", "The game screen", "Last moves", "The 1st edition", "The Duke", 'data-excerpt="pieces"']:
        assert words in page, words
    assert 'href="/"' in page  # the lobbies, where a game starts
    zh = client.get("/help/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for words in ["游戏说明", "维斯特洛阶段", "战略阶段", "行动阶段", "封臣势力条", "第一版", "公爵战棋", "回合"]:
        assert words in zh, words
    # one word for a round: 回合 (轮 only in 轮到你, "your turn")
    assert "A round" not in zh and not re.search(r"第.{0,3}轮|本轮|每轮|十轮|轮次", zh)


def test_linked_from_the_header(client):
    # base.html's header, on every page (here the page itself, marked as the current one)
    assert f'href="{reverse("help")}" aria-current="page"' in client.get("/help/").content.decode()
    assert f'href="{reverse("help")}"' in client.get(reverse("login")).content.decode()


@pytest.mark.django_db
def test_linked_from_the_game_page(make_lobby, client_for):
    from .live_helpers import start_game

    game, users = start_game(make_lobby, 3)
    html = client_for(users["stark"]).get(reverse("game_play", args=[game.pk])).content.decode()
    assert f'href="{reverse("help")}#screen"' in html


@pytest.mark.django_db
def test_create_a_game_says_why_it_asks_to_log_in(client):
    r = client.get(reverse("lobby_create"), follow=True)
    page = r.content.decode()
    assert r.redirect_chain and "To create or join a game you need an account" in page
    assert f'href="{reverse("guest")}?next=/lobby/new/"' in page.replace("%2F", "/")
    assert "To create or join" not in client.get(reverse("login")).content.decode()  # only when sent there
