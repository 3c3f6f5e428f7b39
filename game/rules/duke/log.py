"""The Duke's game log in plain language: one sentence per event, English or simplified Chinese.

``describe(event, lang)`` tells one event of ``view(...)["events"]`` (shapes in ``docs/duke.md``,
"Views"); it reads only the event, so a viewer's redacted view is told as it is (the Oracle's
drawn and returned tiles appear only when the view carries them). ``lang`` is ``"en"`` or
``"zh-hans"`` (anything else: English). An unknown event kind is told by its kind: a new engine
event never breaks the log. Names: seats from :meth:`DukeRuleset.seat_names`, tiles from the tile
data, terms from the rulebook's Chinese forum translation (``docs/duke.md``).
"""

from __future__ import annotations

from typing import Any

from .tiles import TILES

__all__ = ["describe", "REASONS"]

_SEATS = {"en": {"light": "Light", "dark": "Dark"}, "zh-hans": {"light": "浅色方", "dark": "深色方"}}

#: game-end reasons (``result["reason"]``) in words
REASONS = {
    "en": {
        "duke_captured": "the Duke was captured",
        "duke_lost_to_dragon": "the Dragon took a Duke",
        "both_dukes_lost": "the Dragon took both Dukes",
        "checkmate": "no legal action while in Guard",
        "no_legal_action": "no legal action",
        "no_progress": "100 turns without a capture or a new tile",
        "agreed_end": "the players agreed to end the game",
    },
    "zh-hans": {
        "duke_captured": "公爵被俘获",
        "duke_lost_to_dragon": "巨龙吞掉了一位公爵",
        "both_dukes_lost": "巨龙吞掉了双方的公爵",
        "checkmate": "处于警戒时无合法行动",
        "no_legal_action": "无合法行动",
        "no_progress": "连续 100 回合无俘获也无新棋子",
        "agreed_end": "双方同意提前结束",
    },
}

_TEXT = {
    "en": {
        "first_player": "{seat} goes first.",
        "setup": "{seat} sets up: Duke on {duke}, Footmen on {footmen}.",
        "mountain": "The Mountain stands on {square}.",
        "dragon": "The Dragon starts on {square}.",
        "move": "{seat} moves {frm} → {to}.",
        "strike": "{seat} strikes {target} from {frm}.",
        "command": "{seat}: the tile on {frm} commands {piece} → {to}.",
        "capture": "{by} captures {owner}'s {tile} on {square}.",
        "capture_dragon": "The Dragon captures {owner}'s {tile} on {square}.",
        "draw": "{seat} draws the {tile}.",
        "place": "{seat} places the {tile} on {square}.",
        "summon": "{seat} summons the Duchess from {frm} to {to}.",
        "divine": "{seat} uses Divination and draws {count} tiles.",
        "divine_choose": "{seat} keeps the {tile} on {square}.",
        "destroyed": " Destroyed: {tiles}.",
        "returned": " {n} back to the bag.",
        "dragon_pushed": "{seat} pushes the Dragon to {to}.",
        "dragon_enraged": "{seat} pushes the Dragon to {to}; it is enraged.",
        "dragon_move": "The Dragon moves to {to}.",
        "dragon_strike": "The Dragon strikes {squares}.",
        "dragon_calm": "The Dragon calms down.",
        "guard": "{seat}: Guard! {other}'s Duke can be captured.",
        "game_over": "Game over: {winner} wins ({reason}).",
        "game_over_draw": "Game over: a draw ({reason}).",
        "and": ", ",
    },
    "zh-hans": {
        "first_player": "{seat}先行。",
        "setup": "{seat}布置棋子：公爵在 {duke}，侍卫在 {footmen}。",
        "mountain": "山峦位于 {square}。",
        "dragon": "巨龙从 {square} 开始。",
        "move": "{seat}移动 {frm} → {to}。",
        "strike": "{seat}从 {frm} 攻击 {target}。",
        "command": "{seat}：{frm} 的棋子命令 {piece} → {to}。",
        "capture": "{by}俘获了{owner}在 {square} 的{tile}。",
        "capture_dragon": "巨龙俘获了{owner}在 {square} 的{tile}。",
        "draw": "{seat}抽到了{tile}。",
        "place": "{seat}把{tile}放在 {square}。",
        "summon": "{seat}将公爵夫人从 {frm} 召唤到 {to}。",
        "divine": "{seat}使用预言，抽取了 {count} 枚棋子。",
        "divine_choose": "{seat}保留{tile}，放在 {square}。",
        "destroyed": "摧毁：{tiles}。",
        "returned": "{n} 枚放回袋中。",
        "dragon_pushed": "{seat}把巨龙推到 {to}。",
        "dragon_enraged": "{seat}把巨龙推到 {to}，巨龙被激怒。",
        "dragon_move": "巨龙移动到 {to}。",
        "dragon_strike": "巨龙攻击 {squares}。",
        "dragon_calm": "巨龙平静下来。",
        "guard": "{seat}：警戒！{other}的公爵可被俘获。",
        "game_over": "游戏结束：{winner}获胜（{reason}）。",
        "game_over_draw": "游戏结束：平局（{reason}）。",
        "and": "、",
    },
}


def _lang(lang: str | None) -> str:
    return "zh-hans" if (lang or "").lower().startswith("zh") else "en"


def describe(event: dict[str, Any], lang: str = "en") -> str:
    """One sentence for ``event`` in ``lang`` (``"en"`` or ``"zh-hans"``)."""
    key = _lang(lang)
    t = _TEXT[key]
    seats = _SEATS[key]

    def seat(s: Any) -> str:
        return seats.get(s, str(s or ""))

    def tile(kind: Any) -> str:
        spec = TILES.get(kind)
        return spec.names.get(key, kind) if spec else str(kind)

    kind = event.get("type", "?")
    e = {k: v for k, v in event.items() if isinstance(v, (str, int)) and not isinstance(v, bool)}
    e["seat"] = seat(event.get("seat"))
    try:
        if kind == "setup":
            return t["setup"].format(**{**e, "footmen": t["and"].join(event.get("footmen", []))})
        if kind == "capture":
            fields = {**e, "owner": seat(event.get("owner")), "tile": tile(event.get("kind"))}
            if event.get("by") == "dragon":
                return t["capture_dragon"].format(**fields)
            return t["capture"].format(**{**fields, "by": seat(event.get("by"))})
        if kind in ("draw", "place", "divine_choose"):
            out = t[kind].format(**{**e, "tile": tile(event.get("kind"))})
            if kind == "divine_choose":
                if event.get("destroyed"):
                    out += t["destroyed"].format(tiles=t["and"].join(tile(k) for k in event["destroyed"]))
                if event.get("returned_count"):
                    out += t["returned"].format(n=event["returned_count"])
            return out
        if kind == "dragon_pushed":
            return t["dragon_enraged" if event.get("enraged") else "dragon_pushed"].format(**e)
        if kind == "dragon_strike":
            return t["dragon_strike"].format(squares=t["and"].join(event.get("squares", [])))
        if kind == "guard":
            other = "dark" if event.get("seat") == "light" else "light"
            return t["guard"].format(**{**e, "other": seat(other)})
        if kind == "game_over":
            reason = REASONS[key].get(event.get("reason"), str(event.get("reason")))
            if event.get("winner"):
                return t["game_over"].format(winner=seat(event["winner"]), reason=reason)
            return t["game_over_draw"].format(reason=reason)
        if kind in t:
            return t[kind].format(**e)
    except (KeyError, IndexError, ValueError):
        pass
    return str(kind)
