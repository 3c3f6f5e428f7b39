"""撤退和溃败 / Retreat: the attacker goes back to its origin; the defender to one legal area."""

import pytest

from game.rules.base import IllegalAction

from .combat_util import act, cards, choose, events, fight, kill, march, pending, position, units

BASE = {
    "lannisport": {"house": "lannister", "units": ["knight", "knight"]},
    "riverrun": {"house": "stark", "units": ["footman", "footman"]},
}


def stark_loses(extra=None, defenders=None, stark_card="catelyn-stark", **kw):
    u = dict(BASE)
    if defenders:
        u["riverrun"] = {"house": "stark", "units": defenders}
    u.update(extra or {})
    s = position(units=u, orders={"lannisport": "march"}, **kw)
    s = march(s, "lannister", "lannisport", "riverrun", ["knight", "knight"])
    return cards(s, lannister="tywin-lannister", stark=stark_card)


def test_defender_retreat_options_exclude_origin_enemy_areas_and_power_tokens():
    # Harrenhal: enemy units; Stoney Sept: an enemy power token; Lannisport: the attacker's origin
    s = stark_loses(extra={"harrenhal": {"house": "baratheon", "units": ["footman"]}}, power_tokens={"stoney-sept": "lannister"})
    # only Seagard is left: the retreat happens without a decision
    assert pending(s, "stark", "retreat") == []
    assert units(s, "seagard") == ["footman*", "footman*"]
    e = events(s, "retreat")[-1]
    assert (e["house"], e["area"], e["dest"]) == ("stark", "riverrun", "seagard")


def test_defender_chooses_among_legal_areas_including_ship_transport():
    s = stark_loses(extra={"ironmans-bay": {"house": "stark", "units": ["ship"]}, "harrenhal": {"house": "stark", "units": ["footman"]}})
    d = pending(s, "stark", "retreat")[0]
    # adjacent: harrenhal (own), seagard, stoney-sept; by transport over Ironman's Bay: flints-finger,
    # greywater-watch (Pyke is Greyjoy's home: not empty); never Lannisport (the attacker's origin)
    assert d.options["options"] == ["flints-finger", "greywater-watch", "harrenhal", "seagard", "stoney-sept"]
    assert d.options["units"] == ["footman", "footman"]
    with pytest.raises(IllegalAction) as e:
        choose(s, "stark", "lannisport")
    assert e.value.code == "choose.bad_option"
    s = choose(s, "stark", "greywater-watch")
    assert units(s, "greywater-watch") == ["footman*", "footman*"]
    assert fight(s) is None and units(s, "riverrun") == ["knight", "knight"]


def test_an_area_over_supply_is_refused_while_another_is_legal():
    # Stark supply 0 (armies 2, 2) with an army of 2 in Seagard: 2 more into Harrenhal (1 footman)
    # would break the limit; Stoney Sept is free, so it is the only choice
    s = stark_loses(extra={"harrenhal": {"house": "stark", "units": ["footman"]}, "seagard": {"house": "stark", "units": ["footman", "footman"]}},
                    supply={"stark": 0})
    assert units(s, "stoney-sept") == ["footman*", "footman*"] and units(s, "harrenhal") == ["footman"]


def test_only_areas_over_supply_cost_units_first():
    # the same, with Stoney Sept holding a Lannister power token: Harrenhal costs one unit (Seagard
    # would cost both): one footman is destroyed, the other retreats
    s = stark_loses(extra={"harrenhal": {"house": "stark", "units": ["footman"]}, "seagard": {"house": "stark", "units": ["footman", "footman"]},
                           "flints-finger": {"house": "greyjoy", "units": ["footman"]}},
                    supply={"stark": 0}, power_tokens={"stoney-sept": "lannister"})
    assert units(s, "harrenhal") == ["footman", "footman*"]
    assert events(s, "casualties")[-1]["source"] == "supply"


def test_no_legal_area_destroys_the_retreating_units():
    s = stark_loses(extra={"harrenhal": {"house": "baratheon", "units": ["footman"]}, "seagard": {"house": "greyjoy", "units": ["footman"]},
                           "stoney-sept": {"house": "tyrell", "units": ["footman"]}})
    assert events(s, "retreat_impossible")[-1]["units"] == ["footman", "footman"]
    assert units(s, "riverrun") == ["knight", "knight"]


