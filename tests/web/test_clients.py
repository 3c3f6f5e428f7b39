"""Who a client is (``game/live/clients.py``): the one ``client_ip`` that names the budget of a
client for the HTTP throttles (a Django request; ``game.site.throttle``) and for the live sockets
(an ASGI scope; ``game.live.ratelimit``), on the addresses the throttle and socket tests use.

Each row is (behind the proxy, peer address, ``X-Forwarded-For``) -> (the HTTP throttles' key,
the sockets' key). The two differ only when, behind the proxy, the header's last address is not
an address: the throttles count such clients in one shared budget, the sockets count their peer.
"""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from game.live.clients import UNKNOWN, client_ip, owner_of

PEER = "10.1.1.1"
HOSTILE = ["garbage", "1.2.3.4, not-an-ip", ",,,", "999.1.1.1", "\u202e1.2.3.4", "x" * 10_000, "1.2.3.4, "]

CASES = [
    # IPv4: the address itself
    (False, "203.0.113.7", None, "203.0.113.7", "203.0.113.7"),
    # IPv6: its /64 network, so two addresses of one /64 share a budget
    (False, "2001:db8::1", None, "2001:db8::/64", "2001:db8::/64"),
    (False, "2001:db8::ffff", None, "2001:db8::/64", "2001:db8::/64"),
    (False, "2001:db8:0:1::1", None, "2001:db8:0:1::/64", "2001:db8:0:1::/64"),
    # an IPv4-mapped IPv6 address is its IPv4 address
    (False, "::ffff:192.0.2.5", None, "192.0.2.5", "192.0.2.5"),
    # not behind the proxy, a forwarded header is the client's own claim: ignored
    (False, "192.0.2.10", "10.0.0.99", "192.0.2.10", "192.0.2.10"),
    (False, "192.0.2.10", "garbage", "192.0.2.10", "192.0.2.10"),
    # behind the proxy: the last address (the one the proxy appended), whatever comes before
    (True, PEER, "1.2.3.99, 192.0.2.20", "192.0.2.20", "192.0.2.20"),
    (True, PEER, "192.0.2.21", "192.0.2.21", "192.0.2.21"),
    (True, PEER, " 192.0.2.22 ", "192.0.2.22", "192.0.2.22"),
    (True, PEER, "6.6.6.6, 2001:db8::2", "2001:db8::/64", "2001:db8::/64"),
    (True, PEER, "6.6.6.6, ::ffff:192.0.2.23", "192.0.2.23", "192.0.2.23"),
    # behind the proxy with no (or a blank) header: the peer
    (True, PEER, None, PEER, PEER),
    (True, PEER, "", PEER, PEER),
    (True, PEER, "   ", PEER, PEER),
    # behind the proxy, a last address that is not one: the shared budget, or the peer
    *[(True, PEER, bad, UNKNOWN, PEER) for bad in HOSTILE],
    (True, None, "garbage", UNKNOWN, UNKNOWN),
    # no address, or one that is none: the shared budget
    (False, None, None, UNKNOWN, UNKNOWN),
    (False, "", None, UNKNOWN, UNKNOWN),
    (False, "garbage", None, UNKNOWN, UNKNOWN),
    (True, "garbage", "garbage", UNKNOWN, UNKNOWN),
]


def _request(peer: str | None, forwarded: str | None):
    request = RequestFactory().get("/", **({} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}))
    if peer is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = peer
    return request


def _scope(peer: str | None, forwarded: str | None) -> dict:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode("utf-8"))]
    return {"type": "websocket", "client": None if peer is None else [peer, 5555], "headers": headers}


@pytest.mark.parametrize(("behind", "peer", "forwarded", "throttles", "sockets"), CASES)
def test_one_client_ip_for_the_throttles_and_the_sockets(settings, behind, peer, forwarded, throttles, sockets):
    settings.BEHIND_HTTPS_PROXY = behind
    assert client_ip(_request(peer, forwarded)) == throttles
    assert client_ip(_scope(peer, forwarded)) == throttles  # a scope reads as a request does
    assert client_ip(_scope(peer, forwarded), fall_back_to_peer=True) == sockets
    assert client_ip(_request(peer, forwarded), fall_back_to_peer=True) == sockets


def test_the_last_forwarded_header_counts_as_django_joins_them(settings):
    settings.BEHIND_HTTPS_PROXY = True
    scope = {"client": [PEER, 1], "headers": [(b"x-forwarded-for", b"192.0.2.1"), (b"X-Forwarded-For", b"1.1.1.1, 192.0.2.2")]}
    assert client_ip(scope) == client_ip(_request(PEER, "192.0.2.1,1.1.1.1, 192.0.2.2")) == "192.0.2.2"


def test_a_scope_without_client_or_headers(settings):
    settings.BEHIND_HTTPS_PROXY = True
    assert client_ip({"type": "websocket"}) == UNKNOWN
    assert client_ip({"type": "websocket", "client": None, "headers": None}, fall_back_to_peer=True) == UNKNOWN
    # a header that is no address, from a peer with none: the sockets' test of junk headers
    junk = {"type": "websocket", "headers": [(b"x-forwarded-for", b"1.2.3.4, \xff not-an-ip")]}
    assert client_ip(junk, fall_back_to_peer=True) == UNKNOWN


def test_the_owner_of_a_socket(settings, django_user_model, db):
    settings.BEHIND_HTTPS_PROXY = True
    user = django_user_model.objects.create_user("owner")
    scope = _scope("2001:db8::7", "garbage")
    assert owner_of({**scope, "user": user}) == (f"u{user.pk}", True)
    assert owner_of({**scope, "user": AnonymousUser()}) == ("ip2001:db8::/64", False)
    assert owner_of(scope) == ("ip2001:db8::/64", False)


@pytest.mark.parametrize(("peer", "forwarded", "expected"), [
    ("127.0.0.1", "192.0.2.9", "192.0.2.9"),  # the proxy on the same host
    ("10.1.2.3", "198.51.100.1, 192.0.2.9", "192.0.2.9"),  # one of the proxies' network
    ("::ffff:127.0.0.1", "192.0.2.9", "192.0.2.9"),  # the proxy's address mapped into IPv6
    ("203.0.113.5", "192.0.2.9", "203.0.113.5"),  # not a proxy: its claim is not read
    ("127.0.0.1", "", "127.0.0.1"),  # the proxy itself, without the header
    ("garbage", "192.0.2.9", UNKNOWN),
])
@pytest.mark.parametrize("behind", [False, True])
def test_trusted_proxies_are_the_only_peers_whose_forwarded_address_counts(settings, behind, peer, forwarded, expected):
    settings.BEHIND_HTTPS_PROXY = behind  # with TRUSTED_PROXIES set, it does not widen the trust
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_ip(_request(peer, forwarded)) == expected
    assert client_ip(_scope(peer, forwarded), fall_back_to_peer=True) == expected


def test_a_trusted_proxy_that_is_not_an_address_stops_the_settings():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "gotweb.settings", "DEBUG": "1", "TRUSTED_PROXIES": "127.0.0.1,proxy.example"},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode != 0 and "TRUSTED_PROXIES: not an address or network: 'proxy.example'" in out.stderr
