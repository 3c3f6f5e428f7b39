"""Stand-in bots: a player hands an away player's seat to a bot, and the player takes it back.

The seat keeps its user; while ``Game.stand_ins`` names it, :func:`game.live.apply.bot_act`
plays it. Both operations lock the game row, like every write of live play.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from game.models import Game, Seat
from game.rules import IllegalAction, get_ruleset

from . import bots, gamelog, notify, signals
from .apply import _locked
from .seats import STAND_IN_LEVEL, away_after, seat_of, seat_status


def hand_to_bot(game_id: int, user, seat: Any) -> dict[str, Any]:
    """``user`` (a player of the game) hands ``seat``, another player's seat awaited for at least
    :func:`away_after` seconds, to a stand-in bot; returns the new :func:`seat_status`.

    The seat keeps its user; the bot acts for it through :func:`bot_act` until :func:`take_back`.
    Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``stand_in.not_a_player`` (spectators, strangers), ``stand_in.bad_seat`` (not a seat of the
    game, or a bot's), ``stand_in.self``, ``stand_in.already``, ``stand_in.not_away`` (not awaited,
    or not for long enough; ``params.wait``: seconds left, or null when not awaited).
    """
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game.over", "The game is over.")
        me = seat_of(game, user)
        if me is None:
            raise IllegalAction("stand_in.not_a_player", "Only the game's players can hand a seat to a bot.")
        seats = game.rules.seats(game.players, game.options)
        if not isinstance(seat, str) or seat not in seats or Seat.objects.filter(lobby_id=game.lobby_id, house=seat).exclude(bot="").exists():
            raise IllegalAction("stand_in.bad_seat", "No player's seat of that name.", seat=str(seat)[:20])
        if seat == me:
            raise IllegalAction("stand_in.self", "You cannot hand your own seat to a bot.")
        if seat in (game.stand_ins or {}):
            raise IllegalAction("stand_in.already", "A bot already plays that seat.", seat=seat)
        since = (game.awaited_since or {}).get(seat)
        if since is None:
            raise IllegalAction("stand_in.not_away", "That seat is not awaited.", seat=seat, wait=None)
        left = since + away_after() - time.time()
        if left > 0:
            raise IllegalAction("stand_in.not_away", "That seat has not been awaited long enough.", seat=seat, wait=int(left) + 1)
        game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        game.save(update_fields=["stand_ins"])
        status = seat_status(game)
        gid = game.pk
        notify.seats_changed(gid, status, {"kind": "stand_in", "seat": seat})
        transaction.on_commit(lambda: bots.forget_botless(gid))
        transaction.on_commit(lambda: bots.schedule_bots(gid))
        transaction.on_commit(lambda: signals.game_committed.send_robust(sender=Game, game=game))  # "My games" badges
        return status


def take_back(game_id: int, user) -> dict[str, Any]:
    """``user`` takes their seat back from its stand-in bot, which stops at once (the bot acts only
    under the game's lock, after reading ``stand_ins``); returns the new :func:`seat_status`.
    Their wait starts again. Raises IllegalAction, writing nothing: ``game.not_found``,
    ``stand_in.not_a_player``, ``stand_in.none`` (no bot plays the user's seat)."""
    with transaction.atomic():
        game = _locked(game_id)
        me = seat_of(game, user)
        if me is None:
            raise IllegalAction("stand_in.not_a_player", "You do not have a seat in this game.")
        if me not in (game.stand_ins or {}):
            raise IllegalAction("stand_in.none", "No bot plays your seat.")
        game.stand_ins = {s: lv for s, lv in game.stand_ins.items() if s != me}
        fields = ["stand_ins"]
        if me in (game.awaited_since or {}):
            game.awaited_since = {**game.awaited_since, me: time.time()}
            fields.append("awaited_since")
        game.save(update_fields=fields)
        status = seat_status(game)
        notify.seats_changed(game.pk, status, {"kind": "take_back", "seat": me})
        transaction.on_commit(lambda: signals.game_committed.send_robust(sender=Game, game=game))  # "My games" badges
        return status


def stand_in_notice(ruleset: str, event: dict[str, Any], lang: str) -> str:
    """The log line of a hand-over or take-back in ``lang``: "A bot now plays for Stark." """
    key = gamelog.lang_key(lang)
    house = get_ruleset(ruleset).seat_names().get(event.get("seat"), {}).get(key, event.get("seat"))
    with translation.override(key):
        if event.get("kind") == "stand_in":
            return gettext("A bot now plays for %(house)s.") % {"house": house}
        return gettext("%(house)s is back: the bot no longer plays for them.") % {"house": house}
