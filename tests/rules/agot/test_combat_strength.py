"""计算基础战力 / Base combat strength and 计算最终战斗力 / final strength."""

from .combat_util import cards, events, fight, march, position


def base(units, orders, mover, origin, to, moving, **kw):
    s = position(units=units, orders=orders, **kw)
    s = march(s, mover, origin, to, moving)
    return s, fight(s)["base"]


def test_units_footman_1_knight_2_ship_1():
    _, b = base({"the-reach": {"house": "tyrell", "units": ["footman", "knight"]}, "blackwater": {"house": "lannister", "units": ["knight", "footman", "footman"]}},
                {"the-reach": "march"}, "tyrell", "the-reach", "blackwater", ["footman", "knight"])
    assert b == {"tyrell": 3, "lannister": 4}
    _, b = base({"blackwater-bay": {"house": "tyrell", "units": ["ship", "ship"]}, "shipbreaker-bay": {"house": "baratheon", "units": ["ship"]}},
                {"blackwater-bay": "march"}, "tyrell", "blackwater-bay", "shipbreaker-bay", ["ship", "ship"])
    assert b == {"tyrell": 2, "baratheon": 1}


def test_march_order_modifier_counts_for_the_attacker():
    _, b = base({"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman"]}},
                {"the-reach": "march-minus-one"}, "tyrell", "the-reach", "blackwater", ["knight"])
    assert b == {"tyrell": 1, "lannister": 1}
    _, b = base({"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman"]}},
                {"the-reach": "march-plus-one"}, "tyrell", "the-reach", "blackwater", ["knight"])
    assert b == {"tyrell": 3, "lannister": 1}


def test_defense_order_counts_for_the_defender_only():
    _, b = base({"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman"]}},
                {"the-reach": "march", "blackwater": "defense-plus-two"}, "tyrell", "the-reach", "blackwater", ["knight"])
    assert b == {"tyrell": 2, "lannister": 3}


def test_siege_engine_4_against_a_castle_else_0():
    _, b = base({"the-reach": {"house": "tyrell", "units": ["siege_engine", "footman"]}, "kings-landing": {"house": "baratheon", "units": ["footman"]}},
                {"the-reach": "march"}, "tyrell", "the-reach", "kings-landing", ["siege_engine", "footman"])
    assert b == {"tyrell": 5, "baratheon": 1}
    _, b = base({"the-reach": {"house": "tyrell", "units": ["siege_engine", "footman"]}, "blackwater": {"house": "baratheon", "units": ["footman"]}},
                {"the-reach": "march"}, "tyrell", "the-reach", "blackwater", ["siege_engine", "footman"])
    assert b == {"tyrell": 1, "baratheon": 1}
    # a defending siege engine adds nothing
    _, b = base({"the-reach": {"house": "tyrell", "units": ["footman"]}, "kings-landing": {"house": "baratheon", "units": ["siege_engine"]}},
                {"the-reach": "march"}, "tyrell", "the-reach", "kings-landing", ["footman"])
    assert b == {"tyrell": 1, "baratheon": 0}


def test_routed_defenders_have_no_strength():
    _, b = base({"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["footman", {"type": "knight", "routed": True}]}},
                {"the-reach": "march"}, "tyrell", "the-reach", "blackwater", ["footman"])
    assert b == {"tyrell": 1, "lannister": 1}


def test_home_garrison_adds_to_the_defender():
    _, b = base({"searoad-marches": {"house": "tyrell", "units": ["knight"]}, "lannisport": {"house": "lannister", "units": ["footman"]}},
                {"searoad-marches": "march"}, "tyrell", "searoad-marches", "lannisport", ["knight"])
    assert b == {"tyrell": 2, "lannister": 3}


def test_final_strength_adds_the_printed_card():
    s = position(units={"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman"]}},
                 orders={"the-reach": "march"})
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight"])
    s = cards(s, tyrell="randyll-tarly", lannister="the-hound")
    assert events(s, "combat_result")[-1]["strength"] == {"tyrell": 4, "lannister": 3}
