"""A moderator's warning, shown to its player: on every page of theirs (the context processor
:func:`warnings`, one indexed query for a signed-in person) until they acknowledge it
(:func:`acknowledge`, ``POST /accounts/warnings/seen/``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from game.models import ModerationAction


def unseen(user) -> list[ModerationAction]:
    """The warnings ``user`` has not acknowledged yet, oldest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(ModerationAction.objects.filter(target_id=user.pk, kind=ModerationAction.Kind.WARN, seen_at__isnull=True).order_by("created_at")[:5])


def warnings(request: HttpRequest) -> dict:
    """Context processor: ``moderation_warnings`` for a signed-in person with unseen warnings."""
    user = getattr(request, "user", None)
    found = unseen(user)
    return {"moderation_warnings": found} if found else {}


@require_POST
def acknowledge(request: HttpRequest) -> HttpResponse:
    """The person has read their warnings: they are no longer shown. Back to ``next`` (a path
    of this site), else the front page."""
    if request.user.is_authenticated:
        ModerationAction.objects.filter(target_id=request.user.pk, kind=ModerationAction.Kind.WARN, seen_at__isnull=True).update(seen_at=timezone.now())
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = "/"
    return redirect(target)
