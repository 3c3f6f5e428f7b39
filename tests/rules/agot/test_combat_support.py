"""寻求支援 / Call for Support: the rulebook's support example and each support restriction."""

import pytest

from game.rules.base import IllegalAction

from .combat_util import act, decide, events, fight, finish, march, pending, position, support

TRACKS = {
    "iron_throne": ["lannister", "baratheon", "tyrell", "stark", "martell", "greyjoy"],
    "fiefdoms": ["greyjoy", "martell", "stark", "tyrell", "lannister", "baratheon"],
}


def support_example():
    """支援示例: Tyrell (2 knights, March +1) from The Reach into Blackwater (1 Lannister footman,
    March -1 order). Support: King's Landing (Tyrell knight), Stoney Sept (Lannister footman +
    knight), Harrenhal (Baratheon knight)."""
    s = position(
        units={
            "the-reach": {"house": "tyrell", "units": ["knight", "knight"]},
            "blackwater": {"house": "lannister", "units": ["footman"]},
            "kings-landing": {"house": "tyrell", "units": ["knight"]},
            "stoney-sept": {"house": "lannister", "units": ["footman", "knight"]},
            "harrenhal": {"house": "baratheon", "units": ["knight"]},
        },
        orders={"the-reach": "march-plus-one", "blackwater": "march-minus-one", "kings-landing": "support",
                "stoney-sept": "support", "harrenhal": "support"},
        tracks=TRACKS,
        first="tyrell",
    )
    return march(s, "tyrell", "the-reach", "blackwater", ["knight", "knight"])


def test_rulebook_support_example_tyrell_7_lannister_6():
    s = support_example()
    # declared in turn order: Lannister, then Baratheon, then Tyrell
    d = decide(s, "lannister", "support_combat")
    assert d.options["from"] == "stoney-sept" and d.options["options"] == ["defender", "none"]
    assert d.options["strength"] == {"defender": 3}
    s = support(s, "lannister", "defender")
    d = decide(s, "baratheon", "support_combat")
    assert d.options["options"] == ["attacker", "defender", "none"]
    s = support(s, "baratheon", "defender")
    d = decide(s, "tyrell", "support_combat")
    assert d.options["options"] == ["attacker", "none"]
    s = support(s, "tyrell", "attacker")
    assert fight(s)["base"] == {"tyrell": 7, "lannister": 6}
    assert [e["side"] for e in events(s, "combat_support")] == ["defender", "defender", "attacker"]
    assert {d.kind for d in pending(s)} == {"choose_house_card"}


def test_own_fight_cannot_support_enemy():
    s = support_example()
    with pytest.raises(IllegalAction) as e:
        support(s, "lannister", "attacker")
    assert e.value.code == "choose.bad_option"


def test_attacker_and_defender_may_decline_own_support():
    s = support_example()
    s = support(s, "lannister", "none")
    s = support(s, "baratheon", "none")
    s = support(s, "tyrell", "none")
    assert fight(s)["base"] == {"tyrell": 5, "lannister": 1}


def test_support_plus_one_adds_a_star():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["footman"]},
               "kings-landing": {"house": "tyrell", "units": ["knight"]}},
        orders={"the-reach": "march", "kings-landing": "support-plus-one"},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    assert decide(s, "tyrell", "support_combat").options["strength"] == {"attacker": 3}
    s = support(s, "tyrell", "attacker")
    assert fight(s)["base"] == {"tyrell": 4, "lannister": 1}


