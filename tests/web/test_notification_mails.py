"""The "your turn" and "the game ended" mails, the preference page and the signed
unsubscribe link (``game/site/notifications/``). Mails go through Django's locmem backend
(pytest-django's ``mailoutbox``); games are played through the real apply path, and the mails
are sent from its after-commit hook (``game.live.signals.game_committed``). Only confirmed
addresses are mailed: the players' addresses here are confirmed first (:func:`confirm_address`);
the confirmation itself is ``test_mail_confirmation.py``'s."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from django.core import signing
from django.urls import reverse

from game.live import apply
from game.models import Game, MailSent, NotificationPrefs
from game.site.notifications import mails
from game.site.notifications.due import check_game, due_later
from game.site.notifications.worker import WORKER, Worker, sweep

from .archive_helpers import next_move, play_to_end, start_duke
from .live_helpers import legal_json, start_game


@pytest.fixture(autouse=True)
def _mails(inline_mails):
    """Mails on and sent inline (``inline_mails``)."""


def confirm_address(user, address: str) -> None:
    """``user``'s address is ``address``, confirmed (as its confirmation link would leave it)."""
    user.email = address
    user.save(update_fields=["email"])
    NotificationPrefs.objects.update_or_create(user=user, defaults={"confirmed_email": address})


def _with_addresses(users: dict) -> dict:
    for house, user in users.items():
        confirm_address(user, f"{house}@example.org")
    return users


def _turn_mails(outbox) -> list:
    return [m for m in outbox if m.subject.startswith("Your turn")]


def test_awaited_players_are_mailed_once_per_decision_after_the_wait(make_lobby, mailoutbox, django_capture_on_commit_callbacks):
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    check_game(game.pk)
    assert mailoutbox == []  # awaited only just now: nobody is mailed yet

    later = time.time() + 301
    check_game(game.pk, now=later)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in users)
    mail = mailoutbox[0]
    assert mail.subject == "Your turn in Test lobby"
    assert f"https://play.example.org/game/{game.pk}/" in mail.body
    assert "/accounts/notifications/unsubscribe/" in mail.body
    assert mail.extra_headers["List-Unsubscribe"].startswith("<https://play.example.org/accounts/notifications/unsubscribe/")

    check_game(game.pk, now=later + 1000)  # same decisions: no second mail
    sweep(now=later + 2000)
    assert len(mailoutbox) == 3
    assert MailSent.objects.filter(game=game, kind="turn", ok=True).count() == 3

    # one player places orders (simultaneous): the others' decisions did not change, no new mail
    house = next(iter(users))
    with django_capture_on_commit_callbacks(execute=True):
        apply.act(game.pk, users[house], legal_json(game.pk, house))
    check_game(game.pk, now=time.time() + 10_000)
    assert len(mailoutbox) == 3


def test_a_correspondence_wait_of_zero_mails_from_the_acts_after_commit_hook(
    make_lobby, make_user, mailoutbox, settings, django_capture_on_commit_callbacks
):
    """With no wait (``NOTIFY_MAIL_AFTER = 0``, as a correspondence game), the mail of a new
    decision goes from the commit of the act that made it, once."""
    settings.NOTIFY_MAIL_AFTER = 0
    game, users = start_duke(make_lobby, make_user)
    _with_addresses(users)
    with django_capture_on_commit_callbacks(execute=True):
        actor, action, version = next_move(game.pk)
        apply.act(game.pk, users[actor], action, version)
    game.refresh_from_db()
    awaited = set(game.awaited_since)
    assert awaited and [m.to[0] for m in _turn_mails(mailoutbox)] == [f"{h}@example.org" for h in awaited]
    check_game(game.pk)
    assert len(_turn_mails(mailoutbox)) == 1


def test_no_turn_mail_while_the_player_is_on_the_site(make_lobby, mailoutbox, settings):
    """A player with a socket of the site open (counted by the live sockets' cap, in the cache
    every process shares) is not mailed; once the socket closes, the next check mails them."""
    from game.live.ratelimit import SocketSlot

    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    house = next(iter(users))
    slot = SocketSlot(f"u{users[house].pk}", 20, settings.LIVE_SOCKET_LEASE)
    assert slot.acquire()
    later = time.time() + 301
    due = check_game(game.pk, now=later)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in users if h != house)
    assert due is not None and due > later  # it will look again
    slot.release()
    check_game(game.pk, now=due)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in users)


