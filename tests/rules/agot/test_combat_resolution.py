"""决定胜负 / Victory: higher total wins, ties to the higher Fiefdoms position; the rulebook's
combat example (Jaime Lannister against Alester Florent)."""

from game.rules.agot import RULESET as R

from .combat_util import cards, events, fight, finish, march, pending, position, units

FIEF = ["greyjoy", "martell", "lannister", "stark", "tyrell", "baratheon"]


def combat_example(fiefdoms=FIEF):
    """战斗结算示例: Tyrell marches a footman and a knight (March +0) from King's Landing into the
    Kingswood, held by two Lannister footmen. Lannister plays Ser Jaime (2, one sword), Tyrell
    Alester Florent (1, one fortification)."""
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman", "knight"]},
               "kingswood": {"house": "lannister", "units": ["footman", "footman"]}},
        orders={"kings-landing": "march"},
        tracks={"fiefdoms": fiefdoms},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman", "knight"])
    assert fight(s)["base"] == {"tyrell": 3, "lannister": 2}
    return cards(s, lannister="ser-jaime-lannister", tyrell="alester-florent")


def test_rulebook_combat_example_lannister_wins_the_tie_on_fiefdoms():
    s = combat_example()
    res = events(s, "combat_result")[-1]
    assert res["strength"] == {"tyrell": 4, "lannister": 4} and res["tie"]
    assert res["winner"] == "lannister"
    # one sword against one fortification: no casualties; Tyrell retreats home, routed
    assert events(s, "casualties") == []
    assert units(s, "kings-landing") == ["footman*", "knight*"]
    assert units(s, "kingswood") == ["footman", "footman"]
    assert "kings-landing" not in s.orders  # the March order is removed
    assert fight(s) is None
    assert s.discards["tyrell"] == ("alester-florent",) and s.discards["lannister"] == ("ser-jaime-lannister",)


def test_tie_goes_to_the_higher_fiefdoms_position_either_way():
    s = combat_example(["greyjoy", "martell", "tyrell", "stark", "lannister", "baratheon"])
    assert events(s, "combat_result")[-1]["winner"] == "tyrell"


def test_higher_total_wins():
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman"]}, "kingswood": {"house": "lannister", "units": ["footman"]}},
        orders={"kings-landing": "march"},
        tracks={"fiefdoms": ["lannister", "greyjoy", "martell", "stark", "tyrell", "baratheon"]},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman"])
    s = cards(s, tyrell="randyll-tarly", lannister="cersei-lannister")
    s = finish(s)  # Lannister holds the Blade: it passes
    assert events(s, "combat_result")[-1]["winner"] == "tyrell"
    assert units(s, "kingswood") == ["footman"] and s.owner("kingswood") == "tyrell"


def test_house_cards_are_chosen_simultaneously():
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman"]}, "kingswood": {"house": "lannister", "units": ["footman"]}},
        orders={"kings-landing": "march"},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman"])
    ds = pending(s, kind="choose_house_card")
    assert {d.actor for d in ds} == {"tyrell", "lannister"} and all(d.simultaneous for d in ds)
    assert sorted(ds[0].options["cards"]) == sorted(s.hands[ds[0].actor])
    s = R.apply(s, "lannister", {"type": "select_card", "card": "the-hound"})
    assert [d.actor for d in pending(s)] == ["tyrell"]
    assert "cards" not in fight(s)
