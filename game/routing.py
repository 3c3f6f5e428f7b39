"""Websocket URL patterns of the game app."""

from django.urls import path

from . import consumers, game_consumer

websocket_urlpatterns = [
    path("ws/lobby/<int:lobby_id>/", consumers.LobbyConsumer.as_asgi()),
    path("ws/lobbies/", consumers.LobbyListConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", game_consumer.GameConsumer.as_asgi()),
]
