"""Websocket URL patterns of the whole site (each app contributes its own list)."""

from game.routing import websocket_urlpatterns as game_patterns

websocket_urlpatterns = [*game_patterns]
