"""Chat in a live game: public (players), spectators', and private between two seats; who may
read which channel, posting a line (refused to a muted player) and the history sent on connect
(without the lines of the players the viewer hides, :mod:`game.live.chat_blocks`)."""

from __future__ import annotations

import math
import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game.models import ChatMessage, Game, display_name, is_guest
from game.rules import IllegalAction

from . import notify
from .seats import seat_of

CHAT_LIMIT = 500  #: characters per chat line
CHAT_HISTORY = 100  #: lines of history sent on connect


def private_channel(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"private:{x}:{y}"


def readable_channels(viewer: str | None) -> tuple[str, ...] | None:
    """Channels a viewer reads, besides private ones with its seat: players read ``public``;
    spectators read ``public`` and ``spectators``."""
    return ("public",) if viewer is not None else ("public", "spectators")


def can_read(channel: str, viewer: str | None) -> bool:
    if channel.startswith("private:"):
        return viewer is not None and viewer in channel.split(":")[1:]
    return channel in readable_channels(viewer)


def chat_dict(m: ChatMessage) -> dict[str, Any]:
    """A chat line as sent (``docs/protocol.md``, ``chat``); ``guest`` marks an author without an
    account, so a guest cannot pass for a registered player."""
    return {
        "id": m.pk,
        "channel": m.channel,
        "seat": m.seat or None,
        "author": display_name(m.author),
        "guest": is_guest(m.author),
        "text": m.text,
        "time": m.created_at.isoformat(),
    }


def post_chat(game_id: int, user, channel: str, text: Any, to: str | None = None) -> dict[str, Any]:
    """Store a chat line and hand it to the game's consumers; returns it as sent.

    ``channel``: ``"public"`` (players), ``"spectators"`` (spectators), ``"private"`` with ``to``
    (another seat; players only). Raises IllegalAction ``chat.empty``, ``chat.too_long``,
    ``chat.bad_channel``, ``chat.muted`` (:func:`refuse_muted`: a muted player still plays),
    ``game.not_found``.
    """
    if isinstance(text, str):  # control characters removed first: a line of only those is empty
        text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc").strip()
    if not isinstance(text, str) or not text:
        raise IllegalAction("chat.empty", "Empty chat message.")
    if len(text) > CHAT_LIMIT:
        raise IllegalAction("chat.too_long", "Chat message too long.", limit=CHAT_LIMIT)
    if user is None or not getattr(user, "is_authenticated", False):
        raise IllegalAction("chat.bad_channel", "Log in to chat.")
    refuse_muted(user)
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise IllegalAction("game.not_found", "This game does not exist.")
    seat = seat_of(game, user)
    if channel == "public" and seat is not None:
        name = "public"
    elif channel == "spectators" and seat is None:
        name = "spectators"
    elif channel == "private" and seat is not None and isinstance(to, str) and to != seat and to in game.rules.seats(
        game.players, game.options
    ):
        name = private_channel(seat, to)
    else:
        raise IllegalAction("chat.bad_channel", "You cannot write to that chat.")
    with transaction.atomic():
        m = ChatMessage.objects.create(game=game, channel=name, author=user, seat=seat or "", text=text)
        data = chat_dict(m)
        notify.chat_posted(game.pk, data, user.pk)
    return data


def refuse_muted(user) -> None:
    """Refuse a chat line of a user a moderator muted (``chat.muted``; ``params.until``: when
    the mute ends, ISO 8601; ``params.minutes``: how long until then, rounded up) or banned since
    their socket opened (``chat.bad_channel``). One query: the account's state now, not the one
    the socket read when it connected."""
    row = get_user_model().objects.filter(pk=user.pk).values_list("is_active", "mute__until").first()
    if row is None or not row[0]:
        raise IllegalAction("chat.bad_channel", "You cannot write to that chat.")
    until = row[1]
    if until is not None and until > timezone.now():
        left = math.ceil((until - timezone.now()).total_seconds() / 60)
        raise IllegalAction("chat.muted", "A moderator muted you.", until=until.isoformat(), minutes=left)


def chat_history(game_id: int, viewer: str | None, hidden: frozenset[int] | set[int] = frozenset()) -> list[dict[str, Any]]:
    """The latest :data:`CHAT_HISTORY` lines ``viewer`` may read, oldest first, but those of the
    ``hidden`` authors (their user ids: the players the viewer's person hides)."""
    q = Q(channel__in=readable_channels(viewer))
    if viewer is not None:
        q |= Q(channel__startswith="private:", channel__contains=f":{viewer}")
    rows = ChatMessage.objects.filter(q, game_id=game_id).exclude(author_id__in=hidden).select_related("author__profile").order_by("-created_at", "-pk")
    out = [chat_dict(m) for m in rows[: CHAT_HISTORY * 2] if can_read(m.channel, viewer)][:CHAT_HISTORY]
    return out[::-1]
