"""The Duke's ``strong`` bot: alpha-beta search over the icon rules, from the bot's own view.

The bot rebuilds the board from ``view(state, seat)`` (:func:`.worth.position_from_view`: every
tile on the board is public) and searches the players' turns with negamax and alpha-beta pruning,
deepening one ply at a time (iterative deepening) until its budget runs out or it reaches
:data:`MAX_DEPTH`, with a capture-only
quiescence search at the leaves (so a leaf is never scored in the middle of an exchange).

Hidden information stays hidden: the bag's order and the generator are never read. The bot's own
draw (抽取新棋子) at the root is searched as the expectation over the tile kinds of its bag, as
every seat sees it (``bags[seat]["kinds"]`` of the view, the multiset of what the seat may still
bring into play), each placed on its best square. Deeper in the tree a draw is a turn that leaves
the board as it is and adds the expected worth of a tile from the bag, less a little for each
tile the side already has in play (a crowded side gains less from one more). A Summon places the
Duchess; a Divination counts as a draw and a third. The Dragon's in-between turn is not searched;
the score counts what it threatens, as the ``basic`` bot does.

Rulebook (公爵战棋基础规则): 游戏目标 (capturing the opponent's Duke wins; a Duke that cannot be
kept safe loses), 你的回合 (a turn: move a tile on the board, or draw a new one and place it beside
the Duke).

Costs (measured on the 2-core development machine, loaded): about 50,000 positions (quiescence
included) a CPU second; the deepest iteration, 4 plies, takes 0.01-0.8 s in the middle game, so
the bot seldom uses a 2 s budget whole (deeper iterations were not tried: at 4 plies it already
wins nearly every game against ``basic``, ``docs/bots.md``).
"""

from __future__ import annotations

import time
from typing import Any

from .dragon import calm_targets, strike_targets
from .position import (
    Position,
    Tile,
    duke_square,
    other,
    perform,
    placement_squares,
    pseudo_actions,
)
from .worth import VALUES, position_from_view

__all__ = ["DEFAULT_BUDGET", "MAX_DEPTH", "search_action"]

#: seconds of CPU per decision when the caller gives none
DEFAULT_BUDGET = 2.0
#: the deepest iteration (plies of whole turns; quiescence goes further on captures)
MAX_DEPTH = 4
#: a won position's score (a lost Duke); faster wins score higher
WIN = 100_000.0
#: quiescence plies (captures only) below the last full ply
QUIESCENCE = 4


class _OutOfTime(Exception):
    pass


#: the root's draw: searched as the expectation over the bag's kinds (see :func:`_expect_draw`)
_DRAW = float("nan")


def _value(kind: str) -> float:
    return VALUES.get(kind, 2.0) if kind != "duke" else 0.0


class _Search:
    """One decision's search: the seat ``me``, the bags' expected draws, a deadline in
    ``time.process_time()`` seconds (None: no limit) and a node limit (None: no limit)."""

    def __init__(self, v: dict[str, Any], me: str, deadline: float | None, max_nodes: int | None):
        self.me = me
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.draw_worth: dict[str, float] = {}
        for seat, bag in v["bags"].items():
            kinds = bag.get("kinds") or {}
            n = sum(kinds.values())
            self.draw_worth[seat] = (sum(_value(k) * c for k, c in kinds.items()) / n) if n and bag.get("count") else 0.0

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfTime
        if self.deadline is not None and (self.nodes & 63) == 0 and time.process_time() > self.deadline:
            raise _OutOfTime

    # ---------------------------------------------------------------- scoring
    def evaluate(self, pos: Position, side: str) -> float:
        """Material of ``side`` less the other's, with the Dragon's threat (no Duke: lost)."""
        score = 0.0
        mine = theirs = 0
        for t in pos.board:
            if t is None:
                continue
            if t.owner == side:
                score += _value(t.kind)
                mine += 1
            else:
                score -= _value(t.kind)
                theirs += 1
        # a side with few tiles in play can still draw: its bag is worth something
        score += 0.35 * (self.draw_worth[side] * max(0, 6 - mine) - self.draw_worth[other(side)] * max(0, 6 - theirs)) / 6
        if pos.dragon is not None:
            hit = strike_targets(pos) if pos.dragon.enraged else calm_targets(pos)
            for sq in hit:
                t = pos.board[sq]
                if t is not None:
                    w = 30.0 if t.kind == "duke" else 0.5 * _value(t.kind)
                    score += -w if t.owner == side else w
        return score

    def draw_gain(self, pos: Position, side: str) -> float | None:
        """What a draw is worth to ``side`` here (None: it cannot draw)."""
        worth = self.draw_worth[side]
        if worth <= 0 or not placement_squares(pos, side):
            return None
        mine = sum(1 for t in pos.board if t is not None and t.owner == side)
        return max(0.1, worth * (0.75 - 0.06 * mine))

    # ---------------------------------------------------------------- search
    def moves(self, pos: Position, side: str, captures_only: bool = False) -> list[Position]:
        """The positions after ``side``'s icon actions, captures of the most worth first; a move
        that takes the Duke comes first as a position without it."""
        scored = []
        for act, cap in pseudo_actions(pos, side):
            if captures_only and cap is None:
                continue
            gain = 0.0
            if cap is not None:
                t = pos.board[cap]
                gain = 1000.0 if (t is not None and t.kind == "duke") else (_value(t.kind) if t is not None else 0.5)
            scored.append((-gain, len(scored), act))
        scored.sort()
        return [perform(pos, act).position for _, _, act in scored]

    def negamax(self, pos: Position, side: str, depth: int, alpha: float, beta: float, bonus: float) -> float:
        """The score of ``pos`` with ``side`` to move, from ``side``'s view; ``bonus`` is what
        earlier draws in this line are worth to ``side`` (negative: to the other)."""
        self.tick()
        if duke_square(pos, side) is None:
            return -WIN - depth
        if duke_square(pos, other(side)) is None:
            return WIN + depth
        if depth <= 0:
            return self.quiesce(pos, side, QUIESCENCE, alpha, beta, bonus)
        best = float("-inf")
        children = self.moves(pos, side)
        gain = self.draw_gain(pos, side)
        lines: list[tuple[Position, float]] = [(c, 0.0) for c in children]
        if gain is not None:
            lines.insert(min(len(lines), 2), (pos, gain))
        if not lines:
            return -WIN - depth  # no action at all: the Duke cannot be kept safe
        for child, g in lines:
            s = -self.negamax(child, other(side), depth - 1, -beta, -alpha, -(bonus + g))
            if s > best:
                best = s
            if s > alpha:
                alpha = s
            if alpha >= beta:
                break
        return best

    def quiesce(self, pos: Position, side: str, depth: int, alpha: float, beta: float, bonus: float) -> float:
        self.tick()
        if duke_square(pos, side) is None:
            return -WIN
        stand = self.evaluate(pos, side) + bonus
        if depth <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        for child in self.moves(pos, side, captures_only=True):
            s = -self.quiesce(child, other(side), depth - 1, -beta, -alpha, -bonus)
            if s > best:
                best = s
            if s > alpha:
                alpha = s
            if alpha >= beta:
                break
        return best