def test_ships_support_land_and_land_never_supports_sea():
    # Tyrell ship in Blackwater Bay supports an attack on Kingswood (land)
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "kingswood": {"house": "baratheon", "units": ["footman"]},
               "blackwater-bay": {"house": "tyrell", "units": ["ship"]}},
        orders={"the-reach": "march", "blackwater-bay": "support"},
    )
    s = march(s, "tyrell", "the-reach", "kingswood", ["footman"])
    assert decide(s, "tyrell", "support_combat").options["strength"] == {"attacker": 1}
    # a sea fight: Shipbreaker Bay attacked; Kingswood's knight (land) cannot support, Storm's End port ship can't either? (it can: port's sea)
    s = position(
        units={"blackwater-bay": {"house": "tyrell", "units": ["ship"]}, "shipbreaker-bay": {"house": "baratheon", "units": ["ship"]},
               "kingswood": {"house": "baratheon", "units": ["knight"]}, "port-of-storms-end": {"house": "baratheon", "units": ["ship"]},
               "storms-end": {"house": "baratheon", "units": ["footman"]}},
        orders={"blackwater-bay": "march", "kingswood": "support", "port-of-storms-end": "support", "storms-end": "support"},
    )
    s = march(s, "tyrell", "blackwater-bay", "shipbreaker-bay", ["ship"])
    ds = pending(s, "baratheon", "support_combat")
    assert [d.options["from"] for d in ds] == ["port-of-storms-end"]


def test_port_ships_never_support_land():
    s = position(
        units={"kingswood": {"house": "tyrell", "units": ["footman"]}, "storms-end": {"house": "baratheon", "units": ["footman"]},
               "port-of-storms-end": {"house": "baratheon", "units": ["ship"]}},
        orders={"kingswood": "march", "port-of-storms-end": "support"},
    )
    s = march(s, "tyrell", "kingswood", "storms-end", ["footman"])
    assert pending(s, kind="support_combat") == []
    assert {d.kind for d in pending(s)} == {"choose_house_card"}


def test_no_support_over_ship_transport():
    # Winterfell is not adjacent to Castle Black's neighbour? use White Harbor -> Castle Black by sea: not adjacent
    s = position(
        units={"karhold": {"house": "stark", "units": ["footman"]}, "castle-black": {"house": "greyjoy", "units": ["footman"]},
               "widows-watch": {"house": "greyjoy", "units": ["knight"]}, "the-shivering-sea": {"house": "greyjoy", "units": ["ship"]}},
        orders={"karhold": "march", "widows-watch": "support"},
    )
    s = march(s, "stark", "karhold", "castle-black", ["footman"])
    assert pending(s, kind="support_combat") == []


def test_siege_engine_supports_only_an_attack_on_a_castle():
    unitsd = {"the-reach": {"house": "tyrell", "units": ["footman"]}, "kings-landing": {"house": "baratheon", "units": ["footman"]},
              "blackwater": {"house": "tyrell", "units": ["siege_engine"]}}
    s = position(units=unitsd, orders={"the-reach": "march", "blackwater": "support"})
    s = march(s, "tyrell", "the-reach", "kings-landing", ["footman"])
    assert decide(s, "tyrell", "support_combat").options["strength"] == {"attacker": 4}
    # supporting the defender of a castle: 0
    unitsd["blackwater"] = {"house": "martell", "units": ["siege_engine"]}
    s = position(units=unitsd, orders={"the-reach": "march", "blackwater": "support"})
    s = march(s, "tyrell", "the-reach", "kings-landing", ["footman"])
    assert decide(s, "martell", "support_combat").options["strength"] == {"attacker": 4, "defender": 0}
    # no castle: 0
    s = position(units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "baratheon", "units": ["footman"]},
                        "stoney-sept": {"house": "tyrell", "units": ["siege_engine"]}}, orders={"the-reach": "march", "stoney-sept": "support"})
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    assert decide(s, "tyrell", "support_combat").options["strength"] == {"attacker": 0}


def test_routed_supporters_add_nothing_but_the_star():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["footman"]},
               "kings-landing": {"house": "tyrell", "units": [{"type": "knight", "routed": True}]}},
        orders={"the-reach": "march", "kings-landing": "support-plus-one"},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    assert decide(s, "tyrell", "support_combat").options["strength"] == {"attacker": 1}


def test_support_order_stays_after_the_fight():
    s = support_example()
    for h, side in (("lannister", "defender"), ("baratheon", "none"), ("tyrell", "attacker")):
        s = support(s, h, side)
    s = act(s, "tyrell", {"type": "select_card", "card": "alester-florent"})
    s = act(s, "lannister", {"type": "select_card", "card": "cersei-lannister"})
    s = finish(s)
    assert fight(s) is None
    assert s.orders["kings-landing"] == ("tyrell", "support") and s.orders["stoney-sept"][1] == "support"
