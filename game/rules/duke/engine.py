"""The Duke's turn sequence: set-up, applying an action, the end of a turn, the pending decision.

Rulebook (its Chinese forum translation, ``docs/duke.md``), 公爵战棋基础规则:
创建游戏 (set-up), 如何进行游戏 (playing: move a tile, place a new tile, or use an enhanced ability;
no passing), 使棋子翻面 (flipping), 俘获棋子 (capturing, "Guard"), 放置新棋子 (placing a new tile),
赢取游戏 (winning); 扩展的游戏 (the extended game): 高阶能力 (enhanced abilities: 应诏 Summon, 预言
Divination), 地形棋子 (terrain: Mountain, Dragon). Which actions are legal is :mod:`.legal`, why
one is not :mod:`.refusals` (使公爵陷入危机: never leave your Duke capturable). Readings where the
text is silent are in ``docs/duke.md``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..base import Decision, IllegalAction
from . import board as B
from . import rng as R
from .actions import action_to_json, to_action, to_tuple
from .dragon import calm_targets, dragon_turn
from .legal import legal_actions
from .position import (
    SEATS,
    Dragon,
    Position,
    Tile,
    can_capture,
    duke_in_danger,
    duke_square,
    find_tile,
    other,
    perform,
)
from .refusals import refusal
from .state import QUIET_TURN_LIMIT, State
from .tiles import TILES

__all__ = [
    "DEFAULT_OPTIONS",
    "new_game",
    "apply",
    "pending",
    "starting_bag",
    "normalise_options",
]

DEFAULT_OPTIONS: dict[str, bool] = {"mountain": False, "dragon": False, "duchess": False, "oracle": False}

#: the tiles that start on the board (创建游戏): the Duke and two Footmen
_ON_BOARD = {"duke": 1, "footman": 2}


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, bool]:
    """Known options as booleans (defaults for missing ones); raises ``IllegalAction
    ("options.invalid")`` for an unknown option or a non-boolean value."""
    out = dict(DEFAULT_OPTIONS)
    for k, v in (options or {}).items():
        if k not in DEFAULT_OPTIONS:
            raise IllegalAction("options.invalid", f"unknown option {k!r}", option=str(k))
        if not isinstance(v, bool):
            raise IllegalAction("options.invalid", f"option {k!r} must be true or false", option=k)
        out[k] = v
    return out


def starting_bag(options: Mapping[str, bool]) -> tuple[str, ...]:
    """Each player's bag at set-up: every troop tile not on the board, plus enhanced tiles
    chosen in the options (sorted; a bag has no order)."""
    bag = []
    for tid, spec in TILES.items():
        if spec.category == "troop":
            bag += [tid] * (spec.count - _ON_BOARD.get(tid, 0))
        elif spec.category == "enhanced" and options.get(tid):
            bag += [tid] * spec.count
    return tuple(sorted(bag))


def new_game(seed: int, options: Mapping[str, Any] | None = None) -> State:
    """The game before set-up: empty board, full bags, the first player drawn at random."""
    opts = normalise_options(options)
    rng = R.seed_state(seed)
    rng, k = R.randbelow(rng, 2)
    first = SEATS[k]
    bag = starting_bag(opts)
    return State(
        options=opts,
        phase="setup",
        to_move=first,
        first=first,
        pos=Position(board=(None,) * 36),
        bags={s: bag for s in SEATS},
        lost={s: () for s in SEATS},
        destroyed={s: () for s in SEATS},
        drawn=(),
        rng=rng,
        events=({"type": "first_player", "seat": first, "turn": 0},),
    )

# --------------------------------------------------------------------------- applying


def _event(state: State, **kw: Any) -> dict[str, Any]:
    kw.setdefault("turn", state.turn)
    return kw


def _start_play(state: State) -> State:
    """After both set-ups: random Mountain, random Dragon, then the first player's turn."""
    pos, rng = state.pos, state.rng
    events = list(state.events)
    if state.options["mountain"]:
        empty = [s for s in B.SQUARES if pos.board[s] is None]
        rng, k = R.randbelow(rng, len(empty))
        pos = replace(pos, mountain=empty[k])
        events.append(_event(state, type="mountain", square=B.name(empty[k])))
    if state.options["dragon"]:
        # 巨龙棋子: a random centre square, facing left or right; never able to capture a tile
        # before its owner's first turn (re-drawn until so: we draw among the safe placements).
        choices = []
        for sq in B.CENTRE:
            if sq == pos.mountain:
                continue
            for f in ("e", "w"):
                p = replace(pos, dragon=Dragon(sq, f, False))
                if not calm_targets(p):
                    choices.append(p.dragon)
        if not choices:  # cannot happen with the base set-up; keep the game playable anyway
            choices = [Dragon(sq, f, False) for sq in B.CENTRE if sq != pos.mountain for f in ("e", "w")]
        rng, k = R.randbelow(rng, len(choices))
        pos = replace(pos, dragon=choices[k])
        events.append(_event(state, type="dragon", square=B.name(choices[k].square), facing=choices[k].facing))
    return replace(state, pos=pos, rng=rng, phase="play", to_move=state.first, events=tuple(events))


