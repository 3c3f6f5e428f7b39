"""Helpers for the per-card tests (test_cards_<house>.py): one combat in a built position, played
through ``RULESET.pending/apply``."""

from __future__ import annotations

from .combat_util import act, cards, choose, events, finish, march, pending, position


def battle(attacker, origin, att_units, defender, area, def_units, *, supports=None, extra=None, orders=None,
           march_token="march", move=None, **sc):
    """March ``att_units`` of ``attacker`` from ``origin`` into ``area`` held by ``defender``
    (``def_units``; None: leave the area as the scenario has it, e.g. a lone garrison). ``extra``:
    more ``units`` entries; ``orders``: more face-up orders; ``supports``: ``{area: side}`` answers
    to the Support orders next to the fight (others answer ``none``); ``move``: the marching unit
    types (default: all of ``att_units``). Returns the state at the house-card choice."""
    u = {origin: {"house": attacker, "units": list(att_units)}}
    if def_units is not None:
        u[area] = {"house": defender, "units": list(def_units)}
    u.update(extra or {})
    o = {origin: march_token, **(orders or {})}
    s = position(units=u, orders=o, first=attacker, **sc)
    s = march(s, attacker, origin, area, list(move if move is not None else [t for t in att_units if isinstance(t, str)]))
    return declare(s, supports or {})


def declare(s, supports):
    """Answer every Support decision of the combat: ``supports[area]`` or ``none``."""
    while True:
        ds = pending(s, kind="support_combat")
        if not ds:
            return s
        d = ds[0]
        s = choose(s, d.actor, supports.get(d.options["from"], "none"))


def play(s, **picks):
    """Both sides reveal their cards (``house=card``)."""
    return cards(s, **picks)


def result(s):
    """The last ``combat_result`` event: ``strength``, ``winner``, ``loser``, ``tie``."""
    return events(s, "combat_result")[-1]


def base(s):
    return events(s, "combat_base")[-1]["strength"]


def losses(s, house):
    """Units ``house`` lost as casualties (``[area, type]`` pairs) in the events so far."""
    return [u for e in events(s, "casualties") if e["house"] == house for u in e["units"]]


def ability_events(s, card=None):
    return [e for e in events(s, "house_card_ability") if card is None or e["card"] == card]


def answer(s, house, option):
    """Answer ``house``'s card-ability ``choose`` decision."""
    return choose(s, house, option)


def pick(s, house, card):
    """Answer a ``choose_house_card`` / ``select_card`` decision."""
    return act(s, house, {"type": "select_card", "card": card})


__all__ = ["ability_events", "act", "answer", "base", "battle", "declare", "events", "finish", "losses", "pending", "pick", "play", "result"]
