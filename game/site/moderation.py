"""Moderators' actions: dismiss a report, warn, mute, unmute, ban, unban a player; each one
checked against the moderator's permissions (``has_perm``, the "Moderators" group holds exactly
these: migration ``0018_community_moderators_group``), done, and kept with its reason in the
moderation log (:class:`~game.models.ModerationAction`), in one transaction.

* **warn**: the player is shown the warning on their next pages until they acknowledge it
  (:mod:`game.site.warnings`);
* **mute** for some minutes: their chat lines are refused everywhere (``chat.muted``,
  :func:`game.live.chat.refuse_muted`); they still play; **unmute** ends it now;
* **ban**: the account can no longer log in (``is_active`` False: Django refuses the login and
  its sessions no longer name it), its open sockets close, each running game it plays is
  handed to the stand-in bot (:func:`game.live.stand_ins.hand_over`, a note of that game's log),
  and the lobbies it waits in are left (or cancelled, its own);
  **unban** lets it log in again (its seats stay with the stand-ins until it takes them back).

Nobody acts on themselves or on staff (a superuser's account is the admin's business), and each
action needs its permission: a moderator without ``ban_user`` cannot ban, whatever page they
post from. A refusal raises :class:`ModerationError` and changes nothing.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.live import notify, stand_ins
from game.models import Game, Lobby, ModerationAction, Mute, Report, Seat

from . import lobbies

Kind = ModerationAction.Kind

#: the permission each action needs
NEEDS = {
    Kind.DISMISS: "game.change_report",
    Kind.WARN: "game.warn_user",
    Kind.MUTE: "game.mute_user",
    Kind.UNMUTE: "game.mute_user",
    Kind.BAN: "game.ban_user",
    Kind.UNBAN: "game.ban_user",
}
#: the longest mute, in minutes (30 days)
MUTE_MAX_MINUTES = 30 * 24 * 60


class ModerationError(Exception):
    """A refused moderation action (``forbidden``: the moderator lacks the permission)."""

    def __init__(self, message, forbidden: bool = False) -> None:
        super().__init__(str(message))
        self.message, self.forbidden = message, forbidden


def allowed(moderator, kind: str) -> bool:
    """Whether ``moderator`` may take actions of ``kind``."""
    needed = NEEDS.get(kind)
    return needed is not None and moderator is not None and moderator.is_active and moderator.has_perm(needed)


def act(moderator, kind: str, *, target=None, report: Report | None = None, reason: str, minutes: int | None = None) -> ModerationAction:
    """Take the action ``kind`` (:class:`~game.models.ModerationAction.Kind`) as ``moderator`` on
    the player ``target`` (a dismissal: on ``report`` alone), with ``reason`` (required) and, to
    mute, ``minutes``; a ``report`` given is handled by it (dismissed, or acted on). Returns the
    logged action. Raises :class:`ModerationError`."""
    if kind not in NEEDS:
        raise ModerationError(_("No such action."))
    if not allowed(moderator, kind):
        raise ModerationError(_("You may not do that."), forbidden=True)
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(_("Give a reason: it is kept in the moderation log."))
    if kind == Kind.DISMISS:
        if report is None:
            raise ModerationError(_("Dismiss what?"))
    elif target is None:
        raise ModerationError(_("Act on whom?"))
    elif target.pk == moderator.pk:
        raise ModerationError(_("You cannot act on your own account."))
    elif target.is_staff or target.is_superuser:
        raise ModerationError(_("Staff accounts are not moderated here."))
    if report is not None and report.status != Report.Status.OPEN:
        raise ModerationError(_("This report has been handled already."))
    now = timezone.now()
    until = None
    if kind == Kind.MUTE:
        if type(minutes) is not int or not 1 <= minutes <= MUTE_MAX_MINUTES:
            raise ModerationError(_("A mute lasts from 1 minute to 30 days."))
        until = now + datetime.timedelta(minutes=minutes)
    with transaction.atomic():
        if report is not None:  # handled once, even by two moderators at the same moment
            updated = Report.objects.filter(pk=report.pk, status=Report.Status.OPEN).update(
                status=Report.Status.DISMISSED if kind == Kind.DISMISS else Report.Status.ACTIONED, handled_by=moderator, handled_at=now
            )
            if not updated:
                raise ModerationError(_("This report has been handled already."))
        if kind == Kind.MUTE:
            Mute.objects.update_or_create(user=target, defaults={"until": until, "reason": reason, "by": moderator})
        elif kind == Kind.UNMUTE:
            Mute.objects.filter(user=target, until__gt=now).update(until=now)
        elif kind == Kind.BAN:
            type(target).objects.filter(pk=target.pk).update(is_active=False)
            notify.user_banned(target.pk)
        elif kind == Kind.UNBAN:
            type(target).objects.filter(pk=target.pk).update(is_active=True)
        done = ModerationAction.objects.create(moderator=moderator, kind=kind, target=target, report=report, reason=reason[:500], until=until)
    if kind == Kind.BAN:
        hand_over_games(target)
        leave_open_lobbies(moderator, target)
    return done


def leave_open_lobbies(moderator, user) -> None:
    """A banned player's lobbies that have not started: the ones they created are cancelled, and
    they leave the others, so no table waits for someone who cannot come back."""
    for lobby_id, creator_id in Lobby.objects.filter(status=Lobby.Status.OPEN, seats__user_id=user.pk).values_list("pk", "creator_id"):
        try:
            if creator_id == user.pk:
                lobbies.cancel_lobby(lobby_id, moderator, moderator=True)
            else:
                lobbies.leave_lobby(lobby_id, user)
        except lobbies.LobbyError:  # started or changed meanwhile: its game is handed over instead
            pass


def hand_over_games(user) -> int:
    """Hand every running game's seat of ``user`` to its stand-in (each in its own transaction,
    under its game's lock) and tell those games' sockets to check their viewers; returns how many
    seats were handed over."""
    seats = Seat.objects.filter(user_id=user.pk, bot="", lobby__game__status=Game.Status.RUNNING).exclude(house="")
    count = 0
    for house, game_id in seats.values_list("house", "lobby__game__id"):
        if stand_ins.hand_over(game_id, house):
            count += 1
        with transaction.atomic():
            notify.viewers_changed(game_id)
    return count
