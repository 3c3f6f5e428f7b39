"""Chat blocks: a person hides another's chat lines from themselves, in every game.

:func:`hide` (by one of the author's lines the person can read) and :func:`unhide` (by the
block's id) change the person's :class:`~game.models.ChatBlock` rows; a game socket filters the
lines it sends by :func:`hidden_authors` (history and pushes alike), so a hidden player's lines
never reach that person's browser. Nobody else is told, the author least of all. After a change
the person's sockets are told (``user.hidden`` on their group, :func:`game.live.notify.user_group`)
and read their hidden set again.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from game.models import ChatBlock, ChatMessage, Game, display_name
from game.rules import IllegalAction

from . import notify
from .chat import can_read
from .seats import seat_of

#: the most players one person may hide (a bound on what every socket of theirs holds)
MAX_HIDDEN = 500


def _person(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise IllegalAction("chat.hide_login", "Log in to hide a player.")


def hidden_authors(user) -> frozenset[int]:
    """The ids of the users whose lines ``user`` hides (empty for an anonymous visitor)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    return frozenset(ChatBlock.objects.filter(user_id=user.pk).values_list("blocked_id", flat=True))


def hidden_state(user) -> tuple[frozenset[int], list[dict[str, Any]]]:
    """``(hidden_authors(user), hidden_list(user))``: what a socket keeps and what the page lists."""
    return hidden_authors(user), hidden_list(user)


def hidden_list(user) -> list[dict[str, Any]]:
    """``[{"block": id, "name": shown name}]`` of the players ``user`` hides, newest first: what
    the page lists to take a block back."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    rows = ChatBlock.objects.filter(user_id=user.pk).select_related("blocked__profile").order_by("-created_at", "-pk")
    return [{"block": b.pk, "name": display_name(b.blocked)} for b in rows[:MAX_HIDDEN]]


def hide(game_id: int, user, message: Any) -> tuple[frozenset[int], list[dict[str, Any]]]:
    """``user`` hides the author of the chat line ``message`` (its id) of ``game_id``, a line
    ``user`` can read; returns :func:`hidden_state`. Hiding someone hidden already changes
    nothing. Raises IllegalAction, writing nothing: ``chat.hide_login``, ``chat.no_line`` (no
    such line in this game that the user may read), ``chat.hide_self``, ``chat.hide_limit``."""
    _person(user)
    if type(message) is not int:
        raise IllegalAction("chat.no_line", "No such chat line.")
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    line = ChatMessage.objects.filter(pk=message, game_id=game_id).first() if game is not None else None
    if line is None or not can_read(line.channel, seat_of(game, user)):
        raise IllegalAction("chat.no_line", "No such chat line.")
    if line.author_id == user.pk:
        raise IllegalAction("chat.hide_self", "You cannot hide yourself.")
    if ChatBlock.objects.filter(user_id=user.pk).count() >= MAX_HIDDEN:
        raise IllegalAction("chat.hide_limit", "You hide too many players already.", limit=MAX_HIDDEN)
    try:
        with transaction.atomic():
            ChatBlock.objects.create(user_id=user.pk, blocked_id=line.author_id)
            notify.user_hidden_changed(user.pk)
    except IntegrityError:  # hidden already (or at the same moment from another tab)
        pass
    return hidden_state(user)


def unhide(user, block: Any) -> tuple[frozenset[int], list[dict[str, Any]]]:
    """``user`` shows the lines of the player of their block ``block`` again; returns
    :func:`hidden_state`. Raises IllegalAction ``chat.hide_login``, ``chat.not_hidden`` (no such
    block of the user's)."""
    _person(user)
    if type(block) is not int:
        raise IllegalAction("chat.not_hidden", "You do not hide that player.")
    with transaction.atomic():
        deleted, _ = ChatBlock.objects.filter(pk=block, user_id=user.pk).delete()
        if not deleted:
            raise IllegalAction("chat.not_hidden", "You do not hide that player.")
        notify.user_hidden_changed(user.pk)
    return hidden_state(user)
