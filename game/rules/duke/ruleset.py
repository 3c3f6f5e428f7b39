"""The Duke behind the site's ruleset contract (:class:`game.rules.base.Ruleset`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..base import Decision, IllegalAction, Presentation
from . import actions as A
from . import engine as E
from .bots import LEVELS as BOT_LEVELS
from .log import describe as _describe
from .position import SEATS
from .state import State
from .view import open_view as _open_view
from .view import view as _view

__all__ = ["DukeRuleset", "RULESET"]


class DukeRuleset:
    """The Duke (公爵战棋), 2 players: ``light`` and ``dark``.

    Options (all booleans, default False): ``mountain`` (the Mountain terrain tile), ``dragon``
    (the Dragon terrain tile), ``duchess`` and ``oracle`` (enhanced tiles added to both bags).
    """

    id = "duke"
    #: the bot levels (:mod:`.bots`)
    bot_levels = BOT_LEVELS
    min_players = 2
    max_players = 2
    names = {"en": "The Duke", "zh-hans": "公爵战棋"}
    default_options: Mapping[str, Any] = dict(E.DEFAULT_OPTIONS)
    #: how the site presents The Duke: its own screen (static/js/rulesets/duke.js), sides not
    #: houses, turns not rounds (one replay chapter a turn), and short clocks (a game lasts minutes)
    presentation = Presentation(
        description={
            "en": "A two-player duel of tiles that flip after each move, on a 6 x 6 board.",
            "zh-hans": "双人对决：棋子每次行动后翻面，棋盘为6×6。",
        },
        option_text={
            "mountain": {
                "en": ("Mountain", "Terrain: a Mountain tile on a random empty square blocks paths and strikes."),
                "zh-hans": ("山峦", "地形：山峦棋子放在随机的空格上，阻挡路径和攻击。"),
            },
            "dragon": {
                "en": ("Dragon", "Terrain: the Dragon takes its own turn between the players' turns."),
                "zh-hans": ("巨龙", "地形：巨龙在两位玩家的回合之间行动。"),
            },
            "duchess": {
                "en": ("Duchess", "Enhanced tile in each bag: she can be summoned beside the Duke."),
                "zh-hans": ("公爵夫人", "每个袋中加入强化棋子：她可应诏来到公爵身边。"),
            },
            "oracle": {
                "en": ("Oracle", "Enhanced tile in each bag: Divination draws up to three tiles to choose from."),
                "zh-hans": ("神使", "每个袋中加入强化棋子：预言可抽取至多三枚棋子以供选择。"),
            },
        },
        seat_noun="side",
        round_noun="turn",
        time_controls=("live-10+5", "live-5+3", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none"),
        renderer="js/rulesets/duke.js",
        stylesheet="css/duke.css",
    )

    def seat_names(self) -> dict[str, dict[str, str]]:
        return {"light": {"en": "Light", "zh-hans": "浅色方"}, "dark": {"en": "Dark", "zh-hans": "深色方"}}

    def seats(self, players: int, options: Mapping[str, Any]) -> list[str]:
        if players != 2:
            raise IllegalAction("options.players", "The Duke is for exactly two players", players=players)
        return list(SEATS)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> State:
        if players != 2:
            raise IllegalAction("options.players", "The Duke is for exactly two players", players=players)
        return E.new_game(seed, options)

    def parse_action(self, data: Any) -> Any:
        return A.parse_action(data)

    def apply(self, state: State, actor: str, action: Any) -> State:
        return E.apply(state, actor, action)

    def pending(self, state: State) -> list[Decision]:
        return E.pending(state)

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        return _view(state, viewer)

    def open_view(self, state: State, viewer: str | None) -> dict[str, Any]:
        """:meth:`view` with the Divination's drawn tiles and private event details shown (for
        finished games' replays; see :func:`.view.open_view`)."""
        return _open_view(state, viewer)

    def progress(self, state: State) -> dict[str, Any]:
        """``{"round": completed player turns + 1, "phase": str}`` of ``state``."""
        return {"round": state.turn + 1, "phase": state.phase}

    def result(self, state: State) -> dict[str, Any] | None:
        return dict(state.result) if state.result else None

    def note(self, state: State, entry: dict[str, Any]) -> State:
        """``state`` with the site's note ``entry`` (checked by :func:`game.rules.base.note`) as
        one more public event, ``{"type": "note", "turn", "note": entry}``; nothing else changes.
        A note is no rule: it records what happened at the table (a time-out, a stand-in)."""
        return replace(state, events=state.events + ({"type": "note", "turn": state.turn, "note": dict(entry)},))

    def end_early(self, state: State) -> State:
        """The game ended now by its players' agreement: a draw. The Duke is won only by taking
        the other Duke (or leaving it no legal action); the rules score nothing else, so a count
        of tiles or squares would be a rule of our own. A game stopped by agreement is scored as
        chess scores one, a draw (reason ``agreed_end``, no winner)."""
        if state.phase == "over":
            raise IllegalAction("game.over", "the game is over")
        return E.finish(state, None, "agreed_end")

    def describe(self, event: dict[str, Any], lang: str) -> str:
        """The log's sentence of ``event`` in ``lang`` (:func:`.log.describe`)."""
        return _describe(event, lang)

    def bot_action(self, state: State, actor: str, level: str, seed: int, budget: float | None = None) -> Any:
        """A legal action for ``actor`` by bot ``level`` (``"random"``, ``"basic"``, ``"strong"``:
        a search of ``budget`` CPU seconds, default 2); see :mod:`.bots`."""
        from .bots import bot_action

        return bot_action(self, state, actor, level, seed, budget)


RULESET = DukeRuleset()
