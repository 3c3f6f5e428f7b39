"""When a game's mails and pushes fall due: :func:`check_game` sends what a game owes now and
says when it will next owe something; :func:`due_later` says from a committed row alone, without
a query, that nothing can be due yet.
"""

from __future__ import annotations

import math
import time

from game.live.deadlines import deadline_of, is_correspondence
from game.models import Game, Lobby, Seat, display_name

from .. import webpush
from .mails import DEADLINE, END, REMATCH, REMATCH_PUSH, TURN, connected, deadline_warning, mail_after, send_once
from .push import push_once, push_owed, push_rematch_once


def check_game(game_id: int, now: float | None = None) -> float | None:
    """Send the mails and pushes ``game_id`` owes now (read fresh from the database); returns the
    unix time when it should be checked again (its next turn mail falls due, or a player to be
    told of its rematch has a page of the site open), or None."""
    now = time.time() if now is None else now
    game = Game.objects.defer("snapshot").select_related("lobby").filter(pk=game_id).first()
    if game is None:
        return None
    seats = Seat.objects.filter(lobby_id=game.lobby_id, bot="").exclude(house="").select_related("user__profile")
    by_house = {s.house: s.user for s in seats}
    if game.status == Game.Status.FINISHED:
        for user in by_house.values():
            send_once(game, user, END, 0)
        return _rematch_due(game, by_house.values(), now)
    correspondence = is_correspondence(game)
    after = 0.0 if correspondence else mail_after()
    warn = deadline_warning()
    # a decision with no more time than the warning window is not warned about
    warned = correspondence and float((game.time_control or {}).get("per_move", 0)) > warn
    since = game.decisions_since or {}
    stand_ins = game.stand_ins or {}
    push = webpush.enabled()
    next_due = None
    for house, waited_from in (game.awaited_since or {}).items():
        user = by_house.get(house)
        if user is None or house in stand_ins:
            continue
        due = float(waited_from) + after
        if due <= now and connected(user):  # on the site: the page and its badge tell them
            due = now + max(mail_after(), 60.0)  # look again later
        decision = int(since.get(house, 0))
        if push and push_owed(game, user, decision):
            if not connected(user):
                push_once(game, user, decision)
            else:  # on the site now: look again later (the page may be closed by then)
                again = now + max(mail_after(), 60.0)
                next_due = again if next_due is None else min(next_due, again)
        if due <= now:
            send_once(game, user, TURN, int(since.get(house, 0)))
        else:
            next_due = due if next_due is None else min(next_due, due)
        deadline = deadline_of(game, house) if warned else None  # None: paused (vacation) or stopped
        if deadline is not None:
            end = deadline.timestamp()
            if end - warn <= now < end:
                send_once(game, user, DEADLINE, int(since.get(house, 0)), left=end - now)
            elif now < end - warn:
                next_due = end - warn if next_due is None else min(next_due, end - warn)
    return next_due


def _rematch_due(game: Game, players, now: float) -> float | None:
    """Tell the players of finished ``game`` who are not seated in its open rematch (a player
    opened it: :mod:`game.site.rematch`) and have no page of the site open: a mail (their
    ``rematch_mail`` preference) and a Web Push, each once per rematch. A player with a page open
    is looked at again later (the game's page offers the rematch itself, and may be closed by
    then): returns when, or None when nobody is left to tell."""
    lobby = Lobby.objects.filter(rematch_of=game, status=Lobby.Status.OPEN).select_related("creator__profile").first()
    if lobby is None:
        return None
    seated = set(lobby.seats.exclude(user=None).values_list("user_id", flat=True))
    by = display_name(lobby.creator)
    push = webpush.enabled()
    later = None
    for user in players:
        if user.pk in seated:
            continue
        if connected(user):
            later = now + max(mail_after(), 60.0)
            continue
        send_once(game, user, REMATCH, lobby.pk, by=by)
        if push and push_owed(game, user, lobby.pk, REMATCH_PUSH):
            push_rematch_once(game, user, lobby.pk, by)
    return later


def due_later(game: Game, now: float | None = None) -> float | None:
    """From the committed row alone (no query): the unix time when the first turn mail of
    ``game`` may fall due, when none can be due now (a running game, not by correspondence,
    without Web Push, whose awaited seats have all waited less than ``NOTIFY_MAIL_AFTER``); else
    None, and
    :func:`check_game` must look now. The worker then keeps a timer instead of reading the
    game and its seats after every act (bots' seats count too: their timer only looks early)."""
    now = time.time() if now is None else now
    if game.status != Game.Status.RUNNING or is_correspondence(game) or game.awaited_since is None:
        return None
    if webpush.enabled():  # a push may be owed at once (check_game knows who has a page open)
        return None
    stand_ins = game.stand_ins or {}
    dues = [float(t) + mail_after() for h, t in game.awaited_since.items() if h not in stand_ins]
    if not dues:
        return math.inf  # nobody awaited but stand-ins: nothing can fall due before another commit
    first = min(dues)
    return first if first > now else None


def after_commit(game: Game) -> float | None:
    """The mails a committed change of ``game`` makes due (:func:`check_game`)."""
    return check_game(game.pk)
