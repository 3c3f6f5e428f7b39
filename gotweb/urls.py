"""HTTP URL patterns: the game app, accounts, the board SVG, admin, language switching and the JS
catalogue. The admin is entered through the site's login (:func:`admin_login`)."""

from urllib.parse import quote

from django.contrib import admin
from django.shortcuts import redirect
from django.urls import include, path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.i18n import JavaScriptCatalog

from game.boards import views as board_views
from game.devtools import duke_harness

def admin_login(request):
    """``/admin/login/``: the site's own login page (its limits per address and per username),
    then back to the admin. The admin's login form itself is never offered, so no password is
    checked there; a ``next`` that leaves the site becomes ``/admin/``."""
    nxt = request.GET.get("next") or "/admin/"
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        nxt = "/admin/"
    return redirect(f"{reverse('login')}?next={quote(nxt, safe='/')}")


urlpatterns = [
    path("", include("game.site.urls")),
    path("boards/agot2.svg", board_views.agot2_board_svg, name="board-agot2-svg"),
    path("boards/agot2.json", board_views.agot2_board_data_json, name="board-agot2-data"),
    path("boards/agot1.svg", board_views.agot1_board_svg, name="board-agot1-svg"),
    path("boards/agot1.json", board_views.agot1_board_data_json, name="board-agot1-data"),
    path("harness/", include("game.devtools.ui_harness")),
    path("duke/harness/", duke_harness.harness_page, name="duke-harness"),
    path("duke/harness/api/<str:name>/", duke_harness.harness_api, name="duke-harness-api"),
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["game"]), name="javascript-catalog"),
]
