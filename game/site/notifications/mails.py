"""The mails: "your turn in <game>", "your deadline in <game> is in N hours", "<game> has
ended" and "<name> wants to play <game> again", each sent at most once per game, person and
decision (a rematch's: per rematch), with the signed unsubscribe link every mail carries. When
each falls due is :mod:`game.site.notifications.due`'s business.

Only a confirmed address is mailed (:func:`confirmed`; the confirmation link itself is
:mod:`.confirm`'s). The mails go through Django's e-mail framework: ``EMAIL_URL``
(django-environ's ``email_url``, default the console backend), ``DEFAULT_FROM_EMAIL``, links made
absolute with ``SITE_URL``.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.live.ratelimit import open_sockets
from game.models import Game, MailSent, NotificationPrefs, is_guest

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "gotweb.notifications.unsubscribe"
#: the kinds of :class:`~game.models.MailSent` rows: the four mails, and the two Web Pushes ("your
#: turn", "<name> wants to play <game> again")
TURN, END, DEADLINE, REMATCH, PUSH, REMATCH_PUSH = "turn", "end", "deadline", "rematch", "push", "rematchp"


def mail_after() -> float:
    """Seconds a person must have been awaited before the turn mail (``NOTIFY_MAIL_AFTER``, 300)."""
    return float(settings.NOTIFY_MAIL_AFTER)


def deadline_warning() -> float:
    """Seconds before a correspondence deadline when its player is warned
    (``NOTIFY_DEADLINE_WARNING``, 7200: "your deadline is in 2 hours")."""
    return float(settings.NOTIFY_DEADLINE_WARNING)


def unsubscribe_token(user_id: int) -> str:
    """A signed token (Django's signing, the site's ``SECRET_KEY``) naming the user: the
    unsubscribe link's proof, valid without login and without expiry."""
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT, compress=True)


def absolute(path: str) -> str:
    """``path`` as a link for a mail: on the site's address, ``SITE_URL``."""
    return settings.SITE_URL.rstrip("/") + path


def prefs_of(user) -> NotificationPrefs:
    """``user``'s mail preferences: their row, or the defaults (unsaved) when they have none."""
    return NotificationPrefs.objects.filter(user=user).first() or NotificationPrefs(user=user)


def connected(user) -> bool:
    """Whether ``user`` has a socket of the site open now (a game page, the front page, any page
    with the header's badge), counted across processes by the live sockets' cap
    (:func:`game.live.ratelimit.open_sockets`)."""
    return open_sockets(f"u{user.pk}") > 0


def confirmed(user, prefs: NotificationPrefs | None = None) -> bool:
    """Whether ``user`` has an address and its reader confirmed it: the address typed last
    (``User.email``) is the one the confirmation link was opened for (``prefs``: the user's
    preferences when already read)."""
    return bool(user.email) and (prefs or prefs_of(user)).confirmed_email == user.email


def _may_mail(user, kind: str) -> NotificationPrefs | None:
    """The person's preferences when they may be mailed about ``kind``, else None."""
    if not user.email or is_guest(user) or getattr(getattr(user, "profile", None), "is_bot", False):
        return None
    prefs = prefs_of(user)
    if not confirmed(user, prefs):  # an address nobody has vouched for gets no game mail
        return None
    wanted = {TURN: prefs.turn_mail, DEADLINE: prefs.deadline_mail, END: prefs.end_mail, REMATCH: prefs.rematch_mail}[kind]
    return prefs if wanted else None


def send_once(game: Game, user, kind: str, decision: int, left: float = 0.0, by: str = "") -> bool:
    """Send ``kind``'s mail about ``game`` to ``user`` unless one was sent for this decision;
    True when this call sent it (``left``: the seconds until the deadline, for ``deadline``;
    ``by``: the name of the player who opened the rematch, for ``rematch``, whose ``decision`` is
    the rematch's lobby id). Mail server failures are logged, never raised."""
    prefs = _may_mail(user, kind)
    if prefs is None:
        return False
    try:
        with transaction.atomic():
            record = MailSent.objects.create(game=game, user=user, kind=kind, decision=decision)
    except IntegrityError:  # sent already (here or by another process)
        return False
    game_url = absolute(reverse("game_play", args=[game.pk]))
    unsubscribe = absolute(reverse("notifications_unsubscribe", args=[unsubscribe_token(user.pk)]))
    with translation.override(prefs.language or "en"):
        name = game.lobby.name
        if kind == TURN:
            subject = _("Your turn in %(game)s") % {"game": name}
            lead = _("The game %(game)s is waiting for your decision.") % {"game": name}
        elif kind == DEADLINE:
            hours = max(1, round(left / 3600))
            subject = ngettext(
                "Your deadline in %(game)s is in %(n)s hour", "Your deadline in %(game)s is in %(n)s hours", hours
            ) % {"game": name, "n": hours}
            lead = _(
                "The game %(game)s is still waiting for your decision. If you have not decided when your"
                " deadline passes, the stand-in bot plays for you."
            ) % {"game": name}
        elif kind == REMATCH:
            subject = _("%(name)s wants to play %(game)s again") % {"name": by, "game": name}
            lead = _(
                "%(name)s opened a new game with the table of %(game)s. \"Play again\" on the game's page"
                " seats you in it:"
            ) % {"name": by, "game": name}
        else:
            subject = _("%(game)s has ended") % {"game": name}
            lead = _("The game %(game)s is over. See how it ended:") % {"game": name}
        body = "\n\n".join(
            [
                lead,
                game_url,
                _("Mail settings: %(url)s") % {"url": absolute(reverse("notifications"))},
                _("Stop these mails: %(url)s") % {"url": unsubscribe},
            ]
        )
    mail = EmailMessage(
        subject,
        body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    try:
        mail.send()
    except Exception:
        log.exception("could not send the %s mail of game %s to user %s", kind, game.pk, user.pk)
        return False
    MailSent.objects.filter(pk=record.pk).update(ok=True)
    return True
