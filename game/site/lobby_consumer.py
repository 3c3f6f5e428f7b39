"""Websocket consumers: transport only. They read state from the database and push it.

``/ws/lobby/<id>/`` -- :class:`LobbyConsumer`: on connect, and after every change of the lobby
(a ``lobby.changed`` group message), sends ``{"type": "lobby", "lobby": lobby_state(...)}``. A
private lobby is shown only to those who may see it (:func:`game.live.access.may_see`, the
lobby pages' own rule): anyone else is closed with 4403, on connect or at the next change.
``/ws/lobbies/`` -- :class:`LobbyListConsumer`: sends ``{"type": "lobbies.changed"}`` whenever any
lobby changes, so the list page can refresh itself. For a signed-in person it also sends
``{"type": "my_games", "awaiting": n}`` (the running games awaiting their decision,
:func:`game.site.my_games.awaiting_count`) on connect and whenever their group
(:func:`game.live.notify.user_group`) hears that it may have changed; a ``sync`` sends it again.

Clients send nothing but ``{"type": "sync"}`` (asks for the current state again); anything else,
readable or not, is ignored. Both sockets keep the game socket's limits (``docs/protocol.md``,
"Limits"): a message over ``LIVE_MAX_MESSAGE`` is answered ``message.too_large``, one over the
connection's rate, or a ``sync`` over its owner's shared budget, ``rate_limited``, each as an
``error`` message (the socket stays open); sockets count towards their owner's cap (4429).
A failure of the server's own is answered
``{"type": "error", "id": null, "error": {"code": "server.error", ...}}`` and logged in one line, and
the socket stays open; the consumer leaves its group however it ends
(:class:`game.live.transport.Guarded`).
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
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation

from game.live import errors
from game.live.access import may_see
from game.live.transport import Guarded, socket_language
from game.live.hub import hub
from game.live.notify import LOBBY_LIST_GROUP, lobby_group, user_group
from game.live.ratelimit import CappedSocket, TokenBucket, shared_limits, taken
from game.models import Lobby

from .lobbies import lobby_state
from .my_games import awaiting_count

CLOSE_FORBIDDEN, CLOSE_NOT_FOUND = 4403, 4404


@database_sync_to_async
def _state(lobby_id: int, user, session) -> tuple[int | None, dict | None]:
    """``(close code or None, lobby state)``: 4404 for no such lobby, 4403 when it is private and
    this user and session may not see it."""
    lobby = Lobby.objects.filter(pk=lobby_id).first()
    if lobby is None:
        return CLOSE_NOT_FOUND, None
    if not may_see(lobby, user, session):
        return CLOSE_FORBIDDEN, None
    return None, lobby_state(lobby)


class _LimitedJson(Guarded, CappedSocket, AsyncJsonWebsocketConsumer):
    """Reads JSON messages within the limits of the live sockets (an ``error`` over a limit); what
    it cannot read or does not know it ignores, instead of failing, which would close the socket;
    survives its own failures (:class:`Guarded`). Group messages come through the hub: no
    channel-layer channel per socket (``get_channel_layer`` gives None for an alias not
    configured)."""

    channel_layer_alias = "none: the hub delivers"

    async def connect(self) -> None:
        if not await self.take_slot():
            return
        self.lang = socket_language(self.scope)
        self.bucket = TokenBucket(settings.LIVE_RATE, settings.LIVE_BURST)
        self.requests, _ = shared_limits(self.scope)
        await self.opened()

    async def opened(self) -> None:
        await self.accept()

    async def send_error(self, code: str, **params) -> None:
        with translation.override(self.lang):
            err = errors.translate(code, **params)
        await self.send_json({"type": "error", "id": None, "error": err})

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if not self.bucket.take():  # binary frames count too
            await self.send_error("rate_limited")
            return
        if text_data is None:
            return
        if len(text_data) > settings.LIVE_MAX_MESSAGE:
            await self.send_error("message.too_large")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: deeply nested arrays/objects
            return
        if isinstance(content, dict) and isinstance(content.get("type"), str):
            await self.handle(content["type"])

    async def handle(self, kind: str) -> None:
        """A readable message of type ``kind`` (default: ignored)."""


class LobbyConsumer(_LimitedJson):
    async def opened(self) -> None:
        self.lobby_id = int(self.scope["url_route"]["kwargs"]["lobby_id"])
        refused, state = await _state(self.lobby_id, self.scope.get("user"), self.scope.get("session"))
        if refused is not None:
            await self.refuse(refused)
            return
        self.group = lobby_group(self.lobby_id)
        await hub().join(self.group, self)
        await self.accept()
        await self.send_json({"type": "lobby", "lobby": state})

    async def release(self) -> None:
        if hasattr(self, "group"):
            await hub().leave(self.group, self)

    async def handle(self, kind: str) -> None:
        if kind != "sync":
            return
        if await taken(self.requests):
            await self.push()
        else:
            await self.send_error("rate_limited")

    async def lobby_changed(self, event) -> None:
        await self.push()

    async def hub_resync(self, event) -> None:
        await self.push()

    async def push(self) -> None:
        """The lobby's current state, or a 4403 close when this visitor may no longer see it;
        nothing while the database cannot be reached (the socket stays open; the next change,
        ``sync`` or reconnect sends it)."""
        try:
            refused, state = await _state(self.lobby_id, self.scope.get("user"), self.scope.get("session"))
        except (OperationalError, InterfaceError):
            return
        if refused == CLOSE_FORBIDDEN:
            await self.close(code=refused)
        elif state is not None:
            await self.send_json({"type": "lobby", "lobby": state})


class LobbyListConsumer(_LimitedJson):
    async def opened(self) -> None:
        await hub().join(LOBBY_LIST_GROUP, self)
        self.joined = True
        user = self.scope.get("user")
        self.user_group = user_group(user.pk) if user is not None and user.is_authenticated else None
        if self.user_group:
            await hub().join(self.user_group, self)
        await self.accept()
        if self.user_group:
            await self.push_my_games()

    async def release(self) -> None:
        if getattr(self, "joined", False):
            await hub().leave(LOBBY_LIST_GROUP, self)
        if getattr(self, "user_group", None):
            await hub().leave(self.user_group, self)

    async def lobbies_changed(self, event) -> None:
        await self.send_json({"type": "lobbies.changed"})

    async def hub_resync(self, event) -> None:  # changes may have been missed: the page refreshes
        await self.send_json({"type": "lobbies.changed"})

    async def handle(self, kind: str) -> None:
        if kind != "sync" or not self.user_group:
            return
        if await taken(self.requests):
            await self.push_my_games(changed=True)
        else:
            await self.send_error("rate_limited")

    async def user_games(self, event) -> None:
        """``{"type": "user.games"}``: this person's games changed (a hint; counted again here)."""
        await self.push_my_games(changed=True)

    async def user_hidden(self, event) -> None:
        """``{"type": "user.hidden"}`` on the person's group is for their game sockets' chat."""

    async def user_banned(self, event) -> None:
        """``{"type": "user.banned"}``: a moderator banned this person; the socket closes."""
        await self.close(code=4403)

    async def push_my_games(self, changed: bool = False) -> None:
        count = await database_sync_to_async(awaiting_count)(self.scope.get("user"))
        await self.send_json({"type": "my_games", "awaiting": count, "changed": changed})
