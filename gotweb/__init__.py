"""The gotweb Django project: settings, URLs and the ASGI application (HTTP + websockets)."""
