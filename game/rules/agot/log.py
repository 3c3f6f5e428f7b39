"""Plain-language game log: one sentence per event, in English or simplified Chinese.

``describe(event, lang)`` turns an event of ``view(...)["events"]`` into a sentence using the
data's names (areas, houses, cards, tokens). It reads only the event, so a redacted view can be
rendered as it is. Unknown event kinds fall back to the kind itself. Every line names what is
needed to follow the game without the board: a march's legs (units and destination), what a raid
removed, a combat's strengths part by part (``combat_result.parts``) and its casualties, musters,
revealed bids, Westeros choices; ids never appear, only names (tested on full bot games by
``tests/web/test_log_sentences.py``). :func:`areas` gives the board areas a line names.
"""

from __future__ import annotations

from typing import Any, Callable

from .data import board

TRACK_NAMES = {
    "en": {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court", "wildlings": "Night's Watch"},
    "zh-hans": {"iron_throne": "王权", "fiefdoms": "封臣", "kings_court": "宫廷", "wildlings": "守夜人"},
}
TOKEN_NAMES = {
    "en": {
        "march-minus-one": "March -1", "march": "March", "march-plus-one": "March +1", "defense-plus-one": "Defense +1",
        "defense-plus-two": "Defense +2", "support": "Support", "support-plus-one": "Support +1", "raid": "Raid",
        "special-raid": "special Raid", "consolidate-power": "Consolidate Power", "special-consolidate-power": "special Consolidate Power",
    },
    "zh-hans": {
        "march-minus-one": "行军-1", "march": "行军", "march-plus-one": "行军+1", "defense-plus-one": "防御+1",
        "defense-plus-two": "防御+2", "support": "支援", "support-plus-one": "支援+1", "raid": "突袭",
        "special-raid": "特殊突袭", "consolidate-power": "休整", "special-consolidate-power": "特殊休整",
    },
}
UNIT_NAMES = {
    "en": {"footman": "footman", "knight": "knight", "ship": "ship", "siege_engine": "siege engine"},
    "zh-hans": {"footman": "步兵", "knight": "骑士", "ship": "战舰", "siege_engine": "攻城车"},
}


TIDES_NAMES = {
    "en": {"zero": "0", "sword": "+1 and a sword", "fortification": "+1 and a fortification", "two": "+2", "three": "+3", "skull": "skull"},
    "zh-hans": {"zero": "0", "sword": "+1及利剑", "fortification": "+1及铁堡", "two": "+2", "three": "+3", "skull": "骷髅"},
}


def _name(kind: str, ident: Any, lang: str, ed: str = "agot2") -> str:
    if ident is None:
        return "-"
    b = board(ed)
    zh = lang == "zh-hans"
    if kind == "area":
        a = b.areas.get(ident)
        return (a.name_zh if zh else a.name_en) if a else str(ident)
    if kind == "house":
        h = b.houses.get(ident)
        return (h["name_zh"] if zh else h["name_en"]) if h else str(ident)
    if kind == "card":
        c = b.westeros_cards.get(ident) or b.wildling_cards.get(ident) or b.house_cards.get(ident)
        return (c["name_zh"] if zh else c["name_en"]) if c else str(ident)
    if kind == "token":
        return TOKEN_NAMES["zh-hans" if zh else "en"].get(ident, str(ident))
    if kind == "track":
        return TRACK_NAMES["zh-hans" if zh else "en"].get(ident, str(ident))
    if kind == "unit":
        return UNIT_NAMES["zh-hans" if zh else "en"].get(ident, str(ident))
    return str(ident)


# kind -> (English template, Chinese template); {house} etc. are filled from the event with names
TEMPLATES: dict[str, tuple[str, str]] = {
    "game_started": ("A {players}-player game begins: {houses_text}.", "{players}人游戏开始：{houses_text}。"),
    "scenario_start": ("Scenario {name}.", "场景 {name}。"),
    "orders_placed": ("{house} has placed its orders.", "{house}已部署指令。"),
    "orders_withdrawn": ("{house} takes its orders back to change them.", "{house}收回指令，重新部署。"),
    "orders_revealed": ("All orders are revealed: {orders_text}.", "所有指令同时展示：{orders_text}。"),
    "raven_pass": ("{house} does not use the Messenger Raven.", "{house}不使用信鸽。"),
    "raven_peek": ("{house} looks at the top wildling card.", "{house}查看野人卡牌堆顶牌。"),
    "raven_saw": ("{house} sees {card} on top of the wildling deck.", "{house}看到野人卡牌堆顶牌是{card}。"),
    "raven_wildling": ("{house} puts the wildling card {where}.", "{house}将野人卡牌放回{where}。"),
    "raven_replace": ("{house} replaces its {old} order in {area} with {new}.", "{house}将{area}的{old}指令替换为{new}。"),
    "raid": ("{house} raids from {area}{target_text}.", "{house}从{area}结算突袭{target_text}。"),
    "pillage": ("{house} pillages {victim}: +{gained} power, {victim} loses {lost}.", "{house}抢劫了{victim}：获得{gained}枚权力，{victim}失去{lost}枚。"),
    "march": ("{house} marches from {area}{moves_text}.", "{house}结算{area}的行军指令{moves_text}。"),
    "power_token_left": ("{house} leaves a power token in {area}.", "{house}在{area}放置权力标记建立控制权。"),
    "power_token_discarded": ("{house}'s power token in {area} is discarded.", "{house}在{area}的权力标记被弃除。"),
    "port_captured": ("{house} takes {area} from {loser}: {taken} ship(s) replaced, {removed} removed.", "{house}从{loser}手中夺取{area}：替换{taken}艘战舰，移除{removed}艘。"),
    "neutral_attack": ("{house} attacks the neutral force in {target} from {area} with {units_text} ({strength} vs {neutral}).", "{house}从{area}以{units_text}攻击{target}的中立军队（{strength}对{neutral}）。"),
    "support_declared": ("{house} {support_text} from {area}.", "{house}{support_text}（{area}）。"),
    "neutral_defeated": ("{house} destroys the neutral force in {area}.", "{house}消灭了{area}的中立军队。"),
    "neutral_held": ("The neutral force in {area} holds ({strength} vs {neutral}): support was refused, so {house}'s units stay where they were and the March order is spent.",
                     "{area}的中立军队守住了（{strength}对{neutral}）：支援被拒绝，{house}的单位留在原地，行军指令移除。"),
    "consolidate": ("{house} consolidates power in {area}: +{gained}.", "{house}在{area}休整：获得{gained}枚权力。"),
    "consolidate_muster": ("{house} musters in {area} with its special Consolidate Power.", "{house}以特殊休整指令在{area}征募。"),
    "round_start": ("Round {round_no} begins.", "第{round_no}回合开始。"),
    "round_end": ("Round {round_no} ends.", "第{round_no}回合结束。"),
    "westeros_cards": ("Westeros cards: {cards_text}.", "维斯特洛卡牌：{cards_text}。"),
    "westeros_resolve": ("Resolving {card}.", "执行{card}。"),
    "westeros_cards_redraw": ("Winter is Coming: deck {deck} reshuffled, {card} drawn.", "凛冬将至：重洗卡牌堆{deck}，抓取{card}。"),
    "westeros_choice": ("{house} chooses “{option}” for {card}.", "{house}为{card}选择“{option}”。"),
    "orders_forbidden": ("Orders forbidden this round: {tokens_text}.", "本回合不能部署：{tokens_text}。"),
    "supply": ("{house}'s supply: {old} → {new}.", "{house}的补给：{old} → {new}。"),
    "armies_reduced": ("{house} removes {units_text} to fit its supply.", "{house}移除{units_text}以满足补给上限。"),
    "mustered": ("{house} musters a {unit} in {dest}.", "{house}在{dest}征募{unit}。"),
    "muster_done": ("{house} has finished mustering.", "{house}征募完毕。"),
    "power_income": ("{house} gains {gained} power.", "{house}获得{gained}枚权力。"),
    "bidding_started": ("Bidding for {purpose}.", "开始竞标：{purpose}。"),
    "bid_placed": ("{house} has bid for {purpose}.", "{house}已为{purpose}出价。"),
    "bid_withdrawn": ("{house} takes its bid for {purpose} back to change it.", "{house}收回{purpose}的出价，重新出价。"),
    "bid_secret": ("{house} bids {amount} (hidden from the others until the reveal).", "{house}出价{amount}（揭示前他人不可见）。"),
    "bids_revealed": ("Bids for {purpose} revealed: {bids_text}.", "{purpose}出价展示：{bids_text}。"),
    "ties_ordered": ("{house} (Iron Throne) orders the ties: {order_text}.", "{house}（铁王座）决定平局次序：{order_text}。"),
    "track_set": ("{track} track: {order_text}.", "{track}势力条：{order_text}。"),
    "wildlings_attack": ("The wildlings attack with strength {strength}{excluded_text}.", "野人以{strength}点战力袭击{excluded_text}。"),
    "wildling_card": ("{card}: Night's Watch {nights_watch} vs wildlings {wildlings}, {outcome_text}.", "{card}：守夜人{nights_watch}对野人{wildlings}，{outcome_text}。"),
    "wildling_threat": ("Wildling threat: {old} → {new}.", "野人威胁：{old} → {new}。"),
    "track_moved": ("{house} {moved_text} on the {track} track.", "{house}在{track}势力条上{moved_text}。"),
    "units_destroyed": ("{house} loses {units_text}.", "{house}失去{units_text}。"),
    "unit_replaced": ("{house} replaces a {old} with a {new} in {area}.", "{house}在{area}将{old}替换为{new}。"),
    "power_lost": ("{house} discards {lost} power.", "{house}弃除{lost}枚权力。"),
    "power_regained": ("{house} gets back {gained} power.", "{house}取回{gained}枚权力。"),
    "house_cards_discarded": ("{house} discards {cards_text}.", "{house}弃除{cards_text}。"),
    "house_cards_recovered": ("{house} takes back {recovered_text}.", "{house}取回{recovered_text}。"),
    "combat_started": ("{attacker} attacks {defender} in {area} from {origin} with {units_text}.", "{attacker}从{origin}以{units_text}攻击{area}的{defender}。"),
    "combat_support": ("{house} {side_text} from {area}.", "{house}从{area}{side_text}。"),
    "combat_base": ("Base combat strength: {strength_text}.", "基础战力：{strength_text}。"),
    "house_card_chosen": ("{house} has chosen a house card.", "{house}已选择家族卡牌。"),
    "house_card_withdrawn": ("{house} takes its house card back to choose again.", "{house}收回家族卡牌，重新选择。"),
    "house_cards_revealed": ("House cards revealed: {cards_map_text}.", "家族卡牌展示：{cards_map_text}。"),
    "house_card_replaced": ("{house} now plays {card_text}{old_text}.", "{house}改为打出{card_text}{old_text}。"),
    "tides_drawn": ("{house} draws the Tides of Battle card {tides} (face down).", "{house}抓到战局卡牌{tides}（面朝下）。"),
    "blade_used": ("{house} uses the Valyrian Steel Blade (+1).", "{house}使用瓦雷利亚钢剑（战力+1）。"),
    "blade_redraw": ("{house} uses the Valyrian Steel Blade to redraw its Tides of Battle card.", "{house}使用瓦雷利亚钢剑重抓战局卡牌。"),
    "tides_revealed": ("Tides of Battle revealed: {tides_map_text}.", "战局卡牌展示：{tides_map_text}。"),
    "combat_result": ("{winner} wins the combat in {area}{tie_text}: {strength_text}.", "{winner}赢得{area}的战斗{tie_text}：{strength_text}。"),
    "casualties": ("{house} loses {units_text} ({source_text}).", "{house}伤亡：{units_text}（{source_text}）。"),
    "unit_destroyed": ("{house}'s {unit} in {area} is destroyed instead of retreating ({reason_text}).", "{house}在{area}的{unit}无法撤退，被消灭（{reason_text}）。"),
    "retreat": ("{house} retreats from {area} to {dest} with {units_text}.", "{house}的{units_text}从{area}撤退至{dest}。"),
    "retreat_impossible": ("{house} cannot retreat from {area}: {units_text} destroyed.", "{house}无法从{area}撤退，{units_text}被消灭。"),
    "garrison_destroyed": ("The {house} garrison in {area} is destroyed.", "{house}在{area}的主城守备军被消灭。"),
    "combat_cleanup": ("The combat in {area} is over.", "{area}的战斗结算完毕。"),
    "combat_end": ("Play continues after the combat in {area}.", "{area}的战斗结束，游戏继续。"),
    "house_card_ability": ("{house} ({card}): {effect_text}.", "{house}（{card}）：{effect_text}。"),
    "order_removed": ("{house}'s {token} order in {area} is removed.", "{house}在{area}的{token}指令被移除。"),
    "game_over": ("{winner} wins ({reason_text}).", "{winner}获得游戏胜利（{reason_text}）。"),
    # 1st edition
    "wildlings_result": ("Night's Watch {nights_watch} vs wildlings {wildlings}: {outcome_text}.", "守夜人{nights_watch}对野人{wildlings}：{outcome_text}。"),
    "footmen_no_support": ("Rains of Autumn: footmen add no strength by support this round.", "秋雨：本回合步兵支援时不提供战力。"),
    "routed_stand_up": ("The marches are over: routed units stand up.", "行军指令全部结算完毕：溃败的单位恢复正常。"),
}

#: house card ability effects (event ``house_card_ability``, field ``effect``): English, Chinese
ABILITY_EFFECTS = {
    "discards_to_hand": ("takes its discarded house cards back into its hand", "将弃牌堆中的家族卡牌收回手中"),
    "gain_power": ("gains {gained} power", "获得{gained}枚权力标记"),
    "cancel_card": ("sends {victim}'s {cancelled} back to its hand", "令{victim}将{cancelled}收回手中"),
    "remove_order": ("removes the {token} order in {area}", "移除{area}的{token}指令"),
    "swap_card": ("pays 2 power to play another house card", "弃除2枚权力标记，改打另一张家族卡牌"),
    "destroy_footman": ("destroys a {victim} footman in {area}", "消灭{area}的一个{victim}步兵"),
    "destroy_footman_prevented": ("cannot destroy a {victim} footman", "未能消灭{victim}的步兵"),
    "march_order_advances": ("the {token} order moves from {origin} into {area}", "{token}指令从{origin}移入{area}"),
    "upgrade_footman": ("upgrades a footman in {area} to a knight", "将{area}的一个步兵升级为骑士"),
    "discard_card": ("discards {discarded} from {victim}'s hand", "弃除{victim}手中的{discarded}"),
    "track_bottom": ("moves {victim} to the bottom of the {track} track", "将{victim}移至{track}势力条末位"),
    "cancel_text": ("cancels the text of {victim}'s {cancelled}", "取消{victim}的{cancelled}的文字效果"),
    "pay_discard_card": ("pays 1 power to discard {discarded} from {victim}'s hand", "弃除1枚权力标记，弃除{victim}手中的{discarded}"),
}

NAMED = {"house": "house", "victim": "house", "winner": "house", "area": "area", "target": "area", "dest": "area",
         "card": "card", "old": None, "new": None, "track": "track", "purpose": "track", "unit": "unit"}


def describe(event: dict[str, Any], lang: str = "en", ed: str = "agot2") -> str:
    """One sentence for ``event`` in ``lang`` (``"en"`` or ``"zh-hans"``) of a game of edition
    ``ed`` (``"agot2"``, ``"agot1"``: its names of areas, houses and cards)."""
    zh = lang == "zh-hans"
    kind = event.get("kind", "")
    tpl = TEMPLATES.get(kind)
    if tpl is None:
        return kind
    f: dict[str, Any] = {}
    for k, v in event.items():
        what = NAMED.get(k)
        f[k] = _name(what, v, lang, ed) if what else v
    sep = "、" if zh else ", "
    if kind == "raven_replace":
        f["old"], f["new"] = _name("token", event["old"], lang, ed), _name("token", event["new"], lang, ed)
    if kind == "unit_replaced":
        f["old"], f["new"] = _name("unit", event["old"], lang, ed), _name("unit", event["new"], lang, ed)
    f["target_text"] = ""
    if kind == "raid":
        if event.get("target") is None:
            f["target_text"] = "，未移除任何指令" if zh else ", removing no order"
        else:
            victim, token = _name("house", event.get("victim"), lang, ed), _name("token", event.get("token"), lang, ed)
            f["target_text"] = f"，移除{victim}在{f['target']}的{token}指令" if zh else f", removing {victim}'s {token} order in {f['target']}"
    f["where"] = ("底部" if zh else "at the bottom") if event.get("bottom") else ("顶部" if zh else "back on top")
    f["support_text"] = ("提供支援" if zh else "gives support") if event.get("give") else ("拒绝支援" if zh else "declines to support")
    f["cards_text"] = sep.join(_name("card", c, lang, ed) for c in event.get("cards", []))
    f["tokens_text"] = sep.join(_name("token", t, lang, ed) for t in event.get("tokens", []))
    f["bids_text"] = sep.join(f"{_name('house', h, lang, ed)} {n}" for h, n in (event.get("bids") or {}).items())
    f["order_text"] = sep.join(_name("house", h, lang, ed) for h in event.get("order", []))
    f["count"] = len(event.get("units") or event.get("removed") or []) if kind in ("units_destroyed", "armies_reduced") else event.get("count", "")
    if kind == "wildling_card":
        f["outcome_text"] = (
            (f"守夜人获胜，{_name('house', event['highest'], lang, ed)}获得奖励" if zh else f"the Night's Watch wins; {_name('house', event['highest'], lang, ed)} is rewarded")
            if event.get("won")
            else (f"野人获胜，{_name('house', event['lowest'], lang, ed)}出价最少" if zh else f"the wildlings win; {_name('house', event['lowest'], lang, ed)} bid least")
        )
    if kind == "wildlings_result":
        f["outcome_text"] = (
            (f"守夜人获胜，出价最高的{_name('house', event['highest'], lang, ed)}可以取回一张家族卡牌" if zh
             else f"the Night's Watch wins; {_name('house', event['highest'], lang, ed)}, the highest bidder, may take back a house card")
            if event.get("won")
            else (f"野人获胜，每位玩家移除价值2点征募点数的单位，出价最少的{_name('house', event['lowest'], lang, ed)}再移除2点" if zh
                  else f"the wildlings win; every house removes units worth 2 mustering points, {_name('house', event['lowest'], lang, ed)}, the lowest bidder, 2 more")
        )
    if kind == "game_over":
        f["reason_text"] = {"seven_castles": "七座城堡" if zh else "seven castles", "eight_castles": "八座城堡" if zh else "eight castles",
                            "round_limit": "第10回合结束" if zh else "end of round 10",
                            "agreed_end": "玩家同意提前结束，按城堡数计" if zh else "the players agreed to end the game; most castles"}.get(event.get("reason"), "")
        if event.get("reason") == "agreed_end" and event.get("winners"):
            names = sep.join(_name("house", h, lang, ed) for h in event.get("winners") or [])
            return (f"玩家同意提前结束游戏：{names}城堡数、补给与现有权力都相同，共同获胜。" if zh
                    else f"The players agreed to end the game: {names} are equal on castles, supply and available power, and share the win.")
        if event.get("reason") == "shared":
            names = sep.join(_name("house", h, lang, ed) for h in event.get("winners") or [])
            return (f"第10回合结束：{names}城堡数、补给与现有权力都相同，共同获胜。" if zh
                    else f"End of round 10: {names} are equal on castles, supply and available power, and share the win.")
    if kind == "mustered" and event.get("upgrade"):
        return (f"{f['house']}在{f['dest']}将步兵升级为{f['unit']}。" if zh else f"{f['house']} upgrades a footman to a {f['unit']} in {f['dest']}.")
    if kind == "combat_base":
        f["strength_text"] = sep.join(f"{_name('house', h, lang, ed)} {n}" for h, n in (event.get("strength") or {}).items())
    if kind == "house_cards_revealed":
        f["cards_map_text"] = sep.join(f"{_name('house', h, lang, ed)}: {_name('card', c, lang, ed)}" for h, c in (event.get("cards") or {}).items())
    if kind == "tides_revealed":
        f["tides_map_text"] = sep.join(f"{_name('house', h, lang, ed)}: {TIDES_NAMES['zh-hans' if zh else 'en'].get(c, c)}" for h, c in (event.get("cards") or {}).items())
    if kind == "tides_drawn":
        f["tides"] = TIDES_NAMES["zh-hans" if zh else "en"].get(event.get("card"), event.get("card"))
    if kind == "combat_support":
        side = event.get("side")
        st = event.get("strength", 0)
        f["side_text"] = {"attacker": f"支援攻方（+{st}）" if zh else f"supports the attacker (+{st})", "defender": f"支援守方（+{st}）" if zh else f"supports the defender (+{st})"}.get(side, "不提供支援" if zh else "supports nobody")
    if kind in ("combat_started", "house_cards_revealed", "combat_result"):
        for k in ("attacker", "defender", "origin"):
            if k in event:
                f[k] = _name("area" if k == "origin" else "house", event[k], lang, ed)
    if kind == "casualties":
        f["count"] = len(event.get("units") or [])
    if kind in ("house_card_ability", "order_removed"):
        for k, what in (("victim", "house"), ("cancelled", "card"), ("discarded", "card"), ("token", "token"), ("origin", "area")):
            if k in event:
                f[k] = _name(what, event[k], lang, ed)
        pair = ABILITY_EFFECTS.get(event.get("effect"))
        if kind == "house_card_ability":
            f["effect_text"] = pair[1 if zh else 0].format(**f) if pair else str(event.get("effect"))
    if kind == "westeros_choice":
        f["option"] = _pick(WESTEROS_OPTIONS, event.get("option"), zh)
    _describe_more(kind, event, f, lang, ed)
    try:
        return tpl[1 if zh else 0].format(**f)
    except (KeyError, IndexError):  # pragma: no cover - a template bug
        return kind


#: Westeros card choices (event ``westeros_choice``, field ``option``): English, Chinese
WESTEROS_OPTIONS = {
    "supply": ("Supply", "调整补给"), "mustering": ("Mustering", "征募"), "nothing": ("nothing", "无事发生"),
    "clash_of_kings": ("Clash of Kings", "列王的纷争"), "game_of_thrones": ("Game of Thrones", "权力的游戏"),
    "no_defense": ("no Defense orders", "不能部署防御指令"), "no_march_plus_one": ("no March +1 orders", "不能部署行军+1指令"),
}
#: why units are lost (event ``casualties``, field ``source``)
CASUALTY_SOURCES = {
    "swords": ("swords", "利剑"), "skull": ("Tides of Battle skull", "战局卡牌骷髅"),
    "supply": ("over the supply limit after retreating", "撤退后超出补给上限"), "ability": ("house card ability", "家族卡牌能力"),
}
#: why a unit is destroyed instead of retreating (event ``unit_destroyed``, field ``reason``)
DESTROY_REASONS = {
    "siege_engine_retreat": ("siege engines cannot retreat", "攻城车不能撤退"),
    "routed_retreat": ("routed units cannot retreat again", "已溃败的单位不能再撤退"),
}
#: the parts of a combat strength (``combat.strength_parts``; event ``combat_result``, field ``parts``)
PART_NAMES = {
    "unit": ("units", "单位"), "order": ("order", "指令"), "support": ("support", "支援"), "garrison": ("garrison", "守备军"),
    "card": ("card", "卡牌"), "ability": ("card ability", "卡牌能力"), "blade": ("Valyrian Steel Blade", "瓦雷利亚钢剑"),
    "tides": ("Tides of Battle", "战局卡牌"),
}
#: the plural of each unit's English name
UNIT_PLURALS = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines"}


def _pick(table: dict[str, tuple[str, str]], key: Any, zh: bool) -> str:
    pair = table.get(key)
    return pair[1 if zh else 0] if pair else ("?" if key is None else str(key))


def units_text(units: Any, lang: str, ed: str = "agot2") -> str:
    """``"2 footmen and a knight"`` / ``"2个步兵、1个骑士"`` for a list of unit types (or of
    ``[area, type]`` pairs, then with each area: ``"a footman in Winterfell"``)."""
    zh = lang == "zh-hans"
    groups: dict[tuple[str | None, str], int] = {}
    for u in units or []:
        area, t = (u[0], u[1]) if isinstance(u, (list, tuple)) else (None, u)
        groups[(area, t)] = groups.get((area, t), 0) + 1
    if not groups:
        return "没有单位" if zh else "no units"
    out = []
    for (area, t), n in groups.items():
        where = _name("area", area, lang, ed) if area else None
        if zh:
            out.append((f"{where}的" if where else "") + f"{n}个{_name('unit', t, lang, ed)}")
        else:
            word = _name("unit", t, lang, ed) if n == 1 else UNIT_PLURALS.get(t, t)
            count = ("an" if word[0] in "aeiou" else "a") if n == 1 else str(n)
            out.append(f"{count} {word}" + (f" in {where}" if where else ""))
    if zh:
        return "、".join(out)
    return out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]


