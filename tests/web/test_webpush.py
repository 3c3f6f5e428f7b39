"""Web Push: the subscription URLs under hostile input, and "your turn" pushed to a fake
push service at the network boundary (a real HTTP server on 127.0.0.1 that plays the browser's
push service: it reads what pywebpush posts, decrypts it with the browser's keys, and answers 201,
410 or 500 as told). ``game/site/webpush.py``."""

from __future__ import annotations

import base64
import json
import time

import pytest
from django.test import Client

from game.management.commands.webpush_keys import b64url
from game.models import MailSent, PushSubscription
from game.site import webpush
from game.site.notifications.due import check_game

from .live_helpers import start_game
from .push_helpers import Browser, push_on, push_service  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


def _post(client: Client, path: str, body) -> tuple[int, dict]:
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    r = client.post(path, data=data, content_type="application/json")
    return r.status_code, (r.json() if r["Content-Type"].startswith("application/json") else {})


GOOD_KEYS = Browser().keys


@pytest.mark.parametrize(
    "body,code",
    [
        ("{", "push.malformed"),
        ("[]", "push.malformed"),
        ("[" * 20000 + "]" * 20000, "push.malformed"),
        ({"endpoint": 5, "keys": GOOD_KEYS}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/x"}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": "k"}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {**GOOD_KEYS, "p256dh": GOOD_KEYS["p256dh"][:-4]}}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {**GOOD_KEYS, "auth": "!!!!"}}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": {**GOOD_KEYS, "auth": b64url(b"x" * 15)}}, "push.malformed"),
        ({"endpoint": "https://fcm.googleapis.com/fcm/send/" + "x" * 5000, "keys": GOOD_KEYS}, "push.malformed"),
        ({"endpoint": "http://fcm.googleapis.com/fcm/send/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://evil.example/fcm.googleapis.com", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://fcm.googleapis.com.evil.example/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://fcm.googleapis.com@127.0.0.1/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://user:pw@fcm.googleapis.com/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://fcm.googleapis.com:8443/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://127.0.0.1/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://[::1]/x", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://fcm.googleapis.com/x y", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "file:///etc/passwd", "keys": GOOD_KEYS}, "push.endpoint"),
        ({"endpoint": "https://fcm.googleapis.com:99999/x", "keys": GOOD_KEYS}, "push.endpoint"),
    ],
)
def test_hostile_subscriptions_are_refused_and_change_nothing(push_on, make_user, body, code):
    client = Client()
    client.force_login(make_user("alice"))
    status, data = _post(client, "/push/subscribe/", body)
    assert status == 400 and data["error"]["code"] == code and data["ok"] is False
    assert not PushSubscription.objects.exists()


def test_who_may_subscribe_and_how_often(push_on, make_user, settings):
    alice, bob = make_user("alice"), make_user("Bob", guest=True)
    sub = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": GOOD_KEYS}
    assert _post(Client(), "/push/subscribe/", sub)[0] == 403  # anonymous
    assert Client().get("/push/subscribe/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/push/subscribe/", json.dumps(sub), content_type="application/json").status_code == 403  # no CSRF token
    assert not PushSubscription.objects.exists()

    a, b = Client(), Client()
    a.force_login(alice)
    b.force_login(bob)  # a guest may subscribe: a push needs no address
    assert _post(a, "/push/subscribe/", sub) == (200, {"ok": True})
    assert _post(a, "/push/subscribe/", sub)[0] == 200  # the same browser again: one row
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [alice.pk]
    assert _post(b, "/push/subscribe/", sub)[0] == 200  # that browser now belongs to Bob's account
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [bob.pk]
    assert _post(a, "/push/unsubscribe/", {"endpoint": sub["endpoint"]}) == (200, {"ok": True, "removed": 0})  # not hers
    for bad in ("{", "[]", {"endpoint": 1}):
        assert _post(a, "/push/unsubscribe/", bad)[0] == 400
    assert _post(b, "/push/unsubscribe/", {"endpoint": sub["endpoint"]}) == (200, {"ok": True, "removed": 1})

    for i in range(12):  # the newest PER_USER (10) are kept
        assert _post(a, "/push/subscribe/", {**sub, "endpoint": f"https://fcm.googleapis.com/fcm/send/{i}"})[0] == 200
    kept = PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)
    assert sorted(kept) == sorted(f"https://fcm.googleapis.com/fcm/send/{i}" for i in range(2, 12))
    for i in range(12, 40):  # THROTTLE_PUSH: 20 per hour
        status, data = _post(a, "/push/subscribe/", {**sub, "endpoint": f"https://fcm.googleapis.com/fcm/send/{i}"})
    assert status == 429 and data["error"]["code"] == "push.too_many"

    settings.WEBPUSH_VAPID_PUBLIC_KEY = ""  # not configured: the URLs do not exist
    assert _post(a, "/push/subscribe/", sub)[0] == 404


