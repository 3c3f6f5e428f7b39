"""A Game of Thrones: The Board Game, 2nd edition (3-6 players): the ``agot2`` ruleset.

A pure engine (no Django, no I/O, no clock, no global random) behind :class:`game.rules.base.Ruleset`.
Modules, one job each (rulebook sections in their docstrings):

* :mod:`.data` board and card data, validated; :mod:`.state` the state and its cheap copies;
  :mod:`.rng` the game's own randomness; :mod:`.setup` a new game;
* :mod:`.flow` the task queue (what happens next, who decides), :mod:`.actions` typed actions;
* :mod:`.planning` orders and the Messenger Raven; :mod:`.raid`, :mod:`.march`,
  :mod:`.consolidate`, :mod:`.action_phase` the action phase; :mod:`.control`, :mod:`.supply`,
  :mod:`.victory` control, supply and victory;
* :mod:`.westeros`, :mod:`.mustering`, :mod:`.bidding`, :mod:`.wildlings` the Westeros phase;
* :mod:`.views` what a viewer may see; :mod:`.log` the plain-language log (en, zh-hans);
  :mod:`.scenario` scenario files for tests; :mod:`.legal` random legal answers to decisions;
  :mod:`.turns` round-robin resolution in turn order.

* :mod:`.combat`, :mod:`.support`, :mod:`.retreat`, :mod:`.house_cards` combat (战斗): support,
  strength, house cards and their ability hooks, Tides of Battle, the Blade, casualties, retreat.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Decision, IllegalAction
from . import action_phase, bidding, cards, combat, consolidate, march, planning, raid, retreat, supply, westeros, wildlings  # noqa: F401 (task registration)
from .actions import parse_action as _parse_action
from .data import board
from .flow import apply as _apply
from .flow import current_decisions
from .setup import new_game as _new_game
from .state import State
from .views import open_view as _open_view
from .views import own_view as _own_view
from .views import progress as _progress
from .views import shared_view as _shared_view
from .views import view as _view

from .data import DATA_DIR  # noqa: E402,F401


class AgotRuleset:
    """The agot2 ruleset object (registered as ``game.rules.agot:RULESET``)."""

    id = "agot2"
    min_players = 3
    max_players = 6
    names = {"en": "A Game of Thrones: The Board Game (2nd edition)", "zh-hans": "权力的游戏：桌游（第二版）"}
    #: the options a lobby may set, with their defaults
    default_options: dict[str, Any] = {"tides_of_battle": False}

    def __init__(self) -> None:
        b = board()
        self._houses_by_count = {int(n): list(v["houses"]) for n, v in b.setups["player_counts"].items()}
        self._seat_names = {h["id"]: {"en": h["name_en"], "zh-hans": h["name_zh"]} for h in b.houses.values()}

    def seats(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """House ids in play for 3-6 players (``setups.json`` ``player_counts``); ValueError otherwise."""
        try:
            return list(self._houses_by_count[players])
        except KeyError:
            raise ValueError(f"agot2 is for 3 to 6 players, not {players}") from None

    def seat_names(self) -> dict[str, dict[str, str]]:
        """``{house id: {"en": name, "zh-hans": name}}`` for every house."""
        return {k: dict(v) for k, v in self._seat_names.items()}

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """The initial state (round 1, planning phase); see :mod:`.setup`."""
        opts = dict(self.default_options)
        opts.update(options or {})
        return _new_game(players, seed, opts)

    def parse_action(self, data: Any) -> Any:
        """A typed action from JSON; ``IllegalAction("action.malformed")`` otherwise."""
        return _parse_action(data)

    def apply(self, state: State, actor: str, action: Any) -> State:
        """The next state; the input is untouched. Raises :class:`IllegalAction`."""
        if isinstance(action, dict):
            action = _parse_action(action)
        else:
            action = _parse_action(action)
        return _apply(state, actor, action)

    def pending(self, state: State) -> list[Decision]:
        """Who must decide what now; empty exactly when the game is over."""
        return current_decisions(state)

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        return _view(state, viewer)

    def shared_view(self, state: State) -> dict[str, Any]:
        """The part of :meth:`view` every viewer of ``state`` sees alike (see :mod:`.views`)."""
        return _shared_view(state)

    def own_view(self, state: State, viewer: str | None) -> dict[str, Any]:
        """The rest of :meth:`view`: what depends on ``viewer`` (see :mod:`.views`)."""
        return _own_view(state, viewer)

    def open_view(self, state: State, viewer: str | None) -> dict[str, Any]:
        """:meth:`view` with every hidden item shown, for finished games' replays (see :mod:`.views`)."""
        return _open_view(state, viewer)

    def progress(self, state: State) -> dict[str, Any]:
        """``{"round", "phase"}`` of ``state`` (see :mod:`.views`)."""
        return _progress(state)

    def result(self, state: State) -> dict[str, Any] | None:
        return state.result

    def note(self, state: State, entry: dict[str, Any]) -> State:
        """``state`` with the site's note ``entry`` (checked by :func:`game.rules.base.note`) as
        one more event told to everyone, ``{"kind": "note", "round", "to": None, "note": entry}``;
        nothing else changes (not even :attr:`State.version`, the count of the game's actions).
        A note is no rule: it records what happened at the table (a time-out, a stand-in)."""
        new = state.clone()
        new.emit("note", note=dict(entry))
        return new

    def bot_action(self, state: State, actor: str, level: str, seed: int) -> Any:
        """A legal action for ``actor`` by bot ``level`` (``"random"``, ``"basic"``); see :mod:`.bots`."""
        from .bots import bot_action

        return bot_action(self, state, actor, level, seed)


RULESET = AgotRuleset()

__all__ = ["RULESET", "AgotRuleset", "IllegalAction", "Decision", "State"]
