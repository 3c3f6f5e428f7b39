"""Plain-language game log: one sentence per event, in English or simplified Chinese.

``describe(event, lang)`` turns an event of ``view(...)["events"]`` into a sentence using the
data's names (areas, houses, cards, tokens). It reads only the event, so a redacted view can be
rendered as it is. Unknown event kinds fall back to the kind itself.
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


def _name(kind: str, ident: Any, lang: str) -> str:
    if ident is None:
        return "-"
    b = board()
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
    "game_started": ("A {players}-player game begins.", "{players}人游戏开始。"),
    "scenario_start": ("Scenario {name}.", "场景 {name}。"),
    "orders_placed": ("{house} has placed its orders.", "{house}已部署指令。"),
    "orders_revealed": ("All orders are revealed.", "所有指令同时展示。"),
    "raven_pass": ("{house} does not use the Messenger Raven.", "{house}不使用信鸽。"),
    "raven_peek": ("{house} looks at the top wildling card.", "{house}查看野人卡牌堆顶牌。"),
    "raven_saw": ("You saw {card} on top of the wildling deck.", "你看到野人卡牌堆顶牌是{card}。"),
    "raven_wildling": ("{house} puts the wildling card {where}.", "{house}将野人卡牌放回{where}。"),
    "raven_replace": ("{house} replaces its {old} order in {area} with {new}.", "{house}将{area}的{old}指令替换为{new}。"),
    "raid": ("{house} raids from {area}{target_text}.", "{house}从{area}结算突袭{target_text}。"),
    "pillage": ("{house} pillages {victim}: +{gained} power, {victim} loses {lost}.", "{house}抢劫了{victim}：获得{gained}枚权力，{victim}失去{lost}枚。"),
    "march": ("{house} marches from {area}.", "{house}结算{area}的行军指令。"),
    "power_token_left": ("{house} leaves a power token in {area}.", "{house}在{area}放置权力标记建立控制权。"),
    "power_token_discarded": ("{house}'s power token in {area} is discarded.", "{house}在{area}的权力标记被弃除。"),
    "port_captured": ("{house} takes {area}: {taken} ship(s) replaced, {removed} removed.", "{house}夺取{area}：替换{taken}艘战舰，移除{removed}艘。"),
    "neutral_attack": ("{house} attacks the neutral force in {target} ({strength} vs {neutral}).", "{house}攻击{target}的中立军队（{strength}对{neutral}）。"),
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
    "westeros_choice": ("{house} chooses {option} for {card}.", "{house}为{card}选择{option}。"),
    "orders_forbidden": ("Orders forbidden this round: {tokens_text}.", "本回合不能部署：{tokens_text}。"),
    "supply": ("{house}'s supply: {old} → {new}.", "{house}的补给：{old} → {new}。"),
    "armies_reduced": ("{house} removes {count} unit(s) to fit its supply.", "{house}移除{count}个单位以满足补给上限。"),
    "mustered": ("{house} musters a {unit} in {dest}.", "{house}在{dest}征募{unit}。"),
    "muster_done": ("{house} has finished mustering.", "{house}征募完毕。"),
    "power_income": ("{house} gains {gained} power.", "{house}获得{gained}枚权力。"),
    "bidding_started": ("Bidding for {purpose}.", "开始竞标：{purpose}。"),
    "bid_placed": ("{house} has bid.", "{house}已出价。"),
    "bid_secret": ("You bid {amount}.", "你出价{amount}。"),
    "bids_revealed": ("Bids revealed: {bids_text}.", "出价展示：{bids_text}。"),
    "ties_ordered": ("{house} (Iron Throne) orders the ties: {order_text}.", "{house}（铁王座）决定平局次序：{order_text}。"),
    "track_set": ("{track} track: {order_text}.", "{track}势力条：{order_text}。"),
    "wildlings_attack": ("The wildlings attack with strength {strength}.", "野人以{strength}点战力袭击。"),
    "wildling_card": ("{card}: Night's Watch {nights_watch} vs wildlings {wildlings}, {outcome_text}.", "{card}：守夜人{nights_watch}对野人{wildlings}，{outcome_text}。"),
    "wildling_threat": ("Wildling threat: {old} → {new}.", "野人威胁：{old} → {new}。"),
    "track_moved": ("{house} moves on the {track} track.", "{house}在{track}势力条上移动。"),
    "units_destroyed": ("{house} loses {count} unit(s).", "{house}失去{count}个单位。"),
    "unit_replaced": ("{house} replaces a {old} with a {new} in {area}.", "{house}在{area}将{old}替换为{new}。"),
    "power_lost": ("{house} discards {lost} power.", "{house}弃除{lost}枚权力。"),
    "power_regained": ("{house} gets back {gained} power.", "{house}取回{gained}枚权力。"),
    "house_cards_discarded": ("{house} discards {cards_text}.", "{house}弃除{cards_text}。"),
    "house_cards_recovered": ("{house} takes back house cards.", "{house}取回家族卡牌。"),
    "combat_started": ("{attacker} attacks {defender} in {area} from {origin}.", "{attacker}从{origin}攻击{area}的{defender}。"),
    "combat_support": ("{house} {side_text} from {area}.", "{house}从{area}{side_text}。"),
    "combat_base": ("Base combat strength: {strength_text}.", "基础战力：{strength_text}。"),
    "house_card_chosen": ("{house} has chosen a house card.", "{house}已选择家族卡牌。"),
    "house_cards_revealed": ("House cards revealed: {cards_map_text}.", "家族卡牌展示：{cards_map_text}。"),
    "house_card_replaced": ("{house} now plays {card}.", "{house}改为打出{card}。"),
    "tides_drawn": ("You draw the Tides of Battle card {tides}.", "你抓到战局卡牌{tides}。"),
    "blade_used": ("{house} uses the Valyrian Steel Blade (+1).", "{house}使用瓦雷利亚钢剑（战力+1）。"),
    "blade_redraw": ("{house} uses the Valyrian Steel Blade to redraw its Tides of Battle card.", "{house}使用瓦雷利亚钢剑重抓战局卡牌。"),
    "tides_revealed": ("Tides of Battle revealed: {tides_map_text}.", "战局卡牌展示：{tides_map_text}。"),
    "combat_result": ("{winner} wins the combat in {area} ({strength_text}).", "{winner}赢得{area}的战斗（{strength_text}）。"),
    "casualties": ("{house} loses {count} unit(s).", "{house}承受{count}个伤亡。"),
    "unit_destroyed": ("{house}'s {unit} in {area} is destroyed instead of retreating.", "{house}在{area}的{unit}无法撤退，被消灭。"),
    "retreat": ("{house} retreats from {area} to {dest}.", "{house}从{area}撤退至{dest}。"),
    "retreat_impossible": ("{house} cannot retreat from {area}: its units are destroyed.", "{house}无法从{area}撤退，单位全部被消灭。"),
    "garrison_destroyed": ("The {house} garrison in {area} is destroyed.", "{house}在{area}的主城守备军被消灭。"),
    "combat_cleanup": ("The combat in {area} is over.", "{area}的战斗结算完毕。"),
    "combat_end": ("Play continues after the combat in {area}.", "{area}的战斗结束，游戏继续。"),
    "house_card_ability": ("{house} ({card}): {effect_text}.", "{house}（{card}）：{effect_text}。"),
    "order_removed": ("{house}'s {token} order in {area} is removed.", "{house}在{area}的{token}指令被移除。"),
    "game_over": ("{winner} wins ({reason_text}).", "{winner}获得游戏胜利（{reason_text}）。"),
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
}

NAMED = {"house": "house", "victim": "house", "winner": "house", "area": "area", "target": "area", "dest": "area",
         "card": "card", "old": None, "new": None, "track": "track", "purpose": "track", "unit": "unit"}


def describe(event: dict[str, Any], lang: str = "en") -> str:
    """One sentence for ``event`` in ``lang`` (``"en"`` or ``"zh-hans"``)."""
    zh = lang == "zh-hans"
    kind = event.get("kind", "")
    tpl = TEMPLATES.get(kind)
    if tpl is None:
        return kind
    f: dict[str, Any] = {}
    for k, v in event.items():
        what = NAMED.get(k)
        f[k] = _name(what, v, lang) if what else v
    sep = "、" if zh else ", "
    if kind == "raven_replace":
        f["old"], f["new"] = _name("token", event["old"], lang), _name("token", event["new"], lang)
    if kind == "unit_replaced":
        f["old"], f["new"] = _name("unit", event["old"], lang), _name("unit", event["new"], lang)
    f["target_text"] = ("" if event.get("target") is None else (f"，移除{f['target']}的指令" if zh else f", removing the order in {f['target']}")) if kind == "raid" else ""
    f["where"] = ("底部" if zh else "at the bottom") if event.get("bottom") else ("顶部" if zh else "back on top")
    f["support_text"] = ("提供支援" if zh else "gives support") if event.get("give") else ("拒绝支援" if zh else "declines to support")
    f["cards_text"] = sep.join(_name("card", c, lang) for c in event.get("cards", []))
    f["tokens_text"] = sep.join(_name("token", t, lang) for t in event.get("tokens", []))
    f["bids_text"] = sep.join(f"{_name('house', h, lang)} {n}" for h, n in (event.get("bids") or {}).items())
    f["order_text"] = sep.join(_name("house", h, lang) for h in event.get("order", []))
    f["count"] = len(event.get("units") or event.get("removed") or []) if kind in ("units_destroyed", "armies_reduced") else event.get("count", "")
    if kind == "wildling_card":
        f["outcome_text"] = (
            (f"守夜人获胜，{_name('house', event['highest'], lang)}获得奖励" if zh else f"the Night's Watch wins; {_name('house', event['highest'], lang)} is rewarded")
            if event.get("won")
            else (f"野人获胜，{_name('house', event['lowest'], lang)}出价最少" if zh else f"the wildlings win; {_name('house', event['lowest'], lang)} bid least")
        )
    if kind == "game_over":
        f["reason_text"] = {"seven_castles": "七座城堡" if zh else "seven castles", "round_limit": "第10回合结束" if zh else "end of round 10"}.get(event.get("reason"), "")
    if kind == "mustered" and event.get("upgrade"):
        return (f"{f['house']}在{f['dest']}将步兵升级为{f['unit']}。" if zh else f"{f['house']} upgrades a footman to a {f['unit']} in {f['dest']}.")
    if kind in ("combat_base", "combat_result"):
        f["strength_text"] = sep.join(f"{_name('house', h, lang)} {n}" for h, n in (event.get("strength") or {}).items())
    if kind == "house_cards_revealed":
        f["cards_map_text"] = sep.join(f"{_name('house', h, lang)}: {_name('card', c, lang)}" for h, c in (event.get("cards") or {}).items())
    if kind == "tides_revealed":
        f["tides_map_text"] = sep.join(f"{_name('house', h, lang)}: {TIDES_NAMES['zh-hans' if zh else 'en'].get(c, c)}" for h, c in (event.get("cards") or {}).items())
    if kind == "tides_drawn":
        f["tides"] = TIDES_NAMES["zh-hans" if zh else "en"].get(event.get("card"), event.get("card"))
    if kind == "combat_support":
        side = event.get("side")
        f["side_text"] = {"attacker": "支援攻方" if zh else "supports the attacker", "defender": "支援守方" if zh else "supports the defender"}.get(side, "不提供支援" if zh else "supports nobody")
    if kind in ("combat_started", "house_cards_revealed", "combat_result"):
        for k in ("attacker", "defender", "origin"):
            if k in event:
                f[k] = _name("area" if k == "origin" else "house", event[k], lang)
    if kind == "casualties":
        f["count"] = len(event.get("units") or [])
    if kind in ("house_card_ability", "order_removed"):
        for k, what in (("victim", "house"), ("cancelled", "card"), ("discarded", "card"), ("token", "token"), ("origin", "area")):
            if k in event:
                f[k] = _name(what, event[k], lang)
        pair = ABILITY_EFFECTS.get(event.get("effect"))
        if kind == "house_card_ability":
            f["effect_text"] = pair[1 if zh else 0].format(**f) if pair else str(event.get("effect"))
    if kind == "westeros_choice":
        f["option"] = str(event.get("option"))
    try:
        return tpl[1 if zh else 0].format(**f)
    except (KeyError, IndexError):  # pragma: no cover - a template bug
        return kind


Describer = Callable[[dict[str, Any], str], str]
