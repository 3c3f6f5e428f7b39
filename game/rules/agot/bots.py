"""Bots for AGoT (both editions): ``random``, ``basic`` and ``strong`` (``RULESET.bot_action``).

A bot sees what a player in its seat sees: it reads its own pending :class:`Decision` (whose
options list the legal choices, see :mod:`.options`), the public board data and
``view(state, house)``, and it may try candidate actions with ``apply`` (a refused candidate
changes nothing). It never reads hidden state (other houses' orders being placed, bids, decks;
the strong bot searches on :func:`.search.forget`'s public state, where they are replaced).
Randomness comes from the ``seed`` argument only, so a bot is deterministic in ``(state, seed)``
(the strong bot when its search is bounded by a count of playouts rather than CPU time).
Match series of one level against others: ``python -m tests.bench.bots`` (docs/bots.md).

* ``random`` (:mod:`.random_bot`): uniform among the actions built from the options, large
  spaces sampled and each sample checked with ``apply``;
* ``basic`` (:mod:`.basic_bot`): simple sense (marches worth making, Defense where threatened,
  its own supports, sensible bids and cards), the random level's answers where it has none;
* ``strong`` (:mod:`.search`, :mod:`.candidates`): flat Monte Carlo search over candidate
  actions on states sampled consistently with the house's view, basic bots playing the rollouts;
  it thinks for ``budget`` seconds of CPU per decision (None: :data:`.search.DEFAULT_BUDGET`).

This module picks the level; it implements no rule (the bots follow the rules only through the
decisions' options and ``apply``).
"""

from __future__ import annotations

import random
from typing import Any

from ..base import IllegalAction
from .actions import parse_action
from .basic_bot import BasicBot
from .random_bot import RandomBot

LEVELS = ("random", "basic", "strong")

__all__ = ["LEVELS", "bot_action"]


def bot_action(ruleset: Any, state: Any, actor: str, level: str, seed: int, budget: float | None = None, iterations: int | None = None) -> Any:
    """A legal action (typed) for ``actor`` by bot ``level``; deterministic in ``seed`` (the
    strong level: when bounded by ``iterations`` playouts rather than ``budget`` CPU seconds;
    random and basic ignore both).

    Raises:
        IllegalAction("action.not_your_turn"): ``actor`` has nothing to decide.
        IllegalAction("bot.level"): a level not in :data:`LEVELS`.
    """
    if level not in LEVELS:
        raise IllegalAction("bot.level", "unknown bot level", level=str(level), levels=list(LEVELS))
    mine = [d for d in ruleset.pending(state) if d.actor == actor]
    if not mine:
        raise IllegalAction("action.not_your_turn", "Nothing is waiting for this house's decision now.", house=actor)
    d = mine[0]
    rnd = random.Random(seed)
    if level == "strong":
        from .candidates import candidates
        from .search import search

        act = search(ruleset, state, actor, seed, candidates, budget=budget, iterations=iterations)
        if act is None:
            act = BasicBot(ruleset, state, actor, d, rnd).basic()
    elif level == "basic":
        act = BasicBot(ruleset, state, actor, d, rnd).basic()
    else:
        act = RandomBot(ruleset, state, actor, d, rnd).random()
    return parse_action(act)
