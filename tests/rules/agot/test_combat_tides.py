"""战局卡牌 / Tides of Battle (game option): each side draws one card after the house cards;
strength, sword, fortification and skull icons; the Blade may redraw."""

from game.rules.agot import RULESET as R

from .combat_util import cards, choose, events, fight, finish, kill, march, pending, position, units

FIEF = {"fiefdoms": ["greyjoy", "martell", "lannister", "stark", "tyrell", "baratheon"]}


def tides_fight(top, tyrell_card="margaery-tyrell", lannister_card="the-hound", defenders=("footman", "footman"), attackers=("knight",), tracks=FIEF, **kw):
    s = position(
        units={"the-reach": {"house": "tyrell", "units": list(attackers)}, "blackwater": {"house": "lannister", "units": list(defenders)}},
        orders={"the-reach": "march"}, options={"tides_of_battle": True}, decks={"tides": list(top)}, tracks=tracks, **kw,
    )
    s = march(s, "tyrell", "the-reach", "blackwater", list(attackers))
    return cards(s, tyrell=tyrell_card, lannister=lannister_card)


def test_each_side_draws_in_secret_then_strength_is_added():
    # Tyrell (attacker, first in the draw) gets "three", Lannister "zero"
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman", "footman"]}},
        orders={"the-reach": "march"}, options={"tides_of_battle": True}, decks={"tides": ["three", "zero"]},
        tracks={"fiefdoms": ["lannister", "greyjoy", "martell", "stark", "tyrell", "baratheon"]},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight"])
    s = cards(s, tyrell="margaery-tyrell", lannister="the-hound")
    # Lannister holds the Blade: the Tides cards are drawn and still hidden
    d = pending(s, "lannister", "use_blade")[0]
    assert d.options["options"] == ["redraw", "pass"] and d.options["tides"] == "zero"
    assert R.view(s, "tyrell")["combat"]["my_tides"] == "three"
    assert R.view(s, "lannister")["combat"]["my_tides"] == "zero"
    for v in (None, "stark"):
        c = R.view(s, v)["combat"]
        assert "my_tides" not in c and "tides" not in c and c["tides_drawn"] == ["lannister", "tyrell"]
        assert not [e for e in R.view(s, v)["events"] if e["kind"] == "tides_drawn"]
    s = choose(s, "lannister", "pass")
    res = events(s, "combat_result")[-1]
    # Tyrell 2 + 1 (Margaery) + 3 = 6; Lannister 2 + 2 (The Hound) + 0 = 4
    assert res["strength"] == {"tyrell": 6, "lannister": 4}
    assert events(s, "tides_revealed")[-1]["cards"] == {"tyrell": "three", "lannister": "zero"}


def test_sword_icon_adds_a_casualty_and_fortification_cancels_one():
    s = tides_fight(["sword", "zero"], tyrell_card="randyll-tarly", lannister_card="cersei-lannister")
    # Tyrell wins with Randyll (1 sword) + Tides sword = 2 casualties: both footmen
    assert sum(len(e["units"]) for e in events(s, "casualties")) == 2
    s = tides_fight(["sword", "fortification"], tyrell_card="randyll-tarly", lannister_card="cersei-lannister")
    assert sum(len(e["units"]) for e in events(s, "casualties")) == 1


def test_skull_kills_one_unit_whatever_the_result_and_ignores_fortifications():
    # Lannister (loser) draws the skull: the winning Tyrell loses one attacking unit anyway
    s = tides_fight(["zero", "skull"], tyrell_card="ser-garlan-tyrell", lannister_card="cersei-lannister", attackers=("knight", "footman"))
    assert events(s, "combat_result")[-1]["winner"] == "tyrell"
    d = pending(s, "tyrell", "casualties")[0]
    assert d.options["purpose"] == "combat_skull" and d.options["count"] == 1
    s = kill(s, "tyrell", ("the-reach", "footman"))
    s = finish(s)
    assert units(s, "blackwater") == ["knight"]
    # Tyrell's skull against a loser with fortifications: still one casualty
    s = tides_fight(["skull", "zero"], tyrell_card="margaery-tyrell", lannister_card="the-hound")
    assert [e["source"] for e in events(s, "casualties")] == ["skull"]


def test_garrisons_are_immune_to_skulls():
    s = position(units={"searoad-marches": {"house": "tyrell", "units": ["knight"]}}, orders={"searoad-marches": "march"},
                 options={"tides_of_battle": True}, decks={"tides": ["skull", "zero"]})
    s = march(s, "tyrell", "searoad-marches", "lannisport", ["knight"])
    s = finish(cards(s, tyrell="alester-florent", lannister="the-hound"))
    assert events(s, "combat_result")[-1]["winner"] == "lannister"
    assert s.garrisons["lannisport"] == ("lannister", 2) and events(s, "casualties") == []


def test_blade_redraws_the_tides_card():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["footman", "footman"]}},
        orders={"the-reach": "march"}, options={"tides_of_battle": True}, decks={"tides": ["zero", "zero", "three"]},
        tracks={"fiefdoms": ["tyrell", "greyjoy", "martell", "stark", "lannister", "baratheon"]},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight"])
    s = cards(s, tyrell="margaery-tyrell", lannister="the-hound")
    s = choose(s, "tyrell", "redraw")
    assert s.flags["blade_used"]
    res = events(s, "combat_result")[-1]
    assert res["strength"] == {"tyrell": 2 + 1 + 3, "lannister": 4}
    assert events(s, "tides_revealed")[-1]["cards"]["tyrell"] == "three"
    assert finish(s) is not None


def test_tides_deck_reshuffles_its_discards_when_empty():
    s = tides_fight(["zero", "zero"])
    s = s.clone()
    s = finish(s)
    n = len(s.decks["tides"]) + len(s.decks["tides_discard"])
    assert n == 24 and len(s.decks["tides_discard"]) == 2
    from game.rules.agot.tides import draw_tides

    s.decks["tides"] = ()
    draw_tides(s)
    assert len(s.decks["tides"]) == 1 and s.decks["tides_discard"] == ()
