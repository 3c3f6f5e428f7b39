"""HTTP URL patterns: the game app, accounts, the board SVG, admin, language switching and the JS
catalogue."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from game.boards import views as board_views
from game.devtools import duke_harness

urlpatterns = [
    path("", include("game.site.urls")),
    path("boards/agot2.svg", board_views.agot2_board_svg, name="board-agot2-svg"),
    path("boards/agot2.json", board_views.agot2_board_data_json, name="board-agot2-data"),
    path("boards/agot1.svg", board_views.agot1_board_svg, name="board-agot1-svg"),
    path("boards/agot1.json", board_views.agot1_board_data_json, name="board-agot1-data"),
    path("harness/", include("game.devtools.ui_harness")),
    path("duke/harness/", duke_harness.harness_page, name="duke-harness"),
    path("duke/harness/api/<str:name>/", duke_harness.harness_api, name="duke-harness-api"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["game"]), name="javascript-catalog"),
]
