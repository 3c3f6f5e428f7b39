"""A push as the difference between the viewer's previous state and the new one: a ``patch``
message (``docs/protocol.md``), ``{"type": "patch", "game", "from": version, "version": version,
"ops": [...]}`` whose ``ops`` are JSON Patch operations (RFC 6902: ``add``, ``remove`` and
``replace`` only) that turn the ``state`` payload of version ``from`` into that of ``version``
(every key but ``type`` and ``version``). A socket asks for patches with ``?patch=1``; its first
message, a reconnect and a ``sync`` are whole states, and so is any push whose patch would be
longer than the state itself.

**Nothing leaks through a patch**: it is computed from the two payloads of one viewer
(:mod:`game.live.payloads`, the per-viewer view), so its values are parts of the newer one and its
paths keys of the two, which that viewer was or is sent anyway. Each distinct patch is made once
per (game, versions, viewer, language) and shared by every socket that needs it, like the
payloads themselves (every spectator of a language shares one).

**From parts, not texts** (:func:`cached_patch_text`): a push compares the objects the two
payloads are encoded from (:class:`~game.live.payloads.Parts`), so no text is parsed, and the
part of the view every viewer sees alike (the ruleset's ``shared_view``: the map, the tracks)
is compared once per version for all of the game's viewers (:func:`_shared_ops`); each viewer
adds only the difference of its own part, pending decisions and log. For a 6-player game in
round 5 that is 0.7 ms for the 7 distinct viewers of an act, against 6.4 ms parsing and comparing
their texts on the same host (:func:`patch_text`, still used when this process has only the text
a socket holds; ``docs/capacity.md``, twelfth round).

**The diff is our own, for speed.** ``jsonpatch.make_patch`` (the maintained library) took
3.4 ms median, 9.6 ms p99, for two consecutive payloads of a 6-player game in the middle of round
5 (it compares the log windows item by item), so about 24 ms of CPU per act for the 7 distinct
viewers, where a whole act costs about 6 ms; :func:`diff` takes 0.27 ms median (parsing both
texts included), because it compares subtrees with ``==`` (in C) and knows that a payload's lists
of events and log lines are windows that move on at their end. Its operations are checked
against the library's ``apply_patch`` in the tests.
"""

from __future__ import annotations

import threading
from typing import Any

import orjson
from cachetools import LRUCache

from game.rules.base import lang_key

from . import gamelog, jsontext, payloads

#: how far a list may have moved on at its front (a window of events or log lines that dropped its
#: oldest entries) and still be patched by removals and appends
WINDOW_SHIFT = 16

#: ``(game id, from, to, viewer, language) -> the patch message's text, or "" when the whole state
#: is shorter`` (:func:`patch_text`, from texts)
_PATCHES: LRUCache = LRUCache(maxsize=256)
_LOCK = threading.Lock()
#: ``(game id, viewer, language) -> ((from, to, the patch message's text or ""), ...)``: the two
#: latest patches made from parts (:func:`cached_patch_text`; the one before serves a socket of
#: the viewer that is one push behind its others); one entry per viewer and language of each
#: game this process pushes, so a busy process's other games cannot empty it during one act's
#: pushes
_LATEST: dict[tuple[int, str | None, str], tuple[tuple[int, int, str], ...]] = {}


