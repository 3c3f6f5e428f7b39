"""Rulesets: pure game engines behind the contract in :mod:`game.rules.base`.

May import: nothing of the site (no Django, no Channels, no other ``game`` package); checked by
``tests/test_layout.py``.

``get_ruleset(id)`` returns a registered ruleset; registering a new game is one line here.
"""

from __future__ import annotations

from importlib import import_module

from .base import Decision, IllegalAction, Ruleset

#: ruleset id -> "module:attribute" of the object implementing :class:`Ruleset`
REGISTRY: dict[str, str] = {
    "agot2": "game.rules.agot:RULESET",
    "agot1": "game.rules.agot:RULESET_1E",  # the 1st edition: the same engine, its edition profile
    "duke": "game.rules.duke:RULESET",
}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``; raises ``KeyError`` for an unknown id."""
    module_name, attr = REGISTRY[ruleset_id].split(":")
    return getattr(import_module(module_name), attr)


__all__ = ["Decision", "IllegalAction", "Ruleset", "REGISTRY", "get_ruleset"]