def test_your_turn_is_pushed_once_to_each_browser_and_dead_ones_are_dropped(push_on, push_service, make_lobby, caplog):
    push_on.WEBPUSH_INSECURE, push_on.WEBPUSH_HOSTS = True, ["127.0.0.1"]
    game, users = start_game(make_lobby, players=3)
    house = next(iter(users))
    user = users[house]
    phone, laptop, old, broken = Browser(), Browser(), Browser(), Browser()
    for browser, path, lang in ((phone, "/ok/phone", "zh-hans"), (laptop, "/ok/laptop", "en"), (old, "/gone/old", "en"), (broken, "/broken/b", "en")):
        PushSubscription.objects.create(user=user, endpoint=push_service.url + path, language=lang, **browser.keys)

    check_game(game.pk)  # AGoT's first orders await everyone: at once, no page open
    webpush.wait_for_pushes()
    got = {path: (headers, body) for path, headers, body in push_service.received}
    assert set(got) == {"/ok/phone", "/ok/laptop", "/gone/old", "/broken/b"}
    headers, body = got["/ok/laptop"]
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["authorization"].startswith("vapid t=") and f"k={push_on.WEBPUSH_VAPID_PUBLIC_KEY}" in headers["authorization"]
    assert headers["content-encoding"] == "aes128gcm" and headers["ttl"] == "3600"
    assert laptop.decrypt(body) == {
        "title": "Your turn", "body": "Test lobby is waiting for your decision.", "url": f"/game/{game.pk}/", "tag": f"gotweb-game-{game.pk}",
    }
    assert phone.decrypt(got["/ok/phone"][1])["title"] == "轮到你了"
    # 410: the browser unsubscribed, its subscription is gone; 500: kept, logged
    assert sorted(PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True)) == sorted(
        push_service.url + p for p in ("/ok/phone", "/ok/laptop", "/broken/b")
    )
    assert any("push to subscription" in r.getMessage() for r in caplog.records)
    assert MailSent.objects.get(game=game, user=user, kind="push").ok is True

    n = len(push_service.received)
    check_game(game.pk, now=time.time() + 10)  # the same decision: no second push
    webpush.wait_for_pushes()
    assert len(push_service.received) == n


def test_no_push_while_a_page_is_open_then_once_it_is_closed(push_on, push_service, make_lobby, settings):
    from game.live.ratelimit import SocketSlot

    push_on.WEBPUSH_INSECURE, push_on.WEBPUSH_HOSTS = True, ["127.0.0.1"]
    game, users = start_game(make_lobby, players=3)
    house = next(iter(users))
    browser = Browser()
    PushSubscription.objects.create(user=users[house], endpoint=push_service.url + "/ok/x", **browser.keys)
    slot = SocketSlot(f"u{users[house].pk}", 20, settings.LIVE_SOCKET_LEASE)
    assert slot.acquire()
    due = check_game(game.pk)
    webpush.wait_for_pushes()
    assert push_service.received == [] and due is not None  # on the site: looked at again later
    slot.release()
    check_game(game.pk, now=due)
    webpush.wait_for_pushes()
    assert [path for path, _, _ in push_service.received] == ["/ok/x"]


def test_a_push_service_out_of_reach_does_not_break_the_check(push_on, make_lobby):
    push_on.WEBPUSH_INSECURE, push_on.WEBPUSH_HOSTS = True, ["127.0.0.1"]
    game, users = start_game(make_lobby, players=3)
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there
    PushSubscription.objects.create(user=next(iter(users.values())), endpoint=f"http://127.0.0.1:{port}/x", **Browser().keys)
    check_game(game.pk)
    webpush.wait_for_pushes()
    assert PushSubscription.objects.count() == 1  # kept: the service may be back later


def test_the_service_worker_is_served_from_the_root(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/javascript") and r["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in b"".join(r.streaming_content)


def test_the_game_page_offers_the_key_only_to_its_players(push_on, make_lobby, make_user):
    game, users = start_game(make_lobby, players=3)
    player = Client()
    player.force_login(next(iter(users.values())))
    assert push_on.WEBPUSH_VAPID_PUBLIC_KEY in player.get(f"/game/{game.pk}/").content.decode()
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert push_on.WEBPUSH_VAPID_PUBLIC_KEY not in stranger.get(f"/game/{game.pk}/").content.decode()


def test_webpush_keys_command_makes_a_usable_pair(capsys):
    from django.core.management import call_command
    from py_vapid import Vapid

    call_command("webpush_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    public = base64.urlsafe_b64decode(lines["WEBPUSH_VAPID_PUBLIC_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4
    assert Vapid.from_string(private_key=lines["WEBPUSH_VAPID_PRIVATE_KEY"]).sign({"sub": "mailto:a@b.org", "aud": "https://x.org"})
