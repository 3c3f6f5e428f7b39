"""Telling a table that one of its players opened the rematch of a finished game
(``game/site/rematch.py``, ``game/site/notifications/due.py``): the other players away from the
site are mailed and pushed once per rematch, from the commit of the "Play again" that opened it;
a player with a page open is looked at again later; a player already seated, a rematch no longer
open and a mail switched off get nothing. Mails through Django's locmem backend, pushes to a real
HTTP server playing the push service (``push_helpers``)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from game.models import Game, Lobby, MailSent, NotificationPrefs, PushSubscription, display_name
from game.site import webpush
from game.site.notifications.due import check_game

from .live_helpers import start_game
from .push_helpers import Browser, push_on, push_service  # noqa: F401 (fixtures)
from .test_notification_mails import confirm_address

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mails(inline_mails):
    """Mails on and sent inline (``inline_mails``)."""


def _finished_table(make_lobby, players: int = 3):
    """A finished game of ``players`` people with confirmed addresses: ``(game, {house: user})``."""
    game, users = start_game(make_lobby, players=players)
    for house, user in users.items():
        confirm_address(user, f"{house}@example.org")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result={"winner": "stark"})
    game.refresh_from_db()
    return game, users


def _play_again(client_for, game, user):
    r = client_for(user).post(reverse("game_rematch", args=[game.pk]))
    assert r.status_code == 302
    return Lobby.objects.get(rematch_of=game)


def _rematch_mails(outbox) -> list:
    return [m for m in outbox if "wants to play" in m.subject]


def test_the_players_away_are_mailed_and_pushed_once_when_the_rematch_opens(push_on, push_service, make_lobby, client_for, mailoutbox):
    push_on.WEBPUSH_INSECURE, push_on.WEBPUSH_HOSTS = True, ["127.0.0.1"]
    game, users = _finished_table(make_lobby)
    asker, *others = users.values()
    browser = Browser()
    PushSubscription.objects.create(user=others[0], endpoint=push_service.url + "/ok/phone", language="zh-hans", **browser.keys)
    mailoutbox.clear()  # the end mails

    again = _play_again(client_for, game, asker)  # the mails and pushes go from its commit
    webpush.wait_for_pushes()
    name = display_name(asker)
    mails = _rematch_mails(mailoutbox)
    assert sorted(m.to[0] for m in mails) == sorted(u.email for u in others)  # not the asker
    assert mails[0].subject == f"{name} wants to play Test lobby again"
    assert f"https://play.example.org/game/{game.pk}/" in mails[0].body  # its "Play again" seats them
    assert "/accounts/notifications/unsubscribe/" in mails[0].body
    assert [path for path, _, _ in push_service.received] == ["/ok/phone"]
    assert browser.decrypt(push_service.received[0][2]) == {
        "title": "再来一局？", "body": f"{name} 想再玩一局“Test lobby”。", "url": f"/game/{game.pk}/", "tag": f"gotweb-rematch-{game.pk}",
    }
    assert set(MailSent.objects.filter(game=game, kind="rematch").values_list("user_id", "decision")) == {(u.pk, again.pk) for u in others}
    assert MailSent.objects.get(game=game, kind="rematchp").user == others[0]

    # checked again (the sweep, a second "Play again" by someone seated): nothing sent twice
    _play_again(client_for, game, others[0])
    assert check_game(game.pk, now=time.time() + 5000) is None
    webpush.wait_for_pushes()
    assert len(_rematch_mails(mailoutbox)) == 2 and len(push_service.received) == 1


def test_a_player_with_a_page_open_is_told_once_it_is_closed(make_lobby, client_for, mailoutbox, settings):
    from game.live.ratelimit import SocketSlot

    game, users = _finished_table(make_lobby)
    asker, here, away = users.values()
    slot = SocketSlot(f"u{here.pk}", 20, settings.LIVE_SOCKET_LEASE)
    assert slot.acquire()
    _play_again(client_for, game, asker)
    assert [m.to[0] for m in _rematch_mails(mailoutbox)] == [away.email]
    now = time.time()
    due = check_game(game.pk, now=now)
    assert due is not None and due > now  # on the site (its game page offers the rematch): later
    slot.release()
    assert check_game(game.pk, now=due) is None
    assert [m.to[0] for m in _rematch_mails(mailoutbox)] == [away.email, here.email]


def test_nobody_is_told_of_a_rematch_they_joined_or_that_is_no_longer_open(make_lobby, client_for, mailoutbox, settings):
    from game.live.ratelimit import SocketSlot
    from game.site import lobbies

    game, users = _finished_table(make_lobby, players=4)
    asker, joined, here, off = users.values()
    NotificationPrefs.objects.filter(user=off).update(rematch_mail=False)
    slots = [SocketSlot(f"u{u.pk}", 20, settings.LIVE_SOCKET_LEASE) for u in (joined, here)]
    assert all(s.acquire() for s in slots)
    again = _play_again(client_for, game, asker)
    _play_again(client_for, game, joined)  # seated before their page closed
    assert _rematch_mails(mailoutbox) == []  # "off" switched this mail off
    for s in slots:
        s.release()
    lobbies.cancel_lobby(again.pk, asker)
    assert check_game(game.pk, now=time.time() + 5000) is None
    assert _rematch_mails(mailoutbox) == []  # "here" left after it was called off: nothing to join


def test_the_mail_settings_page_switches_the_rematch_mail(make_lobby, client_for):
    game, users = _finished_table(make_lobby)
    user = next(iter(users.values()))
    c = client_for(user)
    page = c.get(reverse("notifications")).content.decode()
    assert 'name="rematch_mail"' in page and "asks to play it again" in page
    r = c.post(reverse("notifications"), {"email": user.email, "turn_mail": "on", "end_mail": "on", "deadline_mail": "on"})
    assert r.status_code == 302 and NotificationPrefs.objects.get(user=user).rematch_mail is False
    r = c.post(reverse("notifications"), {"email": user.email, "rematch_mail": "on"})
    prefs = NotificationPrefs.objects.get(user=user)
    assert prefs.rematch_mail is True and not prefs.turn_mail


def test_the_sweep_finds_the_open_rematch_of_a_game_finished_long_ago(make_lobby, client_for, mailoutbox, settings):
    """A player on the site when the rematch opened is looked at again by the sweep too, even
    when the game finished more than a day ago (the sweep's window for end mails)."""
    from datetime import timedelta

    from django.utils import timezone

    from game.live.ratelimit import SocketSlot
    from game.site.notifications.worker import sweep, sweep_ids

    game, users = _finished_table(make_lobby)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(days=3))
    assert game.pk not in sweep_ids()
    asker, here, away = users.values()
    slot = SocketSlot(f"u{here.pk}", 20, settings.LIVE_SOCKET_LEASE)
    assert slot.acquire()
    again = _play_again(client_for, game, asker)
    assert [m.to[0] for m in _rematch_mails(mailoutbox)] == [away.email]
    slot.release()
    assert game.pk in sweep_ids()
    sweep()
    assert [m.to[0] for m in _rematch_mails(mailoutbox)] == [away.email, here.email]
    Lobby.objects.filter(pk=again.pk).update(status=Lobby.Status.CANCELLED)
    assert game.pk not in sweep_ids()
