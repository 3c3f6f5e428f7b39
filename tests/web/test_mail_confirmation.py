"""A mail address is confirmed before any game mail goes to it (``game/site/notifications/confirm.py``).

Anyone with an account may type any address on ``/accounts/notifications/``; before, the turn,
deadline and end-of-game mails went straight to it. Now a new or changed address gets one mail
with a signed link (three days), nothing else until the link is opened, and the link's page
confirms only on POST (a mail scanner's GET confirms nothing), only that address, for that user,
while the account still has it. Confirmation mails count against ``THROTTLE_CONFIRM_MAIL`` (default
5 an hour per person and per address), answered like the site's other limits: 429, ``Retry-After``,
a translated "try again in N minutes", nothing written or sent.
"""

from __future__ import annotations

import re
import time

import pytest
from django.apps import apps
from django.core import signing
from django.test import Client
from django.urls import reverse

from game.models import MailSent, NotificationPrefs
from game.site.notifications import confirm, mails
from game.site.notifications.due import check_game

from .live_helpers import start_game

PREFS = "/accounts/notifications/"
SUBJECT = "Confirm your mail address for gotweb"


@pytest.fixture(autouse=True)
def _mails(inline_mails):
    """Mails on and sent inline (``inline_mails``)."""


def _save(client: Client, address: str, **extra):
    return client.post(PREFS, {"email": address, "turn_mail": "on", "deadline_mail": "on", "end_mail": "on"}, **extra)


def _logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _link_path(mail) -> str:
    """The path of the confirmation link in ``mail``."""
    (link,) = [line for line in mail.body.splitlines() if "/accounts/notifications/confirm/" in line]
    assert link.startswith("https://play.example.org/accounts/notifications/confirm/")
    return link.removeprefix("https://play.example.org")


def _state(user) -> tuple:
    """What a refused link must leave as it was: the user's address and their preferences row."""
    user.refresh_from_db()
    return user.email, list(NotificationPrefs.objects.filter(user=user).values())


def _confirms(user) -> bool:
    user.refresh_from_db()
    return mails.confirmed(user)


def test_a_changed_address_gets_one_confirmation_mail_and_no_game_mail_until_confirmed(make_lobby, mailoutbox):
    game, users = start_game(make_lobby, players=3)
    user = next(iter(users.values()))
    client = _logged_in(user)

    answer = _save(client, "new@example.org")
    assert answer.status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["new@example.org"] and mail.subject == SUBJECT
    assert "3 days" in mail.body and "new@example.org" in mail.body
    assert user.username not in mail.body  # nothing the account chose goes to an address nobody vouched for
    page = client.get(PREFS)
    html = page.content.decode()
    assert 'id="address-unconfirmed"' in html and 'id="confirm-send-form"' in html
    assert "We sent a link to confirm new@example.org" in html

    _save(client, "new@example.org")  # saved again, unchanged: no second mail
    assert len(mailoutbox) == 1
    check_game(game.pk, now=time.time() + 400)  # the game awaits everyone: no turn mail to it
    assert [m.subject for m in mailoutbox] == [SUBJECT]
    assert mails.send_once(game, user, mails.END, 0) is False
    assert not MailSent.objects.filter(user=user).exists()

    # the link, opened in a browser with no session: GET shows a button and changes nothing
    browser = Client(enforce_csrf_checks=True)
    path = _link_path(mail)
    shown = browser.get(path)
    assert shown.status_code == 200 and b'id="confirm-form"' in shown.content and b"new@example.org" in shown.content
    assert browser.head(path).status_code == 200
    assert not _confirms(user)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown.content.decode()).group(1)
    done = browser.post(path, {"csrfmiddlewaretoken": csrf})
    assert done.status_code == 200 and b'id="confirm-done"' in done.content
    prefs = NotificationPrefs.objects.get(user=user)
    assert prefs.confirmed_email == "new@example.org" and prefs.confirmed_at is not None
    assert browser.post(path, {"csrfmiddlewaretoken": csrf}).status_code == 200  # again: still confirmed, no error
    assert b'id="address-confirmed"' in client.get(PREFS).content

    # confirmed: the turn mail of the same decision goes now
    check_game(game.pk, now=time.time() + 500)
    turn = [m for m in mailoutbox if m.subject.startswith("Your turn")]
    assert [m.to for m in turn] == [["new@example.org"]]

    # changed again: one mail to the new address, and nothing else to either address
    _save(client, "other@example.org")
    assert [m.to for m in mailoutbox[2:]] == [["other@example.org"]] and mailoutbox[2].subject == SUBJECT
    user.refresh_from_db()
    assert mails.send_once(game, user, mails.END, 0) is False and len(mailoutbox) == 3