def _record_captures(lost: Mapping[str, tuple], captured: list) -> dict[str, tuple]:
    out = dict(lost)
    for _, t in captured:
        out[t.owner] = out[t.owner] + (t.kind,)
    return out


def finish(state: State, winner: str | None, reason: str) -> State:
    """``state`` over, won by ``winner`` (None: a draw) for ``reason``, told by a ``game_over``
    event (the site's early end by agreement, :meth:`.ruleset.DukeRuleset.end_early`)."""
    return _finish(state, winner, reason)


def _finish(state: State, winner: str | None, reason: str) -> State:
    ev = _event(state, type="game_over", winner=winner, reason=reason)
    return replace(
        state, phase="over", result={"winner": winner, "reason": reason}, events=state.events + (ev,)
    )


def _end_turn(state: State, seat: str, progress: bool) -> State:
    """The end of ``seat``'s turn: win check, Guard, the Dragon's in-between turn, next player."""
    pos = state.pos
    opp = other(seat)
    if duke_square(pos, opp) is None:
        return _finish(replace(state, turn=state.turn + 1), seat, "duke_captured")
    events = list(state.events)
    if can_capture(pos, seat, duke_square(pos, opp)):
        events.append(_event(state, type="guard", seat=seat))  # 警戒 / "Guard"
    state = replace(state, turn=state.turn + 1, quiet=0 if progress else state.quiet + 1, events=tuple(events))
    if state.pos.dragon is not None:
        if state.dragon_rest:
            state = replace(state, dragon_rest=False)
        else:
            pos, rng, captured, evs = dragon_turn(state.pos, state.rng)
            state = replace(
                state,
                pos=pos,
                rng=rng,
                lost=_record_captures(state.lost, captured),
                quiet=0 if captured else state.quiet,
                events=state.events + tuple({**e, "turn": state.turn - 1} for e in evs),
            )
            gone = [s for s in SEATS if duke_square(pos, s) is None]
            if len(gone) == 2:
                return _finish(state, None, "both_dukes_lost")
            if gone:
                return _finish(state, other(gone[0]), "duke_lost_to_dragon")
    if state.quiet >= QUIET_TURN_LIMIT:
        return _finish(state, None, "no_progress")
    state = replace(state, phase="play", to_move=opp, drawn=())
    if not legal_actions(state):
        # No passing, and no action may leave the Duke capturable: a player left without any
        # legal action loses ("checkmate" when their Duke is in Guard). See docs/duke.md.
        reason = "checkmate" if duke_in_danger(state.pos, opp) else "no_legal_action"
        return _finish(state, seat, reason)
    return state


def _take(bag: tuple[str, ...], kinds: list[str]) -> tuple[str, ...]:
    b = list(bag)
    for k in kinds:
        b.remove(k)
    return tuple(b)


