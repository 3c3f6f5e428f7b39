"""``view["recent"]``: what the latest action phase did to the board, for the map (game/rules/agot/recent.py).

Public information only (read from events told to everyone), the same for every viewer, from the
latest reveal of orders (or a scenario's start) on."""

from __future__ import annotations

import json

from game.rules.agot import RULESET as R
from game.rules.agot.scenario import build
from game.rules.agot.selfplay import play_game

from .combat_util import act, cards, choose, march

BATTLE = {
    "players": 3, "board": "empty", "start": "marches", "turn": "lannister",
    "units": {"seagard": {"house": "lannister", "units": ["knight", "knight", "footman"]},
              "the-twins": {"house": "stark", "units": ["knight", "footman"]},
              "winterfell": {"house": "stark", "units": ["footman"]},
              "riverrun": {"house": "lannister", "units": ["footman"]},
              "dragonstone": {"house": "baratheon", "units": ["footman"]}},
    "orders": {"seagard": "march", "the-twins": "defense-plus-one", "riverrun": "march",
               "winterfell": "consolidate-power", "dragonstone": "consolidate-power"},
    "tracks": {"fiefdoms": ["lannister", "stark", "baratheon"], "iron_throne": ["lannister", "stark", "baratheon"]},
}


def marks(s, viewer=None):
    return R.view(s, viewer)["recent"]["marks"]


def test_nothing_before_the_first_orders_are_revealed():
    s = R.new_game(3, 1, {})
    assert R.view(s, None)["recent"] is None
    assert R.view(s, "stark")["recent"] is None


def test_a_march_into_battle_its_winner_and_the_retreat():
    s = build(BATTLE)
    assert marks(s) == []
    s = march(s, "lannister", "seagard", "the-twins", ["knight", "knight", "footman"])
    (m,) = marks(s)
    assert sorted(m.pop("units")) == ["footman", "knight", "knight"]
    assert m == {"k": "march", "h": "lannister", "from": "seagard", "to": "the-twins", "attack": True}
    s = cards(s, lannister="ser-gregor-clegane", stark="eddard-stark")
    # the rest of the battle (the Blade, casualties, the retreat) as the basic bot answers it
    n = 0
    while "combat" in R.view(s, None):
        d = R.pending(s)[0]
        s = R.apply(s, d.actor, R.bot_action(s, d.actor, "basic", n))
        n += 1
    got = marks(s)
    battle = [m for m in got if m["k"] == "battle"]
    assert battle == [{"k": "battle", "area": "the-twins", "attacker": "lannister", "defender": "stark",
                       "winner": battle[0]["winner"]}]
    assert battle[0]["winner"] in ("lannister", "stark")
    # a plain march afterwards is an arrow too; every viewer, spectators included, gets the same
    if any(d.kind == "march" and d.actor == "lannister" for d in R.pending(s)):
        s = march(s, "lannister", "riverrun", "lannisport", ["footman"])
        assert {"k": "march", "h": "lannister", "from": "riverrun", "to": "lannisport", "units": ["footman"]} in marks(s)
    assert marks(s, None) == marks(s, "stark") == marks(s, "lannister") == marks(s, "baratheon")


def test_a_raid_and_the_order_it_removed():
    s = build({"players": 3, "board": "empty", "start": "action",
               "units": {"stoney-sept": {"house": "lannister", "units": ["footman"]},
                         "blackwater": {"house": "baratheon", "units": ["footman"]},
                         "harrenhal": {"house": "baratheon", "units": ["footman"]},
                         "winterfell": {"house": "stark", "units": ["footman"]}},
               "orders": {"stoney-sept": "raid", "blackwater": "consolidate-power", "harrenhal": "raid", "winterfell": "support"},
               "tracks": {"iron_throne": ["lannister", "baratheon", "stark"]}})
    d = next(d for d in R.pending(s) if d.kind == "raid")
    assert d.actor == "lannister" and "blackwater" in d.options["raids"]["stoney-sept"]
    s = act(s, "lannister", {"type": "raid", "area": "stoney-sept", "target": "blackwater"})
    assert marks(s) == [{"k": "raid", "h": "lannister", "from": "stoney-sept", "to": "blackwater", "token": "consolidate-power"}]
    # Baratheon's Raid in Harrenhal, left without a target it wants, changes nothing on the board
    s = act(s, "baratheon", {"type": "raid", "area": "harrenhal", "target": None})
    assert len(marks(s)) == 1


def test_a_muster_in_the_westeros_phase():
    s = build({"players": 3, "start": "mustering"})
    d = next(d for d in R.pending(s) if d.kind == "muster")
    s = act(s, d.actor, {"type": "muster", "recruits": [{"area": "dragonstone", "unit": "knight"}]})
    assert {"k": "muster", "h": "baratheon", "area": "dragonstone", "unit": "knight", "from": "dragonstone"} in marks(s)


def test_a_whole_game_same_for_all_small_and_reset_at_each_reveal():
    g = play_game(4, 11, bots="basic", max_actions=400)
    s = R.new_game(4, 11, {})
    largest = 0
    for a in g["log"]:
        s = R.apply(s, a["actor"], a["action"])
        views = [R.view(s, v)["recent"] for v in (None, *s.houses)]
        assert all(v == views[0] for v in views)
        last = next(e for e in reversed(list(R.view(s, None)["events"])))
        if last["kind"] == "orders_revealed":
            assert views[0] == {"round": s.round, "marks": []}
        if views[0]:
            largest = max(largest, len(json.dumps(views[0], separators=(",", ":"))))
            for m in views[0]["marks"]:
                assert m["k"] in ("march", "battle", "retreat", "raid", "removed", "muster")
    assert 0 < largest < 4000
