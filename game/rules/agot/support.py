"""寻求支援 / Call for Support, and 兵种单位的战力 / unit strength: the one place these rules live.

Used by combat (:mod:`.combat`), by attacks on neutral forces (:mod:`.march`) and by the march
options (:mod:`.options`).

Rulebook (战斗 step 1 and 支援的其它规则 ①-⑦):

* support comes only from areas **adjacent** to the contested area (ship transport does not make
  areas adjacent for support) holding a Support order;
* the supporting strength is the strength of every unit in that area plus the order's star bonus
  (``support-plus-one``: +1), all or nothing (⑥);
* ships support fights at sea and on land; footmen, knights and siege engines never support a
  fight at sea (④), so a land area never supports a sea area;
* ships in a port support only fights in the port's own sea, never on land (港口 ②);
* a siege engine adds 4 only when supporting the **attacker** against an area with a castle or
  stronghold, otherwise 0 (⑤);
* routed units have no strength (撤退和溃败);
* 1st edition: while Rains of Autumn is in force, footmen add nothing by support, the Support +1
  order's star still does (:func:`supporting_unit_strength`);
* a house fighting the combat may not support its enemy (⑦); the attacker and defender may decline
  their own support (③); any house may support nobody. 1st edition: no such limit
  (:func:`allowed_sides`).
"""

from __future__ import annotations

from .data import board
from .edition import edition
from .state import State

SIDES = ("attacker", "defender")


def unit_strength(utype: str, routed: bool, castle_target: bool, attacking: bool = True, of=None) -> int:
    """Strength of one unit: footman 1, knight 2, ship 1, siege engine 4 attacking (or supporting an
    attack on) a castle/stronghold area else 0; routed units 0 (``of``: the state or edition whose
    unit table is read; None: agot2)."""
    if routed:
        return 0
    if utype == "siege_engine":
        return 4 if (castle_target and attacking) else 0
    return board(of).unit_strength[utype]


def supporting_unit_strength(state: State, utype: str, routed: bool, castle_target: bool, attacking: bool) -> int:
    """Strength one unit adds by support: :func:`unit_strength`, but 0 for a footman while the
    1st edition's Rains of Autumn is in force (1st ed. rulebook, 维斯特洛卡表, 秋雨 Rains of Autumn:
    "步兵本回合无法提供支援战力"; flag ``footmen_no_support`` set by :mod:`.westeros`). The card takes
    the footmen's strength only: a Support +1 order's own +1 ("支援+1:该地区支援邻接地区的战斗时,除了
    原有的支援战力外再+1点战力") still counts, also from an area of footmen alone
    (:func:`support_strength`; reading: docs/agot1.md)."""
    if utype == "footman" and state.flags.get("footmen_no_support"):
        return 0
    return unit_strength(utype, routed, castle_target, attacking, state)


def can_support(area: str, target: str, of=None) -> bool:
    """Whether units in ``area`` may support a fight in ``target`` (adjacency and terrain only;
    ``of``: the state or edition of the board, None: agot2).

    Land areas support land fights only; seas support land and sea fights; ports support only the
    fight in their own sea.
    """
    b = board(of)
    if target not in b.adjacent[area]:
        return False
    kind, tkind = b.kind(area), b.kind(target)
    if tkind == "port":
        return False
    if kind == "port":
        return tkind == "sea" and b.areas[area].port_sea == target
    if kind == "land":
        return tkind == "land"
    return True  # sea supports land and sea


def support_strength(state: State, area: str, target: str, side: str) -> int:
    """The strength the Support order in ``area`` adds to ``side`` ("attacker"/"defender") of a fight
    in ``target``: its units (:func:`supporting_unit_strength`) plus the order's star bonus."""
    b = board(state)
    castle = b.areas[target].castle is not None
    n = sum(supporting_unit_strength(state, u[1], u[2], castle, side == "attacker") for u in state.units_of(area))
    o = state.orders.get(area)
    return n + (b.order_tokens[o[1]].strength if o else 0)


def supporting_areas(state: State, target: str, exclude: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """``(house, area)`` of every Support order that may support a fight in ``target``, in the order
    they declare: turn order (Iron Throne track), then area id. ``exclude``: areas that cannot
    (the attacker's origin)."""
    b = board(state)
    out = []
    for n in b.adjacent[target]:
        o = state.orders.get(n)
        if o is None or n in exclude or b.order_tokens[o[1]].type != "support":
            continue
        if not state.units_of(n) or not can_support(n, target, state):
            continue
        out.append((o[0], n))
    order = state.turn_order()
    return sorted(out, key=lambda x: (order.index(x[0]), x[1]))


def neutral_supporters(state: State, target: str, attacker: str) -> list[tuple[str, str, int]]:
    """Support orders that may support an attack on the neutral force in ``target``:
    ``(house, area, strength)`` in turn order (消灭中立军队 / Defeating a neutral force: support
    for the attacker as in combat, by the same rule)."""
    return [(h, a, support_strength(state, a, target, "attacker")) for (h, a) in supporting_areas(state, target)]


def allowed_sides(state: State, house: str, attacker: str, defender: str | None) -> list[str]:
    """What ``house`` may declare: ``attacker``, ``defender`` or ``none``.

    2nd edition, rule ⑦: never the enemy of one's own fight. 1st ed. rulebook, 支援命令 / Support
    orders: "下达支援命令的玩家可以选择帮助攻方或守方" and "玩家可以自由的以自己的部队支援自己的战争,但也
    可能会去帮助别的家族" - the text gives the player either side and names no exception for the
    two fighting houses, so the attacker and the defender may also pick their enemy's side
    (reading: docs/agot1.md, :attr:`.edition.Edition.combatant_may_support_enemy`)."""
    if not edition(state).combatant_may_support_enemy:
        if house == attacker:
            return ["attacker", "none"]
        if house == defender:
            return ["defender", "none"]
    return ["attacker", "defender", "none"]
