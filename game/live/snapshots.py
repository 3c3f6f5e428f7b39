"""Game states from the log, fast: a per-process cache and pickled snapshots in the database.

A game's state is a fold of ``apply`` over its :class:`~game.models.Action` log (a game is its
log; the site's notes folded by :func:`game.rules.base.note`, see
:func:`game.rules.base.step`); everything here is only a cache of that fold:

* :data:`CACHE` keeps the latest states of the games this process's sockets watch (and, for a
  while, of a few others), keyed by ``(game id, version)``. A version names exactly one state (the
  log is append-only), so a cached entry is never stale, whichever process appended the actions.
  A game no socket of this process watches costs it no state: it comes back from the snapshot and
  the log when needed.
* ``Game.snapshot`` holds the pickled state at ``Game.snapshot_version``, written every
  ``settings.GAME_SNAPSHOT_EVERY`` actions (default 20), together with :func:`code_key`, a
  fingerprint of the engine's source files. A snapshot made by other engine code, or one that does
  not unpickle, is ignored: the state is replayed from the log instead.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import threading
from collections import OrderedDict
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

from django.conf import settings

from game.rules import REGISTRY
from game.rules.base import step

log = logging.getLogger(__name__)
RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


@lru_cache(maxsize=None)
def code_key(ruleset: str) -> str:
    """A 32-hex-digit fingerprint of the ruleset's engine code (``game/rules/base.py`` and the
    module the registry names, with its whole package when it is one), so snapshots never
    outlive the code that made them."""
    module = import_module(REGISTRY[ruleset].split(":")[0])
    where = Path(module.__file__)
    h = hashlib.sha256(ruleset.encode())
    engine = sorted(where.parent.rglob("*.py")) if hasattr(module, "__path__") else [where]
    files = [RULES_DIR / "base.py", *engine]
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:32]


class StateCache:
    """A thread-safe cache of ``(game id, version) -> state`` (states are never modified).

    Per game it keeps the latest ``per_game`` versions it was given (an act needs the latest, a
    push the one it names, a process that did not make a version the one before it). Games that
    sockets of this process watch are *held* (:meth:`hold`, :meth:`let_go`; see
    :mod:`game.live.memory`) and keep their states however many there are: a live site has as
    many games in play as it has, and an evicted state costs the next act a snapshot load and a
    replay. Other games (an HTTP view's, a bot's without watchers) are kept for at most ``ttl``
    seconds after their last use and at most ``size`` of them, least recently used first out.
    A game let go by its last socket is forgotten at once (:meth:`drop`)."""

    def __init__(self, size: int = 64, per_game: int = 3, ttl: float = 120.0, clock=None) -> None:
        import time

        self.size, self.per_game, self.ttl = size, per_game, ttl
        self.clock = clock or time.monotonic
        self._games: dict[int, OrderedDict[int, Any]] = {}
        self._loose: OrderedDict[int, float] = OrderedDict()  # games not held -> last use
        self._held: dict[int, int] = {}  # game -> how many holders
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Any:
        with self._lock:
            versions = self._games.get(game_id)
            state = None if versions is None else versions.get(version)
            if state is not None and game_id in self._loose:
                self._loose[game_id] = self.clock()
                self._loose.move_to_end(game_id)
            return state

    def put(self, game_id: int, version: int, state: Any) -> None:
        with self._lock:
            versions = self._games.setdefault(game_id, OrderedDict())
            versions[version] = state
            if len(versions) > self.per_game:  # keep the newest versions
                for v in sorted(versions)[: len(versions) - self.per_game]:
                    del versions[v]
            if game_id not in self._held:
                self._loose[game_id] = self.clock()
                self._loose.move_to_end(game_id)
            self._expire()

    def _expire(self) -> None:
        old = self.clock() - self.ttl
        while self._loose:
            game_id, used = next(iter(self._loose.items()))
            if len(self._loose) <= self.size and used >= old:
                break
            del self._loose[game_id]
            self._games.pop(game_id, None)

    def hold(self, game_id: int) -> None:
        """One more holder of ``game_id`` (a socket of this process): its states stay."""
        with self._lock:
            self._held[game_id] = self._held.get(game_id, 0) + 1
            self._loose.pop(game_id, None)

    def let_go(self, game_id: int) -> bool:
        """One holder fewer; the last one's leaving forgets the game's states. True then."""
        with self._lock:
            n = self._held.get(game_id, 0) - 1
            if n > 0:
                self._held[game_id] = n
                return False
            self._held.pop(game_id, None)
            self._games.pop(game_id, None)
            self._loose.pop(game_id, None)
            return True

    def drop(self, game_id: int) -> None:
        """Forget every state of ``game_id`` (held or not)."""
        with self._lock:
            self._games.pop(game_id, None)
            self._loose.pop(game_id, None)

    def games(self) -> set[int]:
        """The games of which a state is kept now (diagnostics)."""
        with self._lock:
            self._expire()
            return {g for g, versions in self._games.items() if versions}

    def clear(self) -> None:
        with self._lock:
            self._games.clear()
            self._loose.clear()


CACHE = StateCache()


def snapshot_every() -> int:
    return max(1, int(settings.GAME_SNAPSHOT_EVERY))


def dump(state: Any) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def load_snapshot(game) -> tuple[int, Any] | None:
    """``(version, state)`` from ``game``'s snapshot when it is usable, else None."""
    if game.snapshot is None or game.snapshot_version < 0 or game.snapshot_key != code_key(game.ruleset):
        return None
    try:
        return game.snapshot_version, pickle.loads(bytes(game.snapshot))
    except Exception:  # a snapshot is only a cache: fall back to the log
        log.warning("unusable snapshot of game %s; replaying its log", game.pk, exc_info=True)
        return None


