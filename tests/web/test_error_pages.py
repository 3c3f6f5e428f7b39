"""The site's own error pages (templates/400.html, 403.html, 403_csrf.html, 404.html, 405.html,
500.html): with DEBUG off, a page that is not there, not allowed, a stale form, a GET of a
button's address or a server error is answered with the right status and a page in the site's look
and the visitor's language, with a way back; never Django's bare "Not Found" line or an empty
page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import include, path, reverse


def _boom(request):
    raise RuntimeError("a bug in a view")


#: the site's URLs and one view that fails, for the 500 page (``pytest.mark.urls``)
urlpatterns = [path("boom/", _boom), path("", include("gotweb.urls"))]


def _page(response) -> str:
    return response.content.decode()


@pytest.mark.django_db
def test_a_missing_page_is_the_sites_404_page(client):
    response = client.get("/no-such-page/")
    html = _page(response)
    assert response.status_code == 404
    assert 'id="error-404"' in html and "Page not found" in html
    assert 'class="topbar"' in html and f'href="{reverse("lobby_list")}"' in html  # the site's menu and a way back
    assert "If a friend invited you" in html  # a visitor may have been sent a private game


@pytest.mark.django_db
def test_a_private_game_is_a_404_page_to_a_stranger_and_names_nothing_of_it(client, make_lobby, make_user):
    lobby = make_lobby(players=3, is_private=True, name="Secret council")
    client.force_login(make_user("stranger"))
    response = client.get(lobby.get_absolute_url())
    html = _page(response)
    assert response.status_code == 404 and 'id="error-404"' in html
    assert "Secret council" not in html
    assert "If a friend invited you" not in html and f'href="{reverse("my_games")}"' in html  # signed in: their games


@pytest.mark.django_db
def test_the_404_page_speaks_the_visitors_language(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    html = _page(response)
    assert response.status_code == 404
    assert 'lang="zh-hans"' in html and "页面不存在" in html and "返回房间列表" in html


@pytest.mark.django_db
def test_a_page_not_allowed_is_the_sites_403_page(client, make_user):
    client.force_login(make_user("player"))
    response = client.get(reverse("moderation"))  # moderators only
    html = _page(response)
    assert response.status_code == 403
    assert 'id="error-403"' in html and "Not allowed" in html and 'class="topbar"' in html


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_is_explained_and_changes_nothing(make_user):
    from game.models import Lobby

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_user("host"))
    response = browser.post(reverse("lobby_create"), {"name": "Stale form", "players": "3", "ruleset": "agot2"})
    html = _page(response)
    assert response.status_code == 403
    assert 'id="error-csrf"' in html and "The form has expired" in html and "Nothing was changed." in html
    assert not Lobby.objects.filter(name="Stale form").exists()


@pytest.mark.django_db
def test_a_get_of_a_buttons_address_is_explained_and_changes_nothing(client, make_lobby, make_user):
    from game.models import Seat

    lobby = make_lobby(players=3)
    client.force_login(make_user("visitor"))
    response = client.get(reverse("lobby_join", args=[lobby.pk]))  # only the page's form may join
    html = _page(response)
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert 'id="error-405"' in html and "Nothing was changed." in html and 'class="topbar"' in html
    assert Seat.objects.filter(lobby=lobby).count() == 1
    # the post itself is untouched
    assert client.post(reverse("lobby_join", args=[lobby.pk])).status_code in (200, 302)
    assert Seat.objects.filter(lobby=lobby).count() == 2


@pytest.mark.django_db
def test_a_get_of_the_logout_address_offers_the_button_in_the_visitors_language(client, make_user):
    client.force_login(make_user("leaving"))
    response = client.get(reverse("logout"), HTTP_ACCEPT_LANGUAGE="zh-CN")
    html = _page(response)
    assert response.status_code == 405 and 'id="logout-confirm"' in html and "要退出登录" in html
    assert html.count("btn-primary") == 1  # the one button to press; the way back is secondary
    assert "_auth_user_id" in client.session  # still signed in: a GET logs no one out
    assert client.post(reverse("logout")).status_code == 302 and "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_request_for_a_host_the_site_does_not_serve_is_the_sites_400_page(client, settings):
    settings.ALLOWED_HOSTS = ["play.example.org"]
    response = client.get(reverse("lobby_list"), HTTP_HOST="elsewhere.example.com")
    html = _page(response)
    assert response.status_code == 400
    assert 'id="error-400"' in html and "Bad request" in html


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_server_error_is_the_sites_500_page_in_the_visitors_language():
    browser = Client(raise_request_exception=False)
    response = browser.get("/boom/")
    assert response.status_code == 500
    assert 'id="error-500"' in _page(response) and "every move is saved" in _page(response)
    response = browser.get("/boom/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    html = _page(response)
    assert response.status_code == 500 and 'lang="zh-hans"' in html and "出错了" in html
