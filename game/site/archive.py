"""After the game: the archive of finished games, replay steps over HTTP, the export
of a game's log, player pages and the leaderboards.

Who may see a game is the rule of ``/game/<id>/`` (:func:`can_see`): a public game, anyone
(anonymous visitors too); a private one, its players, visitors who opened its invite link, and
staff. Everyone else gets 404, as if the game did not exist. A running game's replay is for its
players only (``replay.players_only``, 403): a spectator watches it live.

URLs (``game/site/urls.py``; JSON shapes in ``docs/protocol.md``, "Replays and exports"):

* ``/archive/?game=&players=&player=&since=&until=&page=``: finished games, newest first, 20 a page;
* ``/game/<id>/replay/<version>.json``: one replay step for the requesting viewer;
* ``/game/<id>/replay/index.json``: the latest version and the first version of each round/phase;
* ``/game/<id>/export.json``: the game's log as a download (finished games only);
* ``/u/<username>/``: a player's page; ``/leaderboard/<ruleset>/``: a ruleset's ratings.
"""

from __future__ import annotations

import time

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game.live import access, errors, replay
from game.models import Game, Lobby, Profile, Rating, Seat, display_name, is_guest, language_key, name_key
from game.rules import REGISTRY, get_ruleset
from game.rules.base import pick, presentation

from . import ratings

User = get_user_model()
PAGE_SIZE = 20
EXPORT_FORMAT = "gotweb-game"
EXPORT_FORMAT_VERSION = 2


# --- who may see what -----------------------------------------------------------------------------
def can_see(request: HttpRequest, game: Game, viewer: str | None) -> bool:
    """The ``/game/<id>/`` rule (:func:`game.live.access.may_see`): public games to all; private
    ones to their players, to holders of the invitation, and to staff."""
    return viewer is not None or access.may_see(game.lobby, request.user, request.session)


def _game_for(request: HttpRequest, pk: int) -> tuple[Game, str | None]:
    """The game and the requesting viewer's seat, or 404 (no such game, or not to be seen). A
    finished game's row and seats come from the replay's per-process cache (:func:`replay.game_row`)."""
    game = replay.game_row(pk)
    if game is None:
        raise Http404("no such game")
    viewer = replay.seat_of(game, request.user)
    if not can_see(request, game, viewer):
        raise Http404("private game")
    return game, viewer


def _error(code: str, status: int, **params) -> JsonResponse:
    return JsonResponse({"type": "error", "error": errors.translate(code, **params)}, status=status)


