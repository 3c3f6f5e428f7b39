"""The two editions this engine plays: one engine, an explicit profile of what differs.

A Game of Thrones: The Board Game exists in a 2nd edition (2011, 3-6 players, ruleset
``agot2``, the site's main game) and a 1st edition (2003, 3-5 players, ruleset ``agot1``).
Most rules are the same; the 1st edition is not a copy of the engine but the same modules
reading an :class:`Edition` profile. A state carries its edition id (``state.edition``) and
:func:`edition` returns the profile; ``data.board(state)`` returns that edition's board and
cards. Every field below is one named difference; the rule it switches lives in one module, whose
docstring names the 1st-edition rulebook section (quoted in ``docs/agot1.md``). Differences that are pure data (the board, the 35 house cards, the
Westeros decks, unit limits, tracks, setups) live in ``game/data/agot1/`` instead; the 1st
edition's files there hold only what differs from ``game/data/agot2/`` and inherit the rest.

Pure: no I/O here (the data files are read by :mod:`.data`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Edition", "EDITIONS", "edition", "edition_id"]


@dataclass(frozen=True)
class Edition:
    """One edition's profile. Fields after ``counts`` are rule switches; each names the rule and
    the module where it is implemented (1st-edition rulebook section in brackets)."""

    #: ruleset id, also the data folder ``game/data/<id>/``
    id: str
    #: the data folder whose files this edition's folder inherits (missing files, missing keys)
    inherits: str | None
    names: dict[str, str]
    min_players: int
    max_players: int
    #: the houses of the edition (data validation)
    houses: tuple[str, ...]
    #: expected (land, sea, port) areas and house cards (data validation)
    counts: tuple[int, int, int]
    #: the lobby options of the edition with their defaults
    default_options: dict[str, Any]

    # -- planning ([计画阶段 / Planning phase]) -- :mod:`.planning`
    #: 2e 没有足够的指令标记了？: a house short of tokens makes every house place in turn order.
    #: 1e has no such rule: orders are always placed at once (the short house leaves areas empty).
    short_orders_in_turn_order: bool = True
    #: 1e 特殊规则: "集权令牌只能放在陆地地区上" (Consolidate Power only on land areas).
    consolidate_on_land_only: bool = False
    #: 1e 船舰和支援: "你不可以在龙石岛、The Arbor和派克上放置支援令牌" (no Support order on an island).
    support_on_islands: bool = True
    #: 2e 使用信鸽: replace an order or look at the top wildling card; 1e 步骤三: only replace.
    raven_peek: bool = True

    # -- action phase -- :mod:`.raid`, :mod:`.consolidate`, :mod:`.retreat`, :mod:`.action_phase`
    #: what a special Raid does beyond a Raid: 2e ``"defense"`` (may remove a Defense order
    #: instead); 1e ``"two_orders"`` (突击+1: removes two adjacent Support/Consolidate Power/Raid
    #: orders, never a Defense order).
    special_raid: str = "defense"
    #: 2e 抢劫: the pillaged house discards one available power token; 1e 掠夺: it loses none.
    pillage_costs_victim: bool = True
    #: 2e: a special Consolidate Power may muster in its castle/stronghold area; 1e 集权(特殊): "功能
    #: 和普通的集权令牌相同" (a third plain order).
    special_consolidate_musters: bool = True
    #: 2e 结算休整指令: one order at a time in turn order (the house picks which); 1e C) 执行集权命令:
    #: "玩家同时从下达集权命令的地区拿取权力标志物" (all at once).
    consolidate_simultaneous: bool = False
    #: 2e 撤退 ④: an area that breaks the supply limit may be chosen only when every legal area does;
    #: 1e 撤退 3): any legal area, "如果需要的话只撤退部分的部队,剩下无法撤退的消灭".
    retreat_prefers_free_areas: bool = True
    #: when routed units stand up: 2e at the action phase's clean-up (``"cleanup"``); 1e "当该回合的
    #: 行军命令都执行完毕,就将所有残兵扶正" (``"after_marches"``).
    stand_up: str = "cleanup"

    # -- combat -- :mod:`.combat_result`, :mod:`.house_cards`, :mod:`.support`
    #: after a house's seventh card: 2e the six others return, the last one is discarded
    #: (``"discard_last"``); 1e 用掉的家族卡 "此时并不弃牌,而是将之前用掉的六张将军卡拿回手上" - all
    #: seven in hand (``"all_back"``), for the house that played its last card (the combat's memo),
    #: whatever its hand holds at the clean-up.
    seventh_card: str = "discard_last"
    #: when a card's "if you win" text (hook ``result``) acts: 2e 家族卡牌 ③, as soon as the winner is
    #: known, before casualties (``False``); 1e 将军卡 "某些卡片在战争结束後会引发特殊能力" - after the
    #: battle: after casualties, the retreat and the played cards' discard or return (用掉的家族卡),
    #: with the after-combat texts, before the March order is removed (``True``).
    win_texts_after_battle: bool = False
    #: 2e 支援 ⑦: a house fighting the combat may not support its enemy (``False``); 1e 支援命令 "下达
    #: 支援命令的玩家可以选择帮助攻方或守方" - any house with a Support order picks either side, a
    #: fighting house too (``True``).
    combatant_may_support_enemy: bool = False

    # -- Westeros phase and wildlings -- :mod:`.westeros`, :mod:`.wildlings`
    #: 2e: the icons of the three cards move the threat together before card I, and reaching the
    #: top starts an attack; 1e 威胁逼近: "每当翻出印有图样的卡,在处理之前,先将「野蛮人入侵」标志物向前
    #: 一格" - each card's icon just before that card; an attack only from its card.
    wildling_icon_per_card: bool = False
    wildling_attack_at_max: bool = True
    #: how a wildlings attack ends: 2e ``"cards"`` (the wildling deck); 1e ``"muster_points"``
    #: (守夜人胜利 / 野蛮人胜利: a discarded house card back to the highest bidder, or units worth 2
    #: mustering points from everyone and 2 more from the lowest bidder), the threat back to 0.
    wildling_outcome: str = "cards"

    # -- setup and victory -- :mod:`.setup`, :mod:`.victory`
    #: 1e 三到四人游戏: the absent houses' starting units stay on the board as neutral forces
    #: (footman 1, knight 2, ship 1, summed per area).
    neutral_armies_from_absent_houses: bool = False
    #: after round 10, houses equal on castles and on every tie-breaker of ``tracks.json``
    #: (:mod:`.victory`): 2e has none left (its last tie-breaker is the Iron Throne position);
    #: 1e 游戏获胜 a) "如果最高补给等级相同,就比可用权力的数量,再相同则平手" - they share the win.
    shared_victory: bool = False


AGOT2 = Edition(
    id="agot2",
    inherits=None,
    names={"en": "A Game of Thrones: The Board Game (2nd edition)", "zh-hans": "权力的游戏：桌游（第二版）"},
    min_players=3,
    max_players=6,
    houses=("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"),
    counts=(38, 12, 8),
    default_options={"tides_of_battle": False},
)

AGOT1 = Edition(
    id="agot1",
    inherits="agot2",
    names={"en": "A Game of Thrones: The Board Game (1st edition)", "zh-hans": "权力的游戏：桌游（第一版）"},
    min_players=3,
    max_players=5,
    houses=("stark", "lannister", "greyjoy", "tyrell", "baratheon"),
    counts=(34, 11, 0),
    default_options={},
    short_orders_in_turn_order=False,
    consolidate_on_land_only=True,
    support_on_islands=False,
    raven_peek=False,
    special_raid="two_orders",
    pillage_costs_victim=False,
    special_consolidate_musters=False,
    consolidate_simultaneous=True,
    retreat_prefers_free_areas=False,
    stand_up="after_marches",
    seventh_card="all_back",
    win_texts_after_battle=True,
    combatant_may_support_enemy=True,
    wildling_icon_per_card=True,
    wildling_attack_at_max=False,
    wildling_outcome="muster_points",
    neutral_armies_from_absent_houses=True,
    shared_victory=True,
)

EDITIONS: dict[str, Edition] = {e.id: e for e in (AGOT2, AGOT1)}


def edition_id(of: Any) -> str:
    """The edition id of ``of``: a state (its ``edition``), an edition id, or None (``"agot2"``).

    Raises:
        KeyError: an unknown edition id.
    """
    if of is None:
        eid = "agot2"
    elif isinstance(of, str):
        eid = of
    else:
        eid = getattr(of, "edition", None) or "agot2"
    if eid not in EDITIONS:
        raise KeyError(eid)
    return eid


def edition(of: Any) -> Edition:
    """The :class:`Edition` profile of ``of`` (a state, an edition id, or None for agot2)."""
    return EDITIONS[edition_id(of)]
