"""Websocket consumers: transport only. They read state from the database and push it.

``/ws/lobby/<id>/`` -- :class:`LobbyConsumer`: on connect, and after every change of the lobby
(a ``lobby.changed`` group message), sends ``{"type": "lobby", "lobby": lobby_state(...)}``.
``/ws/lobbies/`` -- :class:`LobbyListConsumer`: sends ``{"type": "lobbies.changed"}`` whenever any
lobby changes, so the list page can refresh itself.
Clients send nothing but ``{"type": "sync"}`` (asks for the current state again); anything else,
readable or not, is ignored.

Both join their group through the process's hub (:mod:`game.live.hub`), like the game's sockets:
one relay per process and group, whose membership the hub renews before the channel layer's
``group_expiry`` ends it (so a lobby page left open for days keeps its pushes) and restores after
Redis failed (then each socket is sent the current state again: ``hub.resync``). A socket has no
channel-layer channel of its own, so a Redis failure does not close it.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError

from game.live.hub import hub
from game.live.notify import LOBBY_LIST_GROUP, lobby_group
from game.models import Lobby

from .lobbies import lobby_state


@database_sync_to_async
def _state(lobby_id: int):
    lobby = Lobby.objects.filter(pk=lobby_id).first()
    return None if lobby is None else lobby_state(lobby)


class _ReadsOnlyJson(AsyncJsonWebsocketConsumer):
    """Ignores what it cannot read (binary frames, text that is not JSON or nests too deeply)
    instead of failing, which would close the socket. Group messages come through the hub: no
    channel-layer channel per socket (``get_channel_layer`` gives None for an alias not
    configured)."""

    channel_layer_alias = "none: the hub delivers"

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
        await hub().join(self.group, self)
        await self.accept()
        await self.send_json({"type": "lobby", "lobby": state})

    async def disconnect(self, code) -> None:
        if hasattr(self, "group"):
            await hub().leave(self.group, self)

    async def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            await self.push()

    async def lobby_changed(self, event) -> None:
        await self.push()

    async def hub_resync(self, event) -> None:
        await self.push()

    async def push(self) -> None:
        """The lobby's current state; nothing while the database cannot be reached (the socket
        stays open; the next change, ``sync`` or reconnect sends it)."""
        try:
            state = await _state(self.lobby_id)
        except (OperationalError, InterfaceError):
            return
        if state is not None:
            await self.send_json({"type": "lobby", "lobby": state})


class LobbyListConsumer(_ReadsOnlyJson):
    async def connect(self) -> None:
        await hub().join(LOBBY_LIST_GROUP, self)
        await self.accept()

    async def disconnect(self, code) -> None:
        await hub().leave(LOBBY_LIST_GROUP, self)

    async def lobbies_changed(self, event) -> None:
        await self.send_json({"type": "lobbies.changed"})

    async def hub_resync(self, event) -> None:  # changes may have been missed: the page refreshes
        await self.send_json({"type": "lobbies.changed"})
