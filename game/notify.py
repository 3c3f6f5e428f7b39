"""Tell browsers that something changed: channel-layer group messages sent after commit.

Messages are hints (DESIGN.md principle 5): they carry a version number, and each consumer reads
the current state from the database before pushing it.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_LIST_GROUP = "lobbies"
log = logging.getLogger(__name__)


def lobby_group(lobby_id: int) -> str:
    """The channel-layer group of one lobby's watchers."""
    return f"lobby-{lobby_id}"


def _send(group: str, message: dict) -> None:
    """Best effort: the change is already committed, so a channel layer that is down (Redis
    unreachable) must not turn the player's request into an error. Browsers catch up when their
    socket reconnects, since every connect sends the current state."""
    try:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("could not notify channel-layer group %s", group)


def lobby_changed(lobby_id: int, version: int) -> None:
    """After the current transaction commits, notify the lobby's group and the lobby list."""

    def send() -> None:
        _send(lobby_group(lobby_id), {"type": "lobby.changed", "lobby": lobby_id, "version": version})
        _send(LOBBY_LIST_GROUP, {"type": "lobbies.changed", "lobby": lobby_id})

    transaction.on_commit(send)


def game_group(game_id: int) -> str:
    """The channel-layer group of one game's players and spectators."""
    return f"game-{game_id}"


def game_changed(game_id: int, version: int) -> None:
    """After the current transaction commits, tell the game's group that ``version`` exists."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": "game.changed", "version": version}))


def chat_posted(game_id: int, message: dict) -> None:
    """After commit, hand a stored chat line to the game's consumers (each one filters by channel)."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": "game.chat", "message": message}))
