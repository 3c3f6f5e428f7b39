"""Lobby operations: the one place that changes lobbies and seats.

Every function runs in one transaction that first locks the lobby row (``select_for_update``;
on SQLite the whole database is locked by ``transaction_mode = IMMEDIATE``), checks every rule,
and either writes everything or raises :class:`LobbyError` having written nothing. After the
commit the lobby's websocket group is told (:func:`game.live.notify.lobby_changed`).
"""

from __future__ import annotations

import secrets
from typing import Any, Mapping

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.live import clocks
from game.live.notify import lobby_changed
from game.models import Lobby, Seat
from game.options import seat_words
from game.rules import DEFAULT_RULESET, get_ruleset
from game.rules.base import bot_levels as levels_of

RANDOM = ""  #: the house value meaning "draw my house at the start"


class LobbyError(Exception):
    """A refused lobby operation. ``message`` is a translatable sentence for the player;
    ``field`` names the form field it belongs to, or None for the whole request."""

    def __init__(self, message, field: str | None = None) -> None:
        super().__init__(str(message))
        self.message = message
        self.field = field


def _locked(lobby_id: int) -> Lobby:
    try:
        return Lobby.objects.select_for_update().get(pk=lobby_id)
    except Lobby.DoesNotExist:
        raise LobbyError(_("This lobby does not exist.")) from None


def _bump(lobby: Lobby, *fields: str) -> None:
    lobby.version += 1
    lobby.save(update_fields=["version", *fields])
    lobby_changed(lobby.pk, lobby.version)


def create_lobby(
    user,
    *,
    name: str,
    players: int,
    ruleset: str = DEFAULT_RULESET,
    options: Mapping[str, Any] | None = None,
    is_private: bool = False,
    password: str = "",
    house: str = RANDOM,
    time_control: Mapping[str, Any] | None = None,
) -> Lobby:
    """Create an open lobby and seat its creator (``house`` or random). ``time_control``: the
    game's clocks (:func:`game.live.clocks.parse`; None: no clock).

    Raises LobbyError for an unknown ruleset, a player count outside the ruleset's range,
    an unknown option, a time control of the wrong shape (field ``time_control``), a house not in
    play at that count, or when ``user`` already created
    :func:`open_lobby_cap` lobbies that are still open (counted under a lock of the user's row, so
    simultaneous creations cannot pass the cap together).
    """
    try:
        rules = get_ruleset(ruleset)
    except KeyError:
        raise LobbyError(_("Unknown game."), "ruleset") from None
    if not rules.min_players <= players <= rules.max_players:
        raise LobbyError(
            _("Choose between %(min)d and %(max)d players.") % {"min": rules.min_players, "max": rules.max_players},
            "players",
        )
    opts = dict(rules.default_options)
    for key, value in (options or {}).items():
        if key not in opts:
            raise LobbyError(_("Unknown option."))
        opts[key] = value
    if house and house not in rules.seats(players, opts):
        raise LobbyError(seat_words(ruleset)["not_at_count"], "house")
    try:
        tc = clocks.parse(time_control)
    except clocks.BadTimeControl:
        raise LobbyError(_("That time control is not available."), "time_control") from None
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()  # one creation at a time per user
        cap = open_lobby_cap()
        if cap is not None and Lobby.objects.filter(creator=user, status=Lobby.Status.OPEN).count() >= cap:
            raise LobbyError(
                ngettext(
                    "You already have %(cap)d open lobby. Start or cancel it before creating another.",
                    "You already have %(cap)d open lobbies. Start or cancel one before creating another.",
                    cap,
                )
                % {"cap": cap}
            )
        lobby = Lobby(
            name=name, ruleset=ruleset, players=players, options=opts, creator=user, is_private=is_private, time_control=tc
        )
        lobby.set_password(password if is_private else "")
        lobby.save()
        Seat.objects.create(lobby=lobby, user=user, house=house)
        lobby_changed(lobby.pk, lobby.version)
    return lobby


