"""HTTP URL patterns: the game app, accounts, admin, language switching and the JS catalogue."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("", include("game.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["game"]), name="javascript-catalog"),
]
