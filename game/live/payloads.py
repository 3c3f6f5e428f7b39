"""What one viewer of a live game is sent: the ruleset's per-viewer view, the pending decisions
(the viewer's own with their options, others' without), the version and the latest log lines in
the viewer's language. Never the raw state.

:func:`payload_text` is the JSON text every socket of one seat, language and version shares;
:func:`cached_payload_text` makes it without the database when this process holds the state.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, NamedTuple

from cachetools import LRUCache

from game.models import Game
from game.rules import get_ruleset
from game.rules.base import lang_key

from . import gamelog, jsontext, snapshots


def pending_for(rules, state, viewer: str | None, decisions: list | None = None) -> list[dict[str, Any]]:
    """The viewer's own decisions with their options; others' as ``{actor, kind, simultaneous}``.
    ``decisions``: ``rules.pending(state)`` when the caller has it (it is the same for every viewer)."""
    out = []
    for d in rules.pending(state) if decisions is None else decisions:
        if viewer is not None and d.actor == viewer:
            out.append(d.as_dict())
        else:
            out.append({"actor": d.actor, "kind": d.kind, "simultaneous": d.simultaneous})
    return out


class _PayloadCache:
    """A thread-safe LRU of ``key -> payload text`` holding at most ``size`` entries."""

    def __init__(self, size: int = 256) -> None:
        self.items, self.lock = LRUCache(maxsize=size), threading.Lock()

    def get(self, key):
        with self.lock:
            return self.items.get(key)

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value


PAYLOADS = _PayloadCache()
#: ``(game id, viewer, language) -> the latest Parts made`` (see :func:`cached_parts`)
LATEST: dict[tuple[int, str | None, str], Parts] = {}
_LATEST_LOCK = threading.Lock()


def payload(game: Game, viewer: str | None, lang: str, version: int | None = None) -> dict[str, Any]:
    """``{"type": "state", "game", "version", "viewer", "status", "result", "view", "pending",
    "log"}`` for ``viewer`` at ``version`` (default the game's)."""
    v = game.version if version is None else version
    head, view, tail = _payload_parts(game.pk, game.ruleset, snapshots.state_at(game, v), v, viewer, lang)
    return {**head, "view": view, **tail}


def _payload_parts(game_id: int, ruleset: str, state: Any, version: int, viewer: str | None, lang: str):
    """The payload as ``(head, view, tail)``: the keys before ``view``, the view, the keys after."""
    rules = get_ruleset(ruleset)
    view = rules.view(state, viewer)
    head, tail = _head_and_tail(game_id, ruleset, rules, state, version, viewer, lang, view)
    return head, windowed_view(view), tail


def windowed_view(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as a payload carries it: of its ``events``, only the latest
    :data:`~game.gamelog.LOG_WINDOW` (the ones the ``log`` tells), and ``events_from``, the index
    of the first of them in the viewer's whole list. The whole list grows all game long (about
    50 KB by the end of round 5) and every push would repeat it. Without the view's own
    ``pending`` (AGoT's views list the decisions too): the payload's ``pending`` is the same list,
    made from the same decisions (:func:`pending_for`), and the wire carries it once (a seat's
    options on its turn, a March order's every move, are up to 1.7 KB; the second copy cost
    every version's pushes about 7 % of their work in ``tests.bench.pushes``)."""
    evs = view.get("events")
    if not isinstance(evs, list):
        if "pending" not in view:
            return view
        return {k: v for k, v in view.items() if k != "pending"}
    first = max(0, len(evs) - gamelog.LOG_WINDOW)
    out = {k: v for k, v in view.items() if k != "events" and k != "pending"}
    out["events_from"] = first
    out["events"] = evs[first:]
    return out


def _head_and_tail(game_id: int, ruleset: str, rules, state: Any, version: int, viewer: str | None, lang: str, told: dict):
    """The payload's keys before ``view`` and after it. ``told``: the view, or the part of it,
    that holds the viewer's events (the ``log`` tells the latest of them)."""
    return _head(game_id, rules, state, version, viewer), {"pending": pending_for(rules, state, viewer), "log": gamelog.lines(ruleset, told, lang)}


def _head(game_id: int, rules, state: Any, version: int, viewer: str | None) -> dict[str, Any]:
    result = rules.result(state)
    status = "finished" if result is not None else "running"
    return {"type": "state", "game": game_id, "version": version, "viewer": viewer, "status": status, "result": result}


class Parts(NamedTuple):
    """One viewer's payload at one version as the objects it is encoded from: ``head`` (the keys
    before ``view``: ``type``, ``game``, ``version``, ``viewer``, ``status``, ``result``),
    ``shared`` (the ruleset's ``shared_view``, the same object for every viewer of the version;
    None for a ruleset without one), ``own`` (the rest of the view, windowed: see
    :func:`windowed_view`; the whole windowed view when ``shared`` is None), ``pending``, and the
    log as its window of told events (``log_first``, ``log_told``: see
    :func:`game.live.gamelog.window`; :attr:`log` makes its lines); with the JSON texts of
    ``shared`` and of the log's lines, which are shared and encoded once (per version, and per
    window of events and language). The payload is ``{**head, "view": {**shared, **own},
    "pending": pending, "log": log}`` (the ruleset's contract keeps ``shared`` and ``own``
    disjoint). A patch is made from two of these without parsing any text
    (:mod:`game.live.patches`). Never mutated once made."""

    head: dict[str, Any]
    shared: dict[str, Any] | None
    own: dict[str, Any]
    pending: list[dict[str, Any]]
    log_first: int
    log_told: list[tuple]
    shared_text: str
    log_text: str

    @property
    def log(self) -> list[dict[str, Any]]:
        """The payload's ``log`` lines (made on each call)."""
        return [gamelog.line(t, n) for n, t in enumerate(self.log_told, start=self.log_first)]


def _parts(game_id: int, ruleset: str, state: Any, version: int, viewer: str | None, lang: str, prev: Parts | None = None) -> Parts:
    """The :class:`Parts` of ``viewer``'s payload of ``state`` (version ``version``). ``prev``:
    this viewer's parts of an earlier version in the same language, if at hand (its log's window
    is moved on rather than made again: :func:`game.live.gamelog.window`)."""
    rules = get_ruleset(ruleset)
    common = _common(game_id, version, rules, state)
    own = rules.own_view(state, viewer, common.decisions) if common.shared is not None else rules.view(state, viewer)
    hint = None if prev is None else (prev.log_first, prev.log_told, prev.log_text)
    first, told, log_text = gamelog.window(ruleset, own, lang, hint)
    return Parts(_head(game_id, rules, state, version, viewer), common.shared, windowed_view(own),
                 pending_for(rules, state, viewer, common.decisions), first, told, common.shared_text, log_text)


def _text(parts: Parts) -> str:
    """The compact JSON text of the payload ``parts`` (the same text as ``json.dumps`` of
    :func:`payload`), made cheaply for the many viewers of one version: the shared view's text
    and the log's are encoded once (see :class:`Parts`); the rest, the viewer's own part with its
    latest events, is encoded for each viewer (:mod:`game.live.jsontext`)."""
    own_text = jsontext.dumps(parts.own)
    if parts.shared is None or parts.shared_text == "{}":
        view_text = own_text
    elif own_text == "{}":
        view_text = parts.shared_text
    else:
        view_text = parts.shared_text[:-1] + "," + own_text[1:]
    return (jsontext.dumps(parts.head)[:-1] + ',"view":' + view_text + ',"pending":' + jsontext.dumps(parts.pending)
            + ',"log":' + parts.log_text + "}")


def _payload_text(game_id: int, ruleset: str, state: Any, version: int, viewer: str | None, lang: str) -> str:
    """The compact JSON text of the payload, the same text as ``json.dumps`` of :func:`payload`
    (see :func:`_text`)."""
    return _text(_parts(game_id, ruleset, state, version, viewer, lang))


class _Common(NamedTuple):
    """What every viewer of one version shares: the ruleset's ``shared_view`` and its JSON text
    (None and "" for a ruleset without one) and the pending decisions (``rules.pending``)."""

    version: int
    shared: dict[str, Any] | None
    shared_text: str
    decisions: list


#: ``game id -> _Common`` of the latest version made: one entry per game, so a busy process's other
#: games cannot empty it between the first and the last viewer of one act (as a cache of versions
#: of 64 entries was); bounded all the same, since a replay or a page renders games no socket of
#: this process watches (which :mod:`game.live.memory` never forgets)
_COMMON: LRUCache = LRUCache(maxsize=1024)
_COMMON_LOCK = threading.Lock()


def _common(game_id: int, version: int, rules, state: Any) -> _Common:
    """The :class:`_Common` of ``game_id`` at ``version`` (``state``), made once for every viewer
    of the game's latest version."""
    with _COMMON_LOCK:
        hit = _COMMON.get(game_id)
    if hit is not None and hit.version == version:
        return hit
    shared = rules.shared_view(state) if hasattr(rules, "shared_view") else None
    made = _Common(version, shared, "" if shared is None else jsontext.dumps(shared), list(rules.pending(state)))
    with _COMMON_LOCK:
        hit = _COMMON.get(game_id)
        if hit is None or hit.version < version:
            _COMMON[game_id] = made
    return made


def forget(game_id: int) -> None:
    """Drop everything this module keeps of ``game_id``: its payloads, their parts and shared
    views (:mod:`game.live.memory`, when no socket of this process watches it any more)."""
    with PAYLOADS.lock:
        for key in [k for k in PAYLOADS.items if k[0] == game_id]:
            del PAYLOADS.items[key]
    with _LATEST_LOCK:
        for key in [k for k in LATEST if k[0] == game_id]:
            del LATEST[key]
    with _COMMON_LOCK:
        _COMMON.pop(game_id, None)


def cached_parts(game_id: int, ruleset: str, viewer: str | None, lang: str, version: int) -> Parts | None:
    """The :class:`Parts` of :func:`payload` at ``version`` without touching the database (so it
    may run on the event loop): the latest ones made for this game, viewer and language when
    they are of ``version``, else built from the state cache of this process (which holds every
    version this process committed, and the recent ones it pushed), and kept as the latest when
    they are newer; None when neither has them. ``ruleset`` is the game's (a game never changes
    its ruleset).

    Only the latest parts of each (game, viewer, language) are kept (:data:`LATEST`): a push's
    patch goes from the version its sockets hold, the one before, to the new one, and every
    other socket of that viewer then finds the patch made (:mod:`game.live.patches`). So they cost
    a process at most one entry per viewer and language of each game its sockets watch."""
    key = (game_id, viewer, lang_key(lang))
    with _LATEST_LOCK:
        hit = LATEST.get(key)
    if hit is not None and hit.head["version"] == version:
        return hit
    state = snapshots.CACHE.get(game_id, version)
    if state is None:
        return None
    parts = _parts(game_id, ruleset, state, version, viewer, key[2], hit if hit is not None and hit.head["version"] < version else None)
    with _LATEST_LOCK:
        hit = LATEST.get(key)
        if hit is None or hit.head["version"] < version:
            LATEST[key] = parts
    return parts


def cached_payload_text(game_id: int, ruleset: str, viewer: str | None, lang: str, version: int) -> str | None:
    """The JSON text of :func:`payload` at ``version`` without touching the database (so it may
    run on the event loop): from the payload cache, else made from :func:`cached_parts`; None
    when neither has it (then :func:`payload_text` reads the database)."""
    key = (game_id, version, viewer, lang_key(lang))
    hit = PAYLOADS.get(key)
    if hit is not None:
        return hit
    parts = cached_parts(game_id, ruleset, viewer, lang, version)
    if parts is None:
        return None
    text = _text(parts)
    PAYLOADS.put(key, text)
    return text


def payload_text(game_id: int, viewer: str | None, lang: str, version: int | None = None) -> tuple[int, str] | None:
    """``(version, JSON text of :func:`payload`)``, shared by every viewer of one seat, language
    and version; None for a missing game. ``version`` None (or past the game's) means the latest;
    so does an older version whose state this process no longer holds (neither payload nor state
    cached): rebuilding it could mean replaying the game's log from its start (its snapshot is
    newer), so the latest state, never more than ``GAME_SNAPSHOT_EVERY - 1`` actions past the
    snapshot, serves instead (a client takes the newest ``state`` as the truth)."""
    key = lang_key(lang)
    if version is not None:
        hit = PAYLOADS.get((game_id, version, viewer, key))
        if hit is not None:
            return version, hit
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        return None
    if version is None or version > game.version or snapshots.CACHE.get(game_id, version) is None:
        version = game.version
    hit = PAYLOADS.get((game_id, version, viewer, key))
    if hit is not None:
        return version, hit
    if game.snapshot_version >= 0 and snapshots.CACHE.get(game_id, version) is None:
        game = Game.objects.get(pk=game_id)  # the snapshot may spare a long replay
    text = _payload_text(game_id, game.ruleset, snapshots.state_at(game, version), version, viewer, key)
    PAYLOADS.put((game_id, version, viewer, key), text)
    return version, text


#: ``(game id, version) -> Future`` of a state being read for this process's sockets (event loop only)
_LOADING: dict[tuple[int, int], asyncio.Future[bool]] = {}


async def load_version(game_id: int, ruleset: str, version: int) -> bool:
    """Make the state of ``version`` (committed by another process) cached here, once for all
    of this process's sockets of the game that want it at the same time: the first one reads it
    (:func:`game.live.snapshots.advance`, in the database thread), the others wait for that
    read. True when it is cached now (then :func:`cached_payload_text` serves every viewer
    without the database); False when it could not be made that way (the caller reads the
    payload with :func:`payload_text`). What the read raises reaches every waiter."""
    from channels.db import database_sync_to_async

    if snapshots.CACHE.get(game_id, version) is not None:
        return True
    key = (game_id, version)
    pending = _LOADING.get(key)
    if pending is not None:
        return await asyncio.shield(pending)
    fut = asyncio.get_running_loop().create_future()
    _LOADING[key] = fut
    try:
        ok = await database_sync_to_async(snapshots.advance)(game_id, ruleset, version)
    except BaseException as exc:
        fut.set_exception(exc)
        fut.exception()  # retrieved: no "never retrieved" warning when nobody else waited
        raise
    finally:
        _LOADING.pop(key, None)
    fut.set_result(ok)
    return ok
