"""The game log panel's lines: the engine's events, already redacted by ``view(state, viewer)``,
told in plain language (English or simplified Chinese).

A game's events are told by its ruleset (:func:`game.rules.base.describe`, with the board areas
each names: :func:`game.rules.base.log_areas`), the site's notes (a time-out, a stand-in) by
:func:`game.live.notes.text`. An event the ruleset cannot tell falls back to its kind, so a new
engine event never breaks the page.
"""

from __future__ import annotations

import threading
from operator import itemgetter
from typing import Any

from cachetools import LRUCache
from django.utils import translation

from game.rules import base, get_ruleset
from game.rules.base import lang_key

from . import jsontext, notes

#: how many of the latest lines a push carries
LOG_WINDOW = 60

_EVENT = itemgetter(0)  # a told event's event (see _tell)


def lines(ruleset: str, view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """``[{"n": int, "text": str, "round": int | None, "areas": [str]}]``, the latest
    :data:`LOG_WINDOW` events of ``view["events"]`` told in ``lang``; ``n`` counts events from
    the game's start; ``areas`` are the ids of the board areas the line names (AGoT; empty for
    rulesets without areas), which the page highlights while the line is hovered or tapped. A
    line telling a note of the site (:mod:`game.live.notes`) also has ``"note": true``."""
    events = view.get("events") or []
    first = max(0, len(events) - LOG_WINDOW)
    entry = _entry(ruleset, lang_key(lang), first, list(events[first:]))
    if entry[1] is None:
        entry[1] = [line(t, n) for n, t in enumerate(entry[3], start=first)]
    return list(entry[1])


def lines_text(ruleset: str, view: dict[str, Any], lang: str) -> str:
    """The compact JSON text of :func:`lines` (``json.dumps`` with ``separators=(",", ":")`` and
    ``ensure_ascii=False``), put together once for every viewer whose window is the same, from
    each line's text, which is encoded once per event and language (a new version's window
    shares all but its newest lines with the one before)."""
    return window(ruleset, view, lang)[2]


def window(ruleset: str, view: dict[str, Any], lang: str, prev: tuple[int, list[tuple], str] | None = None) -> tuple[int, list[tuple], str]:
    """``(first, told, text)`` of the log's window of ``view``: ``first`` the number of its first
    line (see :func:`lines`), ``told`` its events as told (each a tuple whose :func:`line` with
    its number is the line; equal tuples make equal lines) and ``text`` the JSON text of its
    lines (:func:`lines_text`). A patch compares two windows' ``told`` and makes only the lines
    that are new (:mod:`game.live.patches`).

    ``prev``: a window of an earlier version in the same ruleset and language (the viewer's own,
    to be of use), as this function gave it: a hint, for live play's pushes
    (:func:`game.live.payloads.cached_parts`). When this window is that one moved on at its end
    (its events up to the new ones are the same, at the same numbers), only the new events are
    looked up and their lines' text appended to what is kept of ``prev``'s text (a window that
    has not changed is ``prev`` itself); any other ``prev`` is ignored. The result is the same
    either way."""
    events = view.get("events") or []
    first = max(0, len(events) - LOG_WINDOW)
    evs = list(events[first:])
    if prev is not None:
        made = _moved_on(ruleset, lang_key(lang), first, evs, prev)
        if made is not None:
            return made
    entry = _entry(ruleset, lang_key(lang), first, evs)
    if entry[2] is None:
        entry[2] = "[" + ",".join(['{"n":' + str(n) + "," + t[4] for n, t in enumerate(entry[3], start=first)]) + "]"
    return first, entry[3], entry[2]


def _moved_on(ruleset: str, key: str, first: int, evs: list, prev: tuple[int, list[tuple], str]) -> tuple[int, list[tuple], str] | None:
    """The window of the events ``evs`` (the first of them the viewer's event ``first``) made from
    ``prev`` (see :func:`window`), or None when ``evs`` is not ``prev``'s window, as it was or
    moved on: the events ``prev`` and ``evs`` share must be the same objects at the same numbers
    (another viewer's own events leave this viewer's window as it was). The kept lines' text is
    cut out of ``prev``'s text at the first kept line's start: ``{"n":<number>,`` cannot occur
    inside a JSON string, where a quote is escaped. (Events are compared by ``==``, which finds
    the same objects equal without looking inside; equal events are told alike.)"""
    p_first, p_told, p_text = prev
    shift = first - p_first
    keep = len(p_told) - shift
    if shift < 0 or keep <= 0 or keep > len(evs) or not p_text.endswith("}]"):
        return None
    kept = p_told[shift:]
    if list(map(_EVENT, kept)) != evs[:keep]:  # (identical events compare equal at once)
        return None
    if keep == len(evs):
        return prev if shift == 0 else None
    start = p_text.find('{"n":' + str(first) + ",") if shift else 1
    if start < 0:
        return None
    new = evs[keep:]
    with _TOLD_LOCK:
        found = [_TOLD.get((id(ev), ruleset, key)) for ev in new]
    told = [t if t is not None and t[0] is ev else None for t, ev in zip(found, new)]
    if None in told:
        with translation.override(key):
            told = [t if t is not None else _tell(ruleset, ev, key) for t, ev in zip(told, new)]
    text = p_text[start:-1] + "," + ",".join(['{"n":' + str(n) + "," + t[4] for n, t in enumerate(told, start=first + keep)]) + "]"
    return first, kept + told, "[" + text


def line(told: tuple, n: int) -> dict[str, Any]:
    """The line (see :func:`lines`) of the event told in ``told`` (:func:`_tell`, as
    :func:`window` gives it), the game's event ``n``."""
    ev, text, areas, note, _ = told
    line = {"n": n, "text": text, "round": ev.get("round", ev.get("turn")), "areas": areas}
    if note:
        line["note"] = True  # the site's note (a time-out, a stand-in), not a move
    return line


def _entry(ruleset: str, key: str, first: int, window: list) -> list:
    """``[window, its lines or None, their JSON text or None, the events told (see _tell)]`` of
    the events ``window`` (the first of them the game's event ``first``) in language ``key``,
    from :data:`_LINES` or made now; the lines and their text are made when first asked for."""
    # the viewers of one version mostly share their window: told once (the entry keeps its
    # events, so the ids it is found by are not reused while it lives)
    cache_key = (ruleset, key, first, tuple(map(id, window)))
    with _LINES_LOCK:
        hit = _LINES.get(cache_key)
    if hit is not None:
        return hit
    with _TOLD_LOCK:
        told = [_TOLD.get((id(ev), ruleset, key)) for ev in window]
    told = [t if t is not None and t[0] is ev else None for t, ev in zip(told, window)]
    if None in told:  # events not told before (in this language): told now, once
        with translation.override(key):
            told = [t if t is not None else _tell(ruleset, ev, key) for t, ev in zip(told, window)]
    entry = [window, None, None, told]
    with _LINES_LOCK:
        _LINES[cache_key] = entry
    return entry


_LINES: LRUCache = LRUCache(maxsize=256)  # see _entry
_LINES_LOCK = threading.Lock()


class _Generations:
    """A cache of at most ``maxsize`` entries whose lookups are plain dict lookups (a window's 60
    events are looked up for every viewer of every version: ``cachetools``' LRU, which moves
    each entry it finds in Python, was a tenth of a busy server's event loop). Entries live in
    two generations of at most ``maxsize // 2``: a new entry goes to the young one, an entry
    found in the old one moves to the young one, and when the young one is full it becomes the
    old one (the old one's entries, unused for that long, are forgotten). So the entries used
    least recently go first, and the latest ``maxsize // 2`` are always kept. Not thread-safe
    (its callers hold a lock)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.young: dict = {}
        self.old: dict = {}

    def get(self, key, default=None):
        hit = self.young.get(key)
        if hit is None:
            hit = self.old.pop(key, None)
            if hit is None:
                return default
            self[key] = hit
        return hit

    def __setitem__(self, key, value) -> None:
        self.young[key] = value
        if len(self.young) >= self.maxsize // 2:
            self.old, self.young = self.young, {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def clear(self) -> None:
        self.young, self.old = {}, {}


#: ``(id(event), ruleset, lang) -> (event, text, areas, is a note, JSON)``: a game's events are
#: never changed once made and every viewer and version shares them, so each is told once per
#: language (the event is kept with its line, so its id cannot be reused while the entry lives).
#: The least recently used go first: mostly events that have left every window by now.
_TOLD = _Generations(maxsize=50_000)
_TOLD_LOCK = threading.Lock()


def _tell(ruleset: str, ev: dict[str, Any], lang: str) -> tuple[dict[str, Any], str, list[str], bool, str]:
    """``(ev, its sentence in lang, the areas it names, whether it is a note of the site, the JSON
    text of its line after the "n" key)``, made once and kept in :data:`_TOLD` (call it with the
    translation of ``lang`` active). The line's whole text is ``'{"n":' + str(n) + "," + JSON``."""
    told = (ev, describe(ruleset, ev, lang), named_areas(ruleset, ev), base.note_of(ev) is not None)
    entry = (*told, jsontext.dumps(line((*told, ""), 0))[len('{"n":0,'):])
    with _TOLD_LOCK:
        _TOLD[(id(ev), ruleset, lang)] = entry
    return entry


def named_areas(ruleset: str, event: dict[str, Any]) -> list[str]:
    """The ids of the board areas ``event`` names (``[]`` for a ruleset without areas, a note of
    the site, or an event that names none)."""
    if base.note_of(event) is not None:
        return []
    try:
        return base.log_areas(get_ruleset(ruleset), event)
    except Exception:  # a log line must never break a push
        return []


def describe(ruleset: str, event: dict[str, Any], lang: str) -> str:
    """The sentence of ``event`` (one of a view's ``events``) in ``lang``."""
    note = base.note_of(event)
    if note is not None:
        return notes.text(ruleset, note, lang)
    try:
        return base.describe(get_ruleset(ruleset), event, lang)
    except Exception:  # a log line must never break a push
        return str(event.get("kind") or event.get("type") or "?") if isinstance(event, dict) else "?"