def parts_text(parts: list[dict[str, Any]], lang: str, ed: str = "agot2") -> str:
    """A combat strength's parts (see ``combat.strength_parts``) as ``"units 6 + March +1 order 1 +
    Tywin Lannister 4"`` (``"单位 6 + 行军+1指令 1 + 泰温·兰尼斯特 4"``); units are summed."""
    zh = lang == "zh-hans"
    out = []
    if any(p["part"] == "unit" for p in parts):
        out.append(f"{_pick(PART_NAMES, 'unit', zh)} {sum(p['strength'] for p in parts if p['part'] == 'unit')}")
    for p in parts:
        k = p["part"]
        if k == "unit":
            continue
        if k == "order":
            label = _name("token", p.get("token"), lang, ed) + ("指令" if zh else " order")
        elif k == "support":
            label = _name("house", p.get("house"), lang, ed) + ("支援" if zh else " support")
        elif k == "card":
            label = _name("card", p.get("card"), lang, ed)
        elif k == "ability":
            label = _name("card", p.get("card"), lang, ed) + ("能力" if zh else " ability")
        else:
            label = _pick(PART_NAMES, k, zh)
        out.append(f"{label} {p['strength']}")
    return " + ".join(out).replace("+ -", "- ")


def _describe_more(kind: str, event: dict[str, Any], f: dict[str, Any], lang: str, ed: str = "agot2") -> None:
    """The fields of the newer, fuller sentences (units, destinations, strengths' parts)."""
    zh = lang == "zh-hans"
    sep = "、" if zh else ", "
    for k in ("units", "removed"):
        if isinstance(event.get(k), list):
            f["units_text"] = units_text(event.get(k), lang, ed)
    f["houses_text"] = sep.join(_name("house", h, lang, ed) for h in event.get("houses", []))
    f["loser"] = _name("house", event.get("loser"), lang, ed) if event.get("loser") else ""
    if kind == "march":
        moves = event.get("moves") or {}
        if moves:
            legs = [(f"{units_text(us, lang, ed)}进入{_name('area', d, lang, ed)}" if zh else f"{units_text(us, lang, ed)} to {_name('area', d, lang, ed)}") for d, us in moves.items()]
            f["moves_text"] = ("：" + "；".join(legs)) if zh else (": " + "; ".join(legs))
        else:  # every unit that moved went into a fight (the next line tells it) or none moved
            f["moves_text"] = "：没有单位移往别处" if zh else ": no unit moves elsewhere"
    if kind == "orders_revealed":
        by_house: dict[str, list[str]] = {}
        for area, (h, tok) in (event.get("orders") or {}).items():
            by_house.setdefault(h, []).append(f"{_name('area', area, lang, ed)} {_name('token', tok, lang, ed)}")
        f["orders_text"] = ("；" if zh else "; ").join(f"{_name('house', h, lang, ed)}: " + sep.join(v) for h, v in by_house.items()) or ("无" if zh else "none")
    if kind == "wildlings_attack":
        ex = event.get("excluded")
        f["excluded_text"] = "" if not ex else (f"（{_name('house', ex, lang, ed)}不参与出价）" if zh else f" ({_name('house', ex, lang, ed)} does not bid)")
    if kind == "track_moved":
        if event.get("position") == "first":
            f["moved_text"] = "移至首位" if zh else "moves to the top"
        elif event.get("position") == "last":
            f["moved_text"] = "移至末位" if zh else "moves to the bottom"
        else:
            by = event.get("by") or 0
            f["moved_text"] = f"下降{by}位" if zh else f"moves down {by} place{'s' if by != 1 else ''}"
    if kind == "house_cards_recovered":
        cards = event.get("cards")
        f["recovered_text"] = sep.join(_name("card", c, lang, ed) for c in cards) if cards else ("弃牌堆中的家族卡牌" if zh else "its discarded house cards")
    if kind == "house_card_replaced":
        old_card = _name("card", event["old"], lang, ed) if event.get("old") else None
        f["old_text"] = "" if old_card is None else (f"，不再打出{old_card}" if zh else f" instead of {old_card}")
        f["card_text"] = _name("card", event["card"], lang, ed) if event.get("card") else ("无家族卡牌" if zh else "no house card")
    if kind == "combat_result":
        parts = event.get("parts") or {}
        sides = []
        for h, n in (event.get("strength") or {}).items():
            detail = parts_text(parts[h], lang, ed) if h in parts else ""
            sides.append(f"{_name('house', h, lang, ed)} {n}" + (f" = {detail}" if detail else ""))
        f["strength_text"] = ("；" if zh else "; ").join(sides)
        f["tie_text"] = ("（平局，按封臣势力条裁定）" if zh else " (a tie, broken by the Fiefdoms track)") if event.get("tie") else ""
    if kind == "casualties":
        f["source_text"] = _pick(CASUALTY_SOURCES, event.get("source"), zh)
    if kind == "unit_destroyed":
        f["reason_text"] = _pick(DESTROY_REASONS, event.get("reason"), zh)


AREA_FIELDS = ("area", "origin", "target", "dest")


def areas(event: dict[str, Any], ed: str = "agot2") -> list[str]:
    """The ids of the board areas an event names (for the log line's ``areas``: hovering the line
    highlights them), in the order the sentence names them, without repeats (``ed``: the game's
    edition)."""
    b = board(ed)
    out: list[str] = []

    def add(a: Any) -> None:
        if isinstance(a, str) and a in b.areas and a not in out:
            out.append(a)

    for k in AREA_FIELDS:
        add(event.get(k))
    for d in (event.get("moves") or {}):
        add(d)
    for k in ("units", "removed"):
        for u in event.get(k) or []:
            if isinstance(u, (list, tuple)) and u:
                add(u[0])
    for a in (event.get("orders") or {}) if event.get("kind") == "orders_revealed" else ():
        add(a)
    for side in (event.get("parts") or {}).values():
        for p in side:
            add(p.get("area"))
    return out


Describer = Callable[[dict[str, Any], str], str]