def open_lobby_cap() -> int | None:
    """How many open lobbies one user may have created at once (``settings.LOBBY_OPEN_PER_USER``,
    default 3; None: no cap)."""
    cap = settings.LOBBY_OPEN_PER_USER
    return None if cap is None else int(cap)


def free_houses(lobby: Lobby) -> list[str]:
    """Houses in play that no seat has chosen yet, in display order."""
    taken = set(lobby.seats.exclude(house=RANDOM).values_list("house", flat=True))
    return [h for h in lobby.houses() if h not in taken]


def join_lobby(lobby_id: int, user, *, house: str = RANDOM, password: str = "", invited: bool = False) -> Seat:
    """Seat ``user`` in an open lobby with ``house`` (or random).

    A private lobby needs its password, or ``invited`` (the player came through the invite link).
    Raises LobbyError: lobby missing, started or full, user already seated, house not in play or
    taken, wrong or missing password.
    """
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if not lobby.is_open:
            raise LobbyError(_("This game has already started; you can no longer join it."))
        if lobby.seats.filter(user=user).exists():
            raise LobbyError(_("You already have a seat in this lobby."))
        if lobby.seats.count() >= lobby.players:
            raise LobbyError(_("This lobby is full."))
        if lobby.is_private and not invited:
            if not lobby.has_password:
                raise LobbyError(_("This private lobby can only be joined through its invite link."))
            if not lobby.check_password(password):
                raise LobbyError(_("Wrong password."), "password")
        if house != RANDOM:
            if house not in lobby.houses():
                raise LobbyError(seat_words(lobby.ruleset)["not_in_play"], "house")
            if lobby.seats.filter(house=house).exists():
                raise LobbyError(seat_words(lobby.ruleset)["taken"], "house")
        try:
            with transaction.atomic():
                seat = Seat.objects.create(lobby=lobby, user=user, house=house)
        except IntegrityError:  # a race the lock did not cover (should not happen)
            raise LobbyError(seat_words(lobby.ruleset)["taken"], "house") from None
        _bump(lobby)
    return seat


def leave_lobby(lobby_id: int, user) -> None:
    """Give up ``user``'s seat in an open lobby. The creator cannot leave (they cancel instead)."""
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if not lobby.is_open:
            raise LobbyError(_("The game has started; seats can no longer change."))
        if lobby.creator_id == user.pk:
            raise LobbyError(_("You created this lobby: cancel it instead of leaving."))
        deleted, _n = lobby.seats.filter(user=user).delete()
        if not deleted:
            raise LobbyError(_("You do not have a seat in this lobby."))
        _bump(lobby)


def kick(lobby_id: int, by_user, seat_id: int) -> None:
    """The creator removes another player's seat from an open lobby."""
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if lobby.creator_id != by_user.pk:
            raise LobbyError(_("Only the lobby's creator can remove players."))
        if not lobby.is_open:
            raise LobbyError(_("The game has started; seats can no longer change."))
        seat = lobby.seats.filter(pk=seat_id).first()
        if seat is None:
            raise LobbyError(_("That seat does not exist."))
        if seat.user_id == by_user.pk:
            raise LobbyError(_("You cannot remove yourself; cancel the lobby instead."))
        seat.delete()
        _bump(lobby)


def start_lobby(lobby_id: int, by_user) -> Lobby:
    """The creator starts a full lobby: houses still random are drawn on the server.

    The draw uses the operating system's random source; the result is stored on the seats
    (``house``, ``random_house=True``) and the lobby becomes ``started``. The game record (seed,
    empty action log, :func:`game.live.apply.create_game`) is created in the same transaction.
    """
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if lobby.creator_id != by_user.pk:
            raise LobbyError(_("Only the lobby's creator can start the game."))
        if not lobby.is_open:
            raise LobbyError(_("This game has already started."))
        seats = list(lobby.seats.all())
        if len(seats) < lobby.players:
            raise LobbyError(
                _("Wait until every seat is filled (%(filled)d of %(total)d).")
                % {"filled": len(seats), "total": lobby.players}
            )
        free = free_houses(lobby)
        secrets.SystemRandom().shuffle(free)
        for seat in seats:
            if seat.house == RANDOM:
                seat.house = free.pop()
                seat.random_house = True
                seat.save(update_fields=["house", "random_house"])
        lobby.status = Lobby.Status.STARTED
        lobby.started_at = timezone.now()
        _bump(lobby, "status", "started_at")
        if callable(getattr(lobby.rules, "new_game", None)):  # a ruleset without an engine only gathers lobbies
            from game.live.apply import create_game

            create_game(lobby)
    return lobby


