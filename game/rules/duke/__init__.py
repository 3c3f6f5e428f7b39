"""The Duke (公爵战棋), a two-player tile game on a 6x6 board: the pure rules engine.

``RULESET`` implements :class:`game.rules.base.Ruleset`; rules readings are in ``docs/duke.md``.
Modules: :mod:`.tiles` (tile data), :mod:`.board` (squares, paths, strike lines),
:mod:`.position` (icon rules, captures, threats), :mod:`.dragon` (the Dragon's in-between turn),
:mod:`.legal` (legal actions), :mod:`.refusals` (why an action is refused), :mod:`.engine` (turns),
:mod:`.actions`, :mod:`.view`, :mod:`.bots`, :mod:`.selfplay`, :mod:`.scenario`.
"""

from .ruleset import RULESET, DukeRuleset

__all__ = ["RULESET", "DukeRuleset"]
