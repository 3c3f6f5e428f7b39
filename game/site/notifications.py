"""Telling players about their games away from the game page: mails and the "My games" badge hints.

**Mails.** "Your turn in <game>" when a game awaits a person's decision, they have not acted
for ``NOTIFY_MAIL_AFTER`` seconds (default 300; at once in a correspondence game,
:func:`game.live.deadlines.is_correspondence`) and they have no socket of the site open
(:func:`connected`: a page of the site open tells them itself; the check is made again later), and "<game> has ended" when it ends. At most one
mail per game, person and awaited decision: a :class:`~game.models.MailSent` row is written
(unique on game, user, kind and decision) before the mail goes, so two processes never both send
it. A decision is identified by the version since which the seat's pending decisions have been
what they are (``Game.decisions_since``). No mail to guests, bots, seats a stand-in bot plays,
people without an address, or people who switched that kind off (the preference page
``/accounts/notifications/``, or the signed unsubscribe link of every mail, which needs no login).

**When.** Nothing is sent inside an act's transaction or on its path: after every commit,
:data:`game.live.signals.game_committed` hands the game to this process's mail worker (one daemon
thread, :class:`Worker`), which sends what is due and keeps a timer for what will be due later.
``NOTIFY_IN_THREAD = False`` runs the same work in the committing thread after the commit (tests);
``NOTIFY_MAILS = False`` sends no mail at all (the test session's default: its own tests turn it on).
:func:`sweep` checks every running game (``python manage.py notify_sweep``), for what a process
that stopped had still to send. A mail server that fails is logged; play goes on, and that
decision's mail is not retried.

**Badge hints.** After every commit, each player whose count of awaiting games may have changed
is told (:func:`tell_players`, :func:`game.live.notify.user_games_changed`); their lobby-list
socket counts again.

The mails go through Django's e-mail framework: ``EMAIL_URL`` (django-environ's ``email_url``,
default the console backend), ``DEFAULT_FROM_EMAIL``, links made absolute with ``SITE_URL``.
"""

from __future__ import annotations

import heapq
import math
import logging
import queue
import threading
import time

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, close_old_connections, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from game.live import notify
from game.live.deadlines import is_correspondence
from game.live.ratelimit import open_sockets
from game.models import Game, MailSent, NotificationPrefs, Seat, is_guest, language_key

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "gotweb.notifications.unsubscribe"
TURN, END = "turn", "end"


def mail_after() -> float:
    """Seconds a person must have been awaited before the turn mail (``NOTIFY_MAIL_AFTER``, 300)."""
    return float(getattr(settings, "NOTIFY_MAIL_AFTER", 300))


# --- who is awaited ---------------------------------------------------------------------------------
def awaited_people(game: Game, seats: dict[str, int]) -> set[int]:
    """User ids of the people ``game`` awaits now: seats in ``awaited_since`` held by a person
    (``seats``: ``{house: user id}`` of people's seats) and not played by a stand-in bot."""
    if game.status != Game.Status.RUNNING:
        return set()
    stand_ins = game.stand_ins or {}
    return {seats[h] for h in (game.awaited_since or {}) if h in seats and h not in stand_ins}


def people_seats(lobby_id: int) -> dict[str, int]:
    """``{house: user id}`` of the people's seats of a lobby (bots left out)."""
    return dict(Seat.objects.filter(lobby_id=lobby_id, bot="").exclude(house="").values_list("house", "user_id"))


# --- mails -------------------------------------------------------------------------------------------------
def unsubscribe_token(user_id: int) -> str:
    """A signed token (Django's signing, the site's ``SECRET_KEY``) naming the user: the
    unsubscribe link's proof, valid without login and without expiry."""
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT, compress=True)


