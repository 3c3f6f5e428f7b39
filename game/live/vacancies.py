"""Seats the table opened: a new person takes the seat of a player the table replaced
(:func:`game.live.votes.propose`, kind ``replace``).

While a seat is open (``Game.table["vacant"]``) the stand-in bot plays it. :func:`fill_seat`
gives it to a person under the game row's lock: their :class:`~game.models.Seat` is created, the
seat leaves the open list, and the note ``seat_filled`` is written through the one apply path
(:func:`game.live.apply.note_locked`). The stand-in goes on playing until the new player takes
the seat back from it (``take_back``, :func:`game.live.stand_ins.take_back`), which keeps the
stand-in's rules: a move it owes after a time-out is made first.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from game.models import Game, Lobby, Seat
from game.rules import IllegalAction

from . import notes, notify
from .access import may_see
from .apply import locked_game, note_locked
from .seats import seat_status
from .votes import lobby_seats_changed


def open_seats(game: Game) -> list[str]:
    """The seats of ``game`` open for a new person (a running game's), in the ruleset's order."""
    if game.status != Game.Status.RUNNING:
        return []
    vacant = set((game.table or {}).get("vacant", ()))
    return [s for s in game.rules.seats(game.players, game.options) if s in vacant]


def listed(limit: int = 20) -> list[tuple[Game, list[str]]]:
    """``[(game, its open seats)]`` of the running public games with a seat open for a new
    person, newest first: the front page's "Seats to take"."""
    games = (
        Game.objects.filter(status=Game.Status.RUNNING, lobby__is_private=False, table__has_key="vacant")
        .defer("snapshot").select_related("lobby").order_by("-pk")[: limit * 5]
    )
    out = [(g, seats) for g in games if (seats := open_seats(g))]
    return out[:limit]


def fill_seat(game_id: int, user, seat: Any, session: Any = None) -> dict[str, Any]:
    """``user`` takes the open ``seat`` of ``game_id``; returns the new seat status. Raises
    IllegalAction, writing nothing: ``game.not_found``, ``game.over``, ``seat.login`` (an
    anonymous visitor, or an account that cannot log in), ``seat.not_open`` (no open seat of
    that name), ``seat.seated`` (the user plays in this game already), ``seat.replaced`` (the
    table replaced this user in this game), ``game.not_found`` also for a private game the user
    may not see (``session``: the request's, for its invitation)."""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        raise IllegalAction("seat.login", "Log in to take a seat.")
    with transaction.atomic():
        game = locked_game(game_id)
        lobby = Lobby.objects.get(pk=game.lobby_id)
        if not may_see(lobby, user, session):
            raise IllegalAction("game.not_found", "This game does not exist.", game=game_id)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game.over", "The game is over.")
        if not isinstance(seat, str) or seat not in open_seats(game):
            raise IllegalAction("seat.not_open", "That seat is not open.", seat=str(seat)[:20])
        if Seat.objects.filter(lobby_id=game.lobby_id, user_id=user.pk).exists():
            raise IllegalAction("seat.seated", "You play in this game already.")
        if user.pk in (game.table or {}).get("out", ()):
            raise IllegalAction("seat.replaced", "The table replaced you in this game.")
        try:
            with transaction.atomic():
                Seat.objects.create(lobby_id=game.lobby_id, user=user, house=seat)
        except IntegrityError:  # a seat of the same house or user written meanwhile
            raise IllegalAction("seat.not_open", "That seat is not open.", seat=seat) from None
        game.table = {**game.table, "vacant": [s for s in game.table.get("vacant", ()) if s != seat]}
        notify.viewers_changed(game.pk)  # the new player's sockets reconnect as the seat
        lobby_seats_changed(game.lobby_id)
        note_locked(game, [notes.entry(notes.SEAT_FILLED, seat)], user, ["table"])
        return seat_status(game)
