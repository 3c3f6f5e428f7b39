"""The moderators' pages: the queue of open reports (``/moderation/``), one report with its context
and the actions on it (``/moderation/report/<id>/``), a player's moderation page with the actions
on them (``/moderation/user/<username>/``) and the moderation log (``/moderation/log/``).

Each page and each action checks its own permission with ``has_perm`` (the "Moderators" group
holds them all; a superuser has every one): anonymous visitors are sent to the login page, others
without it get 403 and nothing changes. The actions themselves are :mod:`game.site.moderation`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.models import ModerationAction, Mute, Report, display_name

from .. import addresses, moderation
from ..forms import ModerationForm
from ..reports import context

User = get_user_model()


def _need(request: HttpRequest, perm: str) -> HttpResponse | None:
    """None when the request's user holds ``perm``; the login page for a visitor; else 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.has_perm(perm):
        raise PermissionDenied
    return None


def _may(user) -> dict[str, bool]:
    """Which actions ``user`` may take, for the pages' buttons (each is checked again on POST)."""
    return {str(kind): moderation.allowed(user, kind) for kind in moderation.NEEDS}


def queue(request: HttpRequest) -> HttpResponse:
    """The open reports, newest first, with how many open reports each reported player has."""
    if (refused := _need(request, "game.view_report")) is not None:
        return refused
    reports = Report.objects.filter(status=Report.Status.OPEN).select_related("reporter__profile", "reported__profile", "game__lobby")
    counts = dict(
        Report.objects.filter(status=Report.Status.OPEN, reported__isnull=False).values_list("reported_id").annotate(n=Count("pk"))
    )
    page = Paginator(reports, 50).get_page(request.GET.get("page"))
    rows = [{"report": r, "reported_name": display_name(r.reported) if r.reported else "", "reporter_name": display_name(r.reporter),
             "open_against": counts.get(r.reported_id, 0)} for r in page]
    return render(request, "moderation/queue.html", {"rows": rows, "page": page})


def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One report: what was reported, the chat around the line, the game, the players' other
    reports and moderation history, the accounts sharing their addresses (``see_addresses``), and
    the action forms the moderator may use."""
    if (refused := _need(request, "game.view_report")) is not None:
        return refused
    report = get_object_or_404(Report.objects.select_related("reporter__profile", "reported__profile", "game__lobby", "line"), pk=pk)
    ctx = {
        "report": report,
        "reporter_name": display_name(report.reporter),
        "may": _may(request.user),
        "form": ModerationForm(),
        **context(report, with_addresses=request.user.has_perm("game.see_addresses")),
    }
    return render(request, "moderation/report.html", ctx)


def user_detail(request: HttpRequest, name: str) -> HttpResponse:
    """A player's moderation page: their reports, the log about them, their mute, the accounts
    sharing their addresses, and the actions on them."""
    if (refused := _need(request, "game.view_report")) is not None:
        return refused
    person = get_object_or_404(User.objects.select_related("profile"), username=name)
    mute = Mute.objects.filter(user=person).first()
    ctx = {
        "person": person,
        "name": display_name(person),
        "mute": mute if mute is not None and mute.active else None,
        "reports": Report.objects.filter(reported=person).select_related("reporter__profile")[:50],
        "history": ModerationAction.objects.filter(target=person).select_related("moderator")[:50],
        "addresses": addresses.sharing(person) if request.user.has_perm("game.see_addresses") else None,
        "may": _may(request.user),
        "form": ModerationForm(),
    }
    return render(request, "moderation/user.html", ctx)


@require_POST
def act(request: HttpRequest) -> HttpResponse:
    """An action (``kind``, ``reason``, ``minutes``) on a report (``report``) or a player
    (``user``); back to the page it came from. 403 without its permission; 400 for a form that
    does not read or an action refused (nothing changed)."""
    if (refused := _need(request, "game.view_report")) is not None:
        return refused
    form = ModerationForm(request.POST)
    report = Report.objects.select_related("reported").filter(pk=_int(request.POST.get("report"))).first()
    name = request.POST.get("user", "")[:150]
    target = report.reported if report else User.objects.filter(username=name).first() if name and "\x00" not in name else None
    if not form.is_valid() or (report is None and target is None):
        messages.error(request, _("That action could not be read."))
        return _back(request, report, target, status=400)
    kind = form.cleaned_data["kind"]
    if not moderation.allowed(request.user, kind):
        raise PermissionDenied
    try:
        moderation.act(request.user, kind, target=target if kind != "dismiss" else None, report=report,
                       reason=form.cleaned_data["reason"], minutes=form.cleaned_data.get("minutes"))
    except moderation.ModerationError as e:
        if e.forbidden:
            raise PermissionDenied from None
        messages.error(request, e.message)
        return _back(request, report, target, status=400)
    messages.success(request, _("Done: the action is in the moderation log."))
    return _back(request, report, target)


def _int(raw) -> int | None:
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 18 else None


def _back(request: HttpRequest, report, target, status: int = 302) -> HttpResponse:
    if status != 302:  # the page again, with the message, as a refusal
        if report is not None:
            response = report_detail(request, report.pk)
        elif target is not None:
            response = user_detail(request, target.username)
        else:
            response = queue(request)
        response.status_code = status
        return response
    if report is not None:
        return redirect("moderation_report", pk=report.pk)
    return redirect("moderation_user", name=target.username)


def log(request: HttpRequest) -> HttpResponse:
    """The moderation log: every action, newest first, with its moderator, target and reason."""
    if (refused := _need(request, "game.view_moderationaction")) is not None:
        return refused
    actions = ModerationAction.objects.select_related("moderator", "target__profile", "report")
    page = Paginator(actions, 100).get_page(request.GET.get("page"))
    return render(request, "moderation/log.html", {"page": page})
