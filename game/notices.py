"""Site records of telling players about their games away from the game page
(:mod:`game.site.notifications`): a person's mail preferences (:class:`NotificationPrefs`), the
mails and pushes sent, once each (:class:`MailSent`), and the browsers subscribed to Web Push
(:class:`PushSubscription`, :mod:`game.site.webpush`).

Kept beside :mod:`game.models` (which imports them, so they are the ``game`` app's models and
the rest of the site imports them from there), as :mod:`game.community` is.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NotificationPrefs(models.Model):
    """A person's mail preferences (:mod:`game.site.notifications`). No row means the defaults:
    every kind of mail on, no address confirmed. Mails go to ``User.email`` only while it equals
    ``confirmed_email`` (:mod:`game.site.notifications.confirm`); guests get none."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_prefs")
    turn_mail = models.BooleanField(_("mail me when a game awaits me"), default=True)
    end_mail = models.BooleanField(_("mail me when a game of mine ends"), default=True)
    #: "<name> wants to play <game> again" (:mod:`game.site.rematch`)
    rematch_mail = models.BooleanField(_("mail me when a player of a game of mine opens its rematch"), default=True)
    #: "your deadline is in 2 hours" (correspondence games)
    deadline_mail = models.BooleanField(_("mail me before a deadline runs out"), default=True)
    #: the language of the mails (``"en"`` or ``"zh-hans"``): the one the page was in when saved
    language = models.CharField(max_length=10, default="en")
    #: the address whose reader opened a confirmation link (kept apart from ``User.email``, which
    #: anyone with the account can type, so that a changed address is unconfirmed by itself)
    confirmed_email = models.EmailField(_("confirmed address"), max_length=254, blank=True)
    #: when the link was opened (empty for an address kept as confirmed by migration 0014)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")


class MailSent(models.Model):
    """One mail sent (or being sent) to a player about a game: at most one per ``(game, user,
    kind, decision)``, which the unique constraint enforces across processes. ``kind`` is
    ``"turn"`` or ``"deadline"`` (the deadline is near; ``decision``: the version since which the
    seat's awaited decisions are the ones it was mailed about, ``Game.decisions_since``), or
    ``"push"`` (a Web Push "your turn" to the person's browsers, :mod:`game.site.webpush`), or
    ``"end"`` (``decision`` 0), or ``"rematch"`` and ``"rematchp"`` (the mail and the Web Push
    telling a player that another opened the finished game's rematch; ``decision``: the
    rematch's lobby id)."""

    game = models.ForeignKey("game.Game", on_delete=models.CASCADE, related_name="mails")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_mails")
    kind = models.CharField(max_length=10)
    decision = models.PositiveIntegerField(default=0)
    ok = models.BooleanField(default=False)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "kind", "decision"], name="mail_once_per_decision")]


class PushSubscription(models.Model):
    """One browser's Web Push subscription (:mod:`game.site.webpush`): the push service's
    ``endpoint`` (a capability URL, unique: a browser that subscribes again under another account
    moves to it) and the browser's keys (``p256dh``: its P-256 public key, ``auth``: its secret,
    both base64url). Removed when the push service answers 404 or 410 (the browser unsubscribed)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    #: the language of the notifications (``"en"`` or ``"zh-hans"``): the page's when subscribed
    language = models.CharField(max_length=10, default="en")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["-created_at", "-pk"]
