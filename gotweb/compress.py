"""Gzip for the static files and the boards' files, whoever serves them.

WhiteNoise serves the ``.gz`` files ``collectstatic`` writes beside each static file (the
compressed storage in settings), but not a file found in the source folders (``make run``,
``WHITENOISE_USE_FINDERS``): this middleware compresses those on the way out, and the boards'
SVG and JSON (``/boards/...``, made by views). Only those paths: a page holding a CSRF token or a
player's hidden cards is never compressed (BREACH). It stands above WhiteNoise in ``MIDDLEWARE``,
so it sees WhiteNoise's responses; a response already encoded is left alone.

A file is compressed once per process and version: the compressed bytes are kept by path and
validator (the file's ETag or Last-Modified), so a page's twenty-odd static files cost the server
no compression after the first visitor."""

from __future__ import annotations

import gzip
import threading

from cachetools import LRUCache
from django.conf import settings
from django.utils.cache import patch_vary_headers
from django.utils.regex_helper import _lazy_re_compile

_ACCEPTS_GZIP = _lazy_re_compile(r"\bgzip\b")
#: smaller bodies are sent as they are (the header costs more than it saves)
MIN_SIZE = 200
#: (path, validator) -> (compressed bytes, original length)
_CACHE: LRUCache = LRUCache(maxsize=256)
_LOCK = threading.Lock()


class StaticGZipMiddleware:
    """Gzip the responses of ``STATIC_URL`` and ``/boards/`` for clients that accept it."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.static = "/" + settings.STATIC_URL.lstrip("/")

    def __call__(self, request):
        response = self.get_response(request)
        path = request.path_info
        if not (path.startswith(self.static) or path.startswith("/boards/")):
            return response
        if response.status_code != 200 or response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        validator = response.get("ETag") or response.get("Last-Modified")
        key = (path, request.META.get("QUERY_STRING", ""), validator) if validator else None
        with _LOCK:
            hit = _CACHE.get(key) if key else None
        if hit is None:
            body = b"".join(response.streaming_content) if response.streaming else response.content
            if len(body) < MIN_SIZE:
                _set_body(response, body)
                return response
            hit = gzip.compress(body, 6, mtime=0)
            if key:
                with _LOCK:
                    _CACHE[key] = hit
        _set_body(response, hit)
        response["Content-Encoding"] = "gzip"
        if response.get("ETag"):
            # a weak validator: the bytes differ from the file's, its meaning does not
            response["ETag"] = "W/" + response["ETag"].removeprefix("W/")
        return response


def _set_body(response, body: bytes) -> None:
    """Give ``response`` the body ``body`` (a file response keeps its file, closed as usual when
    the server closes the response)."""
    if response.streaming:
        response.streaming_content = [body]
    else:
        response.content = body
    response["Content-Length"] = str(len(body))
