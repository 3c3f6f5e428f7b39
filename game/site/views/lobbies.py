"""The lobbies' pages: the list of open lobbies and of games to watch, one lobby's page (and
its live part, fetched by the page's script), the invite link, and a lobby's actions: create,
join, leave, kick, add a bot, start, cancel.

Actions accept POST only (with Django's CSRF check). A refused operation
(:class:`game.site.lobbies.LobbyError`) is shown to the player in plain words, beside its field
when it concerns one, and changes nothing. Wrong lobby passwords are limited per client IP and
lobby (``THROTTLE_LOBBY_PASSWORD``, :mod:`game.site.throttle`): over the limit the page answers
429, nothing is written and no password is checked.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.live import access, vacancies
from game.live.clients import client_ip
from game.models import Lobby, Seat, display_name, is_guest, language_key
from game.options import game_choices, ruleset_description, seat_words
from game.rules import REGISTRY, get_ruleset

from .. import bot_games, lobbies, rematch
from ..forms import JoinForm, LobbyCreateForm, wait_message
from ..throttle import Throttle, too_many


# --- lists -------------------------------------------------------------------------------------
def lobby_list(request: HttpRequest) -> HttpResponse:
    open_lobbies = (
        Lobby.objects.filter(status=Lobby.Status.OPEN)
        .filter(Q(is_private=False) | ~Q(password=""))
        .annotate(filled=Count("seats"))
        .select_related("creator__profile")[:100]
    )
    mine = rematches = []
    if request.user.is_authenticated:
        rematches = rematch.waiting_for(request.user)
        # the count is of every seat: filtering on the user's seat through the same join would
        # count only theirs ("1 / 2 players"), so the user's lobbies are picked by a subquery
        mine = (
            Lobby.objects.filter(
                pk__in=Seat.objects.filter(user=request.user).values("lobby_id"),
                status__in=[Lobby.Status.OPEN, Lobby.Status.STARTED],
            )
            .annotate(filled=Count("seats"))
            .order_by("-created_at")[:50]
        )
    key = language_key()
    seats_to_take = [
        {"game": g, "seats": [g.rules.seat_names().get(s, {}).get(key, s) for s in seats], "ruleset": g.rules.names[key]}
        for g, seats in vacancies.listed()
    ]
    ctx = {
        "open_lobbies": open_lobbies,
        "my_lobbies": mine,
        "rematches": rematches,
        "games": game_choices(),
        "seats_to_take": seats_to_take,
        "bot_games": [
            {"id": r, "players": n, "name": get_ruleset(r).names[key]} for r, n in bot_games.choices()
        ],
    }
    return render(request, "game/lobby_list.html", ctx)


def spectate_list(request: HttpRequest) -> HttpResponse:
    """The public games being played, newest first (at most 100), each with who plays it (its
    seats' display names, bots included) and when it started."""
    games = list(
        Lobby.objects.filter(status=Lobby.Status.STARTED, is_private=False)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .order_by("-started_at")[:100]
    )
    for lobby in games:
        lobby.player_names = [display_name(s.user) for s in lobby.seats.all()]
        lobby.filled = len(lobby.player_names)
    return render(request, "game/spectate_list.html", {"games": games})



# --- one lobby ---------------------------------------------------------------------------------
def _invited(request: HttpRequest, lobby: Lobby) -> bool:
    return access.invited(request.session, lobby.pk)


def _visible_lobby(request: HttpRequest, pk: int) -> Lobby:
    """The lobby, if this visitor may see it or may still join it by its password (a private lobby
    with a password, open: its page then shows the join form, not who sits there); else 404."""
    lobby = get_object_or_404(Lobby, pk=pk)
    if not access.may_see(lobby, request.user, request.session) and not (lobby.is_open and lobby.has_password):
        raise Http404("private lobby")
    return lobby


def _lobby_context(request: HttpRequest, lobby: Lobby, join_form: JoinForm | None = None) -> dict:
    # a private lobby's seats only for those who may see it (game.live.access.may_see)
    locked = not access.may_see(lobby, request.user, request.session)
    seats = list(lobby.seats.select_related("user__profile"))
    user = request.user
    my_seat = next((s for s in seats if s.user_id == user.pk), None) if user.is_authenticated else None
    is_creator = user.is_authenticated and lobby.creator_id == user.pk
    can_join = lobby.is_open and my_seat is None and len(seats) < lobby.players
    needs_password = lobby.is_private and not _invited(request, lobby)
    if can_join and join_form is None:
        join_form = JoinForm(lobby, needs_password=needs_password)
    rows = [
        {
            "seat": s,
            "player": display_name(s.user),
            "guest": is_guest(s.user),
            "house_name": lobby.house_name(s.house) if s.house else "",
            "is_creator": s.user_id == lobby.creator_id,
            "is_me": s.user_id == user.pk,
        }
        for s in seats
    ]
    show_invite = lobby.is_open and (my_seat is not None or is_creator)
    return {
        "lobby": lobby,
        "locked": locked,
        "rows": [] if locked else rows,
        "empty_seats": range(max(0, lobby.players - len(seats))),
        "bot_levels": lobbies.bot_levels(lobby.ruleset) if is_creator and lobby.is_open else [],
        "random_seat_label": seat_words(lobby.ruleset)["random"],
        "filled": len(seats),
        "my_seat": my_seat,
        "is_creator": is_creator,
        "can_join": can_join,
        "invite_only": can_join and needs_password and not lobby.has_password,
        "join_form": join_form if can_join else None,
        "can_start": is_creator and lobby.is_open and len(seats) >= lobby.players,
        "game_url": "" if lobby.is_open or lobby.play_url == lobby.get_absolute_url() else lobby.play_url,
        "invite_url": request.build_absolute_uri(reverse("lobby_invite", args=[lobby.invite_token]))
        if show_invite
        else "",
    }


def lobby_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A lobby's page. A private lobby: 404 to those who may not see it, except an open one with a
    password, whose page then offers the join form without showing who sits there."""
    lobby = _visible_lobby(request, pk)
    return render(request, "game/lobby_detail.html", _lobby_context(request, lobby))


def lobby_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the lobby page (seats and actions), fetched by the page's script; 404 for
    a private lobby to those who may not see it."""
    lobby = get_object_or_404(Lobby, pk=pk)
    if not access.may_see(lobby, request.user, request.session):
        raise Http404("private lobby")
    return render(request, "game/_lobby_live.html", _lobby_context(request, lobby))


def lobby_invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: remembers in the session that this visitor may join without password."""
    lobby = Lobby.objects.filter(invite_token=token).first()
    if lobby is None or not secrets.compare_digest(lobby.invite_token, token):
        messages.error(request, _("This invite link is not valid."))
        return redirect("lobby_list")
    access.remember_invitation(request.session, lobby.pk)
    return redirect(lobby)


@login_required
def lobby_create(request: HttpRequest) -> HttpResponse:
    """``/lobby/new/?game=<ruleset id>`` (default: the first registered ruleset)."""
    ruleset_id = request.GET.get("game") or next(iter(REGISTRY))
    if ruleset_id not in REGISTRY:
        raise Http404("unknown game")
    # a name ready: "Tywin's game" (the creator may change it)
    who = getattr(request.user, "profile", None) or request.user.get_username()
    default_name = _("%(name)s's game") % {"name": str(who)}
    form = LobbyCreateForm(request.POST or None, ruleset_id=ruleset_id, default_name=default_name)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            lobby = lobbies.create_lobby(
                request.user,
                name=d["name"],
                players=d["players"],
                ruleset=form.ruleset_id,
                options=form.options(),
                is_private=d["is_private"],
                password=d["password"],
                house=d["house"] or lobbies.RANDOM,
                time_control=form.time_control_value(),
            )
        except lobbies.LobbyError as e:
            form.add_error(e.field if e.field in form.fields else None, e.message)
        else:
            return redirect(lobby)
    status = 400 if request.method == "POST" else 200
    rules = get_ruleset(ruleset_id)
    key = language_key()
    games = [{**g, "url": f"{reverse('lobby_create')}?game={g['id']}"} for g in game_choices(ruleset_id)]
    ctx = {"form": form, "ruleset_name": rules.names[key], "games": games,
           "description": ruleset_description(ruleset_id)}
    return render(request, "game/lobby_create.html", ctx, status=status)


@require_POST
@login_required
def lobby_join(request: HttpRequest, pk: int) -> HttpResponse:
    lobby = _visible_lobby(request, pk)
    invited = _invited(request, lobby)
    needs_password = lobby.is_private and not invited
    form = JoinForm(lobby, request.POST, needs_password=needs_password)
    # wrong passwords per client IP and lobby (each check costs the password hasher's time)
    guesses = Throttle("THROTTLE_LOBBY_PASSWORD", client_ip(request), lobby.pk) if needs_password else None
    refused_by = None
    if form.is_valid():
        password = form.cleaned_data.get("password", "")
        if guesses is not None and guesses.blocked():
            form.add_error("password", wait_message(_("Too many wrong passwords for this lobby."), guesses))
            refused_by = guesses
        elif needs_password and lobby.has_password and not lobby.check_password(password):
            guesses.hit()  # the one hash of this request: the join below goes as invited
            form.add_error("password", _("Wrong password."))
        else:
            if needs_password and lobby.has_password:
                # the password is an invitation too (to watch the game should the lobby be full)
                access.remember_invitation(request.session, lobby.pk)
                invited = True
            try:
                lobbies.join_lobby(
                    lobby.pk,
                    request.user,
                    house=form.cleaned_data["house"] or lobbies.RANDOM,
                    password=password,
                    invited=invited,
                )
            except lobbies.LobbyError as e:
                if e.field in form.fields:
                    form.add_error(e.field, e.message)
                else:
                    form.add_error(None, e.message)
            else:
                messages.success(request, _("You have joined the lobby."))
                return redirect(lobby)
    lobby.refresh_from_db()
    ctx = _lobby_context(request, lobby, join_form=form)
    if not ctx["can_join"]:
        # The lobby filled up, started, or this user is already seated: say so at the top.
        for err in form.non_field_errors():
            messages.error(request, err)
    response = render(request, "game/lobby_detail.html", ctx, status=400)
    return too_many(response, refused_by) if refused_by else response


def _lobby_action(request: HttpRequest, pk: int, action, success: str) -> HttpResponse:
    try:
        action()
    except lobbies.LobbyError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, success)
    if Lobby.objects.filter(pk=pk).exists():
        return redirect("lobby_detail", pk=pk)
    return redirect("lobby_list")


@require_POST
@login_required
def lobby_leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: lobbies.leave_lobby(pk, request.user), _("You have left the lobby."))


@require_POST
@login_required
def lobby_kick(request: HttpRequest, pk: int, seat_id: int) -> HttpResponse:
    return _lobby_action(
        request, pk, lambda: lobbies.kick(pk, request.user, seat_id), _("The player has been removed.")
    )


@require_POST
@login_required
def lobby_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the lobby; the creator is then taken straight to the game (the other seated players
    are taken there by the lobby page's script when the push says it started)."""
    response = _lobby_action(request, pk, lambda: lobbies.start_lobby(pk, request.user), _("The game has started!"))
    lobby = Lobby.objects.filter(pk=pk).first()
    if lobby is not None and lobby.status == "started" and lobby.play_url != lobby.get_absolute_url():
        return redirect(lobby.play_url)
    return response


@require_POST
@login_required
def lobby_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: lobbies.cancel_lobby(pk, request.user), _("The lobby was cancelled."))



