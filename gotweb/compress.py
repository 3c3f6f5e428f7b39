"""Gzip for the static files and the boards' files, whoever serves them.

WhiteNoise serves the ``.gz`` files ``collectstatic`` writes beside each static file (the
compressed storage in settings), but not a file found in the source folders (``make run``,
``WHITENOISE_USE_FINDERS``): this middleware compresses those on the way out, and the boards'
SVG and JSON (``/boards/...``, made by views). Only those paths: a page holding a CSRF token or a
player's hidden cards is never compressed (BREACH). It stands above WhiteNoise in ``MIDDLEWARE``,
so it sees WhiteNoise's responses; a response already encoded is left alone."""

from __future__ import annotations

from django.conf import settings
from django.middleware.gzip import GZipMiddleware


class StaticGZipMiddleware(GZipMiddleware):
    """:class:`django.middleware.gzip.GZipMiddleware` for ``STATIC_URL`` and ``/boards/`` only."""

    def process_response(self, request, response):
        path = request.path_info
        static = "/" + settings.STATIC_URL.lstrip("/")
        if not (path.startswith(static) or path.startswith("/boards/")):
            return response
        return super().process_response(request, response)
