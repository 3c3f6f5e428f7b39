"""HTTP views: lobby list, spectate list, create / join / leave / kick / start / cancel, and the
accounts pages (register, play as guest, claim a guest account).

Views that change something accept POST only (with Django's CSRF check). A refused operation
(:class:`game.site.lobbies.LobbyError`) is shown to the player in plain words, beside its field when it
concerns one, and changes nothing.

Abuse limits (:mod:`game.site.throttle`): guest accounts per client IP, failed logins per client IP
and per username, wrong lobby passwords per client IP and lobby. Over a limit, the page is answered
with HTTP 429 and the form's message says so; nothing is written and no password is checked.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth import get_user_model, login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from game.live import access, payloads, replay
from game.live.clients import client_ip
from game.live.seats import seat_of, seats_info
from game.models import NAME_TAKEN, Game, Lobby, Profile, Seat, display_name, is_guest, language_key, name_key
from game.options import game_choices, ruleset_description, seat_words
from game.rules import REGISTRY, get_ruleset

from . import lobbies, login_devices
from .throttle import Throttle
from .forms import ClaimForm, GuestForm, JoinForm, LobbyCreateForm, LoginForm, RegisterForm, wait_message
from .preload import page_preloads, renderer_of

User = get_user_model()
TOO_MANY = 429  #: the HTTP status of a request refused by an abuse limit
GUEST_SESSION_SECONDS = 365 * 24 * 3600


def _too_many(response: HttpResponse, throttle: Throttle) -> HttpResponse:
    """Make ``response`` a refusal by an abuse limit: HTTP 429 with ``Retry-After`` (seconds)."""
    response.status_code = TOO_MANY
    response["Retry-After"] = str(throttle.retry_after)
    return response


def _next_url(request: HttpRequest, default: str = "lobby_list") -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    account_pages = {reverse("guest"), reverse("login"), reverse("register")}
    if (
        nxt
        and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure())
        and nxt.split("?")[0] not in account_pages
    ):
        return nxt
    return reverse(default)


# --- lists -------------------------------------------------------------------------------------
def lobby_list(request: HttpRequest) -> HttpResponse:
    open_lobbies = (
        Lobby.objects.filter(status=Lobby.Status.OPEN)
        .filter(Q(is_private=False) | ~Q(password=""))
        .annotate(filled=Count("seats"))
        .select_related("creator__profile")[:100]
    )
    mine = []
    if request.user.is_authenticated:
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
    return render(request, "game/lobby_list.html", {"open_lobbies": open_lobbies, "my_lobbies": mine, "games": game_choices()})


def spectate_list(request: HttpRequest) -> HttpResponse:
    games = (
        Lobby.objects.filter(status=Lobby.Status.STARTED, is_private=False)
        .annotate(filled=Count("seats"))
        .order_by("-started_at")[:100]
    )
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
    form = LobbyCreateForm(request.POST or None, ruleset_id=ruleset_id)
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
    return _too_many(response, refused_by) if refused_by else response


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


# --- accounts ----------------------------------------------------------------------------------
class LoginView(auth_views.LoginView):
    """Django's login page with failed logins limited per client IP (``THROTTLE_LOGIN_IP``) and
    per username (``THROTTLE_LOGIN_USER``; the username up to :func:`game.models.name_key`), both
    counted by :class:`~game.site.forms.LoginForm`. Over either limit the page answers 429 and no
    password is checked. A browser holding the account's device cookie (a login there before,
    :mod:`game.site.login_devices`) is counted per cookie (``THROTTLE_LOGIN_DEVICE``) instead of
    per username, so strangers' guesses do not lock it out; each successful login issues one."""

    form_class = LoginForm

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if self.request.method == "POST":
            username = str(self.request.POST.get("username", ""))[:300]
            throttles = [Throttle("THROTTLE_LOGIN_IP", client_ip(self.request))]
            key = name_key(username)
            if key:
                device = login_devices.device_of(self.request, key)
                trusted = None if device is None else Throttle("THROTTLE_LOGIN_DEVICE", device)
                # a cookie over its own limit counts as none: the username's budget applies
                throttles.append(trusted if trusted is not None and not trusted.blocked() else Throttle("THROTTLE_LOGIN_USER", key))
            kwargs["throttles"] = throttles
        return kwargs

    def form_valid(self, form):
        response = super().form_valid(form)
        login_devices.issue(response, self.request, name_key(form.get_user().get_username()))
        return response

    def form_invalid(self, form):
        response = self.render_to_response(self.get_context_data(form=form))
        blocked = next((t for t in form.throttles if t.blocked()), None)
        if form.has_error(NON_FIELD_ERRORS, "throttled") and blocked is not None:
            _too_many(response, blocked)
        return response