def bot_levels(ruleset_id: str) -> list[str]:
    """The levels of bot a lobby of ``ruleset_id`` may seat, in the lobby's order (basic first)."""
    from game.models import BOT_LEVELS

    have = levels_of(get_ruleset(ruleset_id))
    return [x for x in BOT_LEVELS if x in have]


def add_bot(lobby_id: int, by_user, *, level: str = "basic", house: str = RANDOM) -> Seat:
    """The creator seats a bot (``level``: ``"basic"``, ``"strong"`` or ``"random"``, one the lobby's
    ruleset has: :func:`bot_levels`) in an empty seat of an open lobby, on ``house`` or a random
    house. The bot gets its own user row (no password, no login). LobbyError ``level`` for
    another level."""
    from django.contrib.auth import get_user_model

    from game.models import BOT_LEVELS, Profile

    if level not in BOT_LEVELS:
        raise LobbyError(_("Unknown bot level."), "level")
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if level not in bot_levels(lobby.ruleset):
            raise LobbyError(_("This game has no bot of that level yet."), "level")
        if lobby.creator_id != by_user.pk:
            raise LobbyError(_("Only the lobby's creator can add bots."))
        if not lobby.is_open:
            raise LobbyError(_("The game has started; seats can no longer change."))
        if lobby.seats.count() >= lobby.players:
            raise LobbyError(_("This lobby is full."))
        if house != RANDOM:
            if house not in lobby.houses():
                raise LobbyError(seat_words(lobby.ruleset)["not_in_play"], "house")
            if lobby.seats.filter(house=house).exists():
                raise LobbyError(seat_words(lobby.ruleset)["taken"], "house")
        user = get_user_model()(username=f"bot-{secrets.token_hex(6)}", is_active=False)
        user.set_unusable_password()
        user.save()
        n = lobby.seats.exclude(bot="").count() + 1
        Profile.objects.create(user=user, is_guest=True, is_bot=True, display_name=f"Bot {n} ({level})")
        seat = Seat.objects.create(lobby=lobby, user=user, house=house, bot=level)
        _bump(lobby)
    return seat


def cancel_lobby(lobby_id: int, by_user, *, moderator: bool = False) -> None:
    """The creator (or a moderator, from the admin) calls off a lobby that has not started."""
    with transaction.atomic():
        lobby = _locked(lobby_id)
        if not moderator and lobby.creator_id != by_user.pk:
            raise LobbyError(_("Only the lobby's creator can cancel it."))
        if not lobby.is_open:
            raise LobbyError(_("Only a lobby that has not started can be cancelled."))
        lobby.status = Lobby.Status.CANCELLED
        _bump(lobby, "status")


def lobby_state(lobby: Lobby) -> dict[str, Any]:
    """The lobby as pushed to browsers (JSON-able, public facts only; no password, no token)::

        {"id": int, "version": int, "status": str, "players": int, "filled": int,
         "seats": [{"id": int, "player": str, "guest": bool, "house": str | None, "random": bool}]}

    ``house`` is None while a seat waits for its random draw; ``guest`` marks a player without an
    account (bots are not guests).
    """
    from game.models import display_name, is_guest

    seats = list(lobby.seats.select_related("user__profile"))
    return {
        "id": lobby.pk,
        "version": lobby.version,
        "status": lobby.status,
        "players": lobby.players,
        "filled": len(seats),
        "seats": [
            {
                "id": s.pk,
                "player": display_name(s.user),
                "guest": is_guest(s.user),
                "house": s.house or None,
                "random": s.random_house,
            }
            for s in seats
        ],
    }
