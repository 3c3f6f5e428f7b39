"""The 1st edition's events are told in plain English and Chinese with the 1st edition's names
(its areas, cards and houses), never raw ids: the engine side of the game log
(game/rules/agot/log.py; the live layer passes the ruleset, game/live/gamelog.py)."""

import json
import re
from pathlib import Path

from game.rules.agot import RULESET_1E as R
from game.rules.agot.log import TEMPLATES, areas, describe
from game.rules.agot.scenario import build
from game.rules.agot.selfplay import game_seed, play_game
from game.rules.agot.state import events

SCEN = Path(__file__).parent / "scenarios"
RAW = re.compile(r"\b[a-z]+(?:[-_][a-z]+)+\b|\bNone\b|[{}]")


def _events():
    out = []
    for i, players in enumerate((3, 4, 5)):
        last = {}
        play_game(players, game_seed(44, i), "mixed", on_state=lambda b, a, act, after: last.update(s=after), index=i, ruleset="agot1")
        out += list(events(last["s"]))
    for p in sorted(SCEN.glob("*.json")):
        sc = json.loads(p.read_text(encoding="utf-8"))
        s = build(sc)
        for house, data in sc.get("steps", []):
            try:
                s = R.apply(s, house, data)
            except Exception:
                break
        out += list(events(s))
    return out


def test_every_event_is_told_in_both_languages_without_ids():
    seen = set()
    problems = []
    for e in _events():
        if e["kind"] == "scenario_start":  # a test's own line (the scenario's file name)
            continue
        seen.add(e["kind"])
        for lang in ("en", "zh-hans"):
            text = describe(e, lang, "agot1")
            if text == e["kind"] or RAW.search(text):
                problems.append(f"{lang}: {text}")
            if lang == "zh-hans" and re.search(r"[A-Za-z]{3,}", re.sub(r"(?<![A-Za-z])I{1,3}(?![A-Za-z])", "", text)):  # deck numerals stay
                problems.append(f"English in Chinese: {text}")
    assert not problems, "\n".join(sorted(set(problems))[:30])
    assert seen <= set(TEMPLATES)
    assert {"wildlings_result", "footmen_no_support", "routed_stand_up", "raid", "pillage", "combat_result"} <= seen


def test_the_1st_editions_names():
    """A card or area only the 1st edition has is named from its data (the 2nd edition's board
    would leave the id)."""
    ev = {"kind": "house_cards_revealed", "round": 2, "to": None, "area": "summer-sea", "cards": {"stark": "lord-mormont", "greyjoy": "blacktyde-captain"}}
    en, zh = describe(ev, "en", "agot1"), describe(ev, "zh-hans", "agot1")
    assert "Lord Mormont" in en and "Blacktyde Captain" in en and "莫尔蒙伯爵" in zh and "布莱克泰德船长" in zh
    march = {"kind": "march", "round": 3, "to": None, "house": "greyjoy", "area": "sunset-sea", "moves": {"summer-sea": ["ship"]}}
    assert "Summer Sea" in describe(march, "en", "agot1") and areas(march, "agot1") == ["sunset-sea", "summer-sea"]


def test_shared_win_and_eight_castles():
    shared = {"kind": "game_over", "round": 10, "to": None, "winner": None, "winners": ["lannister", "stark"], "reason": "shared"}
    assert "share the win" in describe(shared, "en", "agot1") and "共同获胜" in describe(shared, "zh-hans", "agot1")
    eight = {"kind": "game_over", "round": 6, "to": None, "winner": "stark", "reason": "eight_castles"}
    assert "eight castles" in describe(eight, "en", "agot1") and "八座城堡" in describe(eight, "zh-hans", "agot1")
