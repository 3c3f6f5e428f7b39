"""Bots for The Duke: ``random``, ``basic`` and ``strong``.

A bot decides from what its seat may know: the ruleset's ``pending`` (its legal actions) and
``view(state, seat)``. The ``basic`` bot rebuilds the board from the view and looks one action
ahead with the pure icon rules of :mod:`.position` (no peeking at the bag or the generator).
The ``strong`` bot searches several turns ahead (:mod:`.strong`) within a budget of CPU seconds
and breaks its ties with the ``basic`` bot's score. Randomness comes from the ``seed`` argument
only.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction
from . import rng as R
from . import strong
from .actions import parse_action, to_tuple
from .dragon import calm_targets, dragon_danger, strike_targets
from .position import (
    Position,
    Tile,
    can_capture,
    duke_square,
    other,
    perform,
    placement_squares,
    pseudo_actions,
)
from .worth import VALUES, position_from_view

__all__ = ["LEVELS", "VALUES", "bot_action", "position_from_view"]

LEVELS = ("random", "basic", "strong")


def _value(kind: str) -> float:
    return VALUES.get(kind, 2.0)


def _risk(pos: Position, seat: str) -> float:
    """What ``seat`` stands to lose on the opponent's next action (best single capture; a tile the
    opponent could take but ``seat`` could retake counts for less)."""
    opp = other(seat)
    worst = 0.0
    taken = {cap for _, cap in pseudo_actions(pos, opp) if cap is not None}
    for sq in taken:
        t = pos.board[sq]
        if t is None or t.owner != seat:
            continue
        loss = _value(t.kind)
        # defended? put a stand-in enemy tile there and see if we could capture it
        board = list(pos.board)
        board[sq] = Tile(opp, "footman")
        if can_capture(Position(tuple(board), pos.mountain, pos.dragon), seat, sq):
            loss *= 0.4
        worst = max(worst, loss)
    return worst


def _dragon_danger(pos: Position, seat: str) -> float:
    """What the Dragon's next in-between turn may take from ``seat`` (its Duke above all)."""
    if pos.dragon is None:
        return 0.0
    hit = calm_targets(pos) if not pos.dragon.enraged else strike_targets(pos)
    worst = 0.0
    for sq in hit:
        t = pos.board[sq]
        if t is not None and t.owner == seat:
            worst = max(worst, _value(t.kind) * (0.5 if t.kind != "duke" else 1.0))
    return worst


def _score(pos: Position, seat: str, t: tuple, v: dict) -> float:
    kind = t[0]
    if kind in ("move", "strike", "command"):
        out = perform(pos, t)
        gain = 0.0
        for _, tile in out.captured:
            gain += _value(tile.kind) * (1 if tile.owner != seat else -1)
        after = out.position
        if duke_square(after, other(seat)) is None:
            return 1e6
        score = gain - _risk(after, seat)
        if not out.pushed and after.dragon is not None:
            score -= _dragon_danger(after, seat)
            od = duke_square(after, other(seat))
            if od is not None and od in dragon_danger(after):
                score += 50.0  # the Dragon may take their Duke
        od = duke_square(after, other(seat))
        if od is not None and can_capture(after, seat, od):
            score += 0.6  # "Guard"
        if out.enraged:
            score -= 0.5  # an enraged Dragon is as dangerous to us as to them
        return score
    if kind == "draw":
        mine = sum(1 for x in pos.board if x is not None and x.owner == seat)
        return 1.4 - 0.12 * mine - _risk(pos, seat)
    if kind in ("place", "divine_choose"):
        sq = t[1] if kind == "place" else t[2]
        drawn = v["drawn"] if isinstance(v["drawn"], list) else []
        tk = drawn[0] if kind == "place" else drawn[t[1]]
        board = list(pos.board)
        board[sq] = Tile(seat, tk)
        after = Position(tuple(board), pos.mountain, pos.dragon)
        score = -_risk(after, seat) - _dragon_danger(after, seat)
        if kind == "divine_choose":
            score += _value(tk) * 0.3 - 0.05 * len(t[3])
        # keep room beside the Duke for later draws
        score += 0.05 * len(placement_squares(after, seat))
        return score
    if kind == "summon":
        return 0.2 - _risk(pos, seat)
    if kind == "divine":
        return 1.6 - _risk(pos, seat)
    return 0.0


def bot_action(
    ruleset: Any, state: Any, actor: str, level: str, seed: int, budget: float | None = None, max_depth: int | None = None
) -> Any:
    """A legal action for ``actor``; raises ``IllegalAction("bot.level")`` for an unknown level and
    ``IllegalAction("bot.no_decision")`` when ``actor`` has nothing to decide.

    ``budget``: seconds of CPU the ``strong`` level may search (None:
    :data:`.strong.DEFAULT_BUDGET`); ``max_depth`` bounds its plies (None:
    :data:`.strong.MAX_DEPTH`), which with ``budget`` large makes its choice deterministic.
    The other levels ignore both."""
    if level not in LEVELS:
        raise IllegalAction("bot.level", "unknown bot level", level=str(level), levels=list(LEVELS))
    decision = next((d for d in ruleset.pending(state) if d.actor == actor), None)
    if decision is None:
        raise IllegalAction("bot.no_decision", "this seat has nothing to decide now", seat=str(actor))
    actions = decision.options["actions"]
    rng = R.seed_state(seed)
    if level == "random" or len(actions) == 1:
        rng, k = R.randbelow(rng, len(actions))
        return parse_action(actions[k])
    v = ruleset.view(state, actor)
    if decision.kind == "setup":
        rng, k = R.randbelow(rng, len(actions))
        return parse_action(actions[k])
    pos = position_from_view(v)
    parsed = [parse_action(a) for a in actions]
    if level == "strong":
        tuples = [to_tuple(a) for a in parsed]
        bests, _ = strong.search_action(
            v, actor, tuples, strong.DEFAULT_BUDGET if budget is None else budget, max_depth or strong.MAX_DEPTH
        )
        parsed = [parsed[i] for i in bests]
    best: list[Any] = []
    best_score = float("-inf")
    for act in parsed:
        s = _score(pos, actor, to_tuple(act), v)
        if s > best_score + 1e-9:
            best, best_score = [act], s
        elif abs(s - best_score) <= 1e-9:
            best.append(act)
    rng, k = R.randbelow(rng, len(best))
    return best[k]
