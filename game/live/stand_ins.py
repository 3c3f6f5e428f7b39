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

from . import bots, clocks, gamelog, notify, signals
from .apply import _locked, _when, rescue_after
from .seats import STAND_IN_LEVEL, away_after, seat_of, seat_status


def _settle(game: Game, now: float, fresh=()) -> list[str]:
    """Settle ``game``'s clocks at ``now`` after a change of its stand-ins or vacations (no
    decision taken): sets ``game.clocks`` and ``game.deadline``, returns the fields to write."""
    if not clocks.timed(game.time_control):
        return []
    awaited = (game.awaited_since or {}).keys()
    game.clocks = clocks.settle(game.time_control, game.clocks or {}, awaited=awaited, stand_ins=game.stand_ins or {}, now=now, fresh=fresh)
    game.deadline = _when(clocks.with_rescue(game.clocks, game.stand_ins or {}, awaited, now, rescue_after()))
    return ["clocks", "deadline"]


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
        game.save(update_fields=["stand_ins", *_settle(game, time.time())])  # the seat's clock stops
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
        now = time.time()
        if me in (game.clocks or {}):
            game.clocks = {**game.clocks, me: {**game.clocks[me], "auto": False}}
        if me in (game.awaited_since or {}):
            game.awaited_since = {**game.awaited_since, me: now}
            fields.append("awaited_since")
        # the clock starts again as it was (live; an empty bank gets the increment), or with a
        # new decision's time (deadline)
        fields += _settle(game, now, fresh={me})
        game.save(update_fields=fields)
        status = seat_status(game)
        notify.seats_changed(game.pk, status, {"kind": "take_back", "seat": me})
        transaction.on_commit(lambda: signals.game_committed.send_robust(sender=Game, game=game))  # "My games" badges
        return status


def set_vacation(game_id: int, user, on: Any) -> dict[str, Any]:
    """``user`` turns their vacation on (``on`` True) or off in a game with correspondence
    deadlines: while it is on, their deadlines are paused and their allowance is spent; it ends
    by itself when the allowance is used up (:mod:`game.live.scheduler`). Returns the new
    :func:`seat_status`. Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``vacation.not_a_player``, ``vacation.not_allowed`` (no deadlines, or no allowance in this
    game), ``vacation.bad_value`` (``on`` not a boolean), ``vacation.none_left``."""
    if not isinstance(on, bool):
        raise IllegalAction("vacation.bad_value", "on must be true or false.")
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game.over", "The game is over.")
        me = seat_of(game, user)
        if me is None:
            raise IllegalAction("vacation.not_a_player", "Only the game's players can take a vacation.")
        tc = game.time_control or {}
        if tc.get("kind") != clocks.DEADLINE or not tc.get("vacation") or me not in (game.clocks or {}):
            raise IllegalAction("vacation.not_allowed", "This game has no vacation allowance.")
        now = time.time()
        if on == (game.clocks[me].get("away") is not None):
            return seat_status(game, now)  # already so: nothing to write
        try:
            game.clocks = clocks.set_vacation(game.clocks, me, on, now)
        except ValueError:
            raise IllegalAction("vacation.none_left", "Your vacation allowance is used up.") from None
        game.save(update_fields=_settle(game, now))
        status = seat_status(game, now)
        notify.seats_changed(game.pk, status, {"kind": "vacation_on" if on else "vacation_off", "seat": me})
        return status


def fire_due(game: Game, now: float) -> list[tuple[str, str]]:
    """What is due on the locked, running ``game`` at ``now`` (:func:`game.live.clocks.due`),
    done and written (call inside the transaction that locked the row; the scheduler does):

    * ``vacation_over``: the seat's vacation ends, its clock runs again;
    * ``timeout``: the seat's time ran out: the stand-in bot plays it at once (its clock stops
      at 0, its time-outs count one more); below the time control's ``max_timeouts`` the stand-in
      gives the seat back after one move, from then on it keeps it until the player takes it back.

    Each firing is one :class:`~game.models.ClockFiring` row (numbered per game: a double
    firing cannot be written) and one ``seats`` push with its notice. Returns the ``(seat, kind)``
    fired, in order."""
    from game.models import ClockFiring

    tc = game.time_control or {}
    fired = []
    number = ClockFiring.objects.filter(game=game).count()
    for _ in range(2 * len(game.clocks or {}) + 1):  # a vacation's end may make a clock due itself
        todo = clocks.due(game.clocks or {}, now)
        if not todo:
            break
        seat, kind = todo[0]
        c = dict(game.clocks[seat])
        due_at = (c["away"] + c["vacation"]) if kind == "vacation_over" else (c["since"] + c["left"])
        if kind == "vacation_over":
            game.clocks = clocks.set_vacation(game.clocks, seat, False, now)
        else:
            c.update(left=0.0, since=None, timeouts=int(c.get("timeouts", 0)) + 1)
            c["auto"] = c["timeouts"] < int(tc.get("max_timeouts", clocks.MAX_TIMEOUTS))
            game.clocks = {**game.clocks, seat: c}
            game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        _settle(game, now)
        number += 1
        ClockFiring.objects.create(game=game, number=number, seat=seat, kind=kind, version=game.version, due=due_at)
        fired.append((seat, kind))
    if not fired:
        return fired
    game.save(update_fields=["clocks", "deadline", "stand_ins"])
    status = seat_status(game, now)
    for seat, kind in fired:
        notify.seats_changed(game.pk, status, {"kind": kind, "seat": seat})
    gid = game.pk
    if any(kind == "timeout" for _, kind in fired):
        transaction.on_commit(lambda: bots.forget_botless(gid))
        transaction.on_commit(lambda: bots.schedule_bots(gid))
    return fired


def stand_in_notice(ruleset: str, event: dict[str, Any], lang: str) -> str:
    """The log line of a hand-over or take-back in ``lang``: "A bot now plays for Stark." """
    key = gamelog.lang_key(lang)
    house = get_ruleset(ruleset).seat_names().get(event.get("seat"), {}).get(key, event.get("seat"))
    with translation.override(key):
        kind = event.get("kind")
        if kind == "stand_in":
            return gettext("A bot now plays for %(house)s.") % {"house": house}
        if kind == "timeout":
            return gettext("The stand-in plays for %(house)s: %(house)s's time ran out.") % {"house": house}
        if kind == "vacation_on":
            return gettext("%(house)s is on vacation: their deadlines are paused.") % {"house": house}
        if kind == "vacation_off":
            return gettext("%(house)s is back from vacation.") % {"house": house}
        if kind == "vacation_over":
            return gettext("%(house)s's vacation is used up: their deadline runs again.") % {"house": house}
        return gettext("%(house)s is back: the bot no longer plays for them.") % {"house": house}
