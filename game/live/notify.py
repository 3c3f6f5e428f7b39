"""Tell browsers that something changed: channel-layer group messages sent after commit.

Messages are hints: they carry a version number, and each consumer finds
the payload of that version (from its process's cache, else the database) before pushing it.

A game's group is joined by one relay per process (:mod:`game.live.hub`), which hands each message
to that process's sockets. Code running in a consumer's database thread may hold its messages
(:func:`held`) so that the consumer publishes them itself through its hub: its own process's
sockets then get them without a round trip through the channel layer.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .hub import LAYER_TIMEOUT, hub

LOBBY_LIST_GROUP = "lobbies"
log = logging.getLogger(__name__)
_held = threading.local()
_TASKS: set[asyncio.Task] = set()  # publishing tasks started on an event loop, kept until done


@contextmanager
def held() -> Iterator[list[tuple[str, dict]]]:
    """Inside the block, in this thread, the group messages of committed changes are appended to
    the yielded list as ``(group, message)`` instead of being sent; the caller sends them (an
    async consumer: :meth:`game.live.hub.Hub.publish`). Blocks do not nest."""
    messages: list[tuple[str, dict]] = []
    _held.messages = messages
    try:
        yield messages
    finally:
        _held.messages = None


def lobby_group(lobby_id: int) -> str:
    """The channel-layer group of one lobby's watchers."""
    return f"lobby-{lobby_id}"


async def _bounded_send(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), LAYER_TIMEOUT)


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, or None (a worker thread, a management command)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _send(group: str, message: dict) -> None:
    """Best effort: the change is already committed, so a channel layer that is down (Redis
    unreachable, or not answering within :data:`~game.live.hub.LAYER_TIMEOUT` seconds) must not
    turn the player's request into an error. Browsers catch up when the hubs recover (they send
    every socket the current state) or when their socket reconnects, since every connect sends
    the current state. On an event loop's own thread (after an act written there,
    :mod:`game.live.loopwrite`) the message is published through that loop's hub in a task of
    its own: ``async_to_sync`` cannot run there."""
    messages = getattr(_held, "messages", None)
    if messages is not None:
        messages.append((group, message))
        return
    loop = running_loop()
    if loop is not None:
        layer = get_channel_layer()
        if layer is None:
            return
        task = loop.create_task(hub(layer).publish(group, message))  # logs what fails, raises nothing
        _TASKS.add(task)
        task.add_done_callback(_TASKS.discard)
        return
    try:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(_bounded_send)(layer, group, message)
    except Exception as exc:
        log.warning("could not notify channel-layer group %s: %r", group, exc)


def lobby_changed(lobby_id: int, version: int) -> None:
    """After the current transaction commits, notify the lobby's group and the lobby list."""

    def send() -> None:
        _send(lobby_group(lobby_id), {"type": "lobby.changed", "lobby": lobby_id, "version": version})
        _send(LOBBY_LIST_GROUP, {"type": "lobbies.changed", "lobby": lobby_id})

    transaction.on_commit(send)


def game_group(game_id: int) -> str:
    """The channel-layer group of one game's players and spectators."""
    return f"game-{game_id}"


def game_changed(game_id: int, version: int, seats: dict | None = None) -> None:
    """Tell the game's group that ``version`` exists (with ``seats``: the seat status at that
    version, :func:`game.live.seats.seat_status`). Call once the version is committed
    (:func:`game.live.apply._committed`). Touches no database connection, so it may run on an
    event loop (:mod:`game.live.loopwrite`)."""
    message = {"type": "game.changed", "version": version}
    if seats is not None:
        message["seats"] = seats
    _send(game_group(game_id), message)


def chat_posted(game_id: int, message: dict, author: int | None = None) -> None:
    """After commit, hand a stored chat line to the game's consumers (each one filters by channel,
    and by the ``author``'s id beside the line for a viewer who hides them)."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": "game.chat", "message": message, "author": author}))


def viewers_changed(game_id: int) -> None:
    """After commit, tell the game's sockets that its seats changed hands (a moderator's change in
    the admin): each checks its viewer again (``game.viewers``; see :mod:`game.live.consumer`)."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": "game.viewers"}))


def rematch_opened(game_id: int, lobby_id: int) -> None:
    """After commit, tell the game's sockets that a player opened the game's rematch, lobby
    ``lobby_id`` (:mod:`game.site.rematch`): each seated person's page offers to join it."""
    transaction.on_commit(lambda: _send(game_group(game_id), {"type": "game.rematch", "lobby": lobby_id}))


def user_group(user_id: int) -> str:
    """The channel-layer group of one person's sockets that follow their games (the lobby list
    socket, ``/ws/lobbies/``): told when the number of games awaiting them may have changed."""
    return f"user-{user_id}"


def user_hidden_changed(user_id: int) -> None:
    """After commit, tell the person's sockets that the players they hide changed
    (``{"type": "user.hidden"}``: each reads them again)."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": "user.hidden"}))


def user_banned(user_id: int) -> None:
    """After commit, tell the person's sockets that a moderator banned them
    (``{"type": "user.banned"}``: each closes with 4403)."""
    transaction.on_commit(lambda: _send(user_group(user_id), {"type": "user.banned"}))


def user_games_changed(user_ids) -> None:
    """Tell each user's group that their games changed (``{"type": "user.games"}``: a hint; the
    socket counts again from the database). Call after commit; inside a :func:`held` block the
    messages are held like the game's own (the consumer publishes them through its hub, and the
    channel layer carries them to every process). Best effort, like every hint."""
    for uid in user_ids:
        _send(user_group(uid), {"type": "user.games"})