# --- replay -----------------------------------------------------------------------------------------
def replay_step(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    """``/game/<id>/replay/<version>.json``: ``{"open": bool, "latest": int, "state": <the
    state payload of docs/protocol.md>}`` for the requesting viewer. A finished game's steps are
    the open view and never change (``Cache-Control: private, max-age=86400``); a running
    game's are its players' live payloads (``no-cache``: they become open views at the end).
    ``Server-Timing: replay;dur=<ms>`` tells the view's own time (under 50 ms a step)."""
    started = time.perf_counter()
    game, viewer = _game_for(request, pk)
    opened = replay.is_open(game)
    if not opened and viewer is None:
        return _error("replay.players_only", 403)
    try:
        text = replay.step_text(game, viewer, language_key(), version)
    except replay.ReplayError as exc:
        return _error(exc.code, 404, **exc.params)
    body = f'{{"open":{"true" if opened else "false"},"latest":{game.version},"state":{text}}}'
    response = HttpResponse(body, content_type="application/json")
    response["Cache-Control"] = "private, max-age=86400" if opened else "private, no-cache"
    response["Vary"] = "Cookie, Accept-Language"
    response["Server-Timing"] = f"replay;dur={(time.perf_counter() - started) * 1000:.2f}"
    return response


#: the replay's chapter words, by :attr:`~game.rules.base.Presentation.round_noun`
ROUND_WORDS = {"round": gettext_lazy("Round %(n)s"), "turn": gettext_lazy("Turn %(n)s")}


def chapters(game: Game, marks: list[dict], lang: str) -> list[dict]:
    """``marks`` (:func:`game.live.replay.marks`) as the replay's chapters, each with its
    ``label`` in ``lang``: per round and phase ("Round 3 · Action") when the ruleset names its
    phases (:attr:`~game.rules.base.Presentation.phase_names`), else one per round ("Turn 12")."""
    shown = presentation(game.rules)
    word = ROUND_WORDS.get(shown.round_noun, ROUND_WORDS["round"])
    out: list[dict] = []
    for m in marks:
        if not shown.phase_names and out and out[-1]["round"] == m["round"]:
            continue
        label = word % {"n": m["round"]} if m["round"] is not None else ""
        if shown.phase_names and m["phase"]:
            label = f"{label} · {pick(shown.phase_names.get(m['phase'], {}), lang, m['phase'])}"
        out.append({**m, "label": label})
    return out


def replay_index(request: HttpRequest, pk: int) -> HttpResponse:
    """``/game/<id>/replay/index.json``: ``{"open", "latest", "status", "marks": [{"version",
    "round", "phase", "label"}]}``; ``marks`` are the first version of each round and phase
    (the first index of a game in a process folds its whole log: ``Server-Timing`` tells)."""
    started = time.perf_counter()
    game, viewer = _game_for(request, pk)
    opened = replay.is_open(game)
    if not opened and viewer is None:
        return _error("replay.players_only", 403)
    out = chapters(game, replay.marks(game), language_key())
    response = JsonResponse({"open": opened, "latest": game.version, "status": game.status, "marks": out})
    response["Cache-Control"] = "private, no-cache"
    response["Server-Timing"] = f"replay;dur={(time.perf_counter() - started) * 1000:.2f}"
    return response


def replay_config(request: HttpRequest, game: Game, viewer: str | None) -> dict:
    """The ``replay`` part of the game page's config: whether this viewer may replay, the URLs,
    and ``at``, the version ``?at=`` asks for (None: live play; out of range: clamped)."""
    allowed = replay.is_open(game) or viewer is not None
    at = request.GET.get("at")
    try:
        at = max(0, min(int(at), game.version)) if at not in (None, "") else None
    except (TypeError, ValueError, OverflowError):
        at = None
    if not allowed:
        at = None
    elif at is None and replay.is_open(game):
        at = game.version  # a finished game opens in replay mode, at its end
    return {
        "allowed": allowed,
        "at": at,
        "latest": game.version,
        "step": reverse("replay_step", args=[game.pk, 0]).replace("/0.json", "/"),
        "index": reverse("replay_index", args=[game.pk]),
        "export": reverse("game_export", args=[game.pk]) if replay.is_open(game) else "",
    }


# --- export -----------------------------------------------------------------------------------------
def export_data(game: Game) -> dict:
    """The export of a finished game: ``{"format": "gotweb-game", "format_version": 2, "game",
    "ruleset", "players", "options", "seed", "seats": [{"seat", "player", "bot"}], "result",
    "version", "actions": [{"n", "actor", "action"}]}``, enough for ``manage.py replay``.
    ``actions`` is the whole log: the rules' actions and the site's notes (``actor`` ``""``,
    ``action`` ``{"type": "timeout", "seat": ...}`` and the like, :mod:`game.live.notes`; new in
    format version 2)."""
    seats = {s.house: s for s in Seat.objects.filter(lobby_id=game.lobby_id).select_related("user__profile")}
    order = game.rules.seats(game.players, game.options)
    actions = game.actions.order_by("number").values_list("number", "actor", "action")
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "game": game.pk,
        "ruleset": game.ruleset,
        "players": game.players,
        "options": game.options,
        "seed": game.seed,
        "seats": [
            {"seat": h, "player": display_name(seats[h].user) if h in seats else "", "bot": seats[h].bot if h in seats else ""}
            for h in order
        ],
        "result": game.result,
        "version": game.version,
        "actions": [{"n": n, "actor": actor, "action": action} for n, actor, action in actions],
    }


