"""The Duke's turn sequence: set-up, legal actions, applying an action, the end of a turn.

Rulebook (forum translation ``shared/rules/004_8123700d969a4aca.txt``), 公爵战棋基础规则:
创建游戏 (set-up), 如何进行游戏 (playing: move a tile, place a new tile, or use an enhanced ability;
no passing), 使棋子翻面 (flipping), 俘获棋子 (capturing, "Guard"), 使公爵陷入危机 (never leave your
Duke capturable), 放置新棋子 (placing a new tile), 赢取游戏 (winning); 扩展的游戏 (the extended
game): 高阶能力 (enhanced abilities: 应诏 Summon, 预言 Divination), 地形棋子 (terrain: Mountain,
Dragon). Readings where the text is silent are in ``docs/duke.md``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any, Mapping

from ..base import Decision, IllegalAction
from . import board as B
from . import rng as R
from .actions import (
    Command,
    Divine,
    DivineChoose,
    Draw,
    Move,
    Place,
    Setup,
    Strike,
    Summon,
)
from .dragon import calm_targets, dragon_turn
from .position import (
    SEATS,
    Dragon,
    Position,
    Tile,
    can_capture,
    duke_in_danger,
    duke_square,
    frozen_squares,
    other,
    perform,
    placement_squares,
    pseudo_actions,
)
from .state import QUIET_TURN_LIMIT, State
from .tiles import TILES

__all__ = [
    "DEFAULT_OPTIONS",
    "new_game",
    "legal_actions",
    "apply",
    "pending",
    "to_action",
    "to_tuple",
    "starting_bag",
    "normalise_options",
]

DEFAULT_OPTIONS: dict[str, bool] = {"mountain": False, "dragon": False, "duchess": False, "oracle": False}

#: the tiles that start on the board (创建游戏): the Duke and two Footmen
_ON_BOARD = {"duke": 1, "footman": 2}

_BLOCKER = "mountain"  # an icon-less stand-in tile used to test a placement square


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


# --------------------------------------------------------------------------- action conversion


def to_action(t: tuple) -> Any:
    """The typed action for an internal action tuple."""
    kind = t[0]
    n = B.name
    if kind == "setup":
        return Setup(n(t[1]), (n(t[2]), n(t[3])))
    if kind == "move":
        return Move(n(t[1]), n(t[2]), t[3])
    if kind == "strike":
        return Strike(n(t[1]), n(t[2]))
    if kind == "command":
        return Command(n(t[1]), n(t[2]), n(t[3]))
    if kind == "draw":
        return Draw()
    if kind == "place":
        return Place(n(t[1]))
    if kind == "summon":
        return Summon(n(t[1]))
    if kind == "divine":
        return Divine()
    if kind == "divine_choose":
        return DivineChoose(t[1], n(t[2]), t[3])
    raise ValueError(kind)


def to_tuple(a: Any) -> tuple:
    """The internal action tuple for a typed action (squares as ints)."""
    def p(v: Any) -> int:
        sq = B.parse_square(v)
        if sq is None:
            raise IllegalAction("action.malformed", "unknown square", square=str(v))
        return sq

    if isinstance(a, Setup):
        f1, f2 = sorted((p(a.footmen[0]), p(a.footmen[1])))
        return ("setup", p(a.duke), f1, f2)
    if isinstance(a, Move):
        return ("move", p(a.frm), p(a.to), a.dragon_facing)
    if isinstance(a, Strike):
        return ("strike", p(a.frm), p(a.target), None)
    if isinstance(a, Command):
        return ("command", p(a.frm), p(a.piece), p(a.to))
    if isinstance(a, Draw):
        return ("draw",)
    if isinstance(a, Place):
        return ("place", p(a.square))
    if isinstance(a, Summon):
        return ("summon", p(a.square))
    if isinstance(a, Divine):
        return ("divine",)
    if isinstance(a, DivineChoose):
        return ("divine_choose", a.keep, p(a.square), tuple(sorted(set(a.destroy))))
    raise IllegalAction("action.malformed", "not a Duke action", type=type(a).__name__)


# --------------------------------------------------------------------------- legal actions


def _setup_actions(state: State) -> list[tuple]:
    seat = state.to_move
    out = []
    for d in B.HOME_MIDDLE[seat]:
        nb = sorted(s for s in B.orthogonal_neighbours(d) if state.pos.board[s] is None)
        for f1, f2 in combinations(nb, 2):
            out.append(("setup", d, f1, f2))
    return out


def _with_tile(pos: Position, sq: int, tile: Tile) -> Position:
    board = list(pos.board)
    board[sq] = tile
    return replace(pos, board=tuple(board))


def _safe_squares(pos: Position, seat: str, tile: Tile, squares: list[int]) -> list[int]:
    return [s for s in squares if not duke_in_danger(_with_tile(pos, s, tile), seat)]


def _placement_options(pos: Position, seat: str, kind: str) -> list[int]:
    """Where a drawn tile may go: the squares beside the Duke that keep it safe; if there are
    none, every empty square beside the Duke (a drawn tile must be placed)."""
    squares = placement_squares(pos, seat)
    return _safe_squares(pos, seat, Tile(seat, kind), squares) or squares


def _find(pos: Position, seat: str, kind: str) -> int | None:
    for sq, t in enumerate(pos.board):
        if t is not None and t.owner == seat and t.kind == kind:
            return sq
    return None


def _turn_actions(state: State) -> list[tuple]:
    pos, seat = state.pos, state.to_move
    opp_duke = duke_square(pos, other(seat))
    out: list[tuple] = []
    frozen = frozen_squares(pos)
    for act, cap in pseudo_actions(pos, seat, frozen):
        if cap is not None and cap == opp_duke:
            out.append(act)  # capturing the Duke wins at once
            continue
        if not duke_in_danger(perform(pos, act).position, seat):
            out.append(act)
    squares = placement_squares(pos, seat)
    blocker = Tile(seat, _BLOCKER)
    safe_blocker = bool(_safe_squares(pos, seat, blocker, squares))
    if state.bags[seat] and squares and safe_blocker:
        out.append(("draw",))
    if state.options.get("duchess"):
        dsq = _find(pos, seat, "duchess")
        duke = duke_square(pos, seat)
        if dsq is not None and dsq not in frozen and duke is not None:
            for s in squares:
                board = list(pos.board)
                t = board[duke]
                board[duke] = t._replace(back=not t.back)
                board[s] = board[dsq]
                board[dsq] = None
                if not duke_in_danger(replace(pos, board=tuple(board)), seat):
                    out.append(("summon", s))
    if state.options.get("oracle"):
        osq = _find(pos, seat, "oracle")
        if (
            osq is not None
            and pos.board[osq].back
            and osq not in frozen
            and state.bags[seat]
            and squares
            and safe_blocker
        ):
            out.append(("divine",))
    return out


def _divination_actions(state: State) -> list[tuple]:
    pos, seat = state.pos, state.to_move
    n = len(state.drawn)
    out = []
    for keep in range(n):
        rest = [i for i in range(n) if i != keep]
        subsets = [tuple(c) for r in range(len(rest) + 1) for c in combinations(rest, r)]
        for s in _placement_options(pos, seat, state.drawn[keep]):
            for d in subsets:
                out.append(("divine_choose", keep, s, d))
    return out


def legal_actions(state: State) -> list[tuple]:
    """Every legal internal action tuple for ``state.to_move`` now (empty when the game is over)."""
    cached = state.memo.get("legal")
    if cached is not None:
        return cached
    if state.phase == "setup":
        out = _setup_actions(state)
    elif state.phase == "play":
        out = _turn_actions(state)
    elif state.phase == "place":
        out = [("place", s) for s in _placement_options(state.pos, state.to_move, state.drawn[0])]
    elif state.phase == "divination":
        out = _divination_actions(state)
    else:
        out = []
    state.memo["legal"] = out
    return out


# --------------------------------------------------------------------------- refusing


def _refuse(state: State, actor: str, t: tuple) -> IllegalAction:
    """The most specific reason why ``t`` is not legal for ``actor`` now."""
    pos, seat, kind = state.pos, actor, t[0]
    allowed = {
        "setup": ("setup",),
        "play": ("move", "strike", "command", "draw", "summon", "divine"),
        "place": ("place",),
        "divination": ("divine_choose",),
    }[state.phase]
    if kind not in allowed:
        return IllegalAction(
            "turn.wrong_phase",
            f"a {kind} action is not possible now",
            action=kind,
            phase=state.phase,
            allowed=list(allowed),
        )
    if kind == "setup":
        _, d, f1, f2 = t
        if d not in B.HOME_MIDDLE[seat]:
            return IllegalAction(
                "setup.duke_square",
                "the Duke starts on one of the two middle squares of your home row",
                square=B.name(d),
            )
        nb = B.orthogonal_neighbours(d)
        bad = [f for f in (f1, f2) if f not in nb] or ([f2] if f1 == f2 else [])
        return IllegalAction(
            "setup.footman_square",
            "the two Footmen start on two different squares sharing an edge with the Duke",
            square=B.name(bad[0] if bad else f1),
        )
    if kind in ("move", "strike", "command"):
        frm = t[1]
        tile = pos.board[frm]
        if tile is None or tile.owner != seat:
            return IllegalAction("tile.not_yours", "you have no tile on that square", square=B.name(frm))
        frozen = frozen_squares(pos)
        if frm in frozen:
            return IllegalAction("tile.frozen", "that tile is frozen by a Dread icon", square=B.name(frm))
        if kind == "command" and (t[2] in frozen):
            return IllegalAction("tile.frozen", "that tile is frozen by a Dread icon", square=B.name(t[2]))
        mine = [a for a, _ in pseudo_actions(pos, seat, frozen) if a[1] == frm]
        if t in mine:
            return IllegalAction(
                "duke.exposed", "that would leave your Duke capturable on your opponent's next turn"
            )
        if kind == "move":
            facings = {a[3] for a in mine if a[0] == "move" and a[2] == t[2]}
            if facings:
                if t[3] is None:
                    return IllegalAction(
                        "dragon.facing_required",
                        "this move enrages the Dragon: choose which player it faces (\"n\" or \"s\")",
                        square=B.name(t[2]),
                    )
                return IllegalAction(
                    "dragon.facing_unexpected",
                    "only a move that enrages the Dragon takes a facing",
                    square=B.name(t[2]),
                )
        messages = {
            "move": "no Move, Jump, Slide or Jump Slide icon of that tile's side takes it there",
            "strike": "no Strike icon of that tile's side can capture a tile there",
            "command": "that tile cannot command this",
        }
        return IllegalAction(f"{kind}.not_allowed", messages[kind], square=B.name(t[2]))
    squares = placement_squares(pos, seat)
    if kind in ("draw", "divine"):
        if kind == "divine":
            osq = _find(pos, seat, "oracle") if state.options.get("oracle") else None
            if osq is None:
                return IllegalAction("divine.no_oracle", "you have no Oracle on the board")
            if not pos.board[osq].back:
                return IllegalAction("divine.start_side", "Divination needs the Oracle back side up")
            if osq in frozen_squares(pos):
                return IllegalAction("tile.frozen", "that tile is frozen by a Dread icon", square=B.name(osq))
        if not state.bags[seat]:
            return IllegalAction("draw.bag_empty", "your bag is empty")
        if not squares:
            return IllegalAction("draw.no_space", "no empty square shares an edge with your Duke")
        return IllegalAction(
            "duke.exposed", "every square for the new tile leaves your Duke capturable"
        )
    if kind == "summon":
        dsq = _find(pos, seat, "duchess") if state.options.get("duchess") else None
        if dsq is None:
            return IllegalAction("summon.no_duchess", "you have no Duchess on the board")
        if dsq in frozen_squares(pos):
            return IllegalAction("tile.frozen", "that tile is frozen by a Dread icon", square=B.name(dsq))
        if t[1] not in squares:
            return IllegalAction(
                "place.square", "that is not an empty square sharing an edge with your Duke", square=B.name(t[1])
            )
        return IllegalAction("duke.exposed", "that would leave your Duke capturable on your opponent's next turn")
    if kind == "place":
        if t[1] not in squares:
            return IllegalAction(
                "place.square", "that is not an empty square sharing an edge with your Duke", square=B.name(t[1])
            )
        return IllegalAction("duke.exposed", "another square keeps your Duke safe")
    # divine_choose
    _, keep, sq, destroy = t
    n = len(state.drawn)
    if not 0 <= keep < n:
        return IllegalAction("divine.keep", "choose one of the drawn tiles to place", keep=keep, drawn=n)
    if any(not 0 <= i < n or i == keep for i in destroy):
        return IllegalAction("divine.destroy", "destroy only drawn tiles you do not place")
    if sq not in squares:
        return IllegalAction(
            "place.square", "that is not an empty square sharing an edge with your Duke", square=B.name(sq)
        )
    return IllegalAction("duke.exposed", "another square keeps your Duke safe")


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
                events=state.events + tuple(_event(state, **e) for e in evs),
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
        raise _refuse(state, actor, t)
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
        dsq = _find(pos, seat, "duchess")
        board[duke] = board[duke]._replace(back=not board[duke].back)
        board[t[1]] = board[dsq]
        board[dsq] = None
        ev = _event(state, type="summon", seat=seat, frm=B.name(dsq), to=B.name(t[1]))
        state = replace(state, pos=replace(pos, board=tuple(board)), events=state.events + (ev,))
        return _end_turn(state, seat, False)
    if kind == "divine":
        board = list(pos.board)
        osq = _find(pos, seat, "oracle")
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
        returned=len(back),
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
    from .actions import action_to_json

    acts = [action_to_json(to_action(t)) for t in legal_actions(state)]
    opts: dict[str, Any] = {"actions": acts}
    kind = {"setup": "setup", "play": "turn", "place": "place", "divination": "divination"}[state.phase]
    if state.phase == "place":
        opts["tile"] = state.drawn[0]
    if state.phase == "divination":
        opts["drawn"] = list(state.drawn)
    return [Decision(actor=state.to_move, kind=kind, options=opts)]
