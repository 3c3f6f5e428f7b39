"""Web Push endpoints cannot make the server post to an address of an attacker's choosing, and a
person's push services cannot hold up anyone's mail: an endpoint is held to a form every URL
parser reads alike (Python's ``urlsplit`` kept ``localhost\\.push.apple.com`` as one host where
requests connected to localhost), no redirect is followed, and pushes go out in their own threads
with short timeouts. Before: those endpoints were accepted, a 307 was followed to 127.0.0.1 with
the POST's body, and ten black-hole subscriptions delayed another player's "your turn" mail from
0.3 s to 48 s."""

from __future__ import annotations

import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail

from game.models import MailSent, NotificationPrefs, PushSubscription
from game.site import webpush
from game.site.notifications import hints
from game.site.notifications.due import check_game
from game.management.commands.webpush_keys import new_pair
from game.site.webpush import endpoint_allowed

from .archive_helpers import clear_caches
from .live_helpers import start_game

pytestmark = pytest.mark.django_db(transaction=True)


def _b64(raw: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _keys() -> dict:
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": _b64(point), "auth": _b64(os.urandom(16))}


@pytest.mark.parametrize(
    "url",
    [
        "https://localhost\\.push.apple.com/x",
        "https://127.0.0.1\\.push.apple.com/x",
        "https://localhost%5c.push.apple.com/x",
        "https://localhost%5C.push.apple.com/x",
        "https://fcm.googleapis.com\\@127.0.0.1/x",
        "https://fcm.googleapis.com/x\\y",
        "https://FCM.googleapis.com/x",  # only the lower-case form is the host as written
        "https://fcm.googleapis.com./x",
        "https://ｆcm.googleapis.com/x",  # a full-width f
        "https://xn--fcm-.googleapis.com/x",
        "https://a..push.apple.com/x",
        "https://-a.push.apple.com/x",
        "https://fcm.googleapis.com:443@127.0.0.1/x",
        "https://fcm.googleapis.com#@127.0.0.1/x",
        "https://fcm.googleapis.com?@127.0.0.1/x",
        "https://192.168.0.1/x",
        "https://[::1]/x",
        "https://fcm.googleapis.com:80/x",
        "http://fcm.googleapis.com/x",
    ],
)
def test_endpoints_that_parsers_may_read_otherwise_are_refused(settings, url):
    settings.WEBPUSH_HOSTS = ["fcm.googleapis.com", ".push.apple.com"]
    assert not endpoint_allowed(url)


def test_the_browsers_real_endpoints_pass(settings):
    settings.WEBPUSH_HOSTS = ["fcm.googleapis.com", ".push.services.mozilla.com", ".notify.windows.com", ".push.apple.com"]
    for url in (
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-x_y~z",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA%2bb",
        "https://web.push.apple.com/QGoK5w:443",
        "https://fcm.googleapis.com:443/fcm/send/x",
    ):
        assert endpoint_allowed(url), url


@pytest.fixture
def push_on(live_settings):
    public, private = new_pair()
    live_settings.WEBPUSH_VAPID_PUBLIC_KEY, live_settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    live_settings.WEBPUSH_INSECURE, live_settings.WEBPUSH_HOSTS = True, ["127.0.0.1"]
    live_settings.NOTIFY_IN_THREAD = False
    live_settings.NOTIFY_MAILS = True
    live_settings.NOTIFY_MAIL_AFTER = 0
    clear_caches()
    hints.forget()
    yield live_settings
    webpush.wait_for_pushes()
    hints.forget()


def _server(handler_class):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_a_redirect_is_not_followed(push_on, make_lobby):
    hits = []

    class Inside(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            hits.append(self.path)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    inside, inside_url = _server(Inside)

    class Redirecting(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(307)
            self.send_header("Location", inside_url + "/secret")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    outside, outside_url = _server(Redirecting)
    try:
        game, users = start_game(make_lobby, players=3)
        user = next(iter(users.values()))
        PushSubscription.objects.create(user=user, endpoint=outside_url + "/push", **_keys())
        check_game(game.pk)
        webpush.wait_for_pushes()
        assert hits == []
        assert MailSent.objects.get(game=game, user=user, kind="push").ok is False
    finally:
        for s in (inside, outside):
            s.shutdown()
            s.server_close()


def test_black_hole_push_services_hold_up_no_mail(push_on, make_lobby):
    """One player's ten push services take the request and do not answer; every player's turn
    mail of the same check is sent while those pushes still wait."""
    release = threading.Event()

    class Hole(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            release.wait(10)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    hole, hole_url = _server(Hole)
    try:
        game, users = start_game(make_lobby, players=3)
        for user in users.values():
            user.email = f"{user.username}@example.org"
            user.save(update_fields=["email"])
            NotificationPrefs.objects.update_or_create(user=user, defaults={"confirmed_email": user.email})  # confirmed
        victim = next(iter(users.values()))
        for i in range(10):
            PushSubscription.objects.create(user=victim, endpoint=f"{hole_url}/hole/{i}", **_keys())
        mail.outbox.clear()
        check_game(game.pk)
        assert {m.to[0] for m in mail.outbox} == {u.email for u in users.values()}
        assert webpush._pending  # the pushes still wait on the push service
    finally:
        release.set()
        webpush.wait_for_pushes()
        hole.shutdown()
        hole.server_close()


def test_a_stored_endpoint_that_fails_the_rule_is_deleted_at_send_time(push_on, make_lobby):
    game, users = start_game(make_lobby, players=3)
    user = next(iter(users.values()))
    PushSubscription.objects.create(user=user, endpoint="http://127.0.0.1\\.push.apple.com/x", **_keys())
    assert webpush.send(user.pk, {"en": {"title": "t"}}) == 0
    assert not PushSubscription.objects.filter(user=user).exists()
