"""Why an action the player to move sent is not legal: the most specific error code.

The same rules as :mod:`.legal` (公爵战棋基础规则: 创建游戏, 如何进行游戏, 使公爵陷入危机, 放置新棋子;
扩展的游戏: 高阶能力, 地形棋子), read backwards: :func:`refusal` is asked only for an action
:func:`.legal.legal_actions` does not list, and names the first rule it breaks (wrong phase, set-up
squares, not your tile, frozen by Dread, no such icon move, the Dragon's facing, empty bag, no
square, the Duke exposed...). The codes are listed in ``docs/duke.md``.
"""

from __future__ import annotations

from ..base import IllegalAction
from . import board as B
from .position import find_tile, frozen_squares, placement_squares, pseudo_actions
from .state import State

__all__ = ["refusal"]


def refusal(state: State, actor: str, t: tuple) -> IllegalAction:
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
                "duke.exposed", "that would leave your Duke capturable by your opponent or the Dragon"
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
            osq = find_tile(pos, seat, "oracle") if state.options.get("oracle") else None
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
        dsq = find_tile(pos, seat, "duchess") if state.options.get("duchess") else None
        if dsq is None:
            return IllegalAction("summon.no_duchess", "you have no Duchess on the board")
        if dsq in frozen_squares(pos):
            return IllegalAction("tile.frozen", "that tile is frozen by a Dread icon", square=B.name(dsq))
        if t[1] not in squares:
            return IllegalAction(
                "place.square", "that is not an empty square sharing an edge with your Duke", square=B.name(t[1])
            )
        return IllegalAction("duke.exposed", "that would leave your Duke capturable by your opponent or the Dragon")
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
