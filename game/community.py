"""Site records of a table among strangers: chat blocks and mutes.

Kept beside :mod:`game.models` (which imports them, so they are the ``game`` app's models and
the rest of the site imports them from there): a person's hidden players
(:class:`ChatBlock`, :mod:`game.live.chat_blocks`) and a moderator's site-wide mute
(:class:`Mute`, refused by :func:`game.live.chat.post_chat`).
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
