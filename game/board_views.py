"""HTTP view serving the drawn board: ``GET /boards/agot2.svg`` (wired in the project's urls).

The SVG comes from :func:`game.mapdraw.render_board` (cached in-process per language). The
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

from game import mapdraw


@functools.cache
def _etag(lang: str) -> str:
    return '"' + hashlib.sha256(mapdraw.render_board(lang).encode()).hexdigest()[:20] + '"'


@require_GET
def agot2_board_svg(request):
    """The AGoT 2nd-edition board as ``image/svg+xml`` (public, cacheable for a day, ETag)."""
    asked = request.GET.get("lang")
    try:
        if asked:
            lang = mapdraw.normalize_lang(asked)
        else:
            lang = "zh" if (get_language() or "").startswith("zh") else "en"
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    etag = _etag(lang)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(mapdraw.render_board(lang),
                                content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    response["Content-Language"] = "zh-Hans" if lang == "zh" else "en"
    patch_cache_control(response, public=True, max_age=86400)
    if not asked:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def agot2_board_data_json(request):
    """``GET /boards/agot2.json?lang=en|zh-hans``: names and static facts for the game screen
    (:func:`game.board_data.agot2_board_data`); public, cacheable for a day."""
    from django.http import JsonResponse

    from game.board_data import agot2_board_data

    lang = request.GET.get("lang") or get_language() or "en"
    response = JsonResponse(agot2_board_data(lang), json_dumps_params={"ensure_ascii": False})
    patch_cache_control(response, public=True, max_age=86400)
    if not request.GET.get("lang"):
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response