def test_the_end_of_a_game_is_mailed_once(make_lobby, make_user, mailoutbox, django_capture_on_commit_callbacks):
    game, users = start_duke(make_lobby, make_user)
    _with_addresses(users)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(game.pk, users)
    ended = [m for m in mailoutbox if m.subject == "Test lobby has ended"]
    assert sorted(m.to[0] for m in ended) == sorted(f"{h}@example.org" for h in users)
    check_game(game.pk)
    sweep()
    assert len([m for m in mailoutbox if m.subject == "Test lobby has ended"]) == 2


def test_no_mail_to_guests_people_without_address_or_who_switched_it_off(make_lobby, make_user, mailoutbox):
    game, users = start_game(make_lobby, players=3)
    houses = list(users)
    confirm_address(users[houses[0]], "a@example.org")
    NotificationPrefs.objects.filter(user=users[houses[0]]).update(turn_mail=False)
    # houses[1]: no address; houses[2]: made a guest with a (confirmed) address
    guest = users[houses[2]]
    confirm_address(guest, "g@example.org")
    guest.profile.is_guest = True
    guest.profile.save()
    check_game(game.pk, now=time.time() + 400)
    assert mailoutbox == []
    assert not MailSent.objects.exists()


def test_the_unsubscribe_link_works_without_login_and_refuses_tampering(make_lobby, client, mailoutbox):
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    check_game(game.pk, now=time.time() + 400)
    target = next(m for m in mailoutbox if m.to == [f"{next(iter(users))}@example.org"])
    link = next(line for line in target.body.splitlines() if "/unsubscribe/" in line).split(": ", 1)[1]
    path = link.removeprefix("https://play.example.org")
    user = users[next(iter(users))]

    page = client.get(path)  # not logged in
    assert page.status_code == 200 and b'id="unsubscribe-form"' in page.content
    before = NotificationPrefs.objects.filter(user=user).values().get()
    assert before["turn_mail"] and before["confirmed_email"] == user.email
    assert NotificationPrefs.objects.filter(user=user).values().get() == before  # a GET (a mail scanner) changes nothing

    token = path.rstrip("/").rsplit("/", 1)[1]
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "x", "a" * 400, mails.unsubscribe_token(user.pk) + "x"):
        answer = client.post(reverse("notifications_unsubscribe", args=[bad]))
        assert answer.status_code == 400 and b'id="unsubscribe-bad"' in answer.content
    other = signing.dumps({"u": user.pk}, salt="another purpose")
    assert client.post(reverse("notifications_unsubscribe", args=[other])).status_code == 400
    assert NotificationPrefs.objects.filter(user=user).values().get() == before

    done = client.post(path)  # one click, no session, no CSRF token (RFC 8058's one-click post)
    assert done.status_code == 200 and b'id="unsubscribe-done"' in done.content
    prefs = NotificationPrefs.objects.get(user=user)
    assert not prefs.turn_mail and not prefs.end_mail and not prefs.deadline_mail
    assert prefs.confirmed_email == "" and prefs.confirmed_at is None  # the reader said stop: mails back on need a new link

    mailoutbox.clear()
    MailSent.objects.all().delete()
    check_game(game.pk, now=time.time() + 400)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in list(users)[1:])


DAY = {"kind": "deadline", "per_move": 86400, "vacation": 86400, "max_timeouts": 3}


def _deadline_mails(outbox) -> list:
    return [m for m in outbox if m.subject.startswith("Your deadline") or m.subject.startswith("你在")]


def test_a_correspondence_player_is_warned_two_hours_before_the_deadline_once(make_lobby, make_user, mailoutbox):
    game, users = start_duke(make_lobby, make_user, time_control=DAY)
    _with_addresses(users)
    seat = next(iter(Game.objects.get(pk=game.pk).awaited_since))
    start = time.time()
    due = check_game(game.pk, now=start + 1)
    assert [m.to[0] for m in _turn_mails(mailoutbox)] == [f"{seat}@example.org"]  # your turn, at once
    assert _deadline_mails(mailoutbox) == []
    deadline = Game.objects.get(pk=game.pk).deadline.timestamp()
    assert abs(due - (deadline - 7200)) < 1  # the worker wakes for the warning

    check_game(game.pk, now=deadline - 7300)
    assert _deadline_mails(mailoutbox) == []  # not yet
    check_game(game.pk, now=deadline - 7100)
    warned = _deadline_mails(mailoutbox)
    assert [m.to[0] for m in warned] == [f"{seat}@example.org"]
    assert warned[0].subject == "Your deadline in Test lobby is in 2 hours"
    assert "stand-in bot plays for you" in warned[0].body and f"/game/{game.pk}/" in warned[0].body
    assert "/accounts/notifications/unsubscribe/" in warned[0].body
    for later in (deadline - 3000, deadline - 10):  # once per decision
        check_game(game.pk, now=later)
    sweep(now=deadline - 5)
    assert len(_deadline_mails(mailoutbox)) == 1
    check_game(game.pk, now=deadline + 5)  # past the deadline: the time-out's business
    assert len(_deadline_mails(mailoutbox)) == 1 and MailSent.objects.filter(kind="deadline").count() == 1


