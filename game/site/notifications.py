"""Telling players about their games away from the game page: mails and the "My games" badge hints.

**Mails.** "Your turn in <game>" when a game awaits a person's decision, they have not acted
for ``NOTIFY_MAIL_AFTER`` seconds (default 300; at once in a correspondence game,
:func:`game.live.deadlines.is_correspondence`) and they have no socket of the site open
(:func:`connected`: a page of the site open tells them itself; the check is made again later);
in a correspondence game, "your deadline in <game> is in 2 hours" once the decision's deadline is
``NOTIFY_DEADLINE_WARNING`` seconds away (default 7200; only when a decision has more time than
that, sent whether or not a page is open: it is the last call before the stand-in bot plays the
seat, and an open tab is no proof of attention); and "<game> has ended" when it ends. At most one
mail of each kind per game, person and awaited decision: a :class:`~game.models.MailSent` row is written
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
:func:`sweep` checks every running game, for what a process that stopped had still to send (its
timers are in memory): each server process sweeps at start and every ``NOTIFY_SWEEP_EVERY``
seconds (default 600; :meth:`Worker.start_sweeps`), and ``python manage.py notify_sweep`` does it
by hand. A mail server that fails is logged; play goes on, and that
decision's mail is not retried.

**Web Push.** A person with a browser subscribed (:mod:`game.site.webpush`) and no page of the
site open is pushed "your turn" as soon as a game awaits them, once per decision (a
:class:`~game.models.MailSent` row of kind ``"push"``, written before the push like a mail's);
guests too, since a push needs no address.

**Badge hints.** After every commit, each player whose count of awaiting games may have changed
is told (:func:`tell_players`, :func:`game.live.notify.user_games_changed`); their lobby-list
socket counts again.

The mails go through Django's e-mail framework: ``EMAIL_URL`` (django-environ's ``email_url``,
default the console backend), ``DEFAULT_FROM_EMAIL``, links made absolute with ``SITE_URL``.
"""

from __future__ import annotations

import asyncio
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
from django.db import IntegrityError, close_old_connections, connections, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.csrf import csrf_exempt

from game.live import notify
from game.live.deadlines import deadline_of, is_correspondence
from game.live.ratelimit import open_sockets
from game.models import Game, MailSent, NotificationPrefs, PushSubscription, Seat, is_guest, language_key

from . import webpush

log = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "gotweb.notifications.unsubscribe"
TURN, END, DEADLINE, PUSH = "turn", "end", "deadline", "push"


def mail_after() -> float:
    """Seconds a person must have been awaited before the turn mail (``NOTIFY_MAIL_AFTER``, 300)."""
    return float(getattr(settings, "NOTIFY_MAIL_AFTER", 300))


def deadline_warning() -> float:
    """Seconds before a correspondence deadline when its player is warned
    (``NOTIFY_DEADLINE_WARNING``, 7200: "your deadline is in 2 hours")."""
    return float(getattr(settings, "NOTIFY_DEADLINE_WARNING", 7200))


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
    wanted = {TURN: prefs.turn_mail, DEADLINE: prefs.deadline_mail, END: prefs.end_mail}[kind]
    return prefs if wanted else None


def _send_once(game: Game, user, kind: str, decision: int, left: float = 0.0) -> bool:
    """Send ``kind``'s mail about ``game`` to ``user`` unless one was sent for this decision;
    True when this call sent it (``left``: the seconds until the deadline, for ``deadline``).
    Mail server failures are logged, never raised."""
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
        elif kind == DEADLINE:
            hours = max(1, round(left / 3600))
            subject = ngettext(
                "Your deadline in %(game)s is in %(n)s hour", "Your deadline in %(game)s is in %(n)s hours", hours
            ) % {"game": name, "n": hours}
            lead = _(
                "The game %(game)s is still waiting for your decision. If you have not decided when your"
                " deadline passes, the stand-in bot plays for you."
            ) % {"game": name}
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


def _push_owed(game: Game, user, decision: int) -> bool:
    """Whether ``user`` has a subscribed browser and was not pushed about this decision yet."""
    return (
        PushSubscription.objects.filter(user=user).exists()
        and not MailSent.objects.filter(game=game, user=user, kind=PUSH, decision=decision).exists()
    )