def test_the_confirmation_mail_and_page_follow_the_pages_language(make_user, mailoutbox):
    user = make_user("lin")
    _save(_logged_in(user), "lin@example.org", HTTP_ACCEPT_LANGUAGE="zh-hans")
    (mail,) = mailoutbox
    assert mail.subject == "确认你在 gotweb 的电子邮件地址" and "3 天内" in mail.body
    page = Client().get(_link_path(mail), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "确认允许 gotweb" in page.content.decode()


def _pending(make_user, mailoutbox, name: str = "alice", address: str = "alice@example.org"):
    """A user whose address waits for confirmation; ``(user, path of the link)``."""
    user = make_user(name)
    _save(_logged_in(user), address)
    return user, _link_path(mailoutbox[-1])


def _refused(path: str, kind: str = "") -> None:
    for method in ("get", "post"):
        answer = getattr(Client(), method)(path)
        assert answer.status_code == 400 and b'id="confirm-bad"' in answer.content, (path[:80], method, answer.status_code)
        if kind:
            assert kind.encode() in answer.content


def test_tampered_expired_stale_and_foreign_links_change_nothing(make_user, mailoutbox, monkeypatch):
    user, path = _pending(make_user, mailoutbox)
    token = path.rstrip("/").rsplit("/", 1)[1]
    before = _state(user)

    flipped = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    forged = signing.dumps({"u": user.pk, "e": "alice@example.org"}, salt="another purpose", compress=True)
    unsubscribe = mails.unsubscribe_token(user.pk)  # a real token of the site, for another purpose
    for bad in (flipped, token + "x", token[:20], forged, unsubscribe, confirm.token(10**9, "alice@example.org")):
        _refused(reverse("notifications_confirm", args=[bad]), "This link is not valid")
    assert _state(user) == before

    # expired: made more than three days ago (a day under that still works, below)
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() - confirm.MAX_AGE - 60)
    old = confirm.token(user.pk, "alice@example.org")
    monkeypatch.setattr(signing.time, "time", lambda: real() - confirm.MAX_AGE + 86400)
    recent = confirm.token(user.pk, "alice@example.org")
    monkeypatch.undo()
    _refused(reverse("notifications_confirm", args=[old]), "This link has expired")
    assert _state(user) == before

    # stale: the account changed its address after the link was sent
    _save(_logged_in(user), "alice2@example.org")
    before = _state(user)
    _refused(path, "no longer has")
    _refused(reverse("notifications_confirm", args=[recent]), "no longer has")
    assert _state(user) == before and not _confirms(user)

    # the newest link works; a day-old link for the address the account has works too
    assert Client().post(_link_path(mailoutbox[-1])).status_code == 200 and _confirms(user)


def test_another_users_link_confirms_only_that_user(make_user, mailoutbox):
    """Two accounts typed the same address: each link confirms its own account and no other,
    whoever is logged in where it is opened."""
    alice, alice_path = _pending(make_user, mailoutbox, "alice", "shared@example.org")
    bob, bob_path = _pending(make_user, mailoutbox, "bob", "shared@example.org")
    before = _state(alice)
    answer = _logged_in(alice).post(bob_path)  # alice's browser, bob's link
    assert answer.status_code == 200 and b'id="confirm-done"' in answer.content
    assert _confirms(bob) and not _confirms(alice) and _state(alice) == before
    assert Client().post(alice_path).status_code == 200 and _confirms(alice)


