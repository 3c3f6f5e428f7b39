"""撤退和溃败示例 / The retreat and routing example: a routed knight adds nothing and is destroyed
when forced to retreat again."""

from .combat_util import cards, choose, events, fight, kill, march, pending, position, units


def test_rulebook_retreat_and_routing_example():
    s = position(
        units={"kings-landing": {"house": "baratheon", "units": ["knight", "knight"]},
               "kingswood": {"house": "tyrell", "units": ["knight", "footman"]},
               "storms-end": {"house": "tyrell", "units": ["footman"]},
               "the-boneway": {"house": "baratheon", "units": ["knight", "knight"]}},
        orders={"kings-landing": "march", "the-boneway": "march"},
    )
    # 1. Baratheon attacks the Kingswood and wins; Tyrell loses one unit (Brienne: one sword)
    s = march(s, "baratheon", "kings-landing", "kingswood", ["knight", "knight"])
    s = cards(s, baratheon="brienne-of-tarth", tyrell="randyll-tarly")
    assert events(s, "combat_result")[-1]["winner"] == "baratheon"
    s = kill(s, "tyrell", ("kingswood", "footman"))
    # the surviving knight retreats to Storm's End (another Tyrell footman there), routed
    d = pending(s, "tyrell", "retreat")[0]
    assert d.options["options"] == ["storms-end", "the-reach"]
    s = choose(s, "tyrell", "storms-end")
    assert units(s, "storms-end") == ["footman", "knight*"]
    assert fight(s) is None
    # 2. later, two Baratheon knights attack Storm's End from the Boneway: Tyrell's base is 1
    s = march(s, "baratheon", "the-boneway", "storms-end", ["knight", "knight"])
    assert fight(s)["base"] == {"baratheon": 4, "tyrell": 1}
    assert fight(s)["defending_units"] == ["footman"]
    s = cards(s, baratheon="melisandre", tyrell="alester-florent")
    # Tyrell loses: the routed knight cannot retreat and is destroyed; the footman retreats
    assert [e["unit"] for e in events(s, "unit_destroyed")] == ["knight"]
    assert units(s, "storms-end") == ["knight", "knight"]


def test_routed_units_stand_up_at_clean_up():
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman"]}, "kingswood": {"house": "baratheon", "units": ["knight"]}},
        orders={"kings-landing": "march"},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman"])
    s = cards(s, tyrell="alester-florent", baratheon="brienne-of-tarth")
    assert units(s, "kings-landing") == ["footman*"]
    from game.rules.agot.flow import run

    s = s.clone()
    s.tasks = (("cleanup",), ("halt",))
    run(s)
    assert units(s, "kings-landing") == ["footman"]