def _root_child(pos: Position, me: str, t: tuple, v: dict[str, Any], search: _Search) -> tuple[Position, float] | None:
    """The position after the root action ``t`` and what it adds beyond the board (a draw's
    expected worth); None for an action the search does not model (scored by the basic bot)."""
    kind = t[0]
    if kind in ("move", "strike", "command"):
        return perform(pos, t).position, 0.0
    if kind == "draw":
        return pos, _DRAW
    if kind in ("place", "divine_choose"):
        drawn = v["drawn"] if isinstance(v["drawn"], list) else []
        tk = drawn[0] if kind == "place" else drawn[t[1]]
        sq = t[1] if kind == "place" else t[2]
        board = list(pos.board)
        board[sq] = Tile(me, tk)
        return Position(tuple(board), pos.mountain, pos.dragon, pos.custom), 0.0
    if kind == "summon":
        board = list(pos.board)
        board[t[1]] = Tile(me, "duchess")
        return Position(tuple(board), pos.mountain, pos.dragon, pos.custom), 0.0
    if kind == "divine":
        gain = search.draw_gain(pos, me)
        return pos, 1.3 * gain if gain is not None else 0.0
    return None


def _expect_draw(search: _Search, pos: Position, me: str, v: dict[str, Any], depth: int) -> float:
    """A draw at the root: the mean, over the kinds in ``me``'s bag (weighted by their count), of
    the best placement's score ``depth - 1`` plies deep."""
    kinds = v["bags"][me].get("kinds") or {}
    squares = placement_squares(pos, me)
    total = sum(kinds.values())
    if not total or not squares:
        return float("-inf")
    out = 0.0
    for kind, count in sorted(kinds.items()):
        best = float("-inf")
        for sq in squares:
            board = list(pos.board)
            board[sq] = Tile(me, kind)
            child = Position(tuple(board), pos.mountain, pos.dragon, pos.custom)
            best = max(best, -search.negamax(child, other(me), depth - 1, float("-inf"), -best + 1e-3, 0.0))
        out += best * count / total
    return out


def search_action(
    v: dict[str, Any],
    me: str,
    tuples: list[tuple],
    budget: float | None,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
) -> tuple[list[int], dict[str, Any]]:
    """The indices in ``tuples`` (``me``'s legal actions as internal tuples) of the best actions
    (equal scores), in ``tuples``' order.

    ``v`` is ``view(state, me)``. Iterative deepening from depth 1 to ``max_depth`` plies; each
    completed depth's choice replaces the last, and an iteration cut by ``budget`` (seconds of
    CPU, ``time.process_time``; None: no limit) or ``max_nodes`` is dropped, so a search bounded by
    ``max_depth`` and ``max_nodes`` alone is deterministic. Returns ``(indices, {"depth": completed
    depth, "nodes": int, "score": float})``; with no action the search models, every index.
    """
    deadline = None if budget is None else time.process_time() + max(0.0, budget)
    search = _Search(v, me, deadline, max_nodes)
    pos = position_from_view(v)
    roots = [_root_child(pos, me, t, v, search) for t in tuples]
    modelled = [i for i, r in enumerate(roots) if r is not None]
    if not modelled:
        return list(range(len(tuples))), {"depth": 0, "nodes": 0, "score": 0.0}
    bests, best_score, done = list(modelled), float("-inf"), 0
    order = list(modelled)
    for depth in range(1, max_depth + 1):
        scores: dict[int, float] = {}
        try:
            alpha = float("-inf")
            for i in order:
                child, gain = roots[i]
                if gain is _DRAW:
                    s = _expect_draw(search, child, me, v, depth)
                else:
                    s = -search.negamax(child, other(me), depth - 1, float("-inf"), -alpha + 1e-3, -gain)
                scores[i] = s
                alpha = max(alpha, s)
        except _OutOfTime:
            break
        top = max(scores.values())
        bests = sorted(i for i in order if scores[i] >= top - 1e-6)
        best_score, done = top, depth
        order = sorted(order, key=lambda i: -scores[i])
        if top >= WIN:  # a forced win found: no need to look deeper
            break
    return bests, {"depth": done, "nodes": search.nodes, "score": best_score}
