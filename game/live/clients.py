"""Who a client is, for the limits that count per client: the HTTP throttles
(:mod:`game.site.throttle`) and the live sockets' budgets and cap (:mod:`game.live.ratelimit`).

:func:`client_ip` reads the client's IP address from a Django request or an ASGI scope and names
the budget it counts against; :func:`owner_of` is a socket's owner: its user, else that budget.
"""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings

#: the budget of the clients whose address is missing or not an address: one, shared
UNKNOWN = "unknown"


def client_ip(client: Any, *, fall_back_to_peer: bool = False) -> str:
    """The budget the client of ``client`` (a Django ``HttpRequest``, or an ASGI ``scope`` dict: a
    socket's) counts against: its IP address as text (``"192.0.2.7"``), an IPv4-mapped IPv6
    address as its IPv4 address, any other IPv6 address as its /64 network (``"2001:db8::/64"``:
    one subscriber commonly holds a whole /64); :data:`UNKNOWN` when there is no address.

    The address is the connection's peer (``REMOTE_ADDR``, ``scope["client"]``); only when the
    peer is a trusted proxy and the request carries a non-blank ``X-Forwarded-For``, the last
    address of that header instead: the one our load balancer appended, which the client cannot
    forge (the addresses before it are the client's own claim). The trusted proxies are
    ``settings.TRUSTED_PROXIES`` (addresses or networks) when set, else any peer when
    ``settings.BEHIND_HTTPS_PROXY`` is set, else none.
    When that last address is not an address, ``fall_back_to_peer`` decides: False (the HTTP
    throttles) counts the client in :data:`UNKNOWN`, True (the sockets) counts the peer's
    address. Never raises on what a client sent (garbage, an empty header, no peer)."""
    if isinstance(client, dict):  # an ASGI scope
        peer = (client.get("client") or ("",))[0] or ""
        forwarded = ""
        for name, value in client.get("headers") or []:
            if name.lower() == b"x-forwarded-for":  # the last such header, as Django's META keeps
                forwarded = value.decode("latin-1")
    else:
        peer = client.META.get("REMOTE_ADDR", "") or ""
        forwarded = client.META.get("HTTP_X_FORWARDED_FOR", "") or ""
    candidates = [peer]
    if forwarded.strip() and _trusted(peer):
        last = forwarded.split(",")[-1]
        candidates = [last, peer] if fall_back_to_peer else [last]
    for raw in candidates:
        try:
            address = ipaddress.ip_address(str(raw).strip())
        except ValueError:
            continue
        return _bucket(address)
    return UNKNOWN


def _trusted(peer: str) -> bool:
    """Whether ``peer`` is a load balancer whose ``X-Forwarded-For`` counts (:func:`client_ip`)."""
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return bool(settings.BEHIND_HTTPS_PROXY)
    try:
        address = ipaddress.ip_address(str(peer).strip())
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in _network(p) for p in proxies)


@functools.lru_cache(maxsize=64)
def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return ipaddress.ip_network(text.strip(), strict=False)


def _bucket(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if address.version == 6:
        if address.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is 1.2.3.4
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def owner_of(scope: dict) -> tuple[str, bool]:
    """``(owner, is_user)`` of a socket's ``scope``: ``("u<user id>", True)`` for a logged-in
    user, else ``("ip<budget>", False)`` (:func:`client_ip`, falling back to the peer's address)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u{user.pk}", True
    return f"ip{client_ip(scope, fall_back_to_peer=True)}", False
