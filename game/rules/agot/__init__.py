"""A Game of Thrones: The Board Game: the ``agot2`` ruleset (2nd edition, 3-6 players) and the
``agot1`` ruleset (1st edition, 3-5 players), one engine.

A pure engine (no Django, no I/O, no clock, no global random) behind :class:`game.rules.base.Ruleset`.
The two editions share every module; what differs is named in the edition profile
(:mod:`.edition`) and the data (``game/data/agot2``, ``game/data/agot1``); see ``docs/agot1.md``.
Modules, one job each (rulebook sections in their docstrings):

* :mod:`.edition` the two editions' profiles; :mod:`.data` board and card data, validated;
  :mod:`.state` the state and its cheap copies;
  :mod:`.rng` the game's own randomness; :mod:`.setup` a new game;
* :mod:`.flow` the task queue (what happens next, who decides), :mod:`.actions` typed actions;
* :mod:`.planning` orders and the Messenger Raven; :mod:`.raid`, :mod:`.march`,
  :mod:`.consolidate`, :mod:`.action_phase` the action phase; :mod:`.movement` where units may
  move and what entering an area does; :mod:`.control`, :mod:`.supply`,
  :mod:`.victory` control, supply and victory;
* :mod:`.westeros`, :mod:`.mustering`, :mod:`.bidding`, :mod:`.wildlings` (with
  :mod:`.wildling_effects`) the Westeros phase;
* :mod:`.views` what a viewer may see; :mod:`.log` the plain-language log (en, zh-hans);
  :mod:`.scenario` scenario files for tests; :mod:`.legal` random legal answers to decisions;
  :mod:`.turns` round-robin resolution in turn order.

* :mod:`.combat` (the combat in progress and its strength), :mod:`.support`,
  :mod:`.combat_cards`, :mod:`.tides`, :mod:`.blade`, :mod:`.combat_result`, :mod:`.retreat`,
  :mod:`.house_cards` combat (战斗), its steps in the rulebook's order: support, strength, house
  cards and their ability hooks, Tides of Battle, the Blade, victory, casualties, retreat, clean-up.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ..base import Decision, IllegalAction
from . import action_phase, bidding, blade, cards, combat, combat_cards, combat_result, consolidate, march, movement, planning, raid, retreat, supply, westeros, wildling_effects, wildlings  # noqa: F401 (task registration)
from .actions import parse_action as _parse_action
from .bots import LEVELS as BOT_LEVELS
from .data import board
from .edition import EDITIONS
from .flow import apply as _apply
from .flow import current_decisions, hidden_answers
from .legal import random_action
from .log import areas as _log_areas
from .log import describe as _describe
from .presentation import PRESENTATIONS
from .setup import new_game as _new_game
from .state import State
from .views import open_view as _open_view
from .views import own_view as _own_view
from .views import progress as _progress
from .views import shared_view as _shared_view
from .views import view as _view
from .victory import end_by_agreement

from .data import DATA_DIR  # noqa: E402,F401


class AgotRuleset:
    """An AGoT ruleset object: ``RULESET`` (agot2, registered as ``game.rules.agot:RULESET``) and
    ``RULESET_1E`` (agot1, ``game.rules.agot:RULESET_1E``)."""

    #: the bot levels both editions play (:mod:`.bots`)
    bot_levels = BOT_LEVELS

    def __init__(self, edition_id: str = "agot2") -> None:
        ed = EDITIONS[edition_id]
        self.edition = ed
        self.id = ed.id
        self.min_players = ed.min_players
        self.max_players = ed.max_players
        self.names = dict(ed.names)
        #: the options a lobby may set, with their defaults
        self.default_options: dict[str, Any] = dict(ed.default_options)
        #: how the site presents this edition (:mod:`.presentation`)
        self.presentation = PRESENTATIONS[ed.id]
        b = board(ed.id)
        self._houses_by_count = {int(n): list(v["houses"]) for n, v in b.setups["player_counts"].items()}
        self._seat_names = {h["id"]: {"en": h["name_en"], "zh-hans": h["name_zh"]} for h in b.houses.values()}

    def seats(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """House ids in play (``setups.json`` ``player_counts``); ValueError for another player count."""
        try:
            return list(self._houses_by_count[players])
        except KeyError:
            raise ValueError(f"{self.id} is for {self.min_players} to {self.max_players} players, not {players}") from None

    def seat_names(self) -> dict[str, dict[str, str]]:
        """``{house id: {"en": name, "zh-hans": name}}`` for every house."""
        return {k: dict(v) for k, v in self._seat_names.items()}

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """The initial state (round 1, planning phase); see :mod:`.setup`. Options the edition does
        not have are ignored (the 1st edition has no Tides of Battle)."""
        opts = dict(self.default_options)
        others = {k for e in EDITIONS.values() for k in e.default_options} - set(self.default_options)
        opts.update({k: v for k, v in (options or {}).items() if k not in others})
        return _new_game(players, seed, opts, self.id)

    def parse_action(self, data: Any) -> Any:
        """A typed action from JSON; ``IllegalAction("action.malformed")`` otherwise."""
        return _parse_action(data)

    def apply(self, state: State, actor: str, action: Any) -> State:
        """The next state; the input is untouched. Raises :class:`IllegalAction` (also
        ``game.wrong_ruleset`` for a state of the other edition)."""
        if state.edition != self.id:
            raise IllegalAction("game.wrong_ruleset", f"This game is played by the {state.edition} rules, not {self.id}.")
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

    def own_view(self, state: State, viewer: str | None, pending: list[Decision] | None = None) -> dict[str, Any]:
        """The rest of :meth:`view`: what depends on ``viewer`` (see :mod:`.views`); ``pending``:
        :meth:`pending` of ``state``, when the caller has it."""
        return _own_view(state, viewer, pending)

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

    def end_early(self, state: State) -> State:
        """The game ended now by its players' agreement, scored as the rulebook's end of the game
        scores it (Winning the Game: the most castles and strongholds, then the edition's
        tie-breakers; :func:`.victory.end_by_agreement`); the input is untouched."""
        if state.result is not None:
            raise IllegalAction("game.over", "The game is over.")
        new = state.clone()
        end_by_agreement(new)
        return new

    def seats_swappable(self, state: State) -> bool:
        """Two players may swap houses before round 2 (the houses have only been set up and the
        first orders placed), and only while no face-down answer is in (:func:`.flow.hidden_answers`):
        a player who swaps must not see another house's hidden orders or card."""
        return state.result is None and state.round == 1 and not hidden_answers(state)

    def bot_action(self, state: State, actor: str, level: str, seed: int, budget: float | None = None) -> Any:
        """A legal action for ``actor`` by bot ``level`` (``"random"``, ``"basic"``, ``"strong"``);
        see :mod:`.bots`. ``budget``: the seconds of CPU the strong bot may think for this decision
        (None: about 2 s, :data:`.search.DEFAULT_BUDGET`); the other levels ignore it.
        Should the level's choice be refused (a decision it does not know yet), a random legal
        answer (:func:`.legal.random_action`), so a bot never stalls a game. Raises
        ``IllegalAction("action.not_your_turn")`` when ``actor`` has nothing to decide,
        ``IllegalAction("bot.level")`` for a level not in :data:`BOT_LEVELS`."""
        from .bots import bot_action

        if level not in BOT_LEVELS:
            raise IllegalAction("bot.level", "unknown bot level", level=str(level), levels=list(BOT_LEVELS))
        try:
            action = bot_action(self, state, actor, level, seed, budget)
            self.apply(state, actor, action)
            return action
        except (NotImplementedError, IllegalAction):
            decision = next((d for d in current_decisions(state) if d.actor == actor), None)
            if decision is None:
                raise
            return random_action(state, decision, random.Random(seed))

    def describe(self, event: dict[str, Any], lang: str) -> str:
        """The log's sentence of ``event`` in ``lang``, with this edition's names of areas and
        cards (:func:`.log.describe`)."""
        return _describe(event, lang, self.id)

    def log_areas(self, event: dict[str, Any]) -> list[str]:
        """The ids of the areas ``event`` names (:func:`.log.areas`)."""
        return _log_areas(event, self.id)


RULESET = AgotRuleset("agot2")
RULESET_1E = AgotRuleset("agot1")
RULESETS = {r.id: r for r in (RULESET, RULESET_1E)}

__all__ = ["RULESET", "RULESET_1E", "RULESETS", "AgotRuleset", "IllegalAction", "Decision", "State"]
