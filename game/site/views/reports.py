"""``/report/``: a person reports a chat line (``?line=<id>``), a player (``?user=<username>``,
from their page) or a game (``?game=<id>``, optionally about one of its players). The page shows
what is reported and asks for a reason; the rules are :mod:`game.site.reports`. Only people who
are logged in report (guests included); a refusal writes nothing (404 for what the reporter may not
see, 400 for a report about oneself, 429 over a limit)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from game.live.clients import client_ip
from game.models import ChatMessage, Game, Seat, display_name

from ..forms import ReportForm
from ..reports import ReportError, file_report, subject
from ..throttle import too_many


def _number(request: HttpRequest, key: str) -> int | None:
    raw = request.GET.get(key, "")
    return int(raw) if raw.isdigit() and len(raw) < 18 else None


def _about(request: HttpRequest) -> dict:
    """What the URL names, found (404 otherwise): ``{"line", "game", "reported"}`` unchecked."""
    line_id, game_id, name = _number(request, "line"), _number(request, "game"), request.GET.get("user", "")
    if line_id is not None:
        line = ChatMessage.objects.select_related("author__profile").filter(pk=line_id).first()
        if line is None:
            raise Http404("no such line")
        return {"line": line, "game": None, "reported": None}
    if game_id is not None:
        game = Game.objects.defer("snapshot").select_related("lobby").filter(pk=game_id).first()
        if game is None:
            raise Http404("no such game")
        return {"line": None, "game": game, "reported": None}
    if name and "\x00" not in name:
        person = get_user_model().objects.select_related("profile").filter(username=name).first()
        if person is not None:
            return {"line": None, "game": None, "reported": person}
    raise Http404("nothing to report")


def report(request: HttpRequest) -> HttpResponse:
    """The report form (GET) and the report itself (POST)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _about(request)
    try:
        about = subject(request.user, request.session, line=found["line"], game=found["game"], reported=found["reported"])
    except ReportError as e:
        if found["reported"] is not None and found["reported"].pk == request.user.pk:
            return render(request, "moderation/report_form.html", {"refused": e.message}, status=400)
        raise Http404(str(e.message)) from None
    players = []
    if about["game"] is not None and about["line"] is None:
        rows = Seat.objects.filter(lobby_id=about["game"].lobby_id, bot="").exclude(user_id=request.user.pk).select_related("user__profile")
        players = [(s.user_id, display_name(s.user)) for s in rows]
    form = ReportForm(request.POST or None, players=players)
    status, refused_by = 200, None
    if request.method == "POST":
        if form.is_valid():
            chosen = form.cleaned_data.get("player")
            if chosen is not None:
                about["reported"] = next(s.user for s in rows if s.user_id == chosen)
            try:
                _filed, created = file_report(request.user, client_ip(request), about, form.cleaned_data["reason"], form.cleaned_data["text"])
            except ReportError as e:
                form.add_error(None, e.message)
                refused_by = e.throttle
                status = 429 if refused_by is not None else 400
            else:
                messages.success(request, _("Thank you: a moderator will look at your report.") if created else _("You have reported this already: a moderator will look at it."))
                return redirect(_back(about))
        else:
            status = 400
    ctx = {
        "form": form,
        "line": about["line"],
        "game": about["game"],
        "reported": about["reported"],
        "reported_name": display_name(about["reported"]) if about["reported"] is not None else "",
    }
    response = render(request, "moderation/report_form.html", ctx, status=status)
    return too_many(response, refused_by) if refused_by is not None else response


def _back(about: dict) -> str:
    """Where the reporter returns to: the game, else the player's page."""
    if about["game"] is not None:
        return about["game"].get_absolute_url()
    return reverse("player", args=[about["reported"].username])
