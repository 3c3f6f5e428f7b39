"""Stand-in bots: a player hands an away player's seat to a bot, and the player takes it back;
vacations; and what the scheduler fires when a clock runs out.

The seat keeps its user; while ``Game.stand_ins`` names it, :func:`game.live.apply.bot_act`
plays it. Every operation here locks the game row, like every write of live play, and is
recorded as the site's note in the game's log (:mod:`game.live.notes`) through the one apply
path (:func:`game.live.apply.note_locked`): versioned, told in the log panel, pushed like an
action, kept after a reload and in the replay.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction

from game.models import Game, Seat
from game.rules import IllegalAction

from . import bots, clocks, notes, table
from .apply import locked_game, note_locked
from .moves import as_datetime, rescue_after
from .seats import STAND_IN_LEVEL, away_after, seat_of, seat_status


def _settle(game: Game, now: float, fresh=()) -> list[str]:
    """Settle ``game``'s clocks at ``now`` after a change of its stand-ins or vacations (no
    decision taken): sets ``game.clocks`` and ``game.deadline``, returns the fields to write."""
    if not clocks.timed(game.time_control):
        return []
    awaited = (game.awaited_since or {}).keys()
    game.clocks = clocks.settle(
        game.time_control, game.clocks or {}, awaited=awaited, stand_ins=game.stand_ins or {}, now=now, fresh=fresh, paused=table.paused(game.table)
    )
    deadline = clocks.with_rescue(game.clocks, game.stand_ins or {}, awaited, now, rescue_after())
    game.deadline = as_datetime(table.earliest(deadline, table.due_at(game.table)))
    return ["clocks", "deadline"]


def _my_seat_locked(game_id: int, user, code: str, message: str) -> tuple[Game, str]:
    """Inside a transaction: the running game ``game_id``, its row locked, and ``user``'s seat in
    it. Raises IllegalAction ``game.not_found``, ``game.over``, or ``code`` (with ``message``)
    when ``user`` has no seat."""
    game = locked_game(game_id)
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    me = seat_of(game, user)
    if me is None:
        raise IllegalAction(code, message)
    return game, me


def hand_to_bot(game_id: int, user, seat: Any) -> dict[str, Any]:
    """``user`` (a player of the game) hands ``seat``, another player's seat awaited for at least
    :func:`away_after` seconds, to a stand-in bot; returns the new :func:`seat_status`.

    The seat keeps its user; the bot acts for it through :func:`bot_act` until :func:`take_back`.
    Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``stand_in.not_a_player`` (spectators, strangers), ``stand_in.bad_seat`` (not a seat of the
    game, or a bot's), ``stand_in.self``, ``stand_in.already``, ``stand_in.not_away`` (not awaited,
    or not for long enough; ``params.wait``: seconds left, or null when not awaited),
    ``stand_in.paused`` (the table's pause is on: waiting then counts for nobody).
    """
    with transaction.atomic():
        game, me = _my_seat_locked(game_id, user, "stand_in.not_a_player", "Only the game's players can hand a seat to a bot.")
        seats = game.rules.seats(game.players, game.options)
        if not isinstance(seat, str) or seat not in seats or Seat.objects.filter(lobby_id=game.lobby_id, house=seat).exclude(bot="").exists():
            raise IllegalAction("stand_in.bad_seat", "No player's seat of that name.", seat=str(seat)[:20])
        if seat == me:
            raise IllegalAction("stand_in.self", "You cannot hand your own seat to a bot.")
        if seat in (game.stand_ins or {}):
            raise IllegalAction("stand_in.already", "A bot already plays that seat.", seat=seat)
        if table.paused(game.table):  # nobody's time counts during the table's pause
            raise IllegalAction("stand_in.paused", "The game is paused.")
        since = (game.awaited_since or {}).get(seat)
        if since is None:
            raise IllegalAction("stand_in.not_away", "That seat is not awaited.", seat=seat, wait=None)
        left = since + away_after() - time.time()
        if left > 0:
            raise IllegalAction("stand_in.not_away", "That seat has not been awaited long enough.", seat=seat, wait=int(left) + 1)
        game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        fields = ["stand_ins", *_settle(game, time.time())]  # the seat's clock stops
        gid = game.pk
        transaction.on_commit(lambda: bots.forget_botless(gid))
        note_locked(game, [notes.entry(notes.STAND_IN, seat)], user, fields)
        return seat_status(game)


def hand_over(game_id: int, seat: str) -> bool:
    """The site hands ``seat`` to its stand-in bot at once, whatever its wait (a moderator banned
    its player: :mod:`game.site.moderation`), as the note ``stand_in`` of the game's log. Returns
    whether anything was written (not for a game over, or a seat a bot plays already)."""
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except IllegalAction:
            return False
        if game.status != Game.Status.RUNNING or seat in (game.stand_ins or {}):
            return False
        game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        fields = ["stand_ins", *_settle(game, time.time())]
        gid = game.pk
        transaction.on_commit(lambda: bots.forget_botless(gid))
        note_locked(game, [notes.entry(notes.STAND_IN, seat)], None, fields)
        return True


def take_back(game_id: int, user) -> dict[str, Any]:
    """``user`` takes their seat back from its stand-in bot, which stops at once (the bot acts only
    under the game's lock, after reading ``stand_ins``); returns the new :func:`seat_status`.
    Their wait starts again; their clock resumes where it stopped (:func:`game.live.clocks.taken_back`:
    a take-back never buys time), with a new decision's time only when the stand-in moved in the
    seat meanwhile. Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``stand_in.not_a_player``, ``stand_in.none`` (no bot plays the user's seat),
    ``stand_in.owed`` (the seat's time ran out and the stand-in has not made that move yet: the
    seat can be taken back once it has)."""
    with transaction.atomic():
        game, me = _my_seat_locked(game_id, user, "stand_in.not_a_player", "You do not have a seat in this game.")
        if me not in (game.stand_ins or {}):
            raise IllegalAction("stand_in.none", "No bot plays your seat.")
        renew = False
        if me in (game.clocks or {}):
            try:
                game.clocks, renew = clocks.taken_back(game.clocks, me)
            except clocks.Owed:
                raise IllegalAction("stand_in.owed", "Your time ran out: the bot makes that move first.") from None
        game.stand_ins = {s: lv for s, lv in game.stand_ins.items() if s != me}
        fields = ["stand_ins"]
        now = time.time()
        if me in (game.awaited_since or {}):
            game.awaited_since = {**game.awaited_since, me: now}
            fields.append("awaited_since")
        fields += _settle(game, now, fresh={me} if renew else ())
        note_locked(game, [notes.entry(notes.TAKE_BACK, me)], user, fields)
        return seat_status(game)


def vacation_rest() -> float:
    """Seconds after the end of a vacation before its player may start another one
    (``settings.GAME_VACATION_REST``, default 60)."""
    from django.conf import settings

    return float(settings.GAME_VACATION_REST)


def set_vacation(game_id: int, user, on: Any) -> dict[str, Any]:
    """``user`` turns their vacation on (``on`` True) or off in a game with correspondence
    deadlines: while it is on, their deadlines are paused and their allowance is spent; it ends
    by itself when the allowance is used up (:mod:`game.live.scheduler`). Returns the new
    :func:`seat_status`. Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``vacation.not_a_player``, ``vacation.not_allowed`` (no deadlines, or no allowance in this
    game), ``vacation.bad_value`` (``on`` not a boolean), ``vacation.none_left``,
    ``vacation.too_soon`` (turned on again within :func:`vacation_rest` seconds of the end of the
    last one; ``params.wait``: seconds left), ``vacation.paused`` (the table's pause is on: a
    vacation is held until it ends). Each change is a note of the game's log, so that
    limit keeps a player from filling the log by toggling."""
    if not isinstance(on, bool):
        raise IllegalAction("vacation.bad_value", "on must be true or false.")
    with transaction.atomic():
        game, me = _my_seat_locked(game_id, user, "vacation.not_a_player", "Only the game's players can take a vacation.")
        tc = game.time_control or {}
        if tc.get("kind") != clocks.DEADLINE or not tc.get("vacation") or me not in (game.clocks or {}):
            raise IllegalAction("vacation.not_allowed", "This game has no vacation allowance.")
        now = time.time()
        if table.paused(game.table):  # a vacation is held during the pause; it changes after it
            raise IllegalAction("vacation.paused", "The game is paused.")
        if on == (game.clocks[me].get("away") is not None):
            return seat_status(game, now)  # already so: nothing to write
        back = game.clocks[me].get("back")
        try:
            game.clocks = clocks.set_vacation(game.clocks, me, on, now)
        except ValueError:
            raise IllegalAction("vacation.none_left", "Your vacation allowance is used up.") from None
        if on and back is not None and now - back < vacation_rest():
            wait = max(1, int(back + vacation_rest() - now) + 1)
            raise IllegalAction("vacation.too_soon", "Your last vacation ended a moment ago.", wait=wait)
        note_locked(game, [notes.entry(notes.VACATION_ON if on else notes.VACATION_OFF, me)], user, _settle(game, now))
        return seat_status(game, now)


def fire_due(game: Game, now: float) -> list[tuple[str, str]]:
    """What is due on the locked, running ``game`` at ``now`` (:func:`game.live.clocks.due`),
    done and written (call inside the transaction that locked the row; the scheduler does):

    * ``vacation_over``: the seat's vacation ends, its clock runs again;
    * ``timeout``: the seat's time ran out: the stand-in bot plays it at once (its clock stops
      at 0, its time-outs count one more, :func:`game.live.clocks.timed_out`) and owes that move:
      the seat cannot be taken back before it is made; below the time control's ``max_timeouts``
      the stand-in gives the seat back after that move, from then on it keeps it until the player
      takes it back.

    Each firing is one note of the game's log (:func:`game.live.apply.note_locked`: one version
    each, pushed like an action, told in the log panel), written with the change it records in
    this transaction: a deadline fires once, since the lock serialises the scheduler's passes and
    the note's number is unique per game. Returns the ``(seat, kind)`` fired, in order."""
    tc = game.time_control or {}
    fired = []
    for _ in range(2 * len(game.clocks or {}) + 1):  # a vacation's end may make a clock due itself
        todo = clocks.due(game.clocks or {}, now)
        if not todo:
            break
        seat, kind = todo[0]
        if kind == notes.VACATION_OVER:
            game.clocks = clocks.set_vacation(game.clocks, seat, False, now)
        else:
            game.clocks = clocks.timed_out(tc, game.clocks, seat)
            game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        _settle(game, now)
        fired.append((seat, kind))
    if not fired:
        return fired
    gid = game.pk
    if any(kind == notes.TIMEOUT for _, kind in fired):
        transaction.on_commit(lambda: bots.forget_botless(gid))
    note_locked(game, [notes.entry(kind, seat) for seat, kind in fired], None, ["clocks", "deadline", "stand_ins"])
    return fired
