"""The Duke's actions: small frozen dataclasses with a ``type`` tag, their JSON form, and the
internal tuples the engine works with.

Squares are named ``"a1"`` .. ``"f6"`` (see :mod:`.board`). Every action's JSON form is
``dataclasses.asdict(action)`` with tuples as lists; :func:`parse_action` is its inverse and raises
``IllegalAction("action.malformed", ...)`` for anything else. :func:`to_tuple` and
:func:`to_action` turn a typed action into the engine's internal tuple (squares as ints) and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..base import IllegalAction
from . import board as B

__all__ = [
    "Setup",
    "Move",
    "Strike",
    "Command",
    "Draw",
    "Place",
    "Summon",
    "Divine",
    "DivineChoose",
    "ACTION_TYPES",
    "parse_action",
    "action_to_json",
    "to_action",
    "to_tuple",
]


@dataclass(frozen=True)
class Setup:
    """创建游戏 (set-up): the Duke on one of the two middle home squares, two Footmen beside it."""

    duke: str
    footmen: tuple[str, str]
    type: ClassVar[str] = "setup"


@dataclass(frozen=True)
class Move:
    """Move a tile by one Move, Jump, Slide or Jump Slide icon, then flip it.

    ``dragon_facing`` ("n" toward rank 6, "s" toward rank 1) is required exactly when the move
    enrages the Dragon (a Slide or Jump Slide into its square pushing it onto an empty square or
    the Mountain); it is the way the enraged Dragon faces.
    """

    frm: str
    to: str
    dragon_facing: str | None = None
    type: ClassVar[str] = "move"


@dataclass(frozen=True)
class Strike:
    """Capture the enemy tile on ``target`` with a Strike icon of the tile on ``frm``; it flips."""

    frm: str
    target: str
    type: ClassVar[str] = "strike"


@dataclass(frozen=True)
class Command:
    """The tile on ``frm`` commands the friendly tile on ``piece`` to ``to`` (both Command
    squares of ``frm``); the commanding tile flips, the commanded one does not."""

    frm: str
    piece: str
    to: str
    type: ClassVar[str] = "command"


@dataclass(frozen=True)
class Draw:
    """Draw a random tile from your bag; a :class:`Place` follows."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Place:
    """Place the tile just drawn, start side up, on ``square`` (an empty square beside your Duke)."""

    square: str
    type: ClassVar[str] = "place"


@dataclass(frozen=True)
class Summon:
    """Duchess ability I (应诏 / Summon): flip your Duke and put your Duchess, side unchanged, on
    ``square`` (an empty square beside your Duke)."""

    square: str
    type: ClassVar[str] = "summon"


@dataclass(frozen=True)
class Divine:
    """Oracle ability II (预言 / Divination): flip your back-side-up Oracle to its start side and
    draw up to three tiles; a :class:`DivineChoose` follows."""

    type: ClassVar[str] = "divine"


@dataclass(frozen=True)
class DivineChoose:
    """Keep drawn tile number ``keep`` (index into the drawn list) and place it on ``square``;
    destroy the drawn tiles whose indices are in ``destroy``; the rest go back into the bag."""

    keep: int
    square: str
    destroy: tuple[int, ...] = field(default_factory=tuple)
    type: ClassVar[str] = "divine_choose"


ACTION_TYPES: dict[str, type] = {
    c.type: c for c in (Setup, Move, Strike, Command, Draw, Place, Summon, Divine, DivineChoose)
}


def action_to_json(action: Any) -> dict[str, Any]:
    """``{"type": ..., fields...}`` (tuples become lists)."""
    d = {"type": action.type}
    for k in action.__dataclass_fields__:
        v = getattr(action, k)
        d[k] = list(v) if isinstance(v, tuple) else v
    return d


def _bad(message: str, **params: Any) -> IllegalAction:
    return IllegalAction("action.malformed", message, **params)


def _square(data: dict, key: str) -> str:
    v = data.get(key)
    sq = B.parse_square(v)
    if sq is None:
        raise _bad(f"'{key}' must be a square name such as \"c1\"", field=key)
    return B.name(sq)


def parse_action(data: Any) -> Any:
    """A typed action from ``{"type": ..., ...}``; raises ``IllegalAction("action.malformed")``."""
    if not isinstance(data, dict):
        raise _bad("an action must be a JSON object")
    t = data.get("type")
    cls = ACTION_TYPES.get(t) if isinstance(t, str) else None
    if cls is None:
        raise _bad("unknown action type", type=str(t))
    allowed = {"type"} | {f for f in cls.__dataclass_fields__}
    extra = sorted(set(data) - allowed)
    if extra:
        raise _bad("unexpected field", field=extra[0])
    if cls is Setup:
        fm = data.get("footmen")
        if not isinstance(fm, (list, tuple)) or len(fm) != 2:
            raise _bad("'footmen' must be a list of two square names", field="footmen")
        squares = []
        for v in fm:
            sq = B.parse_square(v)
            if sq is None:
                raise _bad("'footmen' must be a list of two square names", field="footmen")
            squares.append(B.name(sq))
        return Setup(_square(data, "duke"), (squares[0], squares[1]))
    if cls is Move:
        f = data.get("dragon_facing")
        if f is not None and f not in ("n", "s"):
            raise _bad("'dragon_facing' must be \"n\", \"s\" or null", field="dragon_facing")
        return Move(_square(data, "frm"), _square(data, "to"), f)
    if cls is Strike:
        return Strike(_square(data, "frm"), _square(data, "target"))
    if cls is Command:
        return Command(_square(data, "frm"), _square(data, "piece"), _square(data, "to"))
    if cls in (Draw, Divine):
        return cls()
    if cls in (Place, Summon):
        return cls(_square(data, "square"))
    # DivineChoose
    keep = data.get("keep")
    if not isinstance(keep, int) or isinstance(keep, bool):
        raise _bad("'keep' must be an integer", field="keep")
    destroy = data.get("destroy", [])
    if not isinstance(destroy, (list, tuple)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in destroy
    ):
        raise _bad("'destroy' must be a list of integers", field="destroy")
    return DivineChoose(keep, _square(data, "square"), tuple(sorted(set(destroy))))


# --------------------------------------------------------------------------- internal tuples


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
