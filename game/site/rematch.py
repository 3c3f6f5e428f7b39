"""Playing a finished game again with the same table ("Play again" on a finished game's page).

The first player of a finished game who asks opens a new lobby like the game's own: the same
game, number of players, options, time control, privacy and name, with the asker seated on a
random house and a bot of the same level on every seat a bot held; it is the game's rematch
(``Lobby.rematch_of``; a game has one). Every other person who held a seat of the game asks the
same way and is seated in it, on a random house, without a password even when the lobby is
private (having played the game is their invitation). The lobby then fills and starts as any
other: its creator starts it (or cancels it, and the next who asks opens another). A table of one
person and bots starts at once, as "Play against bots" does. Houses are drawn again: the same
houses would only replay the same opening.

The other players are told the rematch is open: a seated person's game page offers it at once
(:func:`game.live.notify.rematch_opened`); one without a page of the site open is mailed ("<name>
wants to play <game> again", their ``rematch_mail`` preference) and pushed, once per rematch
(:func:`game.site.notifications.due.check_game`); the home page lists it under "Your games"
(:func:`waiting_for`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from game.live.notify import rematch_opened
from game.models import Game, Lobby, Seat

from . import lobbies
from .lobbies import LobbyError
from .notifications import receivers as notifications_receivers


def player_of(game: Game, user) -> bool:
    """Whether ``user`` is a person (not a bot) who holds a seat of ``game``."""
    return bool(getattr(user, "is_authenticated", False)) and game.lobby.seats.filter(user_id=user.pk, bot="").exists()


def only_bots_besides(game: Game, user) -> bool:
    """Whether every seat of ``game`` but ``user``'s is a bot's (a rematch then starts at once)."""
    return not game.lobby.seats.filter(bot="").exclude(user_id=user.pk).exists()


def rematch_of(game: Game) -> Lobby | None:
    """The lobby that plays ``game`` again, if one was opened."""
    return Lobby.objects.filter(rematch_of=game).first()


def button_states(games: Iterable[Game], user) -> dict[int, str | None]:
    """``{game id: what its "Play again" does for user}`` for finished games ``user`` held a seat
    of: ``"new"`` (opens the rematch), ``"open"`` (joins the one another player opened),
    ``"seated"`` (goes back to it) or None (it started without them: nothing to offer). Two
    queries, however many games."""
    ids = [g.pk for g in games]
    again = {lobby.rematch_of_id: lobby for lobby in Lobby.objects.filter(rematch_of_id__in=ids).exclude(status=Lobby.Status.CANCELLED)}
    seated = set(Seat.objects.filter(user_id=user.pk, lobby__in=list(again.values())).values_list("lobby_id", flat=True))
    out: dict[int, str | None] = {}
    for gid in ids:
        lobby = again.get(gid)
        if lobby is None:
            out[gid] = "new"
        elif lobby.pk in seated:
            out[gid] = "seated"
        else:
            out[gid] = "open" if lobby.status == Lobby.Status.OPEN else None
    return out


def waiting_for(user, limit: int = 20) -> list[Lobby]:
    """The open rematches of games ``user`` held a seat of (as a person) and has not joined, newest
    first, at most ``limit``: the home page offers them under "Your games" (a private one's page is
    not theirs to see until they join). Each has ``filled`` (its seats taken) and its creator's
    profile loaded."""
    return list(
        Lobby.objects.filter(status=Lobby.Status.OPEN, rematch_of__lobby__seats__user=user, rematch_of__lobby__seats__bot="")
        .exclude(pk__in=Seat.objects.filter(user=user).values("lobby_id"))
        .annotate(filled=Count("seats", distinct=True))
        .select_related("creator__profile")
        .order_by("-created_at")[:limit]
    )


def play_again(game_id: int, user) -> Lobby:
    """Open the rematch of finished game ``game_id`` for ``user``, or seat ``user`` in it (see the
    module); returns the lobby (started when the table was ``user`` and bots, or when the rematch
    had already started with ``user`` seated).

    Raises :class:`LobbyError`: the game does not exist, is not over, ``user`` held none of its
    seats, the rematch has started without them or is full, or what opening a lobby raises (the
    cap of open lobbies per person). Nothing is written then. One transaction, which locks the
    game's row first: two players asking at once open one lobby, and the second is seated in it.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("lobby").filter(pk=game_id).first()
        if game is None:
            raise LobbyError(_("This game does not exist."))
        if game.status != Game.Status.FINISHED:
            raise LobbyError(_("This game is not over yet."))
        if not player_of(game, user):
            raise LobbyError(_("Only the players of this game can play it again."))
        lobby = rematch_of(game)
        if lobby is not None and lobby.status == Lobby.Status.CANCELLED:
            # its creator called it off: the next who asks opens another
            lobby.rematch_of = None
            lobby.save(update_fields=["rematch_of"])
            lobby = None
        if lobby is not None:
            if lobby.seats.filter(user_id=user.pk).exists():
                return lobby
            if not lobby.is_open:
                raise LobbyError(_("The rematch has started without you."))
            lobbies.join_lobby(lobby.pk, user, invited=True)
            return lobby
        old = game.lobby
        rules = old.rules
        lobby = lobbies.create_lobby(
            user,
            name=old.name,
            players=old.players,
            ruleset=old.ruleset,
            options={k: v for k, v in (old.options or {}).items() if k in rules.default_options},
            is_private=old.is_private,
            time_control=old.time_control or None,
        )
        lobby.rematch_of = game
        lobby.save(update_fields=["rematch_of"])
        for seat in old.seats.exclude(bot="").order_by("pk"):
            lobbies.add_bot(lobby.pk, user, level=seat.bot)
        if only_bots_besides(game, user):
            lobby = lobbies.start_lobby(lobby.pk, user)
        rematch_opened(game.pk, lobby.pk)
        transaction.on_commit(lambda: notifications_receivers.on_rematch_opened(game))
    return lobby
