"""Rulesets: pure game engines behind the contract in :mod:`game.rules.base`.

May import: nothing of the site (no Django, no Channels, no other ``game`` package); checked by
``tests/test_layout.py``.

``get_ruleset(id)`` returns a registered ruleset. Adding a game is a package of its own plus one
line of :data:`REGISTRY`; the site finds everything it shows of the game through the contract.
:func:`register` adds one at run time (a test's own ruleset, a plug-in's).
"""

from __future__ import annotations

from importlib import import_module

from .base import Decision, IllegalAction, Ruleset

#: ruleset id -> "module:attribute" of the object implementing :class:`Ruleset`, in the order the
#: site lists the games; the first is the default of a new lobby
REGISTRY: dict[str, str] = {
    "agot2": "game.rules.agot:RULESET",
    "agot1": "game.rules.agot:RULESET_1E",  # the 1st edition: the same engine, its edition profile
    "duke": "game.rules.duke:RULESET",
}
#: the ruleset of a lobby that names none
DEFAULT_RULESET = next(iter(REGISTRY))


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``; raises ``KeyError`` for an unknown id."""
    module_name, attr = REGISTRY[ruleset_id].split(":")
    return getattr(import_module(module_name), attr)


def register(ruleset_id: str, target: str) -> None:
    """Register the ruleset at ``target`` (``"module:attribute"``) as ``ruleset_id``, listed last.
    The object must implement :class:`Ruleset` with ``id == ruleset_id``; ValueError otherwise,
    or when the id is taken by another target."""
    if REGISTRY.get(ruleset_id, target) != target:
        raise ValueError(f"ruleset id {ruleset_id!r} is already registered")
    REGISTRY[ruleset_id] = target
    try:
        rules = get_ruleset(ruleset_id)
        if not isinstance(rules, Ruleset) or rules.id != ruleset_id:
            raise ValueError(f"{target} is not a ruleset with the id {ruleset_id!r}")
    except Exception:
        del REGISTRY[ruleset_id]
        raise


def unregister(ruleset_id: str) -> None:
    """Forget the ruleset registered as ``ruleset_id`` (KeyError when none is); the default one
    stays."""
    if ruleset_id == DEFAULT_RULESET:
        raise ValueError("the default ruleset stays registered")
    del REGISTRY[ruleset_id]


__all__ = ["Decision", "IllegalAction", "Ruleset", "REGISTRY", "DEFAULT_RULESET", "get_ruleset", "register", "unregister"]
