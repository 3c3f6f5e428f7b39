"""Where a bot thinks: ``strong`` bots in worker processes, the quick levels in the calling thread.

A ``strong`` bot searches for up to its budget of CPU seconds (``settings.GAME_BOT_BUDGET``, or
``GAME_BOT_BUDGET_CORRESPONDENCE`` for a game with deadlines). Python threads share one
interpreter lock, so a search in a thread of the server process would take time from its event
loop, and every other game's pushes would wait. It runs instead in a
:class:`concurrent.futures.ProcessPoolExecutor` of ``settings.GAME_BOT_WORKERS`` processes per
server process (started with ``spawn`` at the first strong decision, so no thread or connection of
the server is copied into it; shut down at exit, or by :func:`shutdown`). A worker runs at a
lower scheduling priority (``nice`` :data:`NICE`): on a busy machine the server's processes get
the CPU first, and the bot its CPU seconds later (its budget counts CPU time, not wall time). The worker imports only
the pure ruleset (``game.rules``) and :mod:`game.live.bot_choice`: it is given the state, the seat
and the ruleset's registry target, and answers an action. ``random`` and ``basic`` answer in
milliseconds and stay in the calling thread (so do all levels with ``GAME_BOT_WORKERS=0``).

Should a worker die or not answer within ``3 * budget + 30`` seconds, the decision is taken by
the ``basic`` bot in the calling thread, and the pool is started again at the next strong
decision. While a search waits, its ``key`` (the caller's, e.g. the game and version) is
:func:`in_flight`: the scheduler's rescue of an overdue bot move leaves a search under way to
answer instead of starting another.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from collections import Counter
from contextlib import contextmanager
from typing import Any, Hashable, Iterator

from django.conf import settings

from game.rules import REGISTRY

from . import bot_choice, clocks

log = logging.getLogger(__name__)

#: levels that think in the worker processes
POOLED = frozenset({"strong"})

#: how much lower a worker's scheduling priority is than its server process's (``os.nice``)
NICE = 10

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()
_searching: Counter = Counter()  # key -> searches of it waiting in this process (under _lock)


def budget_for(game, seat: str, now: float | None = None) -> float:
    """The CPU seconds a strong bot may think for ``seat``'s decision in ``game``:
    ``GAME_BOT_BUDGET_CORRESPONDENCE`` with deadlines, else ``GAME_BOT_BUDGET``, and with a live
    clock never more than a twentieth of the seat's time left (at least 0.05 s)."""
    tc = game.time_control or {}
    if tc.get("kind") == clocks.DEADLINE:
        return float(settings.GAME_BOT_BUDGET_CORRESPONDENCE)
    budget = float(settings.GAME_BOT_BUDGET)
    if tc.get("kind") == clocks.LIVE and game.clocks:
        left = clocks.remaining(game.clocks, seat, time.time() if now is None else now)
        if left is not None:
            budget = min(budget, max(0.05, left / 20))
    return budget


def stand_in_level(levels: tuple[str, ...], budget: float) -> str:
    """The level a stand-in plays: ``strong`` when the ruleset has it (``levels``) and ``budget``
    is at least ``settings.GAME_BOT_STRONG_MIN``, else ``basic``."""
    return "strong" if "strong" in levels and budget >= settings.GAME_BOT_STRONG_MIN else "basic"


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=settings.GAME_BOT_WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
            )
        return _pool


def _worker_start() -> None:
    """A worker's first step: a lower priority (see the module)."""
    try:
        os.nice(NICE)
    except OSError:  # not allowed here: the worker runs at its server's priority
        pass


def shutdown() -> None:
    """Stop this process's workers (a thinking one is waited for); the next strong decision
    starts them again."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def started() -> bool:
    """Whether this process's workers run."""
    return _pool is not None


@contextmanager
def searching(key: Hashable | None) -> Iterator[None]:
    """Marks ``key`` :func:`in_flight` for the block (None: nothing marked)."""
    if key is None:
        yield
        return
    with _lock:
        _searching[key] += 1
    try:
        yield
    finally:
        with _lock:
            _searching[key] -= 1
            if _searching[key] <= 0:
                del _searching[key]


def in_flight(key: Hashable) -> bool:
    """Whether a search given ``key`` (:func:`think`) is under way in this process."""
    with _lock:
        return _searching[key] > 0


def think(rules, state, actor: str, level: str, seed: int, budget: float, key: Hashable | None = None) -> Any:
    """:func:`game.live.bot_choice.choose` for ``actor``, in a worker process for a pooled level
    (see the module), ``key`` :func:`in_flight` meanwhile; raises what it raises
    (``bot.no_decision``)."""
    target = REGISTRY.get(getattr(rules, "id", ""))
    if level not in POOLED or settings.GAME_BOT_WORKERS <= 0 or target is None:
        with searching(key):
            return bot_choice.choose(rules, state, actor, level, seed, budget)
    try:
        with searching(key):
            future = _executor().submit(bot_choice.choose_in_worker, target, state, actor, level, seed, budget)
            return future.result(timeout=3 * budget + 30)
    except Exception as e:
        if isinstance(e, bot_choice.IllegalAction):
            raise
        log.exception("bot worker failed; the basic bot answers")
        shutdown_broken()
        return bot_choice.choose(rules, state, actor, "basic", seed, budget)


def shutdown_broken() -> None:
    """Forget a pool whose worker died, without waiting for it."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
