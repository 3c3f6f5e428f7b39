"""主城守备军 / Garrisons: add to the defence of their home, defend alone, leave the game when defeated."""

from .combat_util import cards, events, fight, finish, march, position, units


def attack_lannisport(defenders, lannister_card, tyrell_card="ser-garlan-tyrell"):
    u = {"searoad-marches": {"house": "tyrell", "units": ["knight", "knight"]}}
    if defenders:
        u["lannisport"] = {"house": "lannister", "units": defenders}
    s = position(units=u, orders={"searoad-marches": "march"})
    s = march(s, "tyrell", "searoad-marches", "lannisport", ["knight", "knight"])
    return finish(cards(s, tyrell=tyrell_card, lannister=lannister_card))


def test_garrison_alone_defends_and_is_destroyed_when_beaten():
    s = attack_lannisport([], "cersei-lannister")
    res = events(s, "combat_result")[-1]
    assert res["strength"] == {"tyrell": 6, "lannister": 2} and res["winner"] == "tyrell"
    assert "lannisport" not in s.garrisons
    assert units(s, "lannisport") == ["knight", "knight"]


def test_garrison_with_units_destroyed_when_defender_loses_even_without_swords():
    s = attack_lannisport(["footman"], "cersei-lannister", tyrell_card="margaery-tyrell")
    assert "lannisport" not in s.garrisons
    assert events(s, "garrison_destroyed")[-1]["area"] == "lannisport"


def test_garrison_stays_when_defender_wins():
    s = attack_lannisport(["knight"], "ser-gregor-clegane", tyrell_card="margaery-tyrell")
    assert events(s, "combat_result")[-1]["winner"] == "lannister"
    assert s.garrisons["lannisport"] == ("lannister", 2)


def test_garrison_only_counts_for_its_own_house():
    s = position(units={"searoad-marches": {"house": "tyrell", "units": ["knight"]}, "lannisport": {"house": "lannister", "units": ["footman"]}},
                 orders={"searoad-marches": "march"})
    s = march(s, "tyrell", "searoad-marches", "lannisport", ["knight"])
    assert fight(s)["garrison"] == 2 and fight(s)["base"]["lannister"] == 3