def _push_once(game: Game, user, decision: int) -> bool:
    """Push "your turn" in ``game`` to ``user``'s browsers unless it was pushed for this decision;
    True when this call pushed it to at least one. Nothing for people without a subscription."""
    if not PushSubscription.objects.filter(user=user).exists():
        return False
    try:
        with transaction.atomic():
            MailSent.objects.create(game=game, user=user, kind=PUSH, decision=decision)
    except IntegrityError:  # pushed already (here or by another process)
        return False
    sent = webpush.send(user, lambda lang: webpush.turn_payload(game, lang))
    if sent:
        MailSent.objects.filter(game=game, user=user, kind=PUSH, decision=decision).update(ok=True)
    return sent > 0


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
    correspondence = is_correspondence(game)
    after = 0.0 if correspondence else mail_after()
    warn = deadline_warning()
    # a decision with no more time than the warning window is not warned about
    warned = correspondence and float((game.time_control or {}).get("per_move", 0)) > warn
    since = game.decisions_since or {}
    stand_ins = game.stand_ins or {}
    push = webpush.enabled()
    next_due = None
    for house, waited_from in (game.awaited_since or {}).items():
        user = by_house.get(house)
        if user is None or house in stand_ins:
            continue
        due = float(waited_from) + after
        if due <= now and connected(user):  # on the site: the page and its badge tell them
            due = now + max(mail_after(), 60.0)  # look again later
        decision = int(since.get(house, 0))
        if push and _push_owed(game, user, decision):
            if not connected(user):
                _push_once(game, user, decision)
            else:  # on the site now: look again later (the page may be closed by then)
                again = now + max(mail_after(), 60.0)
                next_due = again if next_due is None else min(next_due, again)
        if due <= now:
            _send_once(game, user, TURN, int(since.get(house, 0)))
        else:
            next_due = due if next_due is None else min(next_due, due)
        deadline = deadline_of(game, house) if warned else None  # None: paused (vacation) or stopped
        if deadline is not None:
            end = deadline.timestamp()
            if end - warn <= now < end:
                _send_once(game, user, DEADLINE, int(since.get(house, 0)), left=end - now)
            elif now < end - warn:
                next_due = end - warn if next_due is None else min(next_due, end - warn)
    return next_due


