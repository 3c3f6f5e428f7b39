"""The plain-language log: every event kind has an English and a Chinese sentence."""

import json
from pathlib import Path

from game.rules.agot import RULESET as R
from game.rules.agot.log import TEMPLATES, describe
from game.rules.agot.scenario import build
from game.rules.agot.state import events

from .helpers import play_random

SCEN = Path(__file__).parent / "scenarios"


def _all_events():
    out = []
    for players, seed in [(3, 1), (6, 2), (5, 3)]:
        out += list(events(play_random(players, seed)))
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


def test_every_event_kind_is_described():
    seen = set()
    for e in _all_events():
        seen.add(e["kind"])
        en, zh = describe(e, "en"), describe(e, "zh-hans")
        assert en != e["kind"] and zh != e["kind"], e
        assert "{" not in en and "{" not in zh, e
    assert seen <= set(TEMPLATES)


def test_names_come_from_the_data():
    e = {"kind": "consolidate", "house": "baratheon", "area": "dragonstone", "gained": 2, "to": None, "round": 1}
    assert describe(e, "en") == "Baratheon consolidates power in Dragonstone: +2."
    assert describe(e, "zh-hans") == "拜拉席恩在龙石岛休整：获得2枚权力。"