@require_POST
@login_required
def play_bots(request: HttpRequest) -> HttpResponse:
    """The home page's "Play against bots": a game of ``game`` (a ruleset id of
    :func:`game.site.bot_games.choices`) against bots of ``level``, started, and the player taken
    to its table; a refusal (an unknown game or level, the cap of open lobbies) is a message on
    the home page. At most ``THROTTLE_BOT_GAME_USER`` games per person and ``THROTTLE_BOT_GAME_IP``
    per address in a window (each game's bots think on this server's workers): past either, the
    home page says so and nothing is created."""
    if bot_games_throttled(request):
        return redirect("lobby_list")
    ruleset = request.POST.get("game") or next(iter(bot_games.choices()), ("", 0))[0]
    level = request.POST.get("level") or "basic"
    who = getattr(request.user, "profile", None) or request.user.get_username()
    try:
        lobby, played = bot_games.start_against_bots(
            request.user, ruleset, level, (_("%(name)s against bots") % {"name": str(who)})[: Lobby._meta.get_field("name").max_length]
        )
    except lobbies.LobbyError as e:
        messages.error(request, e.message)
        return redirect("lobby_list")
    if played != level:
        messages.info(request, _("This game has no strong bot yet: basic bots took the seats."))
    return redirect(lobby.play_url)


def bot_games_throttled(request: HttpRequest) -> bool:
    """Count one more game against bots for this person and address; True (with the message
    set) when either is past ``THROTTLE_BOT_GAME_USER`` / ``THROTTLE_BOT_GAME_IP``: each such
    game's bots think on this server's workers."""
    for throttle in (Throttle("THROTTLE_BOT_GAME_USER", request.user.pk), Throttle("THROTTLE_BOT_GAME_IP", client_ip(request))):
        if throttle.limit is not None and (throttle.blocked() or throttle.hit() > throttle.limit[0]):
            messages.error(request, _("You have started many games against bots. Try again later."))
            return True
    return False


@require_POST
@login_required
def lobby_add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    level = request.POST.get("level") or "basic"
    house = request.POST.get("house") or lobbies.RANDOM
    return _lobby_action(
        request, pk, lambda: lobbies.add_bot(pk, request.user, level=level, house=house), _("A bot has taken a seat.")
    )

