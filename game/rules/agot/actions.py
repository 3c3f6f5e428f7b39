"""Typed actions of the agot2 ruleset and their JSON form.

Every action is a frozen dataclass with a ``type`` tag; :func:`parse_action` builds one from a
JSON object and raises ``IllegalAction("action.malformed", ...)`` for anything of the wrong shape
(unknown type, missing or extra keys, wrong value types). Rules are checked later, by ``apply``.
The vocabulary is documented in ``docs/scenarios.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..base import IllegalAction


@dataclass(frozen=True)
class UnitRef:
    """One unit: ``{"area": id, "unit": type}``."""

    area: str
    unit: str


@dataclass(frozen=True)
class Recruit:
    """One mustering step: ``{"area": castle area, "unit": type, "to": area?, "upgrade": bool?}``.

    ``to`` is where a ship goes (the area's port or an adjacent sea); land units go to ``area``.
    ``upgrade`` turns a footman in ``area`` into ``unit`` (knight or siege engine) for 1 point.
    """

    area: str
    unit: str
    to: str | None = None
    upgrade: bool = False


@dataclass(frozen=True)
class Move:
    """Part of a march: ``{"to": area, "units": [type, ...]}``."""

    to: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class PlaceOrders:
    orders: tuple[tuple[str, str], ...]  # (area, token id), sorted by area
    type: str = "place_orders"


@dataclass(frozen=True)
class Raven:
    choice: str  # "replace" | "peek" | "pass"
    area: str | None = None
    token: str | None = None
    type: str = "raven"


@dataclass(frozen=True)
class RavenKeep:
    bottom: bool
    type: str = "raven_keep"


@dataclass(frozen=True)
class Raid:
    """``{"area", "target"?, "second_target"?}``; ``second_target``: the 1st edition's special
    Raid removes a second order."""

    area: str
    target: str | None = None
    second_target: str | None = None
    type: str = "raid"


@dataclass(frozen=True)
class March:
    area: str
    moves: tuple[Move, ...] = ()
    leave_power: bool = False
    type: str = "march"


@dataclass(frozen=True)
class Support:
    give: bool
    type: str = "support"


@dataclass(frozen=True)
class Consolidate:
    area: str
    muster: tuple[Recruit, ...] | None = None
    type: str = "consolidate"


@dataclass(frozen=True)
class Muster:
    recruits: tuple[Recruit, ...] = ()
    type: str = "muster"


@dataclass(frozen=True)
class Reconcile:
    remove: tuple[UnitRef, ...] = ()
    type: str = "reconcile"


@dataclass(frozen=True)
class Bid:
    amount: int
    type: str = "bid"


@dataclass(frozen=True)
class OrderTies:
    order: tuple[str, ...]
    type: str = "order_ties"


@dataclass(frozen=True)
class Choose:
    option: str
    type: str = "choose"


@dataclass(frozen=True)
class SelectUnits:
    units: tuple[UnitRef, ...] = ()
    type: str = "select_units"


@dataclass(frozen=True)
class SelectCard:
    card: str | None = None
    type: str = "select_card"


@dataclass(frozen=True)
class Withdraw:
    """Take back one's face-down answer to the simultaneous decision in progress (see
    :func:`.flow.withdraw`)."""

    type: str = "withdraw"


ACTION_TYPES = {
    cls.__dataclass_fields__["type"].default: cls
    for cls in (PlaceOrders, Raven, RavenKeep, Raid, March, Support, Consolidate, Muster, Reconcile, Bid, OrderTies, Choose, SelectUnits, SelectCard, Withdraw)
}


def _bad(msg: str, **params: Any) -> IllegalAction:
    return IllegalAction("action.malformed", msg, **params)


def _str(v: Any, what: str) -> str:
    if not isinstance(v, str) or not v:
        raise _bad(f"{what} must be a non-empty string.", field=what)
    return v


def _opt_str(v: Any, what: str) -> str | None:
    return None if v is None else _str(v, what)


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise _bad(f"{what} must be true or false.", field=what)
    return v


def _int(v: Any, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise _bad(f"{what} must be an integer.", field=what)
    return v


def _list(v: Any, what: str) -> list:
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list.", field=what)
    return v


def _obj(v: Any, what: str, required: set[str], optional: set[str] = frozenset()) -> dict:
    if not isinstance(v, dict):
        raise _bad(f"{what} must be an object.", field=what)
    missing = required - v.keys()
    extra = v.keys() - required - optional
    if missing:
        raise _bad(f"{what} lacks {', '.join(sorted(missing))}.", field=what, missing=sorted(missing))
    if extra:
        raise _bad(f"{what} has unknown keys {', '.join(sorted(extra))}.", field=what, extra=sorted(extra))
    return v


def _unitref(v: Any) -> UnitRef:
    o = _obj(v, "unit", {"area", "unit"})
    return UnitRef(_str(o["area"], "area"), _str(o["unit"], "unit"))


def _recruit(v: Any) -> Recruit:
    o = _obj(v, "recruit", {"area", "unit"}, {"to", "upgrade"})
    return Recruit(_str(o["area"], "area"), _str(o["unit"], "unit"), _opt_str(o.get("to"), "to"), _bool(o.get("upgrade", False), "upgrade"))


def parse_action(data: Any) -> Any:
    """A typed action from its JSON object; ``IllegalAction("action.malformed")`` otherwise.

    A typed action passed in is returned as is.
    """
    if type(data) in ACTION_TYPES.values():
        return data
    if not isinstance(data, dict):
        raise _bad("An action must be a JSON object with a 'type'.")
    t = data.get("type")
    if not isinstance(t, str) or t not in ACTION_TYPES:  # a list or an object is unhashable
        raise _bad(f"Unknown action type {t!r}.", got=str(t)[:40])
    if t == "place_orders":
        o = _obj(data, "action", {"type", "orders"})
        orders = o["orders"]
        if not isinstance(orders, dict):
            raise _bad("orders must be an object {area: token id}.", field="orders")
        return PlaceOrders(tuple(sorted((_str(a, "area"), _str(tk, "token")) for a, tk in orders.items())))
    if t == "raven":
        o = _obj(data, "action", {"type", "choice"}, {"area", "token"})
        return Raven(_str(o["choice"], "choice"), _opt_str(o.get("area"), "area"), _opt_str(o.get("token"), "token"))
    if t == "raven_keep":
        o = _obj(data, "action", {"type", "bottom"})
        return RavenKeep(_bool(o["bottom"], "bottom"))
    if t == "raid":
        o = _obj(data, "action", {"type", "area"}, {"target", "second_target"})
        return Raid(_str(o["area"], "area"), _opt_str(o.get("target"), "target"), _opt_str(o.get("second_target"), "second_target"))
    if t == "march":
        o = _obj(data, "action", {"type", "area"}, {"moves", "leave_power"})
        moves = []
        for m in _list(o.get("moves", []), "moves"):
            mo = _obj(m, "move", {"to", "units"})
            moves.append(Move(_str(mo["to"], "to"), tuple(_str(u, "unit") for u in _list(mo["units"], "units"))))
        return March(_str(o["area"], "area"), tuple(moves), _bool(o.get("leave_power", False), "leave_power"))
    if t == "support":
        o = _obj(data, "action", {"type", "give"})
        return Support(_bool(o["give"], "give"))
    if t == "consolidate":
        o = _obj(data, "action", {"type", "area"}, {"muster"})
        m = o.get("muster")
        return Consolidate(_str(o["area"], "area"), None if m is None else tuple(_recruit(r) for r in _list(m, "muster")))
    if t == "muster":
        o = _obj(data, "action", {"type"}, {"recruits"})
        return Muster(tuple(_recruit(r) for r in _list(o.get("recruits", []), "recruits")))
    if t == "reconcile":
        o = _obj(data, "action", {"type"}, {"remove"})
        return Reconcile(tuple(_unitref(u) for u in _list(o.get("remove", []), "remove")))
    if t == "bid":
        o = _obj(data, "action", {"type", "amount"})
        return Bid(_int(o["amount"], "amount"))
    if t == "order_ties":
        o = _obj(data, "action", {"type", "order"})
        return OrderTies(tuple(_str(h, "house") for h in _list(o["order"], "order")))
    if t == "choose":
        o = _obj(data, "action", {"type", "option"})
        return Choose(_str(o["option"], "option"))
    if t == "select_units":
        o = _obj(data, "action", {"type"}, {"units"})
        return SelectUnits(tuple(_unitref(u) for u in _list(o.get("units", []), "units")))
    if t == "select_card":
        o = _obj(data, "action", {"type"}, {"card"})
        return SelectCard(_opt_str(o.get("card"), "card"))
    if t == "withdraw":
        _obj(data, "action", {"type"})
        return Withdraw()
    raise _bad(f"Unknown action type {t!r}.")  # pragma: no cover


def to_json(action: Any) -> dict[str, Any]:
    """The JSON object of a typed action (inverse of :func:`parse_action`)."""

    def conv(v: Any) -> Any:
        if hasattr(v, "__dataclass_fields__"):
            return {f.name: conv(getattr(v, f.name)) for f in fields(v) if not (f.name == "to" and getattr(v, f.name) is None and isinstance(v, Recruit))}
        if isinstance(v, tuple):
            return [conv(x) for x in v]
        return v

    d = conv(action)
    if isinstance(action, PlaceOrders):
        d["orders"] = dict(action.orders)
    if isinstance(action, Raid) and action.second_target is None:
        d.pop("second_target")  # the 1st edition's field: absent from every other raid
    return d