def state_at(game, version: int | None = None) -> Any:
    """The state of ``game`` after ``version`` actions (default ``game.version``).

    Served from :data:`CACHE`, else from the newest usable starting point (a cached state, the
    snapshot, or ``new_game``) plus the logged actions after it. Raises ValueError for a version
    the log does not reach.

    Cost: nothing for a cached version; for the latest, at most ``GAME_SNAPSHOT_EVERY - 1``
    applies after a usable snapshot; for an older version than the snapshot's (or with no usable
    snapshot), a replay of the log from its start, which grows with the game. So what a client's
    message leads to asks only for the latest or a cached version (a stale ``act`` is judged from
    ``Game.decisions_since``, an old pushed version gives way to the latest in
    :func:`game.live.payloads.payload_text`).
    """
    from game.models import Action

    target = game.version if version is None else version
    if target < 0 or target > game.version:
        raise ValueError(f"game {game.pk} has no version {target}")
    hit = CACHE.get(game.pk, target)
    if hit is not None:
        return hit
    rules = game.rules
    start, state = 0, None
    for v in range(target - 1, max(-1, target - 30), -1):  # a recent cached state, then replay
        cached = CACHE.get(game.pk, v)
        if cached is not None:
            start, state = v, cached
            break
    if state is None:
        snap = load_snapshot(game)
        if snap is not None and snap[0] <= target:
            start, state = snap
        else:
            start, state = 0, rules.new_game(game.players, game.seed, game.options)
    rows = Action.objects.filter(game=game, number__gt=start, number__lte=target).order_by("number")
    for actor, data in rows.values_list("actor", "action"):
        state = step(rules, state, actor, data)  # an action, or a note of the site
    CACHE.put(game.pk, target, state)
    return state


def advance(game_id: int, ruleset: str, version: int) -> bool:
    """Put the state of ``version`` in :data:`CACHE` from the cached state of ``version - 1`` and
    the one entry of the log between them (an action or a note of the site; one query, no game
    row): how a process catches up with a
    version another process committed. False (nothing done) when ``version - 1`` is not cached or
    the action is not in the log; the caller then reads the game as usual. Blocking: call it in
    the database thread."""
    from game.models import Action
    from game.rules import get_ruleset

    if CACHE.get(game_id, version) is not None:
        return True
    prev = CACHE.get(game_id, version - 1)
    if prev is None:
        return False
    rows = list(Action.objects.filter(game_id=game_id, number=version).values_list("actor", "action"))
    if len(rows) != 1:
        return False
    CACHE.put(game_id, version, step(get_ruleset(ruleset), prev, *rows[0]))  # an action, or a note of the site
    return True
