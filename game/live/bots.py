"""Bot turns for live games: what a bot plays (``ruleset.bot_action``, with a fallback) and when
(:func:`schedule_bots`, a thread of this process per game).

Should a ruleset's bot answer with a move its rules refuse, or have no bot, one of the decision's
listed ``options["actions"]`` is played when it lists them (The Duke lists every legal action).
Bots only ever act through :func:`game.live.apply.bot_act`, the same path as people.
"""

from __future__ import annotations

import logging
import random
import sys
import threading
import time
from dataclasses import fields, is_dataclass
from typing import Any

from django.conf import settings
from django.db import connections

from game.rules import IllegalAction

log = logging.getLogger(__name__)


def choose(rules, state, actor: str, level: str, seed: int) -> Any:
    """A legal action (typed, or a JSON object) for ``actor``; IllegalAction("bot.no_decision")
    when ``actor`` has nothing to decide."""
    decision = next((d for d in rules.pending(state) if d.actor == actor), None)
    if decision is None:
        raise IllegalAction("bot.no_decision", "this seat has nothing to decide now", seat=actor)
    try:
        action = rules.bot_action(state, actor, level, seed)
        rules.apply(state, actor, action)  # a bot must never stall the game with a bad move
        return action
    except (NotImplementedError, IllegalAction):
        return _fallback(rules, state, decision, random.Random(seed))


def _fallback(rules, state, decision, rnd: random.Random) -> Any:
    listed = decision.options.get("actions") if hasattr(decision.options, "get") else None
    if listed:
        return dict(rnd.choice(list(listed)))
    raise IllegalAction("bot.no_fallback", "no bot can answer this decision", kind=decision.kind)


def action_to_json(rules, action: Any) -> dict[str, Any]:
    """The JSON object of ``action`` (a typed action or already a dict), checked by a round trip
    through ``rules.parse_action``."""
    if isinstance(action, dict):
        return action
    module = sys.modules.get(type(action).__module__)
    for name in ("to_json", "action_to_json"):
        fn = getattr(module, name, None)
        if callable(fn):
            data = fn(action)
            if rules.parse_action(data) == action:
                return data
    data = _plain(action)
    if rules.parse_action(data) != action:
        raise ValueError(f"cannot serialise {action!r}")
    return data


def _plain(v: Any) -> Any:
    if is_dataclass(v):
        return {f.name: _plain(getattr(v, f.name)) for f in fields(v)}
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    return v


# --- bots in the background ------------------------------------------------------------------------
_scheduled: set[int] = set()
_threads: list[threading.Thread] = []
_sched_lock = threading.Lock()
#: ``(game id, seed) -> monotonic time`` when a game was found to have no bot seat; trusted for
#: :data:`BOTLESS_FOR` seconds (the 63-bit seed tells a game from an earlier one with the same id).
#: A game's bot seats are fixed when it starts; stand-ins (the other way a bot plays) are on the
#: game row, and an act of a game with stand-ins never trusts this cache. Every socket's connect
#: checks again, and a game this process forgets (:mod:`game.live.memory`) is forgotten here too.
#: (It was 10 s: at 150 games of people, a bot thread with its own new database connection every
#: 10 s per game took a fifth of the process's time; ``python -m tests.bench.capacity``.)
_botless: dict[tuple[int, int], float] = {}
BOTLESS_FOR = 600.0


def remember_botless(game_id: int, seed: int) -> None:
    """Note that game ``game_id`` (``seed``: its seed) has no bot seat and no stand-in now."""
    with _sched_lock:
        if len(_botless) > 10_000:
            _botless.clear()
        _botless[(game_id, seed)] = time.monotonic()


def forget_botless(game_id: int) -> None:
    with _sched_lock:
        for key in [k for k in _botless if k[0] == game_id]:
            del _botless[key]


def schedule_bots(game_id: int, seed: int | None = None) -> None:
    """Let an awaited bot act after ``settings.GAME_BOT_DELAY`` seconds, in a thread of this
    process (at most one waiting per game per process; ``None`` disables it). Idempotent and
    harmless when no bot is awaited: :func:`game.live.apply.bot_act` decides under the game's lock.
    With the
    game's ``seed``, a game this process found without bots in the last :data:`BOTLESS_FOR`
    seconds costs nothing (no thread and no query after every action of a game of people)."""
    delay = getattr(settings, "GAME_BOT_DELAY", 0.8)
    if delay is None:
        return
    if seed is not None and time.monotonic() - _botless.get((game_id, seed), -BOTLESS_FOR) < BOTLESS_FOR:
        return
    with _sched_lock:
        if game_id in _scheduled:
            return
        _scheduled.add(game_id)

    def run() -> None:
        try:
            threading.Event().wait(delay)
            with _sched_lock:
                _scheduled.discard(game_id)
            from .apply import bot_act  # the apply path imports this module

            bot_act(game_id)
        except Exception:
            log.exception("bot move failed in game %s", game_id)
        finally:
            with _sched_lock:
                _scheduled.discard(game_id)
            connections.close_all()  # this thread ends: its connections too, even kept-alive ones

    t = threading.Thread(target=run, name=f"bot-{game_id}", daemon=True)
    with _sched_lock:
        _threads[:] = [x for x in _threads if x.is_alive()]
        _threads.append(t)
    t.start()


def wait_for_bots(timeout: float = 10.0) -> None:
    """Join the bot threads of this process (tests)."""
    while True:
        with _sched_lock:
            alive = [t for t in _threads if t.is_alive()]
        if not alive:
            return
        for t in alive:
            t.join(timeout)
