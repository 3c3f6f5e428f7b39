"""The receivers of the notifications, connected in :meth:`game.apps.GameConfig.ready`: a
committed game (badge hints and mails), a game this process forgot, a seat that changed hands;
and the rematch of a finished game opened (called by :mod:`game.site.rematch`).
"""

from __future__ import annotations

import logging

from django.conf import settings

from game.models import Game, Seat

from . import hints
from .due import after_commit
from .worker import WORKER

log = logging.getLogger(__name__)


def on_game_committed(sender, game: Game, **kwargs) -> None:
    """Receiver of :data:`game.live.signals.game_committed`: the badge hints at once
    (:func:`.hints.tell_players`), the mails in the worker thread (``NOTIFY_IN_THREAD``, default)
    or here after the commit. Never raises."""
    try:
        hints.tell_players(game)
    except Exception:
        log.exception("badge hints failed for game %s", game.pk)
    _check(game)


def on_rematch_opened(game: Game) -> None:
    """After the commit that opened finished ``game``'s rematch (:func:`game.site.rematch.play_again`):
    its other players are told, by mail and Web Push, when they have no page of the site open
    (:func:`.due.check_game`, in the worker thread as after a game's commit). Never raises."""
    _check(game)


def _check(game: Game) -> None:
    """:func:`.due.check_game` of ``game`` (a copy of the committed row) in the mail worker
    (``NOTIFY_IN_THREAD``, default) or here. Never raises."""
    if not settings.NOTIFY_MAILS:
        return
    copy = Game(
        pk=game.pk, lobby_id=game.lobby_id, version=game.version, status=game.status,
        awaited_since=game.awaited_since, stand_ins=game.stand_ins, time_control=game.time_control,
    )
    if settings.NOTIFY_IN_THREAD:
        WORKER.submit(copy)
    else:
        try:
            after_commit(copy)
        except Exception:
            log.exception("notifications failed for game %s", game.pk)


def on_game_forgotten(sender, game_id: int, **kwargs) -> None:
    """Receiver of :data:`game.live.signals.game_forgotten`: this process no longer keeps
    ``game_id`` (its next commit here tells every player, as a game first seen does)."""
    hints.forget_game(game_id)


def seat_saved(sender, instance: Seat, **kwargs) -> None:
    """``post_save``/``post_delete`` of a seat (a moderator gave it to someone else): this
    process reads that lobby's seats again (other processes keep theirs until they restart; their
    hints may then miss the new player, whose count is still right when their socket asks)."""
    hints.forget_seats(instance.lobby_id)
