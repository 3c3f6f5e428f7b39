"""A Game of Thrones: The Board Game, 2nd edition (3-6 players): the ``agot2`` ruleset.

Stub: only the lobby-facing facts (seats per player count, names) exist so far; the engine
(issue 3) replaces the ``NotImplementedError`` methods.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "agot2"


class AgotRuleset:
    id = "agot2"
    min_players = 3
    max_players = 6
    names = {"en": "A Game of Thrones: The Board Game (2nd edition)", "zh-hans": "权力的游戏：桌游（第二版）"}
    #: the options a lobby may set, with their defaults
    default_options: dict[str, Any] = {"tides_of_battle": False}

    def __init__(self) -> None:
        setups = json.loads((DATA_DIR / "setups.json").read_text(encoding="utf-8"))
        houses = json.loads((DATA_DIR / "houses.json").read_text(encoding="utf-8"))
        self._houses_by_count = {int(n): list(v["houses"]) for n, v in setups["player_counts"].items()}
        self._seat_names = {h["id"]: {"en": h["name_en"], "zh-hans": h["name_zh"]} for h in houses}

    def seats(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        """House ids in play for 3-6 players (``setups.json`` ``player_counts``); ValueError otherwise."""
        try:
            return list(self._houses_by_count[players])
        except KeyError:
            raise ValueError(f"agot2 is for 3 to 6 players, not {players}") from None

    def seat_names(self) -> dict[str, dict[str, str]]:
        """``{house id: {"en": name, "zh-hans": name}}`` for every house."""
        return {k: dict(v) for k, v in self._seat_names.items()}

    def new_game(self, players, seed, options):  # pragma: no cover - issue 3
        raise NotImplementedError

    def parse_action(self, data):  # pragma: no cover - issue 3
        raise NotImplementedError

    def apply(self, state, actor, action):  # pragma: no cover - issue 3
        raise NotImplementedError

    def pending(self, state):  # pragma: no cover - issue 3
        raise NotImplementedError

    def view(self, state, viewer):  # pragma: no cover - issue 3
        raise NotImplementedError

    def result(self, state):  # pragma: no cover - issue 3
        raise NotImplementedError

    def bot_action(self, state, actor, level, seed):  # pragma: no cover - issue 4
        raise NotImplementedError


RULESET = AgotRuleset()