def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated and is_guest(request.user):
        return redirect("claim")
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                Profile.objects.create(user=user, display_name=user.get_username())
        except IntegrityError:  # the same name taken by a simultaneous request
            form.add_error("username", NAME_TAKEN)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.get_username()})
            return redirect(_next_url(request))
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/register.html", {"form": form, "next": _next_url(request)}, status=status)


def guest(request: HttpRequest) -> HttpResponse:
    """Play as guest: a display name is enough; a real user row flagged as guest is created.

    At most ``THROTTLE_GUEST`` guests per client IP and window: past it the page answers 429 and
    creates nothing. The name must not pass for anyone else's (:func:`game.models.name_taken`)."""
    form = GuestForm(request.POST or None)
    status = 400 if request.method == "POST" else 200
    created = Throttle("THROTTLE_GUEST", client_ip(request))
    refused_by = None
    if request.method == "POST" and created.blocked():
        form.is_valid()
        refused_by = created
    elif request.method == "POST" and form.is_valid():
        name = form.cleaned_data["display_name"]
        if created.limit is not None and created.hit() > created.limit[0]:  # counted first: no race past it
            refused_by = created
        else:
            try:
                with transaction.atomic():
                    user = User(username=f"guest-{secrets.token_hex(6)}")
                    user.set_unusable_password()
                    user.save()
                    Profile.objects.create(user=user, is_guest=True, display_name=name)
            except IntegrityError:  # the same name taken by a simultaneous request
                form.add_error("display_name", NAME_TAKEN)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                request.session.set_expiry(GUEST_SESSION_SECONDS)  # the session is the guest's only key
                messages.success(request, _("Hello, %(name)s! You are playing as a guest.") % {"name": name})
                return redirect(_next_url(request))
    if refused_by is not None:
        form.add_error(None, wait_message(_("Too many guest accounts were made from your network."), refused_by))
    response = render(request, "accounts/guest.html", {"form": form, "next": _next_url(request)}, status=status)
    return _too_many(response, refused_by) if refused_by else response


@login_required
def claim(request: HttpRequest) -> HttpResponse:
    """A guest keeps their account: choose a username and a password. The username must not pass
    for another user's name (:func:`game.models.name_taken`)."""
    if not is_guest(request.user):
        messages.info(request, _("Your account already has a password."))
        return redirect("lobby_list")
    form = ClaimForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
                profile = user.profile
                profile.is_guest = False
                profile.save(update_fields=["is_guest"])
        except IntegrityError:  # the same name taken by a simultaneous request
            request.user.refresh_from_db()
            form.add_error("username", NAME_TAKEN)
        else:
            update_session_auth_hash(request, user)
            messages.success(request, _("Your account is saved. Log in as %(name)s next time.") % {"name": user.username})
            return redirect("lobby_list")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/claim.html", {"form": form}, status=status)


# --- live games ----------------------------------------------------------------------------------
@never_cache
def game_play(request: HttpRequest, pk: int) -> HttpResponse:
    """``/game/<id>/``: the generic live game page. Players see their seat's view; everyone else
    (anonymous visitors too, for public games) watches as a spectator. The page's script
    (``static/js/live/play.js``) opens ``/ws/game/<id>/`` and mounts the ruleset's renderer.

    For a quick first paint the page carries the viewer's first ``state`` message
    (``#game-state``: the very payload the socket sends that viewer, through the per-viewer
    view), or in replay mode its first step (``#replay-step``, as the step URL answers it), and
    asks the browser for every module and first fetch of the screen at once (:mod:`.preload`).
    It is never cached (it holds the viewer's hidden cards)."""
    from django.templatetags.static import static

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
    from .archive import replay_config  # the replay mode

    ctx["config"]["replay"] = ctx["replay"] = replay_config(request, game, viewer)
    from . import webpush  # Web Push: the key a player's browser subscribes with

    if viewer is not None and webpush.enabled():
        ctx["config"]["push"] = {"key": webpush.public_key(), "subscribe": reverse("push_subscribe"), "worker": reverse("service_worker")}
    ctx["preload"] = page_preloads(game.rules, lang, "js/live/play.js", renderer, "js/topbar.js")
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


def _script_json(text: str) -> str:
    """JSON text made safe inside ``<script type="application/json">`` (as Django's
    ``json_script``: ``<``, ``>`` and ``&`` escaped, so no ``</script>`` can end it early)."""
    return mark_safe(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


@require_POST
@login_required
def lobby_add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    level = request.POST.get("level") or "basic"
    house = request.POST.get("house") or lobbies.RANDOM
    return _lobby_action(
        request, pk, lambda: lobbies.add_bot(pk, request.user, level=level, house=house), _("A bot has taken a seat.")
    )
