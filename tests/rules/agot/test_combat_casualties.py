"""伤亡 / Casualties: winner's swords minus loser's fortifications, chosen by the loser among its
fighting units (never supporting or routed units)."""

import pytest

from game.rules.base import IllegalAction

from .combat_util import cards, decide, events, kill, march, position, support, units


def lannister_wins(defenders, card="ser-gregor-clegane", stark_card="eddard-stark", orders=None, extra=None):
    u = {"lannisport": {"house": "lannister", "units": ["knight", "knight", "knight"]},
         "riverrun": {"house": "stark", "units": defenders}}
    u.update(extra or {})
    s = position(units=u, orders={"lannisport": "march", **(orders or {})})
    s = march(s, "lannister", "lannisport", "riverrun", ["knight", "knight", "knight"])
    for d in list(s.tasks):
        pass
    while decide_support(s):
        s = support(s, decide_support(s).actor, "none")
    return cards(s, lannister=card, stark=stark_card)


def decide_support(s):
    from .combat_util import pending

    ds = pending(s, kind="support_combat")
    return ds[0] if ds else None


def test_swords_minus_fortifications():
    # Gregor: 3 swords; Ser Rodrik: 2 fortifications -> 1 casualty (all footmen: no choice needed)
    s = lannister_wins(["footman", "footman", "footman"], stark_card="ser-rodrik-cassel")
    assert events(s, "casualties")[-1]["units"] == [["riverrun", "footman"]]
    assert len([u for u in s.units_of("seagard") + s.units_of("riverrun") if u[0] == "stark"]) in (0, 2)


def test_no_casualties_when_fortifications_cover_swords():
    s = lannister_wins(["footman"], card="ser-jaime-lannister", stark_card="ser-rodrik-cassel")
    assert events(s, "casualties") == []


def test_loser_chooses_among_mixed_fighting_units():
    s = lannister_wins(["footman", "knight", "knight"], card="ser-jaime-lannister", stark_card="catelyn-stark")
    d = decide(s, "stark", "casualties")
    assert d.options["count"] == 1 and sorted(map(tuple, d.options["units"])) == [("riverrun", "footman"), ("riverrun", "knight"), ("riverrun", "knight")]
    with pytest.raises(IllegalAction) as e:
        kill(s, "stark", ("riverrun", "footman"), ("riverrun", "knight"))
    assert e.value.code == "select.wrong_count"
    with pytest.raises(IllegalAction) as e:
        kill(s, "stark", ("lannisport", "knight"))
    assert e.value.code == "units.not_found"
    s = kill(s, "stark", ("riverrun", "knight"))
    assert events(s, "casualties")[-1]["units"] == [["riverrun", "knight"]]


def test_more_swords_than_units_kills_them_all():
    s = lannister_wins(["footman"], stark_card="catelyn-stark")
    assert events(s, "casualties")[-1]["units"] == [["riverrun", "footman"]]
    assert units(s, "riverrun") == ["knight", "knight", "knight"]


def test_routed_defenders_are_not_casualties_but_die_retreating():
    s = lannister_wins(["footman", {"type": "knight", "routed": True}], card="ser-jaime-lannister", stark_card="catelyn-stark")
    assert events(s, "casualties")[-1]["units"] == [["riverrun", "footman"]]
    assert events(s, "unit_destroyed")[-1]["unit"] == "knight"


def test_supporting_units_are_never_casualties():
    s = lannister_wins(["footman", "knight"], card="ser-gregor-clegane", stark_card="catelyn-stark",
                       orders={"seagard": "support"}, extra={"seagard": {"house": "stark", "units": ["footman"]}})
    assert units(s, "seagard") == ["footman"]


def test_attacker_losing_chooses_among_its_marching_units_only():
    s = position(units={"lannisport": {"house": "lannister", "units": ["footman", "knight", "footman"]},
                        "riverrun": {"house": "stark", "units": ["knight", "knight", "knight"]}},
                 orders={"lannisport": "march"})
    s = march(s, "lannister", "lannisport", "riverrun", ["footman", "knight"])
    s = cards(s, lannister="cersei-lannister", stark="greatjon-umber")
    d = decide(s, "lannister", "casualties")
    assert sorted(map(tuple, d.options["units"])) == [("lannisport", "footman"), ("lannisport", "knight")]
    s = kill(s, "lannister", ("lannisport", "knight"))
    assert units(s, "lannisport") == ["footman", "footman*"]
