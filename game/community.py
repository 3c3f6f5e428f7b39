"""Site records of a table among strangers: chat blocks, mutes, reports and moderation.

Kept beside :mod:`game.models` (which imports them, so they are the ``game`` app's models and
the rest of the site imports them from there): a person's hidden players
(:class:`ChatBlock`, :mod:`game.live.chat_blocks`), a moderator's site-wide mute (:class:`Mute`,
refused by :func:`game.live.chat.post_chat`), the addresses accounts were seen at
(:class:`UserAddress`), players' reports (:class:`Report`, :mod:`game.site.reports`) and the
moderation log (:class:`ModerationAction`, :mod:`game.site.moderation`), whose permissions the
"Moderators" group holds (migration ``0018_community_moderators_group``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ChatBlock(models.Model):
    """``user`` hides ``blocked``'s chat lines from themselves, in every game (the lines are not
    sent to ``user``'s sockets; nobody else is told)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("hidden player")
        verbose_name_plural = _("hidden players")
        constraints = [models.UniqueConstraint(fields=["user", "blocked"], name="chat_block_once")]


class Mute(models.Model):
    """A moderator's mute: ``user``'s chat lines are refused (``chat.muted``) everywhere until
    ``until``; they may still play. One row per user, the latest mute (an unmute sets ``until``
    to its time)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mute")
    until = models.DateTimeField(_("muted until"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")

    @property
    def active(self) -> bool:
        return self.until > timezone.now()


# --- reports and moderation -------------------------------------------------------------------
class UserAddress(models.Model):
    """An address ``user`` logged in or reported from (:func:`game.live.clients.client_ip`: an
    IPv6 address by its /64), first and last seen: a moderator sees the accounts that share one
    with a reported player or its reporter (:mod:`game.site.addresses`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="addresses")
    address = models.CharField(max_length=64, db_index=True)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "address"], name="user_address_once")]


class Report(models.Model):
    """A report filed by ``reporter`` about a chat line, a player or a game (:mod:`game.site.reports`):
    ``reported`` is the player it is about (None for a game as a whole), ``line`` and ``game`` its
    context; ``status`` moves from ``open`` to ``dismissed`` or ``actioned`` when a moderator
    handles it (:mod:`game.site.moderation`)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        CHEATING = "cheating", _("Cheating or several accounts")
        STALLING = "stalling", _("Stalling or leaving the game")
        SPAM = "spam", _("Spam or advertising")
        NAME = "name", _("An offensive name")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        ACTIONED = "actioned", _("Acted on")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_filed")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="reports_against")
    game = models.ForeignKey("game.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="reports")
    line = models.ForeignKey("game.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="reports")
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    text = models.CharField(_("details"), max_length=500, blank=True)
    #: the reporter's address when filing (their accounts' addresses are in UserAddress too)
    address = models.CharField(max_length=64, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(_("filed"), auto_now_add=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-pk"]


class ModerationAction(models.Model):
    """One moderator's action, kept for good (the moderation log): a report dismissed, a player
    warned, muted for a time or unmuted, banned or unbanned, each with its reason. A warning is
    shown to its player until they acknowledge it (``seen_at``)."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", _("Dismissed a report")
        WARN = "warn", _("Warned")
        MUTE = "mute", _("Muted")
        UNMUTE = "unmute", _("Unmuted")
        BAN = "ban", _("Banned")
        UNBAN = "unban", _("Unbanned")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(_("action"), max_length=10, choices=Kind.choices)
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="moderation")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions")
    reason = models.CharField(_("reason"), max_length=500)
    until = models.DateTimeField(_("until"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["target", "kind", "seen_at"])]
        permissions = [
            ("warn_user", _("Can warn players")),
            ("mute_user", _("Can mute players")),
            ("ban_user", _("Can ban players")),
            ("see_addresses", _("Can see the accounts that share an address")),
        ]
