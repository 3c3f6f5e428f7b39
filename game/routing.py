"""Websocket URL patterns of the game app."""

from django.urls import path

from .live.consumer import GameConsumer
from .site.lobby_consumer import LobbyConsumer, LobbyListConsumer

websocket_urlpatterns = [
    path("ws/lobby/<int:lobby_id>/", LobbyConsumer.as_asgi()),
    path("ws/lobbies/", LobbyListConsumer.as_asgi()),
    path("ws/game/<int:game_id>/", GameConsumer.as_asgi()),
]
