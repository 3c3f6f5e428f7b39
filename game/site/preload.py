"""What a game page asks the browser to fetch at once (issue 15: navigation to an interactive
board under 1 s): every ES module the page's script and its ruleset's renderer will import, for
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

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;"'`()]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""", re.M)

#: what a ruleset's renderer fetches first, by language: ``ruleset -> fn(lang) -> [URL]`` (the
#: exact URLs it asks for, so the browser uses the preloaded answers)
FIRST_FETCHES = {
    board: (lambda lang, board=board: [
        reverse(f"board-{board}-svg") + "?lang=" + ("zh" if lang == "zh-hans" else "en"),
        reverse(f"board-{board}-data") + "?lang=" + ("zh-hans" if lang == "zh-hans" else "en"),
    ])
    for board in ("agot2", "agot1")
}


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


#: a ruleset whose screen uses another ruleset's stylesheet (the 1st edition's screen is the 2nd's)
STYLESHEET = {"agot1": "agot2"}


def page_preloads(ruleset: str, lang: str, *entries: str) -> dict[str, list[str]]:
    """``{"modules": [URL], "fetches": [URL], "styles": [URL]}`` for a game page of ``ruleset``
    in ``lang`` whose scripts are ``entries`` (static paths): the modules' URLs, the renderer's
    first fetches and the ruleset's stylesheet (``css/<ruleset>.css``, or the one it shares, when there is one, so the
    board is styled at its first paint)."""
    css = f"css/{STYLESHEET.get(ruleset, ruleset)}.css"
    return {
        "modules": [static(p) for p in module_graph(*entries)],
        "fetches": FIRST_FETCHES.get(ruleset, lambda lang: [])(lang),
        "styles": [static(css)] if finders.find(css) else [],
    }
