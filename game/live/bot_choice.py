"""What a bot plays in a live game: the ruleset's bot (``ruleset.bot_action``), checked against
the rules, with a fallback, and the JSON object the log stores of it.

Should a ruleset's bot answer with a move its rules refuse, or have no bot, one of the decision's
listed ``options["actions"]`` is played when it lists them (The Duke lists every legal action).
When bots move is :mod:`game.live.bots`; they act through :func:`game.live.apply.bot_act`, the
same path as people.
"""

from __future__ import annotations

import random
import sys
from dataclasses import fields, is_dataclass
from typing import Any

from game.rules import IllegalAction


def choose(rules, state, actor: str, level: str, seed: int, budget: float | None = None) -> Any:
    """A legal action (typed, or a JSON object) for ``actor`` by bot ``level``, thinking for at
    most about ``budget`` CPU seconds (None: the level's default); IllegalAction("bot.no_decision")
    when ``actor`` has nothing to decide."""
    decision = next((d for d in rules.pending(state) if d.actor == actor), None)
    if decision is None:
        raise IllegalAction("bot.no_decision", "this seat has nothing to decide now", seat=actor)
    try:
        action = rules.bot_action(state, actor, level, seed, budget)
        rules.apply(state, actor, action)  # a bot must never stall the game with a bad move
        return action
    except (NotImplementedError, IllegalAction):
        return _fallback(rules, state, decision, random.Random(seed))


def choose_in_worker(target: str, state, actor: str, level: str, seed: int, budget: float | None) -> Any:
    """:func:`choose` in a worker process (:mod:`game.live.bot_pool`), the ruleset given by its
    registry target ``"module:attribute"`` (this module imports no Django: the worker loads only
    the pure ruleset)."""
    from importlib import import_module

    module, attr = target.split(":")
    return choose(getattr(import_module(module), attr), state, actor, level, seed, budget)


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