def _absolute(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://127.0.0.1:8000").rstrip("/") + path


def _prefs(user) -> NotificationPrefs:
    return NotificationPrefs.objects.filter(user=user).first() or NotificationPrefs(user=user)


def connected(user) -> bool:
    """Whether ``user`` has a socket of the site open now (a game page, the front page, any page
    with the header's badge), counted across processes by the live sockets' cap
    (:func:`game.live.ratelimit.open_sockets`)."""
    return open_sockets(f"u{user.pk}") > 0


def _may_mail(user, kind: str) -> NotificationPrefs | None:
    """The person's preferences when they may be mailed about ``kind``, else None."""
    if not user.email or is_guest(user) or getattr(getattr(user, "profile", None), "is_bot", False):
        return None
    prefs = _prefs(user)
    return prefs if (prefs.turn_mail if kind == TURN else prefs.end_mail) else None


def _send_once(game: Game, user, kind: str, decision: int) -> bool:
    """Send ``kind``'s mail about ``game`` to ``user`` unless one was sent for this decision;
    True when this call sent it. Mail server failures are logged, never raised."""
    prefs = _may_mail(user, kind)
    if prefs is None:
        return False
    try:
        with transaction.atomic():
            record = MailSent.objects.create(game=game, user=user, kind=kind, decision=decision)
    except IntegrityError:  # sent already (here or by another process)
        return False
    game_url = _absolute(reverse("game_play", args=[game.pk]))
    unsubscribe = _absolute(reverse("notifications_unsubscribe", args=[unsubscribe_token(user.pk)]))
    with translation.override(prefs.language or "en"):
        name = game.lobby.name
        if kind == TURN:
            subject = _("Your turn in %(game)s") % {"game": name}
            lead = _("The game %(game)s is waiting for your decision.") % {"game": name}
        else:
            subject = _("%(game)s has ended") % {"game": name}
            lead = _("The game %(game)s is over. See how it ended:") % {"game": name}
        body = "\n\n".join(
            [
                lead,
                game_url,
                _("Mail settings: %(url)s") % {"url": _absolute(reverse("notifications"))},
                _("Stop these mails: %(url)s") % {"url": unsubscribe},
            ]
        )
    mail = EmailMessage(
        subject,
        body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    try:
        mail.send()
    except Exception:
        log.exception("could not send the %s mail of game %s to user %s", kind, game.pk, user.pk)
        return False
    MailSent.objects.filter(pk=record.pk).update(ok=True)
    return True


def check_game(game_id: int, now: float | None = None) -> float | None:
    """Send the mails ``game_id`` owes now (read fresh from the database); returns the unix time
    when its next turn mail falls due, or None."""
    now = time.time() if now is None else now
    game = Game.objects.defer("snapshot").select_related("lobby").filter(pk=game_id).first()
    if game is None:
        return None
    seats = Seat.objects.filter(lobby_id=game.lobby_id, bot="").exclude(house="").select_related("user__profile")
    by_house = {s.house: s.user for s in seats}
    if game.status == Game.Status.FINISHED:
        for user in by_house.values():
            _send_once(game, user, END, 0)
        return None
    after = 0.0 if is_correspondence(game) else mail_after()
    since = game.decisions_since or {}
    stand_ins = game.stand_ins or {}
    next_due = None
    for house, waited_from in (game.awaited_since or {}).items():
        user = by_house.get(house)
        if user is None or house in stand_ins:
            continue
        due = float(waited_from) + after
        if due <= now and connected(user):  # on the site: the page and its badge tell them
            due = now + max(mail_after(), 60.0)  # look again later
        if due <= now:
            _send_once(game, user, TURN, int(since.get(house, 0)))
        else:
            next_due = due if next_due is None else min(next_due, due)
    return next_due


def sweep(now: float | None = None) -> int:
    """:func:`check_game` for every running game awaiting someone, and the end mails of games that
    finished in the last day; returns the number of games checked."""
    from datetime import timedelta

    from django.utils import timezone

    ids = list(Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", flat=True))
    ids += Game.objects.filter(status=Game.Status.FINISHED, updated_at__gte=timezone.now() - timedelta(days=1)).values_list(
        "pk", flat=True
    )
    for game_id in ids:
        check_game(game_id, now)
    return len(ids)


# --- badge hints (in the committing thread) and the worker (mails) ------------------------------------
_LAST_AWAITED: dict[int, set[int]] = {}
_SEATS: dict[int, dict[str, int]] = {}  #: ``lobby id -> {house: user id}``: seats do not change once a game runs
_REMEMBER_MAX = 4096


def _people_seats_cached(lobby_id: int) -> dict[str, int]:
    seats = _SEATS.get(lobby_id)
    if seats is None:
        if len(_SEATS) >= _REMEMBER_MAX:
            _SEATS.clear()
        seats = _SEATS[lobby_id] = people_seats(lobby_id)
    return seats


def seat_saved(sender, instance: Seat, **kwargs) -> None:
    """``post_save``/``post_delete`` of a seat (a moderator gave it to someone else): this
    process reads that lobby's seats again (other processes keep theirs until they restart; their
    hints may then miss the new player, whose count is still right when their socket asks)."""
    _SEATS.pop(instance.lobby_id, None)


def forget() -> None:
    """Drop this process's memory of seats and awaited players (tests, whose databases reuse ids)."""
    _SEATS.clear()
    _LAST_AWAITED.clear()


def tell_players(game: Game) -> None:
    """Badge hints after a committed change of ``game``: each person whose set of awaiting games
    changed (they became awaited, or stopped being), every player when the game ends or this
    process has not seen the game before, is told (:func:`game.live.notify.user_games_changed`).
    Runs in the committing thread: a dict look-up and a set difference (the seats are read once
    per game and process), so its hints go out with the game's own (held, then published)."""
    fresh = game.lobby_id not in _SEATS  # first seen, or its seats changed hands: tell everyone
    seats = _people_seats_cached(game.lobby_id)
    awaited = awaited_people(game, seats)
    before = _LAST_AWAITED.get(game.pk)
    if len(_LAST_AWAITED) >= _REMEMBER_MAX:
        _LAST_AWAITED.clear()
    _LAST_AWAITED[game.pk] = awaited
    if fresh or before is None or game.status != Game.Status.RUNNING:
        changed = set(seats.values()) | (before or set())
    else:
        changed = before ^ awaited
    if changed:
        notify.user_games_changed(sorted(changed))


def on_game_forgotten(sender, game_id: int, **kwargs) -> None:
    """Receiver of :data:`game.live.signals.game_forgotten`: this process no longer keeps
    ``game_id`` (its next commit here tells every player, as a game first seen does)."""
    _LAST_AWAITED.pop(game_id, None)


def due_later(game: Game, now: float | None = None) -> float | None:
    """From the committed row alone (no query): the unix time when the first turn mail of
    ``game`` may fall due, when none can be due now (a running game, not by correspondence,
    whose awaited seats have all waited less than ``NOTIFY_MAIL_AFTER``); else None, and
    :func:`check_game` must look now. The worker then keeps a timer instead of reading the
    game and its seats after every act (bots' seats count too: their timer only looks early)."""
    now = time.time() if now is None else now
    if game.status != Game.Status.RUNNING or is_correspondence(game) or game.awaited_since is None:
        return None
    stand_ins = game.stand_ins or {}
    dues = [float(t) + mail_after() for h, t in game.awaited_since.items() if h not in stand_ins]
    if not dues:
        return math.inf  # nobody awaited but stand-ins: nothing can fall due before another commit
    first = min(dues)
    return first if first > now else None


def after_commit(game: Game) -> float | None:
    """The mails a committed change of ``game`` makes due (:func:`check_game`)."""
    return check_game(game.pk)


class Worker:
    """One daemon thread per process: takes committed games from a queue (a burst of commits of
    one game is checked once), sends their due mails (:func:`check_game`), and wakes again when
    a game's next turn mail falls due. A committed row that shows no mail can be due yet
    (:func:`due_later`) sets that timer without reading the database. Timers live in memory: a restarted process forgets them
    (``manage.py notify_sweep`` catches up)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[int] = queue.Queue()
        self.timers: list[tuple[float, int]] = []
        self.scheduled: dict[int, float] = {}
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.busy = 0

    def submit(self, game: Game) -> None:
        with self.lock:
            self.busy += 1
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="gotweb-notify", daemon=True)
                self.thread.start()
        self.queue.put(game)

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until every submitted game has been handled (tests); True when it was."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.busy == 0:
                return True
            time.sleep(0.02)
        return False

    def _run(self) -> None:
        while True:
            wait = None
            if self.timers:
                wait = max(0.0, self.timers[0][0] - time.time())
            try:
                items = [self.queue.get(timeout=wait)]
            except queue.Empty:
                items = []
            while True:  # a burst of commits: each game is checked once
                try:
                    items.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if items:
                latest = {}
                for item in items:
                    latest[item.pk] = item
                ids = []
                for game_id, item in latest.items():
                    due = due_later(item)
                    if due is None:
                        ids.append(game_id)
                    elif due != math.inf and not (game_id in self.scheduled and self.scheduled[game_id] <= due + 0.5):
                        self.scheduled[game_id] = due + 0.5
                        heapq.heappush(self.timers, (due + 0.5, game_id))
            else:
                at, game_id = heapq.heappop(self.timers)
                if self.scheduled.get(game_id) != at:
                    continue  # superseded by an earlier timer of that game
                del self.scheduled[game_id]
                ids = [game_id]
            try:
                for game_id in ids:
                    due = check_game(game_id)
                    if due is not None and not (game_id in self.scheduled and self.scheduled[game_id] <= due + 0.5):
                        self.scheduled[game_id] = due + 0.5  # one timer per game, the earliest
                        heapq.heappush(self.timers, (due + 0.5, game_id))
            except Exception:
                log.exception("notification worker failed")
            finally:
                with self.lock:
                    self.busy -= len(items)
                close_old_connections()


WORKER = Worker()


def on_game_committed(sender, game: Game, **kwargs) -> None:
    """Receiver of :data:`game.live.signals.game_committed`: the badge hints at once
    (:func:`tell_players`), the mails in the worker thread (``NOTIFY_IN_THREAD``, default) or
    here after the commit. Never raises."""
    try:
        tell_players(game)
    except Exception:
        log.exception("badge hints failed for game %s", game.pk)
    if not getattr(settings, "NOTIFY_MAILS", True):
        return
    copy = Game(
        pk=game.pk, lobby_id=game.lobby_id, version=game.version, status=game.status,
        awaited_since=game.awaited_since, stand_ins=game.stand_ins, time_control=game.time_control,
    )
    if getattr(settings, "NOTIFY_IN_THREAD", True):
        WORKER.submit(copy)
    else:
        try:
            after_commit(copy)
        except Exception:
            log.exception("notifications failed for game %s", game.pk)


# --- pages -------------------------------------------------------------------------------------------------
class NotificationForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False, max_length=254)
    turn_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game awaits my decision"), required=False)
    end_mail = forms.BooleanField(label=gettext_lazy("Mail me when a game of mine ends"), required=False)


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/``: the address and the kinds of mail (registered users; a guest
    is told to keep their account first). Saving also records the page's language for the mails."""
    guest = is_guest(request.user)
    prefs = _prefs(request.user)
    if request.method == "POST" and not guest:
        form = NotificationForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            with transaction.atomic():
                request.user.email = d["email"]
                request.user.save(update_fields=["email"])
                prefs.turn_mail, prefs.end_mail, prefs.language = d["turn_mail"], d["end_mail"], language_key()
                prefs.save()
            messages.success(request, _("Your mail settings are saved."))
            return redirect("notifications")
    else:
        form = NotificationForm(initial={"email": request.user.email, "turn_mail": prefs.turn_mail, "end_mail": prefs.end_mail})
    return render(request, "accounts/notifications.html", {"form": form, "guest": guest})


@csrf_exempt  # the signed token is the proof; mail clients' one-click unsubscribe posts without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """``/accounts/notifications/unsubscribe/<token>/``: GET shows a button, POST switches every
    mail off for the token's user (RFC 8058 one-click posts here too). A token that does not verify
    (tampered, or from another site) is answered 400 and changes nothing. No login needed."""
    try:
        user_id = int(signing.loads(token, salt=UNSUBSCRIBE_SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"bad": True}, status=400)
    done = False
    if request.method == "POST":
        NotificationPrefs.objects.update_or_create(user=user, defaults={"turn_mail": False, "end_mail": False})
        done = True
    return render(request, "accounts/unsubscribe.html", {"bad": False, "done": done})
