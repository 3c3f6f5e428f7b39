"""``/ws/game/<id>/``: the live game's websocket, a thin transport (protocol: ``docs/protocol.md``).

On connect it finds the viewer (the user's seat, or None for a spectator), joins the game's
group through this process's hub (:mod:`game.live.hub`: one relay per process and game) and sends that
viewer's full ``state``, its ``chat`` history and the ``seats`` status
(stand-in bots, how long awaited seats have waited). It hands ``act``, ``chat``, ``stand_in``,
``take_back``, ``vacation``, the table's ``propose``, ``vote`` and ``resume``, and the chat's
``hide`` and ``unhide`` to live play's one door for changes (:mod:`game.live.turn`) and
answers each with a ``result`` (``my_games`` makes it follow the person's count of awaiting games
for the header's badge, :meth:`GameConsumer.my_games`); after every change (a ``game.changed`` group
message carrying the version) it sends the viewer's new ``state``,
computed for that viewer by :func:`game.live.payloads.payload_text`, never the raw state.
Bad input (too large, not JSON, unknown type, flooding) gets an ``error`` and the connection stays
open. So does a failure of the server's own (:class:`~game.live.transport.Guarded`): an unexpected exception in a
handler is answered ``server.error``, logged in one line, and the socket stays open; the hub lets
go of the consumer however it ends. So does a fault of the services behind it: a database that
cannot be reached refuses the message with ``server.unavailable``
(:class:`game.live.turn.Unavailable`) and a
push it could not read is retried until it can (:meth:`GameConsumer.catch_up`); a channel layer
(Redis) that fails is the hub's to recover from, and a socket has no channel-layer channel of its
own that could fail it.

Who may connect: anyone to a public game, only those who may see its lobby to a private one
(:func:`game.live.access.may_see`; others are closed with 4403), and no more sockets per user or
IP than the cap (4429, :class:`game.live.ratelimit.CappedSocket`). After a moderator gives a seat
to someone else (a ``game.viewers`` group message) each socket checks its viewer again and is
closed (4403, or 4409 when it may reconnect as its new viewer). Limits: ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from game.models import Game
from game.rules import IllegalAction

from . import chat, chat_blocks, errors, jsontext, memory, patches, payloads, turn
from .access import may_see
from .hub import hub
from .notify import game_group, user_group
from .ratelimit import CappedSocket, TokenBucket, shared_limits, taken
from .seats import awaiting_count, game_seat_status, seat_of
from .transport import Guarded, NoIdleDbHop, nested_deeper, query_flag, socket_language, valid_unicode

log = logging.getLogger(__name__)

#: close codes (docs/protocol.md): not allowed to see this game; no such game; the viewer changed
#: (a seat given to someone else: reconnect); 4429, too many sockets, is ratelimit.CLOSE_TOO_MANY
CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_VIEWER_CHANGED = 4403, 4404, 4409

#: seconds between a socket's attempts to read a state it could not read (the last one repeats),
#: and how long it keeps trying
CATCH_UP_DELAYS, CATCH_UP_FOR = (0.5, 1.0, 2.0, 4.0), 600.0


@database_sync_to_async
def _admission(game_id: int, user, session) -> tuple[int | None, str | None, Game | None]:
    """``(close code or None, viewer, the game's row)`` of a socket of ``user`` with ``session``
    on the game: 4404 for no such game (row None), 4403 when the user may not see it (a private
    game's stranger)."""
    game = Game.objects.defer("snapshot").select_related("lobby").filter(pk=game_id).first()
    if game is None:
        return CLOSE_NOT_FOUND, None, None
    if not may_see(game.lobby, user, session):
        return CLOSE_FORBIDDEN, None, game
    return None, seat_of(game, user), game


def _still_active(user) -> bool:
    """Whether the socket's user may still log in (an anonymous visitor may): a moderator may
    have banned them since the socket opened, and the scope's user object is the one read then."""
    if user is None or not getattr(user, "is_authenticated", False):
        return True
    return get_user_model().objects.filter(pk=user.pk, is_active=True).exists()


def _chat_start(game_id: int, viewer: str | None, user) -> tuple[frozenset[int], list[dict]]:
    """``(the authors the person hides, the chat history without their lines)`` on connect."""
    hidden = chat_blocks.hidden_authors(user)
    return hidden, chat.chat_history(game_id, viewer, hidden)


_last_seats: tuple[dict, str] | None = None


def _seats_json(seats: dict) -> str:
    """``seats`` as compact JSON, made once for the many sockets a group message reaches (they
    all get the same object, one after another)."""
    global _last_seats
    last = _last_seats
    if last is not None and last[0] is seats:
        return last[1]
    text = jsontext.dumps(seats)
    _last_seats = (seats, text)
    return text


class GameConsumer(Guarded, CappedSocket, NoIdleDbHop, AsyncWebsocketConsumer):
    #: no channel-layer channel per socket: group messages come through the hub. (A channel of its
    #: own would cost a Redis reader per socket and, when Redis fails, fail the socket's receive
    #: loop and so close it.) ``get_channel_layer`` gives None for an alias not configured.
    channel_layer_alias = "none: the hub delivers"
    catch_up_task: asyncio.Task | None = None
    #: the ids of the authors whose chat lines this socket's person hides (game.live.chat_blocks)
    hidden: frozenset[int] = frozenset()

    async def connect(self) -> None:
        if not await self.take_slot():
            return
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        refused, viewer, game = await _admission(self.game_id, self.user, self.scope.get("session"))
        if refused is not None:
            await self.refuse(refused)
            return
        self.viewer, self.ruleset = viewer, game.ruleset
        self.lang = socket_language(self.scope)
        self.patches = query_flag(self.scope, "patch")  # this client applies ``patch`` messages
        self.sent_version = -1
        self.bucket = TokenBucket(settings.LIVE_RATE, settings.LIVE_BURST)
        self.chat_bucket = TokenBucket(settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST)
        # the same budgets per user (per IP for anonymous visitors), over all their sockets
        self.requests, self.chat_limit = shared_limits(self.scope)
        self.group = game_group(self.game_id)
        await hub().join(self.group, self)
        memory.hold(self.game_id)  # the game's states stay in this process while a socket watches
        self.holding = True
        turn.joined(game, getattr(self.user, "pk", None), viewer)
        await self.accept()
        self.seats_version = -1
        await self.push_state()
        self.hidden, history = await database_sync_to_async(_chat_start)(self.game_id, self.viewer, self.user)
        await self.send_json({"type": "chat", "messages": history, "history": True})
        await self.push_seats()

    async def release(self) -> None:
        """Stop catching up, leave the hub and let go of the game (:mod:`game.live.memory`):
        once the consumer has ended, however it ended (:class:`Guarded`)."""
        if self.catch_up_task is not None:
            self.catch_up_task.cancel()
        try:
            if hasattr(self, "group"):
                await hub().leave(self.group, self)
            if getattr(self, "badge_group", None):
                await hub().leave(self.badge_group, self)
        finally:  # even when leaving the hub failed
            if getattr(self, "holding", False):
                self.holding = False
                memory.let_go(self.game_id)  # the last socket here: the process forgets the game

    # --- sending ----------------------------------------------------------------------------------
    async def send_json(self, data) -> None:
        await self.send(text_data=jsontext.dumps(data))

    async def send_error(self, code: str, request_id=None, **params) -> None:
        with translation.override(self.lang):
            err = errors.translate(code, **params)
        await self.send_json({"type": "error", "id": request_id, "error": err})

    async def push_state(self, version: int | None = None, seats: dict | None = None) -> bool:
        """Send the viewer's ``state`` at ``version`` (None: the latest, read in a worker thread),
        with ``seats`` (the seat status at that version) as its ``seats`` key when given; to a
        socket that asked for patches, a pushed version goes as a ``patch`` from the version it
        holds (:mod:`game.live.patches`) when that is shorter. Returns whether it was sent (not
        when the socket already holds a newer version)."""
        if version is not None and version <= self.sent_version:
            return False
        # a pushed version this process committed (or already rendered) needs no database: no
        # thread hop; otherwise the payload is read in a worker thread
        text = None if version is None else self._cached_push(version)
        if text is None and version is not None and await payloads.load_version(self.game_id, self.ruleset, version):
            # another process's version: read once for all of this process's sockets of the game
            text = self._cached_push(version)
        if text is not None:
            v = version
        else:
            got = await database_sync_to_async(payloads.payload_text)(self.game_id, self.viewer, self.lang, version)
            if got is None:
                return False
            v, text = got
            if version is not None and v <= self.sent_version:
                return False
            if self.patches and version is not None and self.sent_version >= 0:
                # the difference from what this socket holds, when this process still has that text
                before = payloads.PAYLOADS.get((self.game_id, self.sent_version, self.viewer, self.lang))
                if before is not None:
                    text = patches.patch_text(self.game_id, self.viewer, self.lang, self.sent_version, v, before, text) or text
        self.sent_version = max(self.sent_version, v)
        if seats is not None:  # spliced into the shared text: one message per socket, not two
            text = text[:-1] + ',"seats":' + _seats_json(seats) + "}"
        await self.send(text_data=text)
        return True

    def _cached_push(self, version: int) -> str | None:
        """What to send for ``version`` without the database: to a socket that asked for patches
        and holds a version, the patch from it when this process has both versions (and the
        patch is shorter); else the whole state when this process has it; else None."""
        if self.patches and self.sent_version >= 0:
            text = patches.cached_patch_text(self.game_id, self.ruleset, self.viewer, self.lang, self.sent_version, version)
            if text is not None:
                return text
        return payloads.cached_payload_text(self.game_id, self.ruleset, self.viewer, self.lang, version)

    async def push_seats(self, seats: dict | None = None) -> None:
        """A ``seats`` message: stand-in bots, how long each awaited seat has waited, the clocks.
        (A hand-over, a take-back or a time-out is a note of the game's log: its new version's
        ``state`` carries the seat status and tells it in the log.)"""
        if seats is None:
            seats = await database_sync_to_async(game_seat_status)(self.game_id)
            if seats is None:
                return
        await self.send_json({"type": "seats", **seats})

    # --- receiving --------------------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is None:
            await self.send_error("message.malformed")
            return
        if len(text_data) > settings.LIVE_MAX_MESSAGE:
            await self.send_error("message.too_large")
            return
        if not self.bucket.take():
            await self.send_error("rate_limited")
            return
        try:
            msg = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: deeply nested arrays/objects
            await self.send_error("message.malformed")
            return
        if (
            not isinstance(msg, dict)
            or not isinstance(msg.get("type"), str)
            or nested_deeper(text_data, msg, settings.LIVE_MAX_DEPTH)
            or not valid_unicode(text_data, msg)
        ):
            await self.send_error("message.malformed")
            return
        rid = msg.get("id")
        if not (rid is None or isinstance(rid, (int, str))) or isinstance(rid, bool):
            rid = None
        await self.guarded(msg["type"], rid, self.handle, msg["type"], rid, msg)

    async def handle(self, kind: str, rid, msg: dict) -> None:
        """Answer the message ``msg`` (a JSON object of type ``kind``, request id ``rid``)."""
        if kind == "sync":
            await self.sync(rid)
        elif kind == "act":
            await self.act(rid, msg)
        elif kind == "chat":
            await self.chat(rid, msg)
        elif kind in ("stand_in", "take_back", "vacation"):
            await self.stand_in(rid, kind, msg)
        elif kind in ("propose", "vote", "resume"):
            await self.table(rid, kind, msg)
        elif kind in ("hide", "unhide"):
            await self.hide(rid, kind, msg)
        elif kind == "my_games":
            await self.my_games(rid)
        elif kind == "ping":
            await self.send_json({"type": "pong", "id": rid})
        else:
            await self.send_error("message.unknown_type", rid, type=kind[:40])

    async def sync(self, rid=None) -> None:
        """A ``sync``: the current state again, within the owner's shared budget; a database out
        of reach is answered ``server.unavailable`` (echoing the message's ``rid``)."""
        if not await taken(self.requests):
            await self.send_error("rate_limited")
            return
        try:
            await self.push_state()
        except turn.DB_DOWN:
            await self.send_error("server.unavailable", rid)

    async def answer_failure(self, kind: str | None, request_id) -> None:
        """A request (``act``, ``chat``, ``stand_in``, ``take_back``) is answered by a ``result``
        as its refusals are; any other message by an ``error``."""
        if kind in ("act", "chat", "stand_in", "take_back", "propose", "vote", "resume", "hide", "unhide"):
            with translation.override(self.failure_language()):
                await self.reply(request_id, errors.translate("server.error"))
        else:
            await super().answer_failure(kind, request_id)

    async def reply(self, rid, error: dict | None = None, **extra) -> None:
        if error is None:
            await self.send_json({"type": "result", "id": rid, "ok": True, **extra})
        else:
            await self.send_json({"type": "result", "id": rid, "ok": False, "error": error})

    def translated(self, exc: IllegalAction) -> dict:
        with translation.override(self.lang):
            return errors.from_illegal(exc)

    async def act(self, rid, msg) -> None:
        if self.viewer is None:
            with translation.override(self.lang):
                await self.reply(rid, errors.translate("act.spectator"))
            return
        version = msg.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            with translation.override(self.lang):
                await self.reply(rid, errors.translate("message.malformed"))
            return
        try:
            v = await turn.submit(self.requests, self.game_id, self.user, msg.get("action"), version)
        except IllegalAction as exc:
            await self.reply(rid, self.translated(exc))
            if exc.code == "version.stale":
                await self.push_state()  # resync
        else:
            await self.reply(rid, version=v)

    async def chat(self, rid, msg) -> None:
        if not self.chat_bucket.take():
            with translation.override(self.lang):
                await self.reply(rid, errors.translate("rate_limited"))
            return
        try:
            line = await turn.post_chat(self.chat_limit, self.game_id, self.user, msg.get("channel"), msg.get("text"), msg.get("to"))
        except IllegalAction as exc:
            await self.reply(rid, self.translated(exc))
        else:
            await self.reply(rid, message=line["id"])

    async def stand_in(self, rid, kind: str, msg) -> None:
        try:
            if kind == "stand_in":
                await turn.hand_to_bot(self.requests, self.game_id, self.user, msg.get("seat"))
            elif kind == "vacation":
                await turn.set_vacation(self.requests, self.game_id, self.user, msg.get("on"))
            else:
                await turn.take_back(self.requests, self.game_id, self.user)
        except IllegalAction as exc:
            await self.reply(rid, self.translated(exc))
        else:
            await self.reply(rid)  # the new version (a note in the log, the seat status) arrives through the push

    async def table(self, rid, kind: str, msg) -> None:
        """The table's votes (``propose``, ``vote``, ``resume``): players only; each answered by a
        ``result``, the vote itself pushed to everyone as notes of the log and the seat status."""
        if self.viewer is None:
            with translation.override(self.lang):
                await self.reply(rid, errors.translate("vote.not_a_player"))
            return
        try:
            if kind == "propose":
                await turn.propose(self.requests, self.game_id, self.user, msg.get("kind"), msg.get("seat"), msg.get("minutes"))
            elif kind == "vote":
                await turn.ballot(self.requests, self.game_id, self.user, msg.get("vote"), msg.get("yes"))
            else:
                await turn.resume(self.requests, self.game_id, self.user)
        except IllegalAction as exc:
            await self.reply(rid, self.translated(exc))
        else:
            await self.reply(rid)

    async def hide(self, rid, kind: str, msg) -> None:
        """``hide`` (the author of the chat line ``message``) or ``unhide`` (the block ``block``):
        answered by a ``result`` with the person's ``hidden`` players; from then on this socket
        sends none of a hidden player's lines."""
        try:
            if kind == "hide":
                self.hidden, players = await turn.hide(self.requests, self.game_id, self.user, msg.get("message"))
            else:
                self.hidden, players = await turn.unhide(self.requests, self.user, msg.get("block"))
        except IllegalAction as exc:
            await self.reply(rid, self.translated(exc))
        else:
            await self.reply(rid, hidden=players)

    async def my_games(self, rid=None) -> None:
        """``my_games``: the header badge's count now (``{"type": "my_games", "id", "awaiting",
        "changed": false}``), and from then on again whenever it may have changed (this socket
        joins the person's group, :func:`game.live.notify.user_group`, once), so the game page
        needs no second socket. Within the owner's shared budget like ``sync``; an anonymous
        visitor is told 0 and follows nothing."""
        if not await taken(self.requests):
            await self.send_error("rate_limited")
            return
        user = self.user
        if user is not None and getattr(user, "is_authenticated", False) and not getattr(self, "badge_group", None):
            self.badge_group = user_group(user.pk)
            await hub().join(self.badge_group, self)
        await self.push_my_games(rid=rid)

    async def push_my_games(self, changed: bool = False, rid=None) -> None:
        count = await database_sync_to_async(awaiting_count)(self.user)
        await self.send_json({"type": "my_games", "id": rid, "awaiting": count, "changed": changed})

    # --- group messages ---------------------------------------------------------------------------
    async def game_changed(self, event) -> None:
        version = event.get("version", 0)
        seats = event.get("seats") if version > self.seats_version else None
        if seats is not None:
            self.seats_version = version
        try:
            sent = version > self.sent_version and await self.push_state(version, seats)
        except turn.DB_DOWN:  # this version was not read: the socket catches up when it can be
            self.catch_up()
            return
        if seats is not None and not sent:
            await self.push_seats(seats)

    async def hub_resync(self, event) -> None:
        """The hub recovered from a channel-layer failure: pushes may have been lost meanwhile."""
        self.catch_up()
        if getattr(self, "badge_group", None):
            await self.user_games(event)

    def catch_up(self) -> None:
        """Send the latest state (when newer than the socket's) and the seat status, in a task
        that tries again after each of :data:`CATCH_UP_DELAYS` while the database is away, for
        at most :data:`CATCH_UP_FOR` seconds. One such task per socket at a time."""
        if self.catch_up_task is None or self.catch_up_task.done():
            self.catch_up_task = asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        loop = asyncio.get_running_loop()
        end, attempt = loop.time() + CATCH_UP_FOR, 0
        while True:
            try:
                got = await database_sync_to_async(payloads.payload_text)(self.game_id, self.viewer, self.lang, None)
                if got is not None and got[0] > self.sent_version:
                    await self.push_state(got[0])
                await self.push_seats()
                return
            except turn.DB_DOWN as exc:
                if loop.time() >= end:
                    log.warning("live: game %s socket gave up catching up: %r", self.game_id, exc)
                    return
            except Exception:  # anything else is a bug: logged, and the socket stays as it is
                log.exception("live: game %s socket could not catch up", self.game_id)
                return
            await asyncio.sleep(CATCH_UP_DELAYS[min(attempt, len(CATCH_UP_DELAYS) - 1)])
            attempt += 1

    async def user_games(self, event) -> None:
        """``{"type": "user.games"}`` on the person's group: their count of awaiting games may have
        changed (a hint; counted again here)."""
        try:
            await self.push_my_games(changed=True)
        except turn.DB_DOWN:  # the next hint, or the page's next my_games, tells it
            pass

    async def game_viewers(self, event) -> None:
        """A moderator changed the game's seats: a socket that may no longer see the game is closed
        with 4403, one whose viewer changed with 4409 (its client reconnects as the new viewer)."""
        refused, viewer, _ = await _admission(self.game_id, self.user, self.scope.get("session"))
        if refused is None and not await database_sync_to_async(_still_active)(self.user):
            refused, self.viewer = CLOSE_FORBIDDEN, None  # banned since the socket opened
        if refused is not None:
            await self.close(code=refused)
        elif viewer != self.viewer:
            self.viewer = None  # nothing more of the old seat's, even before the close is through
            await self.close(code=CLOSE_VIEWER_CHANGED)

    async def game_rematch(self, event) -> None:
        """``{"type": "game.rematch", "lobby": id}``: a player opened the finished game's rematch
        (:mod:`game.site.rematch`); a seated person's page is told (``{"type": "rematch",
        "lobby": id}``) and offers to join it. A spectator's is not: the rematch is for the table."""
        if self.viewer is not None and isinstance(event.get("lobby"), int):
            await self.send_json({"type": "rematch", "lobby": event["lobby"]})

    async def game_chat(self, event) -> None:
        line = event["message"]
        if chat.can_read(line["channel"], self.viewer) and event.get("author") not in self.hidden:
            await self.send_json({"type": "chat", "messages": [line], "history": False})

    async def user_banned(self, event) -> None:
        """``{"type": "user.banned"}`` on the person's group: a moderator banned them; the socket
        closes (4403) and, their session no longer logged in, a new one is a spectator's."""
        self.viewer = None
        await self.close(code=CLOSE_FORBIDDEN)

    async def user_hidden(self, event) -> None:
        """``{"type": "user.hidden"}`` on the person's group: the players they hide changed (in
        another tab): read again, and the page told (``{"type": "hidden", "players"}``)."""
        try:
            self.hidden, players = await database_sync_to_async(chat_blocks.hidden_state)(self.user)
        except turn.DB_DOWN:  # the next change, or a reconnect, reads it again
            return
        await self.send_json({"type": "hidden", "players": players})
