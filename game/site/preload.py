"""What a game page asks the browser to fetch at once, so that it shows an interactive board
within a second of the navigation: every ES module the page's script and its ruleset's renderer will import, for
``<link rel="modulepreload">`` (fetched in parallel while the HTML is parsed, instead of one
round trip per level of imports), and the renderer's first fetches, for ``<link rel="preload">``.

:func:`module_graph` reads the modules' static ``import ... from "..."`` / ``export ... from
"..."`` / ``import "..."`` statements (dynamic ``import()`` is left out: it is loaded on
demand), following relative specifiers from each module's folder. Files come from the static
files finders; the result is cached per process unless ``DEBUG`` is on (files may change then).
"""

from __future__ import annotations

import functools
import posixpath
import re

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from game.rules.base import presentation

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;"'`()]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""", re.M)


def board_fetches(board: str | None, lang: str) -> list[str]:
    """What the screen of a game on the drawn ``board`` (:attr:`~game.rules.base.Presentation.board`)
    fetches first in ``lang``: the board's SVG and data, at the exact URLs it asks for, so the
    browser uses the preloaded answers. None (a screen that draws its own board): nothing."""
    if board is None:
        return []
    return [
        reverse(f"board-{board}-svg") + "?lang=" + ("zh" if lang == "zh-hans" else "en"),
        reverse(f"board-{board}-data") + "?lang=" + ("zh-hans" if lang == "zh-hans" else "en"),
    ]


def module_graph(*entries: str) -> list[str]:
    """The static paths (``"js/live/play.js"``...) of ``entries`` and every module they import,
    directly or not, entries first, then in the order found (breadth first). A module that no
    finder holds is left out, with what it imports."""
    if settings.DEBUG:
        return _graph(entries)
    return list(_cached_graph(tuple(entries)))


@functools.lru_cache(maxsize=32)
def _cached_graph(entries: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_graph(entries))


def _graph(entries) -> list[str]:
    seen: list[str] = []
    queue = list(entries)
    while queue:
        path = queue.pop(0)
        if path in seen:
            continue
        found = finders.find(path)
        if not found:
            continue
        seen.append(path)
        with open(found, encoding="utf-8") as f:
            text = f.read()
        for m in _IMPORT.finditer(text):
            spec = m.group(1) or m.group(2)
            target = _resolve(path, spec)
            if target and target not in seen:
                queue.append(target)
    return seen


def _resolve(importer: str, spec: str) -> str | None:
    """The static path ``spec`` names when imported from ``importer`` (None for a bare name or
    another site's URL)."""
    if spec.startswith(("./", "../")):
        return posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    if spec.startswith(prefix):
        return spec[len(prefix):]
    return None


#: the screen of a ruleset that names no renderer of its own: each decision's listed actions as
#: buttons (:attr:`~game.rules.base.Presentation.renderer`)
GENERIC_RENDERER = "js/rulesets/generic.js"


def renderer_of(rules) -> str:
    """The static path of ``rules``' game screen module: its presentation's ``renderer`` when
    the static files hold it, else :data:`GENERIC_RENDERER`."""
    path = presentation(rules).renderer
    return path if path and finders.find(path) else GENERIC_RENDERER


def page_preloads(rules, lang: str, *entries: str) -> dict[str, list[str]]:
    """``{"modules": [URL], "fetches": [URL], "styles": [URL]}`` for a game page of the ruleset
    ``rules`` in ``lang`` whose scripts are ``entries`` (static paths): the modules' URLs, the
    renderer's first fetches and the ruleset's stylesheet, when there is one, so the board is
    styled at its first paint (:class:`~game.rules.base.Presentation`)."""
    shown = presentation(rules)
    css = shown.stylesheet
    return {
        "modules": [static(p) for p in module_graph(*entries)],
        "fetches": board_fetches(shown.board, lang),
        "styles": [static(css)] if css and finders.find(css) else [],
    }
