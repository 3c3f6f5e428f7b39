"""The ASGI application: Django for HTTP, Channels' URL router for websockets.

Websockets pass through :class:`SiteOriginValidator` (the handshake's Origin must be one the site
trusts, else it is refused) and ``AuthMiddlewareStack`` (the session cookie gives ``scope["user"]``).
"""

import gc
import os
from urllib.parse import urlparse

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
django_asgi_app = get_asgi_application()  # set up Django before importing consumers

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator, WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402

from gotweb.routing import websocket_urlpatterns  # noqa: E402


class SiteOriginValidator(OriginValidator):
    """Channels' ``OriginValidator`` with the site's trusted origins, read from the settings at
    each handshake:

    * with ``CSRF_TRUSTED_ORIGINS`` set, exactly those origins: scheme, host and port must all
      match (``http://127.0.0.1:9999`` is not ``https://127.0.0.1``); ``https://*.example.org``
      also admits example.org's subdomains, as it does for Django's CSRF check;
    * without it, as Channels' ``AllowedHostsOriginValidator``: the Origin's host must be one of
      ``ALLOWED_HOSTS`` (any scheme and port).

    A handshake without an Origin header, or with one that does not parse (``null``, a port that
    is not a number or out of range), is refused; a refusal closes the handshake (HTTP 403 from
    daphne) and never reaches a consumer.
    """

    def __init__(self, application) -> None:  # the origins come from the settings, per handshake
        self.application = application

    @property
    def allowed_origins(self) -> list[str]:
        trusted = settings.CSRF_TRUSTED_ORIGINS
        if trusted:
            # Django's "*." subdomain wildcard is Channels' leading ".": https://*.a.org -> https://.a.org
            return [origin.lower().replace("://*.", "://.", 1) for origin in trusted]
        hosts = settings.ALLOWED_HOSTS
        if settings.DEBUG and not hosts:  # as AllowedHostsOriginValidator (and Django) do
            hosts = ["localhost", "127.0.0.1", "[::1]"]
        return hosts

    async def __call__(self, scope, receive, send):
        if scope.get("type") == "websocket" and not all(map(_parses, _origins(scope))):
            return await WebsocketDenier()(scope, receive, send)  # Channels' urlparse would raise
        return await super().__call__(scope, receive, send)

    def valid_origin(self, parsed_origin) -> bool:
        try:
            return super().valid_origin(parsed_origin)
        except ValueError:  # urlparse's .port of "https://host:99999" or "https://host:x"
            return False


def _origins(scope) -> list[bytes]:
    return [value for name, value in scope.get("headers", []) if name == b"origin"]


def _parses(origin: bytes) -> bool:
    """Whether ``urlparse`` takes the Origin header's value (it raises ValueError on a broken
    IPv6 bracket or characters that change under NFKC normalisation)."""
    try:
        urlparse(origin.decode("latin1"))
    except ValueError:
        return False
    return True


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded so far (Django, Channels, the server, the rules' data) lives as long as the
# process: move it out of the cyclic garbage collector's way, so a full collection walks only
# what live play creates (a full collection took ~70 ms with them, ~8 ms without, on 2 cores).
gc.freeze()
# What live play creates is mostly long-lived too (each socket's protocol, consumer, queue and
# task; each watched game's states and events), and a full collection walks all of it: 80-160 ms
# with 1,000 sockets, every 5-10 s at 50 acts/s by Python's default thresholds, while it found
# a few hundred objects each time (reference counting frees the rest, the young generations
# collect young cycles). GC_FULL_AFTER middle-generation collections between two full ones
# (default 1000 instead of 10: minutes apart under load) took one process's p99 at 125 games
# from 242 to 22-28 ms (docs/capacity.md, second round).
gc.set_threshold(*gc.get_threshold()[:2], settings.GC_FULL_AFTER)