def test_no_deadline_warning_when_switched_off_unsubscribed_paused_or_too_short(make_lobby, make_user, mailoutbox, client, settings):
    from game.live import stand_ins

    games = []
    for _ in range(4):
        game, users = start_duke(make_lobby, make_user, time_control=DAY)
        _with_addresses(users)
        games.append((game, users[next(iter(Game.objects.get(pk=game.pk).awaited_since))]))
    (off, off_user), (unsub, unsub_user), (paused, paused_user), (short, _) = games
    NotificationPrefs.objects.filter(user=off_user).update(deadline_mail=False)
    client.post(reverse("notifications_unsubscribe", args=[mails.unsubscribe_token(unsub_user.pk)]))
    stand_ins.set_vacation(paused.pk, paused_user, True)  # the deadline is paused (a day of allowance)
    for game in (off, unsub):
        check_game(game.pk, now=Game.objects.get(pk=game.pk).deadline.timestamp() - 100)
    check_game(paused.pk, now=time.time() + 86400 - 7000)
    settings.NOTIFY_DEADLINE_WARNING = 86400  # a decision with no more time than the window: not warned
    check_game(short.pk, now=Game.objects.get(pk=short.pk).deadline.timestamp() - 100)
    assert _deadline_mails(mailoutbox) == [] and not MailSent.objects.filter(kind="deadline").exists()


def test_the_deadline_warning_in_chinese(make_lobby, make_user, mailoutbox):
    game, users = start_duke(make_lobby, make_user, time_control=DAY)
    _with_addresses(users)
    for user in users.values():
        NotificationPrefs.objects.filter(user=user).update(language="zh-hans")
    deadline = Game.objects.get(pk=game.pk).deadline.timestamp()
    check_game(game.pk, now=deadline - 7000)
    (mail,) = _deadline_mails(mailoutbox)
    assert mail.subject == "你在 Test lobby 的期限还剩 2 小时" and "替补机器人" in mail.body


