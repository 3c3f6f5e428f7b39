"""HTTP views serving the drawn boards: ``GET /boards/agot2.svg`` and ``GET /boards/agot1.svg``
(wired in the project's urls), and their data for the game screen ``GET /boards/agot2.json`` and
``GET /boards/agot1.json``.

The SVG comes from :func:`game.boards.render.render_board` (cached in-process per language and
board). The
language is ``?lang=en|zh`` when given, otherwise the request's active Django language
(``zh-hans`` -> Chinese names, anything else -> English). An unknown ``lang`` answers
400 with a plain-text reason.
"""

from __future__ import annotations

import functools
import hashlib

from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from .labels import normalize_lang
from .render import render_board


#: seconds a browser may use the board SVG or data without asking again; after that it revalidates
#: with the ETag (a 304 when nothing changed)
BOARD_MAX_AGE = 300


@functools.cache
def _etag(lang: str, board: str) -> str:
    return '"' + hashlib.sha256(render_board(lang, board).encode()).hexdigest()[:20] + '"'


def _board_svg(request, board: str):
    """``board``'s drawing as ``image/svg+xml`` (public, fresh for ``BOARD_MAX_AGE``, ETag)."""
    asked = request.GET.get("lang")
    try:
        if asked:
            lang = normalize_lang(asked)
        else:
            lang = "zh" if (get_language() or "").startswith("zh") else "en"
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    etag = _etag(lang, board)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(render_board(lang, board),
                                content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    response["Content-Language"] = "zh-Hans" if lang == "zh" else "en"
    patch_cache_control(response, public=True, max_age=BOARD_MAX_AGE)
    if not asked:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def agot2_board_svg(request):
    """The AGoT 2nd-edition board as ``image/svg+xml`` (public, fresh for ``BOARD_MAX_AGE``, ETag)."""
    return _board_svg(request, "agot2")


@require_GET
def agot1_board_svg(request):
    """The AGoT 1st-edition board (``/boards/agot1.svg``), served like :func:`agot2_board_svg`."""
    return _board_svg(request, "agot1")


@functools.cache
def _board_data(lang: str, board: str = "agot2") -> tuple[bytes, str]:
    """The board data JSON of ``lang`` and ``board`` (UTF-8) and its ETag."""
    import json

    from .data import board_data

    body = json.dumps(board_data(lang, board), ensure_ascii=False).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


@require_GET
def agot2_board_data_json(request):
    """``GET /boards/agot2.json?lang=en|zh-hans``: names and static facts for the game screen
    (:func:`game.boards.data.board_data`); public, fresh for 5 minutes, then revalidated by
    ETag (so a deploy that changes a text reaches browsers within minutes, at the cost of a 304)."""
    return _board_data_json(request, "agot2")


@require_GET
def agot1_board_data_json(request):
    """``GET /boards/agot1.json?lang=en|zh-hans``: the 1st edition's, as :func:`agot2_board_data_json`."""
    return _board_data_json(request, "agot1")


def _board_data_json(request, board: str):
    lang = request.GET.get("lang") or get_language() or "en"
    body, etag = _board_data("zh-hans" if lang.lower().startswith("zh") else "en", board)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=BOARD_MAX_AGE)
    if not request.GET.get("lang"):
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
