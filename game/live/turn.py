"""The one door of live play for what a socket asks to change: an act (:func:`submit`), a chat line,
a hand-over of an away seat to a stand-in, a take-back, a vacation, the table's votes (a proposal,
a ballot, the end of a pause), a player hidden from one's chat or shown again.

A move goes one way: the socket (:mod:`game.live.consumer`) -> here -> the write -> its commit ->
the game's group told. Here the write's route is chosen: on PostgreSQL an act is first written
optimistically on the event loop (:mod:`game.live.loopwrite`), and whatever cannot be written so
goes under the game row's lock in a writer thread (:mod:`game.live.writers`,
:func:`game.live.apply.act`); the group messages the commit held (:func:`game.live.notify.held`)
are then published through this process's hub, which hands them to its own sockets at once.
What follows a commit (bots, badges, mails) hangs off :data:`game.live.signals.game_committed`;
nothing here or below calls back up.

A database out of reach is :class:`Unavailable` (``server.unavailable``; the client may send the
message again); an owner over their shared budget is :class:`~game.live.ratelimit.RateLimited`;
every refusal of the rules is the :class:`~game.rules.IllegalAction` the write raised. Whatever
raises, nothing was committed or published.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.db import InterfaceError, OperationalError

from game.models import Game
from game.rules import IllegalAction

from . import apply, bots, chat, chat_blocks, loopwrite, notify, rows, stand_ins, votes, writers
from .hub import hub
from .ratelimit import RateLimited, SharedLimit

log = logging.getLogger(__name__)

#: the database errors that mean "cannot reach the database now" (a lost or refused connection)
DB_DOWN = (OperationalError, InterfaceError)


class Unavailable(IllegalAction):
    """The database could not be reached: the message was not carried out (``server.unavailable``;
    the client may send it again)."""

    def __init__(self) -> None:
        super().__init__("server.unavailable", "The server cannot reach its database right now.")


async def published(fn, *args):
    """``fn(*args)`` (a write of the locked path, chat or stand-ins) in a writer thread, with the
    group messages of what it committed held, then published through this process's hub. Returns
    what ``fn`` returns; what it raises propagates, and then nothing was committed or published.
    A database that cannot be reached raises :class:`Unavailable` (whose transaction was rolled
    back by PostgreSQL, except when the connection broke during the ``COMMIT`` itself: the next
    ``state`` shows which)."""

    def run():
        with notify.held() as messages:
            return fn(*args), messages

    try:
        result, messages = await writers.in_writer(run)()
    except DB_DOWN as exc:
        log.warning("live: database unavailable for %s: %r", getattr(fn, "__name__", fn), exc)
        raise Unavailable() from exc
    await _publish(messages)
    return result


async def _publish(messages: list[tuple[str, dict]]) -> None:
    h = hub()
    for group, message in messages:
        await h.publish(group, message)


async def submit(limit: SharedLimit, game_id: int, user, action: Any, version: int | None) -> int:
    """``user`` takes ``action`` (its JSON value, as the client sent it) in their seat of
    ``game_id``, answering the game at ``version`` (None: no check); counted against ``limit``,
    the owner's shared budget. Returns the new version.

    On PostgreSQL the budget and the optimistic write are awaited on the event loop, and an act
    that cannot be written so goes under the lock in a writer thread without counting again;
    elsewhere all of it runs in the act's one thread call. A written act is told to the game's
    sockets even if the asking socket goes away meanwhile. Raises IllegalAction:
    ``rate_limited``, ``server.unavailable``, ``version.stale`` and every refusal of
    :func:`game.live.apply.act`."""
    if not loopwrite.enabled():
        return await published(limit.guard, apply.act, game_id, user, action, version)

    async def write() -> tuple[bool, int | None]:
        counted, v, messages = await loopwrite.act(limit, game_id, user, action, version)
        await _publish(messages)
        return counted, v

    try:
        counted, v = await asyncio.shield(write())
    except DB_DOWN as exc:
        log.warning("live: database unavailable for an act: %r", exc)
        raise Unavailable() from exc
    if not counted:
        raise RateLimited()
    if v is None:  # tried optimistically on the loop: under the lock at once
        return await published(_act_locked, game_id, user, action, version)
    return v


def _act_locked(game_id: int, user, action: Any, version: int | None) -> int:
    return apply.act(game_id, user, action, version, optimistic_first=False)


async def post_chat(limit: SharedLimit, game_id: int, user, channel: Any, text: Any, to: Any) -> dict:
    """A chat line of ``user`` in ``game_id`` (:func:`game.live.chat.post_chat`), within ``limit``;
    returns the stored line. Raises IllegalAction as that does, ``rate_limited`` and
    ``server.unavailable``."""
    return await published(limit.guard, chat.post_chat, game_id, user, channel, text, to)


async def hand_to_bot(limit: SharedLimit, game_id: int, user, seat: Any) -> dict:
    """:func:`game.live.stand_ins.hand_to_bot` within ``limit``, its note pushed to the game."""
    return await published(limit.guard, stand_ins.hand_to_bot, game_id, user, seat)


async def take_back(limit: SharedLimit, game_id: int, user) -> dict:
    """:func:`game.live.stand_ins.take_back` within ``limit``, its note pushed to the game."""
    return await published(limit.guard, stand_ins.take_back, game_id, user)


async def set_vacation(limit: SharedLimit, game_id: int, user, on: Any) -> dict:
    """:func:`game.live.stand_ins.set_vacation` within ``limit``, its note pushed to the game."""
    return await published(limit.guard, stand_ins.set_vacation, game_id, user, on)


async def propose(limit: SharedLimit, game_id: int, user, kind: Any, seat: Any, minutes: Any) -> dict:
    """:func:`game.live.votes.propose` within ``limit``, its notes pushed to the game."""
    return await published(limit.guard, votes.propose, game_id, user, kind, seat, minutes)


async def ballot(limit: SharedLimit, game_id: int, user, vote: Any, yes: Any) -> dict:
    """:func:`game.live.votes.ballot` within ``limit``, its notes pushed to the game."""
    return await published(limit.guard, votes.ballot, game_id, user, vote, yes)


async def resume(limit: SharedLimit, game_id: int, user) -> dict:
    """:func:`game.live.votes.resume` within ``limit``, its note pushed to the game."""
    return await published(limit.guard, votes.resume, game_id, user)


async def hide(limit: SharedLimit, game_id: int, user, message: Any) -> tuple:
    """:func:`game.live.chat_blocks.hide` within ``limit``."""
    return await published(limit.guard, chat_blocks.hide, game_id, user, message)


async def unhide(limit: SharedLimit, user, block: Any) -> tuple:
    """:func:`game.live.chat_blocks.unhide` within ``limit``."""
    return await published(limit.guard, chat_blocks.unhide, user, block)


def joined(game: Game, user_id: int | None, seat: str | None) -> None:
    """A socket of ``user_id`` (playing ``seat``, or None) was admitted to ``game`` (its row just
    read): the row and seat are remembered for the player's first optimistic act here, and the
    game's bots are woken (after a restart no commit may come to schedule them)."""
    rows.learn(game, user_id, seat)
    bots.schedule_bots(game.pk)
