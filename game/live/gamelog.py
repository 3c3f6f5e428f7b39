"""The game log panel's lines: the engine's events, already redacted by ``view(state, viewer)``,
told in plain language (English or simplified Chinese).

AGoT sentences come from :func:`game.rules.agot.log.describe`, The Duke's from
:func:`game.rules.duke.log.describe`, the site's notes (a time-out, a stand-in) from
:func:`game.live.notes.text`. Unknown events fall back to their kind, so a new engine event
never breaks the page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

#: how many of the latest lines a push carries
LOG_WINDOW = 60
#: the rulesets whose events the AGoT engine tells (both editions)
AGOT = ("agot2", "agot1")


def lang_key(lang: str | None) -> str:
    """``"zh-hans"`` for any Chinese language code, else ``"en"``."""
    return "zh-hans" if (lang or "").lower().startswith("zh") else "en"


def lines(ruleset: str, view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """``[{"n": int, "text": str, "round": int | None, "areas": [str]}]``, the latest
    :data:`LOG_WINDOW` events of ``view["events"]`` told in ``lang``; ``n`` counts events from
    the game's start; ``areas`` are the ids of the board areas the line names (AGoT; empty for
    rulesets without areas), which the page highlights while the line is hovered or tapped. A
    line telling a note of the site (:mod:`game.live.notes`) also has ``"note": true``."""
    events = view.get("events") or []
    first = max(0, len(events) - LOG_WINDOW)
    window = list(events[first:])
    key = lang_key(lang)
    # the viewers of one version mostly share their window: told once (the entry keeps its
    # events, so the ids it is found by are not reused while it lives)
    cache_key = (ruleset, key, first, tuple(map(id, window)))
    with _LINES_LOCK:
        hit = _LINES.get(cache_key)
    if hit is not None:
        return list(hit[1])
    out = []
    from .notes import of_event

    with translation.override(key):
        for i, ev in enumerate(window, start=first):
            line = {"n": i, "text": _told(ruleset, ev, key), "round": ev.get("round", ev.get("turn")), "areas": named_areas(ruleset, ev)}
            if of_event(ruleset, ev) is not None:
                line["note"] = True  # the site's note (a time-out, a stand-in), not a move
            out.append(line)
    with _LINES_LOCK:
        _LINES[cache_key] = (window, out)
        while len(_LINES) > _LINES_MAX:
            _LINES.popitem(last=False)
    return list(out)


_LINES: OrderedDict[tuple, tuple[list, list[dict[str, Any]]]] = OrderedDict()
_LINES_MAX = 256
_LINES_LOCK = threading.Lock()


#: ``(id(event), ruleset, lang) -> (event, text)``: a game's events are never changed once made
#: and every viewer and version shares them, so each is told once per language (the event is
#: kept with its text, so its id cannot be reused while the entry lives)
_TOLD: dict[tuple[int, str, str], tuple[dict[str, Any], str]] = {}
_TOLD_MAX = 50_000


def _told(ruleset: str, ev: dict[str, Any], lang: str) -> str:
    k = (id(ev), ruleset, lang)
    hit = _TOLD.get(k)
    if hit is not None and hit[0] is ev:
        return hit[1]
    text = describe(ruleset, ev, lang)
    if len(_TOLD) >= _TOLD_MAX:
        _TOLD.clear()
    _TOLD[k] = (ev, text)
    return text


def named_areas(ruleset: str, event: dict[str, Any]) -> list[str]:
    """The ids of the board areas ``event`` names (``[]`` for a ruleset without areas, or an
    event that names none)."""
    if ruleset not in AGOT or (event.get("kind") == "note" if isinstance(event, dict) else False):
        return []
    from game.rules.agot.log import areas

    try:
        return areas(event, ruleset)
    except Exception:  # a log line must never break a push
        return []


def describe(ruleset: str, event: dict[str, Any], lang: str) -> str:
    """The sentence of ``event`` (one of a view's ``events``) in ``lang``."""
    from . import notes

    note = notes.of_event(ruleset, event)
    if note is not None:
        return notes.text(ruleset, note, lang)
    if ruleset in AGOT:
        from game.rules.agot.log import describe as agot_describe

        try:
            return agot_describe(event, lang, ruleset)  # the edition's names of areas and cards
        except Exception:  # a log line must never break a push
            return str(event.get("kind", "?"))
    if ruleset == "duke":
        return _duke(event, lang)
    return str(event.get("kind") or event.get("type") or "?")


def _duke(ev: dict[str, Any], lang: str) -> str:
    from game.rules.duke.log import describe as duke_describe

    try:
        return duke_describe(ev, lang)
    except Exception:  # a log line must never break a push
        return str(ev.get("type", "?"))
