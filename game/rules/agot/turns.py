"""Round-robin resolution in turn order (行动阶段 / Action phase, steps 1-3).

Raids, marches and Consolidate Power orders are resolved one at a time: each house in Iron
Throne order resolves one of its orders of that kind, skipping houses with none left, round and
round until none remain. ``state.ctx["cursor"]`` is the index in turn order where the next search
starts.
"""

from __future__ import annotations

from typing import Callable

from .data import board
from .state import State


def orders_of(state: State, house: str, otype: str) -> list[str]:
    """Areas holding ``house``'s orders of type ``otype`` (``march``, ``raid``...), sorted."""
    b = board(state)
    return sorted(a for a, (h, t) in state.orders.items() if h == house and b.order_tokens[t].type == otype)


def next_house(state: State, has: Callable[[str], bool]) -> str | None:
    """The next house (from the cursor, in turn order) for which ``has(house)``; None if none."""
    order = state.turn_order()
    start = state.ctx.get("cursor", 0)
    n = len(order)
    for i in range(n):
        h = order[(start + i) % n]
        if has(h):
            return h
    return None


def advance_cursor(state: State, house: str) -> None:
    state.ctx["cursor"] = (state.turn_order().index(house) + 1) % len(state.turn_order())