def test_the_preference_page(make_user, client):
    assert client.get("/accounts/notifications/").status_code == 302  # login first
    alice = make_user("alice")
    client.force_login(alice)
    page = client.get("/accounts/notifications/")
    assert page.status_code == 200 and b'id="notification-form"' in page.content

    for hostile in ({"email": "not an address", "turn_mail": "on"}, {"email": "a@" + "b" * 300 + ".org"}, {"email": ["x@y.org", "<script>"]}):
        answer = client.post("/accounts/notifications/", hostile)
        assert answer.status_code == 200 and b"errorlist" in answer.content
    alice.refresh_from_db()
    assert alice.email == "" and not NotificationPrefs.objects.filter(user=alice).exists()

    answer = client.post("/accounts/notifications/", {"email": "alice@example.org", "end_mail": "on"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 302
    alice.refresh_from_db()
    prefs = NotificationPrefs.objects.get(user=alice)
    assert alice.email == "alice@example.org" and not prefs.turn_mail and prefs.end_mail and prefs.language == "zh-hans"
    assert not prefs.deadline_mail
    client.post("/accounts/notifications/", {"email": "alice@example.org", "deadline_mail": "on"})
    assert NotificationPrefs.objects.get(user=alice).deadline_mail is True


def test_a_guest_cannot_set_an_address(make_user, client):
    guest = make_user("Gus", guest=True)
    client.force_login(guest)
    page = client.get("/accounts/notifications/")
    assert b"Guests cannot get mails" in page.content
    client.post("/accounts/notifications/", {"email": "gus@example.org", "turn_mail": "on"})
    guest.refresh_from_db()
    assert guest.email == ""


def test_mails_follow_the_language_saved_with_the_preferences(make_lobby, mailoutbox):
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    for user in users.values():
        NotificationPrefs.objects.filter(user=user).update(language="zh-hans")
    check_game(game.pk, now=time.time() + 400)
    assert mailoutbox and all(m.subject == "轮到你了：Test lobby" for m in mailoutbox)


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.django_db(transaction=True)
def test_a_failing_mail_server_never_breaks_play(make_lobby, settings, caplog, postgres_only):
    """A real SMTP connection to a closed port: the act is committed and answered, the worker
    thread logs the failure, and that decision's mail is not tried again. The worker thread
    writes while this one acts: real concurrent connections, so it runs on PostgreSQL
    (``tests/web/test_live_postgres.py``; SQLite's shared-cache test database locks)."""
    settings.NOTIFY_IN_THREAD = True
    settings.NOTIFY_MAIL_AFTER = 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", _closed_port(), 5
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    house = next(iter(users))
    with caplog.at_level(logging.ERROR, logger="game.site.notifications"):
        # the game's start was committed (by the test's real transaction): its 3 mails are tried
        check_game(game.pk)  # (the addresses were set after the start's hook ran)
        version = apply.act(game.pk, users[house], legal_json(game.pk, house))
        assert version == 1 and Game.objects.get(pk=game.pk).version == 1
        assert WORKER.idle(timeout=60)
    assert any("could not send the turn mail" in r.getMessage() for r in caplog.records)
    tried = MailSent.objects.filter(game=game, kind="turn")
    assert tried.count() == 3 and not tried.filter(ok=True).exists()  # one per decision, not retried


def test_the_sweep_command_sends_what_is_due_once(make_lobby, mailoutbox, settings):
    from django.core.management import call_command

    settings.NOTIFY_MAIL_AFTER = 0
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    call_command("notify_sweep")
    call_command("notify_sweep")
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in users)


@pytest.mark.django_db(transaction=True)
def test_the_worker_mails_when_the_wait_is_over(make_lobby, settings, mailoutbox, postgres_only):
    """The process's mail thread keeps a timer for a turn mail due later and sends it then, from
    the act's after-commit hook alone (no sweep). The worker thread reads while this one writes:
    real concurrent connections, so it runs on PostgreSQL (``tests/web/test_live_postgres.py``;
    SQLite's shared-cache test database raises "table is locked")."""
    settings.NOTIFY_IN_THREAD = True
    settings.NOTIFY_MAIL_AFTER = 2
    game, users = start_game(make_lobby, players=3)
    _with_addresses(users)
    house = next(iter(users))
    apply.act(game.pk, users[house], legal_json(game.pk, house))  # a commit: the worker looks
    assert WORKER.idle(timeout=60)
    deadline = time.monotonic() + 60
    while len(mailoutbox) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(f"{h}@example.org" for h in users if h != house)
    time.sleep(3)  # and no second mail for the same decisions
    assert len(mailoutbox) == 2


@pytest.mark.django_db(transaction=True)
def test_a_restarted_process_sweeps_at_start(make_lobby, make_user, settings, mailoutbox, postgres_only):
    """A process that stopped took its timers with it: a new server process's worker sweeps every
    game at start (``NOTIFY_SWEEP_EVERY``), so the deadline warning it would have sent goes out,
    once, with no commit in between. Its thread reads while this one waits: PostgreSQL."""
    from game.live import stand_ins  # noqa: F401 (the services the process would run)

    settings.NOTIFY_DEADLINE_WARNING = 86400 - 30  # the warning is due 30 s into the decision
    game, users = start_duke(make_lobby, make_user, time_control=DAY)
    _with_addresses(users)
    check_game(game.pk)  # the old process: the turn mail, and a timer it then lost
    assert len(_deadline_mails(mailoutbox)) == 0
    Game.objects.filter(pk=game.pk).update(clocks={
        seat: {**c, "since": c["since"] - 40} if c.get("since") else c for seat, c in Game.objects.get(pk=game.pk).clocks.items()
    })  # 40 s have passed while no process ran
    worker = Worker()
    try:
        worker.start_sweeps(3600)
        deadline = time.monotonic() + 30
        while not _deadline_mails(mailoutbox) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        worker.stop()
    assert len(_deadline_mails(mailoutbox)) == 1 and len(_turn_mails(mailoutbox)) == 1


def test_the_worker_needs_no_query_while_no_mail_can_be_due(make_lobby, settings):
    """``due_later``: from the committed row alone, when the first turn mail may fall due (the
    worker keeps a timer and reads nothing); None when one may be due now, the game has ended or
    it is played by correspondence (the worker then checks the database)."""
    settings.NOTIFY_MAIL_AFTER = 300
    game, users = start_game(make_lobby, players=3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    now = time.time()
    due = due_later(game, now)
    assert due == min(game.awaited_since.values()) + 300 and due > now
    assert due_later(game, due + 1) is None  # the wait is over: look now
    settings.NOTIFY_MAIL_AFTER = 0
    assert due_later(game, now) is None
    settings.NOTIFY_MAIL_AFTER = 300
    game.time_control = {"kind": "deadline", "hours": 24}
    assert due_later(game, now) is None
    game.time_control, game.status = {}, Game.Status.FINISHED
    assert due_later(game, now) is None
    game.status = Game.Status.RUNNING  # with Web Push a push may be owed at once: look now
    assert due_later(game, now) is not None
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = "pub", "priv"
    assert due_later(game, now) is None
