"""港口 / Ports in combat: ships in a port give no strength to their land area, and 控制敌方港口:
taking the land area by combat replaces the enemy ships in its port."""

from .combat_util import cards, choose, events, fight, finish, march, pending, position, units


def attack_white_harbor(port_ships=2, **kw):
    s = position(
        units={"widows-watch": {"house": "baratheon", "units": ["knight", "knight"]},
               "white-harbor": {"house": "stark", "units": ["footman"]},
               "port-of-white-harbor": {"house": "stark", "units": ["ship"] * port_ships}},
        orders={"widows-watch": "march"}, **kw,
    )
    return march(s, "baratheon", "widows-watch", "white-harbor", ["knight", "knight"])


def test_port_ships_do_not_defend_their_land_area():
    s = attack_white_harbor()
    assert fight(s)["base"] == {"baratheon": 4, "stark": 1}


def test_taking_the_land_area_captures_the_port():
    s = attack_white_harbor()
    s = finish(cards(s, baratheon="brienne-of-tarth", stark="catelyn-stark"))
    d = pending(s, "baratheon", "choose")[0]  # 控制敌方港口: how many of its ships replace them
    assert d.options["purpose"] == "port_capture" and d.options["options"] == ["0", "1", "2"]
    s = choose(s, "baratheon", "2")
    assert units(s, "white-harbor") == ["knight", "knight"]
    assert units(s, "port-of-white-harbor") == ["ship", "ship"] and s.owner("port-of-white-harbor") == "baratheon"
    e = events(s, "port_captured")[-1]
    assert (e["taken"], e["removed"]) == (2, 0)


def test_port_capture_limited_by_supply():
    # Baratheon supply 0 (armies 2, 2): already an army of 2 elsewhere plus the 2 knights: only one ship fits
    s = attack_white_harbor(port_ships=2, supply={"baratheon": 0})
    s = s.clone()
    s.add_unit("dragonstone", "baratheon", "footman")
    s.add_unit("dragonstone", "baratheon", "footman")
    s = finish(cards(s, baratheon="brienne-of-tarth", stark="catelyn-stark"))
    assert pending(s, "baratheon", "choose")[0].options["options"] == ["0", "1"]
    s = choose(s, "baratheon", "1")
    e = events(s, "port_captured")[-1]
    assert (e["taken"], e["removed"]) == (1, 1)
    assert units(s, "port-of-white-harbor") == ["ship"]


def test_defender_keeps_its_port_when_it_wins():
    s = attack_white_harbor()
    s = cards(s, baratheon="melisandre", stark="eddard-stark")
    assert events(s, "combat_result")[-1]["winner"] == "stark"
    assert s.owner("port-of-white-harbor") == "stark"