def test_siege_engines_are_destroyed_instead_of_retreating():
    s = stark_loses(defenders=["footman", "siege_engine"], stark_card="catelyn-stark",
                    extra={"harrenhal": {"house": "baratheon", "units": ["footman"]}}, power_tokens={"stoney-sept": "lannister"})
    assert [e["unit"] for e in events(s, "unit_destroyed")] == ["siege_engine"]
    assert units(s, "seagard") == ["footman*"]


def test_attacker_retreats_to_its_origin_routed_and_loses_siege_engines():
    s = position(units={"lannisport": {"house": "lannister", "units": ["footman", "siege_engine"]},
                        "stoney-sept": {"house": "stark", "units": ["knight", "knight"]}},
                 orders={"lannisport": "march"})
    s = march(s, "lannister", "lannisport", "stoney-sept", ["footman", "siege_engine"])
    s = cards(s, lannister="cersei-lannister", stark="catelyn-stark")
    assert units(s, "lannisport") == ["footman*"]
    assert events(s, "unit_destroyed")[-1]["unit"] == "siege_engine"


def test_ships_retreat_to_a_sea_or_own_port():
    s = position(units={"the-golden-sound": {"house": "lannister", "units": ["ship", "ship"]},
                        "ironmans-bay": {"house": "greyjoy", "units": ["ship"]},
                        "pyke": {"house": "greyjoy", "units": ["footman"]}},
                 orders={"the-golden-sound": "march"})
    s = march(s, "lannister", "the-golden-sound", "ironmans-bay", ["ship", "ship"])
    s = cards(s, lannister="tywin-lannister", greyjoy="dagmar-cleftjaw")
    s = choose(s, "greyjoy", "pass")  # Greyjoy holds the Blade
    d = pending(s, "greyjoy", "retreat")[0]
    # never the attacker's origin (The Golden Sound), never land (Pyke, Riverrun...)
    assert d.options["options"] == ["port-of-pyke", "sunset-sea"]
    s = choose(s, "greyjoy", "port-of-pyke")
    assert units(s, "port-of-pyke") == ["ship*"]


def test_attacker_over_supply_after_retreat_destroys_retreating_units():
    # Lannister supply 1 (armies 3, 2): Lannisport 3, Searoad Marches 2, Stoney Sept 1. The March
    # sends a footman to Stoney Sept (now 2) and the knight to attack; beaten, the knight comes back
    # to Lannisport (2): three armies of 2 > the limit, so the retreating knight is destroyed.
    s = position(units={"lannisport": {"house": "lannister", "units": ["footman", "footman", "knight"]},
                        "stoney-sept": {"house": "lannister", "units": ["footman"]},
                        "searoad-marches": {"house": "lannister", "units": ["footman", "footman"]},
                        "riverrun": {"house": "stark", "units": ["knight", "knight"]}},
                 orders={"lannisport": "march"}, supply={"lannister": 1})
    s = act(s, "lannister", {"type": "march", "area": "lannisport", "moves": [{"to": "stoney-sept", "units": ["footman"]}, {"to": "riverrun", "units": ["knight"]}]})
    s = cards(s, lannister="cersei-lannister", stark="catelyn-stark")
    assert events(s, "casualties")[-1]["source"] == "supply"
    assert units(s, "lannisport") == ["footman"]


def test_attacker_over_supply_chooses_which_retreating_unit_dies():
    # supply 4 (armies 3, 3, 2, 2): two armies of 3 and one of 2 elsewhere; 2 of Lannisport's 3
    # attack; coming back makes a third army of 3: one retreating unit (Lannister's choice) dies
    s = position(units={"lannisport": {"house": "lannister", "units": ["footman", "footman", "knight"]},
                        "stoney-sept": {"house": "lannister", "units": ["footman", "footman"]},
                        "searoad-marches": {"house": "lannister", "units": ["footman", "footman", "footman"]},
                        "harrenhal": {"house": "lannister", "units": ["footman", "footman", "footman"]},
                        "riverrun": {"house": "stark", "units": ["knight", "knight", "knight"]}},
                 orders={"lannisport": "march"}, supply={"lannister": 4})
    s = march(s, "lannister", "lannisport", "riverrun", ["knight", "footman"])
    s = cards(s, lannister="cersei-lannister", stark="catelyn-stark")
    d = pending(s, "lannister", "casualties")[0]
    assert d.options["purpose"] == "combat_supply" and d.options["count"] == 1
    assert sorted(map(tuple, d.options["units"])) == [("lannisport", "footman"), ("lannisport", "knight")]
    s = kill(s, "lannister", ("lannisport", "knight"))
    assert units(s, "lannisport") == ["footman", "footman*"]
