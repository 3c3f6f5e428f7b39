"""计算战斗力 / Combat strength, part by part: ``view(...)["combat"]["parts"]``.

The combat panel shows each side's strength as a breakdown (units, order, each support, garrison,
house card, Blade, Tides of Battle) that sums to the total, and why a unit counts 0. These
scenarios build the position, play the combat step by step and check at every step that each
side's parts sum to the strength the engine uses (the base before the cards, the final strength
after), and that the parts say what they are.
"""

from __future__ import annotations

from game.rules.agot.combat import current, final_strength

from .combat_util import cards, events, fight, march, position, support


def _sums_hold(s):
    view = fight(s)
    if view is None:
        return None
    c = current(s)
    for h in (c.attacker, c.defender):
        assert sum(p["strength"] for p in view["parts"][h]) == final_strength(s, h), (h, view["parts"][h])
    return view


def test_parts_name_units_orders_supports_and_zero_units_and_sum_at_every_step():
    """Tyrell marches (March +1) with a siege engine, a knight and a footman into Blackwater (no
    castle: the siege engine counts 0); Lannister defends with a footman, a routed knight (0) and
    a Defense +1 order; Baratheon's Support from King's Landing backs Tyrell."""
    s = position(
        units={
            "the-reach": {"house": "tyrell", "units": ["siege_engine", "knight", "footman"]},
            "blackwater": {"house": "lannister", "units": ["footman", {"type": "knight", "routed": True}]},
            "kings-landing": {"house": "baratheon", "units": ["knight"]},
        },
        orders={"the-reach": "march-plus-one", "blackwater": "defense-plus-one", "kings-landing": "support"},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["siege_engine", "knight", "footman"])
    view = _sums_hold(s)
    assert view["parts"]["tyrell"]  # the attacker has parts before any support is declared
    s = support(s, "baratheon", "attacker")
    view = _sums_hold(s)
    ty = view["parts"]["tyrell"]
    siege = [p for p in ty if p["part"] == "unit" and p["unit"] == "siege_engine"]
    assert siege == [{"part": "unit", "unit": "siege_engine", "area": "the-reach", "strength": 0, "why_zero": "siege_no_castle"}]
    assert {"part": "order", "token": "march-plus-one", "strength": 1} in ty
    assert {"part": "support", "house": "baratheon", "area": "kings-landing", "strength": 2, "why_zero": None} in ty
    la = view["parts"]["lannister"]
    assert {"part": "unit", "unit": "knight", "area": "blackwater", "strength": 0, "why_zero": "routed"} in la
    assert {"part": "order", "token": "defense-plus-one", "strength": 1} in la
    assert sum(p["strength"] for p in ty) == view["base"]["tyrell"] == 6
    assert sum(p["strength"] for p in la) == view["base"]["lannister"] == 2
    # cards are not in the parts while face down
    s = cards(s, tyrell="randyll-tarly")
    view = _sums_hold(s)
    assert not any(p["part"] == "card" for side in view["parts"].values() for p in side)
    s = cards(s, lannister="the-hound")
    result = events(s, "combat_result")[-1]
    for h, total in result["strength"].items():
        assert sum(p["strength"] for p in result["parts"][h]) == total
    assert {"part": "card", "card": "randyll-tarly", "strength": 2} in result["parts"]["tyrell"]


def test_garrison_is_a_part_of_the_defender():
    s = position(units={"searoad-marches": {"house": "tyrell", "units": ["knight"]}, "lannisport": {"house": "lannister", "units": ["footman"]}},
                 orders={"searoad-marches": "march"})
    s = march(s, "tyrell", "searoad-marches", "lannisport", ["knight"])
    view = _sums_hold(s)
    assert {"part": "garrison", "strength": 2} in view["parts"]["lannister"]
    assert sum(p["strength"] for p in view["parts"]["lannister"]) == 3


def test_defending_siege_engine_says_why_it_counts_zero():
    s = position(units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "kings-landing": {"house": "baratheon", "units": ["siege_engine"]}},
                 orders={"the-reach": "march"})
    s = march(s, "tyrell", "the-reach", "kings-landing", ["footman"])
    view = _sums_hold(s)
    assert view["parts"]["baratheon"] == [{"part": "unit", "unit": "siege_engine", "area": "kings-landing", "strength": 0, "why_zero": "siege_defending"}]


def test_parts_after_the_result_keep_what_the_battle_was_fought_with():
    """6. 决定胜负 / Determine the victor, then 7. 战斗结算 / Combat resolution: Tyrell (knight,
    footman, March +1, Randyll Tarly: 2 and one sword) beats Lannister (two footmen, Defense +1,
    Ser Kevan: 1) in Blackwater, 6 to 4. The sword kills one footman and Lannister must choose
    where the other retreats. While that choice waits (and in the open view of a finished game
    alike), the parts shown beside the final strength still count the dead footman and the
    Defense order: every view's parts sum to the final strength it shows, and they are the parts
    the log's ``combat_result`` told."""
    from game.rules.agot import RULESET as R

    s = position(
        units={
            "the-reach": {"house": "tyrell", "units": ["knight", "footman"]},
            "blackwater": {"house": "lannister", "units": ["footman", "footman"]},
        },
        orders={"the-reach": "march-plus-one", "blackwater": "defense-plus-one"},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    s = cards(s, tyrell="randyll-tarly", lannister="ser-kevan-lannister")
    assert [d.kind for d in R.pending(s)] == ["retreat"]
    assert [t for (_h, t, _r) in s.units_of("blackwater")] == ["footman"]  # one footman died
    told = events(s, "combat_result")[-1]
    assert told["strength"] == {"tyrell": 6, "lannister": 4}
    for view in (R.view(s, None), R.view(s, "lannister"), R.open_view(s, "tyrell")):
        c = view["combat"]
        for h in ("tyrell", "lannister"):
            assert sum(p["strength"] for p in c["parts"][h]) == c["strength"][h], (h, c["parts"][h])
        assert c["parts"] == told["parts"]
    la = R.view(s, None)["combat"]["parts"]["lannister"]
    assert [p["unit"] for p in la if p["part"] == "unit"] == ["footman", "footman"]
    assert {"part": "order", "token": "defense-plus-one", "strength": 1} in la