def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """``/game/<id>/export.json``: the finished game's log as a JSON download. A running game is
    refused (``export.not_finished``, 403): its seed would tell the future draws."""
    game, _viewer = _game_for(request, pk)
    if game.status != Game.Status.FINISHED:
        return _error("export.not_finished", 403)
    response = JsonResponse(export_data(game), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="gotweb-game-{game.pk}.json"'
    return response


# --- the archive --------------------------------------------------------------------------------------
class ArchiveFilter(forms.Form):
    """The archive's filters (every one optional)."""

    game = forms.ChoiceField(label=gettext_lazy("Game"), required=False)
    players = forms.IntegerField(label=gettext_lazy("Players"), required=False, min_value=2, max_value=6)
    player = forms.CharField(label=gettext_lazy("Player"), required=False, max_length=150)
    since = forms.DateField(label=gettext_lazy("Finished from"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=gettext_lazy("Finished until"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        key = language_key()
        self.fields["game"].choices = [("", _("All games"))] + [(r, get_ruleset(r).names[key]) for r in REGISTRY]


def visible_games(user):
    """Finished games ``user`` may see: public ones, and private ones they played in."""
    q = Q(lobby__is_private=False)
    if user.is_authenticated:
        q |= Q(lobby__seats__user=user, lobby__seats__bot="")
    return Game.objects.filter(Q(status=Game.Status.FINISHED) & q).distinct()


def _game_rows(games, user) -> list[dict]:
    """Display rows for ``games``: name, game, result, houses and players, duration, links."""
    key = language_key()
    games = list(games.select_related("lobby").prefetch_related("lobby__seats__user__profile"))
    out = []
    for g in games:
        rules = g.rules
        names = rules.seat_names()
        seats = sorted(g.lobby.seats.all(), key=lambda s: rules.seats(g.players, g.options).index(s.house) if s.house in rules.seats(g.players, g.options) else 99)
        winner = (g.result or {}).get("winner")
        # a shared win (the 1st edition's last tie-break): every winner's name
        shared = [w for w in (g.result or {}).get("winners") or [] if not winner]
        out.append(
            {
                "game": g,
                "name": g.lobby.name,
                "private": g.lobby.is_private,
                "ruleset_name": rules.names[key],
                "winner": names.get(winner, {}).get(key, "") if winner else
                " & ".join(names.get(w, {}).get(key, w) for w in shared),
                "draw": g.result is not None and not winner and not shared,
                "seats": [
                    {
                        "house": names.get(s.house, {}).get(key, s.house),
                        "seat": s.house,
                        "player": display_name(s.user),
                        "username": s.user.get_username(),
                        "bot": s.bot,
                        "won": s.house == winner,
                    }
                    for s in seats
                ],
                "finished": g.finished_at or g.updated_at,
                "duration": (g.finished_at or g.updated_at) - g.created_at,
                "duration_text": duration_text((g.finished_at or g.updated_at) - g.created_at),
                "replay": reverse("game_play", args=[g.pk]),
                "export": reverse("game_export", args=[g.pk]),
            }
        )
    return out


def duration_text(delta) -> str:
    """A game's length for people: ``"2 h 05 min"``, ``"12 min"``, ``"under a minute"``."""
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return _("%(m)s min") % {"m": minutes}
    return _("%(h)s h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}


def archive(request: HttpRequest) -> HttpResponse:
    """``/archive/``: finished games the visitor may see, filtered, newest first, paginated.
    Invalid filters are shown beside their field (status 400) with no games listed."""
    form = ArchiveFilter(request.GET or None)
    games = visible_games(request.user).order_by("-finished_at", "-pk")
    status = 200
    if form.is_bound and not form.is_valid():
        games, status = games.none(), 400
    elif form.is_bound:
        d = form.cleaned_data
        if d["game"]:
            games = games.filter(ruleset=d["game"])
        if d["players"]:
            games = games.filter(players=d["players"])
        if d["player"]:
            name = d["player"]
            games = games.filter(
                Q(lobby__seats__user__username__iexact=name) | Q(lobby__seats__user__profile__display_name__iexact=name)
            ).distinct()
        if d["since"]:
            games = games.filter(finished_at__date__gte=d["since"])
        if d["until"]:
            games = games.filter(finished_at__date__lte=d["until"])
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    ctx = {"form": form, "page": page, "rows": _game_rows(Game.objects.filter(pk__in=[g.pk for g in page]).order_by("-finished_at", "-pk"), request.user), "query": query.urlencode()}
    return render(request, "archive/archive.html", ctx, status=status)


# --- players ------------------------------------------------------------------------------------------
def _person(name: str):
    """The user ``/u/<name>/`` names: by username, else by the name shown for them (a guest's
    display name: its username is internal, ``guest-...``), compared as names are (``name_key``)."""
    person = User.objects.select_related("profile").filter(username=name).first()
    if person is None:
        key = name_key(name)
        profile = Profile.objects.select_related("user__profile").filter(name_key=key, is_bot=False).first() if key else None
        person = profile.user if profile else None
    if person is None:
        raise Http404("no such player")
    return person


def player(request: HttpRequest, name: str) -> HttpResponse:
    """``/u/<username>/``: games played and won (by game and by house), ratings, recent games,
    each counting only the games the visitor may see (:func:`visible_games`: a private game's
    result is its players' own; private games are never rated). Guests have one while their account exists; claiming it
    keeps everything (same user), under the new username."""
    person = _person(name)
    key = language_key()
    seats = Seat.objects.filter(user=person, bot="", lobby__game__in=visible_games(request.user)).select_related("lobby__game")
    by_game: dict[str, dict] = {}
    by_house: dict[tuple[str, str], dict] = {}
    played = won = 0
    for s in seats:
        g = s.lobby.game
        win = (g.result or {}).get("winner") == s.house or s.house in ((g.result or {}).get("winners") or [])
        played += 1
        won += win
        rules = g.rules
        row = by_game.setdefault(g.ruleset, {"name": rules.names[key], "played": 0, "won": 0})
        row["played"] += 1
        row["won"] += win
        hrow = by_house.setdefault(
            (g.ruleset, s.house), {"game": rules.names[key], "house": rules.seat_names().get(s.house, {}).get(key, s.house), "played": 0, "won": 0}
        )
        hrow["played"] += 1
        hrow["won"] += win
    rating_rows = [
        {"ruleset": r.ruleset, "name": get_ruleset(r.ruleset).names[key], "score": round(r.score), "games": r.games, "wins": r.wins}
        for r in Rating.objects.filter(user=person).order_by("ruleset")
        if r.ruleset in REGISTRY
    ]
    recent = visible_games(request.user).filter(lobby__seats__user=person, lobby__seats__bot="").order_by("-finished_at", "-pk")[:10]
    running = (
        # every seat counted: a filter through the same join would count only theirs ("1 / 6 players")
        Lobby.objects.filter(pk__in=Seat.objects.filter(user=person).values("lobby_id"), status=Lobby.Status.STARTED, is_private=False)
        .annotate(filled=Count("seats")).order_by("-started_at")[:10]
    )
    ctx = {
        "person": person,
        "name": display_name(person),
        "guest": is_guest(person),
        "played": played,
        "won": won,
        "by_game": sorted(by_game.values(), key=lambda r: r["name"]),
        "by_house": sorted(by_house.values(), key=lambda r: (r["game"], -r["played"], r["house"])),
        "ratings": rating_rows,
        "recent": _game_rows(Game.objects.filter(pk__in=[g.pk for g in recent]).order_by("-finished_at", "-pk"), request.user),
        "running": running,
    }
    return render(request, "archive/player.html", ctx)


# --- leaderboards ----------------------------------------------------------------------------------------
def leaderboard(request: HttpRequest, ruleset: str | None = None) -> HttpResponse:
    """``/leaderboard/<ruleset>/`` (``/leaderboard/``: the first ruleset): the 100 best ratings."""
    if ruleset is None:
        return redirect("leaderboard_ruleset", ruleset=next(iter(REGISTRY)))
    if ruleset not in REGISTRY:
        raise Http404("unknown game")
    key = language_key()
    rows = [
        {"rank": i, "name": display_name(r.user), "username": r.user.get_username(), "guest": is_guest(r.user), "score": round(r.score), "games": r.games, "wins": r.wins}
        for i, r in enumerate(ratings.leaderboard(ruleset), start=1)
    ]
    games = [{"id": r, "name": get_ruleset(r).names[key], "current": r == ruleset} for r in REGISTRY]
    ctx = {"rows": rows, "games": games, "ruleset_name": get_ruleset(ruleset).names[key], "system": ratings.system(ruleset)}
    ctx["rule"] = {
        "days": f"{settings.RATING_NEW_ACCOUNT_DAYS:g}", "games": settings.RATING_NEW_ACCOUNT_GAMES,
        "pair": settings.RATING_PAIR_GAMES, "window": f"{settings.RATING_PAIR_DAYS:g}",
    }
    return render(request, "archive/leaderboard.html", ctx)