@pytest.mark.parametrize(
    "text",
    ["x", "a" * 5000, "é" * 300, "确认链接", "a:b:c", ":" * 50, "%F0%9F%92%A9", "%C0%AF", "%E2%80%AE", "%ED%A0%80", "null", "[]"],
)
def test_hostile_tokens_never_break_the_page_and_change_nothing(text, make_user, mailoutbox):
    user, _ = _pending(make_user, mailoutbox)
    before = _state(user)
    c = Client(raise_request_exception=False)
    for method in ("get", "post", "head"):
        answer = getattr(c, method)(f"/accounts/notifications/confirm/{text}/")
        assert answer.status_code == 400, (text[:40], method, answer.status_code)
    assert _state(user) == before


def test_empty_and_odd_paths_are_not_found_or_refused(make_user, mailoutbox):
    user, path = _pending(make_user, mailoutbox)
    before = _state(user)
    c = Client(raise_request_exception=False)
    for url in ("/accounts/notifications/confirm//", "/accounts/notifications/confirm/%00/", "/accounts/notifications/confirm/..%2F../"):
        for method in ("get", "post"):
            assert getattr(c, method)(url).status_code in (400, 404), url
    assert c.put(path).status_code == 405 and c.delete(path).status_code == 405
    assert _state(user) == before


def test_get_alone_never_confirms(make_user, mailoutbox):
    """Mail scanners fetch links (GET or HEAD, many times): only the button's POST confirms."""
    user, path = _pending(make_user, mailoutbox)
    c = Client()
    for _ in range(3):
        assert c.get(path).status_code == 200 and c.head(path).status_code == 200
    assert not _confirms(user) and NotificationPrefs.objects.get(user=user).confirmed_at is None


