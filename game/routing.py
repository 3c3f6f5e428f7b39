"""Websocket URL patterns of the game app."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/lobby/<int:lobby_id>/", consumers.LobbyConsumer.as_asgi()),
    path("ws/lobbies/", consumers.LobbyListConsumer.as_asgi()),
]