def sweep_ids() -> list[int]:
    """Ids of the games a sweep checks: every running game, and the games that finished in the
    last day (their end mails)."""
    from datetime import timedelta

    from django.utils import timezone

    ids = list(Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", flat=True))
    ids += Game.objects.filter(status=Game.Status.FINISHED, updated_at__gte=timezone.now() - timedelta(days=1)).values_list(
        "pk", flat=True
    )
    return ids


def sweep(now: float | None = None) -> int:
    """:func:`check_game` for every game of :func:`sweep_ids`; returns the number of games checked."""
    ids = sweep_ids()
    for game_id in ids:
        check_game(game_id, now)
    return len(ids)


def sweep_every() -> float:
    """Seconds between the worker's own sweeps in a server process (``NOTIFY_SWEEP_EVERY``, 600;
    0: none): what a restarted process forgot (its timers of turn mails and deadline warnings)
    is found again, the first time at start."""
    return float(getattr(settings, "NOTIFY_SWEEP_EVERY", 600))


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
    per game and process), so its hints go out with the game's own (held, then published). On an
    event loop (an act written there, :mod:`game.live.loopwrite`) seats not yet read are read in
    a worker thread, and the hints are then published from the loop (a hint may come a moment
    after the game's own push)."""
    fresh = game.lobby_id not in _SEATS  # first seen, or its seats changed hands: tell everyone
    loop = notify.running_loop() if fresh else None
    if loop is not None:
        read = loop.run_in_executor(None, _people_seats_in_thread, game.lobby_id)
        read.add_done_callback(lambda done: _tell_when_read(game, done))
        return
    _tell(game, _people_seats_cached(game.lobby_id), fresh)


def _tell(game: Game, seats: dict[str, int], fresh: bool) -> None:
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


def _people_seats_in_thread(lobby_id: int) -> dict[str, int]:
    try:
        return _people_seats_cached(lobby_id)
    finally:
        close_old_connections()


def _tell_when_read(game: Game, read: asyncio.Future) -> None:
    """On the event loop, once a worker thread read the seats for :func:`tell_players`."""
    if read.cancelled():  # the loop is closing
        return
    try:
        _tell(game, read.result(), True)
    except Exception:
        log.exception("badge hints failed for game %s", game.pk)


def on_game_forgotten(sender, game_id: int, **kwargs) -> None:
    """Receiver of :data:`game.live.signals.game_forgotten`: this process no longer keeps
    ``game_id`` (its next commit here tells every player, as a game first seen does)."""
    _LAST_AWAITED.pop(game_id, None)


def due_later(game: Game, now: float | None = None) -> float | None:
    """From the committed row alone (no query): the unix time when the first turn mail of
    ``game`` may fall due, when none can be due now (a running game, not by correspondence,
    without Web Push, whose awaited seats have all waited less than ``NOTIFY_MAIL_AFTER``); else
    None, and
    :func:`check_game` must look now. The worker then keeps a timer instead of reading the
    game and its seats after every act (bots' seats count too: their timer only looks early)."""
    now = time.time() if now is None else now
    if game.status != Game.Status.RUNNING or is_correspondence(game) or game.awaited_since is None:
        return None
    if webpush.enabled():  # a push may be owed at once (check_game knows who has a page open)
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
    (:func:`due_later`) sets that timer without reading the database. Timers live in memory: a
    restarted process forgets them, so a server process also sweeps every game at start and every
    ``NOTIFY_SWEEP_EVERY`` seconds (:meth:`start_sweeps`; ``manage.py notify_sweep`` does the same
    by hand)."""

    def __init__(self) -> None:
        self.stopped = False
        self.sweeping = 0.0  # seconds between sweeps once start_sweeps() was called (0: none)
        self.next_sweep = 0.0
        self.queue: queue.Queue[int] = queue.Queue()
        self.timers: list[tuple[float, int]] = []
        self.scheduled: dict[int, float] = {}
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.busy = 0

    def _ensure_thread(self) -> None:
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="gotweb-notify", daemon=True)
            self.thread.start()

    def submit(self, game: Game) -> None:
        with self.lock:
            self.busy += 1
            self._ensure_thread()
        self.queue.put(game)

    def stop(self) -> None:
        """End the thread after what it is doing (tests)."""
        self.stopped = True
        self.queue.put(None)
        if self.thread is not None:
            self.thread.join(30)

    def start_sweeps(self, every: float) -> None:
        """Sweep every ``every`` seconds, the first time at once (a server process calls it on
        start, :meth:`game.apps.GameConfig.ready`): the timers a stopped process held are in no
        database, so what they would have sent is found by the sweep."""
        with self.lock:
            self.sweeping, self.next_sweep = max(5.0, every), time.time()
            self._ensure_thread()

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
            waits = [self.timers[0][0]] if self.timers else []
            if self.sweeping:
                waits.append(self.next_sweep)
            wait = max(0.0, min(waits) - time.time()) if waits else None
            try:
                items = [self.queue.get(timeout=wait)]
            except queue.Empty:
                items = []
            while True:  # a burst of commits: each game is checked once
                try:
                    items.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if self.stopped:
                connections.close_all()  # this thread's own connections
                return
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
            elif self.sweeping and time.time() >= self.next_sweep:
                self.next_sweep = time.time() + self.sweeping
                try:
                    ids = sweep_ids()
                except Exception:  # the database away: the next sweep tries again
                    log.exception("notification sweep failed")
                    close_old_connections()
                    continue
            elif not self.timers:
                continue
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
    deadline_mail = forms.BooleanField(
        label=gettext_lazy("Mail me two hours before my deadline in a correspondence game runs out"), required=False
    )
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
                prefs.deadline_mail = d["deadline_mail"]
                prefs.save()
            messages.success(request, _("Your mail settings are saved."))
            return redirect("notifications")
    else:
        form = NotificationForm(
            initial={"email": request.user.email, "turn_mail": prefs.turn_mail, "deadline_mail": prefs.deadline_mail, "end_mail": prefs.end_mail}
        )
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
        NotificationPrefs.objects.update_or_create(user=user, defaults={"turn_mail": False, "deadline_mail": False, "end_mail": False})
        done = True
    return render(request, "accounts/unsubscribe.html", {"bad": False, "done": done})