def test_the_resend_limit_answers_as_the_sites_other_limits(make_user, mailoutbox):
    user, _ = _pending(make_user, mailoutbox)  # the first mail counts too
    client = _logged_in(user)
    assert client.get(reverse("notifications_confirm_send")).status_code == 405  # a button: POST only
    for _ in range(4):
        answer = client.post(reverse("notifications_confirm_send"))
        assert answer.status_code == 302
    assert len(mailoutbox) == 5 and all(m.to == ["alice@example.org"] and m.subject == SUBJECT for m in mailoutbox)
    assert "We sent the link again to alice@example.org" in client.get(PREFS).content.decode()

    before = _state(user)
    refused = client.post(reverse("notifications_confirm_send"))
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600
    wait = re.search(r'id="confirm-wait"[^>]*>([^<]+)<', refused.content.decode()).group(1)
    assert re.fullmatch(r"Too many confirmation mails were asked for\. Try again in \d+ minutes?\.", wait)
    # a new address over the person's limit: refused the same way, nothing saved, nothing sent
    changed = _save(client, "elsewhere@example.org")
    assert changed.status_code == 429 and int(changed["Retry-After"]) > 0
    assert any("Too many confirmation mails" in e for e in changed.context["form"].errors["email"])
    assert len(mailoutbox) == 5 and _state(user) == before

    chinese = client.post(reverse("notifications_confirm_send"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = chinese.content.decode()
    assert chinese.status_code == 429 and "请求发送的确认邮件过多" in text and "分钟后再试" in text


def test_one_address_has_its_own_budget_across_accounts(make_user, mailoutbox):
    """Many accounts cannot mail one stranger over and over: the address's budget is shared."""
    for i in range(5):
        _pending(make_user, mailoutbox, f"spammer{i}", "Victim@Example.org" if i % 2 else "victim@example.org")
    assert len(mailoutbox) == 5
    late = make_user("spammer5")
    answer = _save(_logged_in(late), "VICTIM@example.org")
    assert answer.status_code == 429 and len(mailoutbox) == 5
    late.refresh_from_db()
    assert late.email == ""
    assert _save(_logged_in(late), "someone.else@example.org").status_code == 302 and len(mailoutbox) == 6


def test_nothing_to_send_again_for_a_guest_no_address_or_a_confirmed_one(make_user, mailoutbox):
    guest = make_user("Gus", guest=True)
    nobody = make_user("nobody")
    done, path = _pending(make_user, mailoutbox, "done", "done@example.org")
    Client().post(path)
    mailoutbox.clear()
    for user in (guest, nobody, done):
        answer = _logged_in(user).post(reverse("notifications_confirm_send"))
        assert answer.status_code == 302
    assert mailoutbox == []
    assert Client().post(reverse("notifications_confirm_send")).status_code == 302  # login first


def test_back_to_the_confirmed_address_needs_no_mail_and_removing_it_forgets_it(make_user, mailoutbox):
    user, path = _pending(make_user, mailoutbox)
    Client().post(path)
    client = _logged_in(user)
    _save(client, "typo@example.org")
    assert len(mailoutbox) == 2 and not _confirms(user)
    _save(client, "alice@example.org")  # back to the confirmed one: confirmed, no mail
    assert len(mailoutbox) == 2 and _confirms(user)
    _save(client, "")
    prefs = NotificationPrefs.objects.get(user=user)
    assert prefs.confirmed_email == "" and prefs.confirmed_at is None
    _save(client, "alice@example.org")  # typed again: confirmed again by a new link only
    assert len(mailoutbox) == 3 and not _confirms(user)


def test_the_unsubscribe_link_takes_the_confirmation_with_it(make_lobby, mailoutbox):
    """The reader of the address said stop: the account switching mails back on sends nothing
    there until the reader confirms again."""
    game, users = start_game(make_lobby, players=3)
    user = next(iter(users.values()))
    client = _logged_in(user)
    _save(client, "reader@example.org")
    Client().post(_link_path(mailoutbox[-1]))
    Client().post(reverse("notifications_unsubscribe", args=[mails.unsubscribe_token(user.pk)]))
    _save(client, "reader@example.org")  # every kind switched on again, same address
    assert len(mailoutbox) == 1 and not _confirms(user)
    assert b'id="address-unconfirmed"' in client.get(PREFS).content
    check_game(game.pk, now=time.time() + 400)
    assert len(mailoutbox) == 1


def test_the_migration_keeps_the_addresses_stored_before_as_confirmed(make_user):
    """``0014_mail_confirmation``: stored addresses count as confirmed (their owners typed them,
    every mail carried an unsubscribe link), marked by an empty ``confirmed_at``."""
    from importlib import import_module

    with_row, without_row, no_address = make_user("a"), make_user("b"), make_user("c")
    for user, address in ((with_row, "a@example.org"), (without_row, "b@example.org")):
        user.email = address
        user.save(update_fields=["email"])
    NotificationPrefs.objects.create(user=with_row, turn_mail=False, language="zh-hans")
    NotificationPrefs.objects.create(user=no_address)
    import_module("game.migrations.0014_mail_confirmation").keep_stored_addresses(apps, None)
    rows = {p.user_id: p for p in NotificationPrefs.objects.all()}
    assert rows[with_row.pk].confirmed_email == "a@example.org" and not rows[with_row.pk].turn_mail
    assert rows[with_row.pk].language == "zh-hans" and rows[with_row.pk].confirmed_at is None
    assert rows[without_row.pk].confirmed_email == "b@example.org" and rows[without_row.pk].turn_mail
    assert rows[no_address.pk].confirmed_email == ""
    assert all(mails.confirmed(u) for u in (with_row, without_row)) and not mails.confirmed(no_address)