def apply(state: State, actor: str, action: Any) -> State:
    """The state after ``actor`` takes ``action``; raises :class:`IllegalAction` (state untouched)."""
    if state.phase == "over":
        raise IllegalAction("game.over", "the game is over")
    if actor != state.to_move:
        raise IllegalAction("turn.not_your_turn", "it is not your turn", seat=str(actor), to_move=state.to_move)
    t = to_tuple(action)
    if t not in legal_actions(state):
        raise refusal(state, actor, t)
    seat = actor
    kind = t[0]
    pos = state.pos
    if kind == "setup":
        _, d, f1, f2 = t
        board = list(pos.board)
        board[d] = Tile(seat, "duke")
        board[f1] = Tile(seat, "footman")
        board[f2] = Tile(seat, "footman")
        ev = _event(state, type="setup", seat=seat, duke=B.name(d), footmen=[B.name(f1), B.name(f2)])
        done = state.setup_done + (seat,)
        state = replace(
            state, pos=replace(pos, board=tuple(board)), setup_done=done, events=state.events + (ev,)
        )
        if len(done) < 2:
            return replace(state, to_move=other(seat))
        return _start_play(state)
    if kind in ("move", "strike", "command"):
        rng = state.rng
        facing = "e"
        if kind == "move" and t[3] is None and pos.dragon is not None and t[2] == pos.dragon.square:
            rng, k = R.randbelow(rng, 2)
            facing = ("e", "w")[k]
        out = perform(pos, t, push_facing=facing)
        ev = {"type": kind, "seat": seat, "frm": B.name(t[1])}
        if kind == "move":
            ev["to"] = B.name(t[2])
        elif kind == "strike":
            ev["target"] = B.name(t[2])
        else:
            ev["piece"], ev["to"] = B.name(t[2]), B.name(t[3])
        evs = [_event(state, **ev)]
        if out.pushed:
            evs.append(
                _event(
                    state,
                    type="dragon_pushed",
                    seat=seat,
                    to=B.name(out.position.dragon.square),
                    enraged=out.enraged,
                    facing=out.position.dragon.facing,
                )
            )
        for sq, tile in out.captured:
            by = "dragon" if out.pushed else seat
            evs.append(_event(state, type="capture", by=by, square=B.name(sq), owner=tile.owner, kind=tile.kind))
        state = replace(
            state,
            pos=out.position,
            rng=rng,
            lost=_record_captures(state.lost, out.captured),
            dragon_rest=state.dragon_rest or out.pushed,
            events=state.events + tuple(evs),
        )
        if out.pushed and duke_square(out.position, other(seat)) is None:
            return _finish(replace(state, turn=state.turn + 1), seat, "duke_lost_to_dragon")
        return _end_turn(state, seat, bool(out.captured))
    if kind == "draw":
        bag = state.bags[seat]
        rng, k = R.randbelow(state.rng, len(bag))
        tile = bag[k]
        bags = dict(state.bags)
        bags[seat] = _take(bag, [tile])
        ev = _event(state, type="draw", seat=seat, kind=tile)
        return replace(state, rng=rng, bags=bags, drawn=(tile,), phase="place", events=state.events + (ev,))
    if kind == "place":
        board = list(pos.board)
        board[t[1]] = Tile(seat, state.drawn[0])
        ev = _event(state, type="place", seat=seat, kind=state.drawn[0], square=B.name(t[1]))
        state = replace(state, pos=replace(pos, board=tuple(board)), drawn=(), events=state.events + (ev,))
        return _end_turn(state, seat, True)
    if kind == "summon":
        board = list(pos.board)
        duke = duke_square(pos, seat)
        dsq = find_tile(pos, seat, "duchess")
        board[duke] = board[duke]._replace(back=not board[duke].back)
        board[t[1]] = board[dsq]
        board[dsq] = None
        ev = _event(state, type="summon", seat=seat, frm=B.name(dsq), to=B.name(t[1]))
        state = replace(state, pos=replace(pos, board=tuple(board)), events=state.events + (ev,))
        return _end_turn(state, seat, False)
    if kind == "divine":
        board = list(pos.board)
        osq = find_tile(pos, seat, "oracle")
        board[osq] = board[osq]._replace(back=False)
        rng, order = R.shuffle(state.rng, list(state.bags[seat]))
        drawn = tuple(order[:3])
        bags = dict(state.bags)
        bags[seat] = _take(state.bags[seat], list(drawn))
        ev = _event(state, type="divine", seat=seat, count=len(drawn), private={seat: {"drawn": list(drawn)}})
        return replace(
            state,
            pos=replace(pos, board=tuple(board)),
            rng=rng,
            bags=bags,
            drawn=drawn,
            phase="divination",
            events=state.events + (ev,),
        )
    # divine_choose
    _, keep, sq, destroy = t
    kept = state.drawn[keep]
    back = [state.drawn[i] for i in range(len(state.drawn)) if i != keep and i not in destroy]
    gone = [state.drawn[i] for i in destroy]
    board = list(pos.board)
    board[sq] = Tile(seat, kept)
    bags = dict(state.bags)
    bags[seat] = tuple(sorted(state.bags[seat] + tuple(back)))
    destroyed = dict(state.destroyed)
    destroyed[seat] = destroyed[seat] + tuple(gone)
    ev = _event(
        state,
        type="divine_choose",
        seat=seat,
        kind=kept,
        square=B.name(sq),
        destroyed=gone,
        returned_count=len(back),
        private={seat: {"returned": back}},
    )
    state = replace(
        state,
        pos=replace(pos, board=tuple(board)),
        bags=bags,
        destroyed=destroyed,
        drawn=(),
        events=state.events + (ev,),
    )
    return _end_turn(state, seat, True)


# --------------------------------------------------------------------------- decisions


def pending(state: State) -> list[Decision]:
    """The one decision the game waits for (none once it is over).

    Kinds: ``"setup"``, ``"turn"``, ``"place"``, ``"divination"``; ``options["actions"]`` lists
    every legal action in JSON form (the Divination drawn tiles appear only in the actor's
    ``options``, which only the actor sees).
    """
    if state.phase == "over":
        return []
    acts = state.memo.get("json")
    if acts is None:
        acts = state.memo["json"] = [action_to_json(to_action(t)) for t in legal_actions(state)]
    opts: dict[str, Any] = {"actions": [dict(a) for a in acts]}
    kind = {"setup": "setup", "play": "turn", "place": "place", "divination": "divination"}[state.phase]
    if state.phase == "place":
        opts["tile"] = state.drawn[0]
    if state.phase == "divination":
        opts["drawn"] = list(state.drawn)
    return [Decision(actor=state.to_move, kind=kind, options=opts)]
