"""The live game page (``/game/<id>/``), and taking a seat the table opened there."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from game.live import access, chat_blocks, errors, payloads, replay, vacancies
from game.live.seats import seat_of, seats_info
from game.models import Game, display_name, language_key
from game.rules import IllegalAction
from game.rules import base as contract

from .. import rematch, webpush
from ..archive import replay_config
from ..lobbies import LobbyError
from ..preload import page_preloads, renderer_of
from .lobbies import bot_games_throttled


@never_cache
def game_play(request: HttpRequest, pk: int) -> HttpResponse:
    """``/game/<id>/``: the generic live game page. Players see their seat's view; everyone else
    (anonymous visitors too, for public games) watches as a spectator. The page's script
    (``static/js/live/play.js``) opens ``/ws/game/<id>/`` and mounts the ruleset's renderer.

    For a quick first paint the page carries the viewer's first ``state`` message
    (``#game-state``: the very payload the socket sends that viewer, through the per-viewer
    view), or in replay mode its first step (``#replay-step``, as the step URL answers it), and
    asks the browser for every module and first fetch of the screen at once
    (:mod:`game.site.preload`). It is never cached (it holds the viewer's hidden cards)."""
    game = get_object_or_404(Game.objects.defer("snapshot").select_related("lobby"), pk=pk)
    viewer = seat_of(game, request.user)
    lobby = game.lobby
    if not access.may_see(lobby, request.user, request.session):  # the game socket's rule too
        raise Http404("private game")
    lang = language_key()
    seats = seats_info(game, lang)
    renderer = renderer_of(game.rules)
    ctx = {
        "game": game,
        "lobby": lobby,
        "viewer": viewer,
        "viewer_name": next((s["name"] for s in seats if s["seat"] == viewer), ""),
        "seats": seats,
        "others": [s for s in seats if s["seat"] != viewer],
        "lang": lang,
        "ruleset_name": game.rules.names[lang],
        "config": {
            "renderer": static(renderer),
            "game": game.pk,
            "name": lobby.name,
            "ruleset": game.ruleset,
            "viewer": viewer,
            "lang": lang,
            "seats": seats,
            "socket": f"/ws/game/{game.pk}/",
        },
    }
    ctx["config"]["replay"] = ctx["replay"] = replay_config(request, game, viewer)
    ctx["config"]["table"] = _table_config(request, game)
    ctx["config"]["user"] = request.user.is_authenticated
    ctx["config"]["me"] = display_name(request.user) if request.user.is_authenticated else ""
    if viewer is not None and webpush.enabled():  # the key a player's browser subscribes with
        ctx["config"]["push"] = {"key": webpush.public_key(), "subscribe": reverse("push_subscribe"), "worker": reverse("service_worker")}
    ctx["preload"] = page_preloads(game.rules, lang, "js/live/play.js", renderer, "js/topbar.js")
    ctx["rematch"] = _rematch_state(game, viewer, request.user)
    ctx["first_state"] = ctx["first_step"] = None
    if ctx["replay"]["at"] is None:
        got = payloads.payload_text(game.pk, viewer, lang)
        if got is not None:
            ctx["first_state"] = _script_json(got[1])
    else:  # the replay's first step, as /game/<id>/replay/<at>.json answers it
        text = replay.step_text(game, viewer, lang, ctx["replay"]["at"])
        opened = "true" if replay.is_open(game) else "false"
        ctx["first_step"] = _script_json(f'{{"open":{opened},"latest":{game.version},"state":{text}}}')
    return render(request, "game/play.html", ctx)


def _rematch_state(game: Game, viewer: str | None, user) -> str | None:
    """What a seated person's "Play again" does on a finished game's page
    (:func:`game.site.rematch.button_states`); None while the game runs (the page shows the
    button when the game ends there: ``"new"``) and for a spectator."""
    if viewer is None or game.status != Game.Status.FINISHED:
        return None
    return rematch.button_states([game], user)[game.pk]


def _table_config(request: HttpRequest, game: Game) -> dict:
    """What the page's table panel needs (``static/js/live/table.js``): which votes this game
    offers, the longest pause in minutes, the URLs to take an open seat and to report, the CSRF
    token for the seat's form, the players the visitor hides in chat, its stylesheet."""
    signed_in = request.user.is_authenticated
    return {
        "can_end": contract.can_end_early(game.rules),
        "can_swap": contract.swaps_seats(game.rules),
        "pause_max": max(1, int(settings.GAME_PAUSE_MAX // 60)),
        "take": reverse("take_seat", args=[game.pk, "SEAT"]) if signed_in else "",
        "csrf": get_token(request) if signed_in else "",
        "report": reverse("report") if signed_in else "",
        "hidden": chat_blocks.hidden_list(request.user),
        "css": static("css/table.css"),
    }


def _script_json(text: str) -> str:
    """JSON text made safe inside ``<script type="application/json">`` (as Django's
    ``json_script``: ``<``, ``>`` and ``&`` escaped, so no ``</script>`` can end it early)."""
    return mark_safe(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))



@require_POST
def take_seat(request: HttpRequest, pk: int, seat: str) -> HttpResponse:
    """``POST /game/<id>/take/<seat>/``: the visitor takes a seat the table opened (a replaced
    player's, :func:`game.live.vacancies.fill_seat`); back to the game page, as its player. A
    visitor who is not logged in goes to the login page first; a refusal is told on the page
    (nothing changed)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game_play", args=[pk]))
    try:
        vacancies.fill_seat(pk, request.user, seat, request.session)
    except IllegalAction as e:
        if e.code == "game.not_found":
            raise Http404("no such game") from None
        messages.error(request, errors.from_illegal(e)["message"])
    else:
        messages.success(request, _("The seat is yours: take it back from the bot when you are ready."))
    return redirect("game_play", pk=pk)


@require_POST
def game_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """``POST /game/<id>/rematch/``: "Play again" on a finished game's page (:mod:`game.site.rematch`):
    the first player opens the rematch's lobby, the others are seated in it; the player is taken to
    the lobby, or to the new game's table when the table was them and bots (counted as a game
    against bots: :func:`game.site.views.lobbies.bot_games_throttled`). A refusal (the game not
    over, a visitor who held no seat, the rematch started without them) is a message on the
    game's page; a private game's page is a 404 to those who may not see it."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game_play", args=[pk]))
    game = get_object_or_404(Game.objects.defer("snapshot").select_related("lobby"), pk=pk)
    if not access.may_see(game.lobby, request.user, request.session):
        raise Http404("private game")
    starts_now = rematch.player_of(game, request.user) and rematch.only_bots_besides(game, request.user)
    if starts_now and rematch.rematch_of(game) is None and bot_games_throttled(request):
        return redirect("game_play", pk=pk)
    try:
        lobby = rematch.play_again(pk, request.user)
    except LobbyError as e:
        messages.error(request, e.message)
        return redirect("game_play", pk=pk)
    access.remember_invitation(request.session, lobby.pk)  # a private rematch: its page is theirs to see
    return redirect(lobby.play_url)