def _token(key: Any) -> str:
    """``key`` as a JSON Pointer reference token (RFC 6901: ``~`` and ``/`` escaped)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def diff(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """JSON Patch operations (``add``, ``remove``, ``replace``) that turn the JSON value ``a`` into
    ``b``, both as ``orjson.loads`` gives them. Objects are compared key by key; a list that
    dropped up to :data:`WINDOW_SHIFT` items at its front and gained some at its end is patched by
    removals of item 0 and appends; a list of the same length item by item when that is shorter;
    anything else is replaced whole.

    >>> diff({"a": 1, "log": [1, 2, 3]}, {"a": 2, "log": [2, 3, 4], "b": True})
    [{'op': 'replace', 'path': '/a', 'value': 2}, {'op': 'remove', 'path': '/log/0'}, {'op': 'add', 'path': '/log/-', 'value': 4}, {'op': 'add', 'path': '/b', 'value': True}]
    """
    out: list[dict[str, Any]] = []
    _diff(a, b, path, out)
    return out


def _diff(a: Any, b: Any, path: str, out: list) -> None:
    if type(a) is dict and type(b) is dict:
        for k in a:
            if k not in b:
                out.append({"op": "remove", "path": f"{path}/{_token(k)}"})
        for k, v in b.items():
            if k not in a:
                out.append({"op": "add", "path": f"{path}/{_token(k)}", "value": v})
            elif a[k] != v:
                _diff(a[k], v, f"{path}/{_token(k)}", out)
        return
    if type(a) is list and type(b) is list and a and b:
        n = len(a)
        for k in range(min(n, WINDOW_SHIFT) + 1):
            keep = n - k
            if keep <= len(b) and a[k:] == b[:keep]:
                out.extend({"op": "remove", "path": f"{path}/0"} for _ in range(k))
                out.extend({"op": "add", "path": f"{path}/-", "value": v} for v in b[keep:])
                return
        if len(a) == len(b):
            items: list[dict[str, Any]] = []
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    _diff(x, y, f"{path}/{i}", items)
            if len(jsontext.dumps(items)) < len(jsontext.dumps(b)):
                out.extend(items)
                return
    out.append({"op": "replace", "path": path, "value": b})


def patch_text(game_id: int, viewer: str | None, lang: str, old: int, new: int, old_text: str, new_text: str) -> str | None:
    """The text of the ``patch`` message that turns the ``state`` payload ``old_text`` (version
    ``old``) into ``new_text`` (version ``new``) for ``viewer`` in ``lang``, made once and shared;
    None when the whole state is no longer than the patch."""
    key = (game_id, old, new, viewer, lang)
    with _LOCK:
        hit = _PATCHES.get(key)
    if hit is None:
        a, b = orjson.loads(old_text), orjson.loads(new_text)
        for k in ("type", "version"):
            a.pop(k, None)
            b.pop(k, None)
        text = jsontext.dumps({"type": "patch", "game": game_id, "from": old, "version": new, "ops": diff(a, b)})
        hit = text if len(text) < len(new_text) else ""
        with _LOCK:
            _PATCHES[key] = hit
    return hit or None


def cached_patch_text(game_id: int, ruleset: str, viewer: str | None, lang: str, old: int, new: int) -> str | None:
    """The text of the ``patch`` message from version ``old`` to ``new`` for ``viewer`` in
    ``lang``, without touching the database (on the event loop): made once and shared, from the
    two versions' :class:`~game.live.payloads.Parts` (no text is parsed, and the part of the
    view every viewer shares is compared once for all of them: :func:`_shared_ops`). None when
    this process has neither parts nor state of one of the versions, or when the whole state is
    no longer than the patch (then the push is whole)."""
    lang = lang_key(lang)
    key = (game_id, viewer, lang)
    with _LOCK:
        for made in _LATEST.get(key, ()):
            if made[:2] == (old, new):
                return made[2] or None
    a = payloads.cached_parts(game_id, ruleset, viewer, lang, old)
    b = payloads.cached_parts(game_id, ruleset, viewer, lang, new)
    if a is None or b is None:
        return None
    text = jsontext.dumps({"type": "patch", "game": game_id, "from": old, "version": new, "ops": _parts_ops(game_id, old, new, a, b)})
    # the whole state holds the shared view's text: a patch shorter than that is shorter than it
    text = text if len(text) < len(b.shared_text) or len(text) < len(payloads.cached_payload_text(game_id, ruleset, viewer, lang, new) or "") else ""
    with _LOCK:
        kept = _LATEST.get(key, ())
        if not kept or kept[-1][1] <= new:
            _LATEST[key] = (*kept[-1:], (old, new, text))
    return text or None


def _parts_ops(game_id: int, old: int, new: int, a, b) -> list[dict[str, Any]]:
    """The operations that turn the payload of parts ``a`` (version ``old``) into that of ``b``
    (``new``): the same result as :func:`diff` of the two payloads without ``type`` and ``version``."""
    out: list[dict[str, Any]] = []
    _diff({k: v for k, v in a.head.items() if k not in ("type", "version")},
          {k: v for k, v in b.head.items() if k not in ("type", "version")}, "", out)
    if a.shared is not None and b.shared is not None and a.shared.keys().isdisjoint(b.own) and b.shared.keys().isdisjoint(a.own):
        out.extend(_shared_ops(game_id, old, new, a.shared, b.shared))
        _diff(a.own, b.own, "/view", out)
    else:
        _diff({**(a.shared or {}), **a.own}, {**(b.shared or {}), **b.own}, "/view", out)
    _diff(a.pending, b.pending, "/pending", out)
    _log_ops(a, b, out)
    return out


def _log_ops(a, b, out: list) -> None:
    """The operations on ``/log`` from parts ``a`` to ``b``: when ``b``'s window of told events
    is ``a``'s moved on at its end, removals of its first lines and the new lines only (made
    here, the others never are); else the whole list replaced."""
    shift, old, new = b.log_first - a.log_first, a.log_told, b.log_told
    keep = len(old) - shift
    if 0 <= shift <= len(old) and keep <= len(new) and old[shift:] == new[:keep]:
        out.extend({"op": "remove", "path": "/log/0"} for _ in range(shift))
        out.extend({"op": "add", "path": "/log/-", "value": gamelog.line(t, n)} for n, t in enumerate(new[keep:], start=b.log_first + keep))
    else:
        out.append({"op": "replace", "path": "/log", "value": b.log})


def _shared_ops(game_id: int, old: int, new: int, a: dict, b: dict) -> list[dict[str, Any]]:
    """The operations on ``/view`` that turn the shared view ``a`` (version ``old``) into ``b``
    (``new``), made once for every viewer of the game (the same for all: nothing of a viewer's
    own is in them)."""
    with _LOCK:
        hit = _SHARED_OPS.get(game_id)
    if hit is not None and hit[:2] == (old, new):
        return hit[2]
    ops: list[dict[str, Any]] = []
    _diff(a, b, "/view", ops)
    with _LOCK:
        hit = _SHARED_OPS.get(game_id)
        if hit is None or hit[1] <= new:
            _SHARED_OPS[game_id] = (old, new, ops)
    return ops


#: ``game id -> (from, to, the operations on the shared view)`` of the latest push (see :func:`_shared_ops`)
_SHARED_OPS: dict[int, tuple[int, int, list[dict[str, Any]]]] = {}


def forget(game_id: int) -> None:
    """Drop the patches of ``game_id`` (:mod:`game.live.memory`)."""
    with _LOCK:
        for key in [k for k in _PATCHES if k[0] == game_id]:
            del _PATCHES[key]
        for key in [k for k in _LATEST if k[0] == game_id]:
            del _LATEST[key]
        _SHARED_OPS.pop(game_id, None)
