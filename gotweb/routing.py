"""Websocket URL patterns of the whole site (each app contributes its own list).

The bench-only echo socket (:mod:`game.devtools.bench_echo`) is added only with the setting
``BENCH_ECHO`` (``GOTWEB_BENCH=1``), so production routing never has it.
"""

from django.conf import settings

from game.routing import websocket_urlpatterns as game_patterns

websocket_urlpatterns = [*game_patterns]

if settings.BENCH_ECHO:
    from game.devtools.bench_echo import websocket_urlpatterns as bench_patterns

    websocket_urlpatterns += bench_patterns
