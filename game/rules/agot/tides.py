"""战局卡牌 / Tides of Battle (option ``tides_of_battle``): the deck and what each card adds.

2nd ed. rulebook, 战局卡牌: the deck is shuffled at set-up (:mod:`.setup`); in a combat each side
draws one card after the house cards (:mod:`.combat_cards`), the Blade's holder may redraw
(:mod:`.blade`), the cards are revealed before the victor is decided (:mod:`.combat_result`) and
add their strength (:func:`.combat.final_strength`); their swords and fortifications count as
printed on the house card (:func:`.combat.icons`), and a skull costs the other side one unit
whatever the result (:mod:`.combat_result`).

Rule choice (where the rulebook leaves room), also in docs/scenarios.md: the Tides deck is
reshuffled from its discards when empty.
"""

from __future__ import annotations

from typing import Any

from .data import board
from .rng import shuffled
from .state import State


def tides_on(state: State) -> bool:
    return bool(state.options.get("tides_of_battle"))


def draw_tides(state: State) -> str:
    deck = state.decks.get("tides", ())
    if not deck:
        deck = shuffled(state, state.decks.get("tides_discard", ()) or new_tides_deck(state))
        state.decks["tides_discard"] = ()
    state.decks["tides"] = deck[1:]
    return deck[0]


def new_tides_deck(of: Any = None) -> tuple[str, ...]:
    return tuple(g["id"] for g in board(of).tides["groups"] for _ in range(g["count"]))


def tides_card(tid: str | None) -> dict[str, int]:
    if tid is None:
        return {"strength": 0, "swords": 0, "fortifications": 0, "skulls": 0}
    return TIDES[tid]


def _tides_table() -> dict[str, dict[str, int]]:
    return {g["id"]: g for g in board().tides["groups"]}


TIDES: dict[str, dict[str, Any]] = {}


def _init() -> None:
    TIDES.update(_tides_table())


_init()
