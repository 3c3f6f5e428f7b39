"""Websocket consumers: transport only. They read state from the database and push it.

``/ws/lobby/<id>/`` -- :class:`LobbyConsumer`: on connect, and after every change of the lobby
(a ``lobby.changed`` group message), sends ``{"type": "lobby", "lobby": lobby_state(...)}``.
``/ws/lobbies/`` -- :class:`LobbyListConsumer`: sends ``{"type": "lobbies.changed"}`` whenever any
lobby changes, so the list page can refresh itself.
Clients send nothing but ``{"type": "sync"}`` (asks for the current state again); anything else,
readable or not, is ignored. A failure of the server's own is answered
``{"type": "error", "id": null, "error": {"code": "server.error", ...}}`` and logged in one line, and
the socket stays open; the consumer leaves its group however it ends
(:class:`game.live.consumer.Guarded`).
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from game.live.consumer import Guarded
from game.live.notify import LOBBY_LIST_GROUP, lobby_group
from game.models import Lobby

from .lobbies import lobby_state


@database_sync_to_async
def _state(lobby_id: int):
    lobby = Lobby.objects.filter(pk=lobby_id).first()
    return None if lobby is None else lobby_state(lobby)


class _ReadsOnlyJson(Guarded, AsyncJsonWebsocketConsumer):
    """Ignores what it cannot read (binary frames, text that is not JSON or nests too deeply)
    instead of failing, which would close the socket; survives its own failures (:class:`Guarded`)."""

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if text_data is None:
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content, **kwargs)


class LobbyConsumer(_ReadsOnlyJson):
    async def connect(self) -> None:
        self.lobby_id = int(self.scope["url_route"]["kwargs"]["lobby_id"])
        state = await _state(self.lobby_id)
        if state is None:
            await self.close(code=4404)
            return
        self.group = lobby_group(self.lobby_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "lobby", "lobby": state})

    async def release(self) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.push()

    async def lobby_changed(self, event) -> None:
        await self.push()

    async def push(self) -> None:
        state = await _state(self.lobby_id)
        if state is not None:
            await self.send_json({"type": "lobby", "lobby": state})


class LobbyListConsumer(_ReadsOnlyJson):
    async def connect(self) -> None:
        await self.channel_layer.group_add(LOBBY_LIST_GROUP, self.channel_name)
        await self.accept()

    async def release(self) -> None:
        await self.channel_layer.group_discard(LOBBY_LIST_GROUP, self.channel_name)

    async def lobbies_changed(self, event) -> None:
        await self.send_json({"type": "lobbies.changed"})
