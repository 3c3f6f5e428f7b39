"""Web Push at the network boundary, for the tests that push: ``push_on`` (push configured with a
fresh VAPID key pair, notifications checked in the committing thread), :class:`Browser` (a
browser's push keys, which decrypt what was pushed to it) and ``push_service`` (a real HTTP server
on 127.0.0.1 playing the browser's push service). Import the fixtures by name."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from game.management.commands.webpush_keys import b64url, new_pair
from game.site.notifications import hints

from .archive_helpers import clear_caches


@pytest.fixture
def push_on(live_settings):
    public, private = new_pair()
    live_settings.WEBPUSH_VAPID_PUBLIC_KEY, live_settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    live_settings.WEBPUSH_SUBJECT = "mailto:admin@example.org"
    live_settings.NOTIFY_IN_THREAD = False
    live_settings.NOTIFY_MAILS = True
    live_settings.THROTTLE_PUSH = (20, 3600)
    clear_caches()
    hints.forget()
    from django.core.cache import cache

    cache.clear()
    yield live_settings
    hints.forget()


class Browser:
    """A browser's push keys: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "expirationTime": None, "keys": self.keys}

    def decrypt(self, body: bytes) -> dict:
        import http_ece

        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def push_service():
    """A fake push service on 127.0.0.1: ``/ok/...`` answers 201, ``/gone/...`` 410, ``/broken/...``
    500; every request is kept as ``(path, headers, body)``."""
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            received.append((self.path, dict(self.headers), body))
            status = 201 if self.path.startswith("/ok") else 410 if self.path.startswith("/gone") else 500
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.received = received
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()
    server.server_close()

