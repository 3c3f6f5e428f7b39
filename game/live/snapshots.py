"""Game states from the log, fast: a per-process cache and pickled snapshots in the database.

A game's state is a fold of ``apply`` over its :class:`~game.models.Action` log (DESIGN.md
principle 3; the site's notes folded by :func:`game.rules.base.note`, see
:func:`game.rules.base.step`); everything here is only a cache of that fold:

* :data:`CACHE` keeps the latest states of recent games in this process, keyed by
  ``(game id, version)``. A version names exactly one state (the log is append-only), so a cached
  entry is never stale, whichever process appended the actions.
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
from pathlib import Path
from typing import Any

from django.conf import settings

from game.rules.base import step

log = logging.getLogger(__name__)
RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


@lru_cache(maxsize=None)
def code_key(ruleset: str) -> str:
    """A 32-hex-digit fingerprint of the ruleset's engine code (``game/rules/base.py`` and the
    package the registry names), so snapshots never outlive the code that made them."""
    from game.rules import REGISTRY

    package = REGISTRY[ruleset].split(":")[0].split(".")[-1]
    h = hashlib.sha256(ruleset.encode())
    files = [RULES_DIR / "base.py", *sorted((RULES_DIR / package).rglob("*.py"))]
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:32]


class StateCache:
    """A small thread-safe LRU of ``(game id, version) -> state`` (states are never modified)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Any:
        with self._lock:
            key = (game_id, version)
            state = self._items.get(key)
            if state is not None:
                self._items.move_to_end(key)
            return state

    def put(self, game_id: int, version: int, state: Any) -> None:
        with self._lock:
            self._items[(game_id, version)] = state
            self._items.move_to_end((game_id, version))
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE = StateCache()


def snapshot_every() -> int:
    return max(1, int(getattr(settings, "GAME_SNAPSHOT_EVERY", 20)))


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
