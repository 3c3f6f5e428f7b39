"""Shared machinery of the house card abilities: registration, the two ability decisions, helpers.

Decisions a card ability asks for (documented in docs/scenarios.md, "House card abilities"):

* ``choose`` (answer ``{"type": "choose", "option": ...}``), options
  ``{"purpose": card id, "card": card id, "step": hook, "options": [...], ...context}``: the
  card's owner picks one of ``options``. Task ``("card_choice", house, card,
  step)``; the ability lists the options in ``choices(state, house, step) -> (options, context)``
  and applies the answer in ``chose(state, house, step, option)``.
* ``select_card`` (answer ``{"type": "select_card", "card": id or null}``), options
  ``{"purpose": card id, "card": card id, "cards": [...], "optional": true, "from": house}``: pick
  a card from ``cards`` (another house's hand) or none. Task ``("card_select", house, card)``;
  the ability applies it in ``selected(state, house, card_or_None)``.

A decision with no options is skipped (the flow drops decision tasks with nothing to decide).
"""

from __future__ import annotations

from typing import Any

from ...base import Decision, IllegalAction
from ..flow import decision, pop, push
from ..house_cards import ABILITIES, Ability, ability
from ..state import State


def register(key: str):
    """Class decorator: register one instance of the class as the ability ``key``."""

    def deco(cls: type) -> type:
        ABILITIES[key] = cls()
        return cls

    return deco


class ChoiceAbility(Ability):
    """An ability that asks a ``choose`` decision (see module docstring)."""

    def choices(self, state: State, house: str, step: str) -> tuple[list[str], dict[str, Any]]:
        return [], {}

    def chose(self, state: State, house: str, step: str, option: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def ask(self, state: State, house: str, card: str, step: str) -> None:
        """Queue the ``choose`` decision of ``house`` for ``card`` at ``step``."""
        push(state, ("card_choice", house, card, step))


def ability_event(state: State, house: str, card: str, effect: str, **data: Any) -> None:
    """Log what a card ability did: event ``house_card_ability`` with ``effect`` (a short code)."""
    state.emit("house_card_ability", house=house, card=card, effect=effect, **data)


@decision("card_choice", ("choose",))
class CardChoiceTask:
    """A house card ability's choice: decision kind ``choose``, ``purpose`` = the card id."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, house, card, step = task
        opts, info = ability(card, state).choices(state, house, step)
        if not opts:
            return []
        return [Decision(house, "choose", {"purpose": card, "card": card, "step": step, "options": list(opts), **info})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, house, card, step = task
        opts, _ = ability(card, state).choices(state, house, step)
        if action.option not in opts:
            raise IllegalAction("choose.bad_option", f"Choose one of {list(opts)}.", options=list(opts))
        pop(state)
        ability(card, state).chose(state, house, step, action.option)


@decision("card_select", ("select_card",))
class CardSelectTask:
    """A house card ability picking a card of another house's hand (Patchface): ``select_card``."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        _, house, card = task
        ab = ability(card, state)
        target = ab.select_from(state, house)
        cards = sorted(state.hands[target]) if target else []
        if not cards:
            return []
        return [Decision(house, "select_card", {"purpose": card, "card": card, "cards": cards, "optional": True, "from": target})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        _, house, card = task
        ab = ability(card, state)
        target = ab.select_from(state, house)
        if action.card is not None and action.card not in state.hands[target]:
            raise IllegalAction("card.not_in_hand", "Choose a house card from that hand, or none.", card=action.card)
        pop(state)
        ab.selected(state, house, action.card)


def remove_order(state: State, area: str) -> None:
    """Take the order token off ``area`` (it returns to its owner's supply of tokens)."""
    h, tok = state.orders.pop(area)
    state.emit("order_removed", house=h, area=area, token=tok)
