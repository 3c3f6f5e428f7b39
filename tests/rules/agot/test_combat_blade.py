"""使用瓦雷利亚钢剑 / The Valyrian Steel Blade: +1 once per round for the Fiefdoms leader."""

from game.rules.agot import RULESET as R

from .combat_util import cards, choose, events, march, pending, position


def blade_fight(fiefdoms, blade_used=False, **kw):
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight"]}, "blackwater": {"house": "lannister", "units": ["knight"]},
               "kings-landing": {"house": "tyrell", "units": ["knight"]}, "crackclaw-point": {"house": "tyrell", "units": ["knight"]}},
        orders={"the-reach": "march", "kings-landing": "march"},
        tracks={"fiefdoms": fiefdoms}, flags={"blade_used": blade_used}, **kw,
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight"])
    return cards(s, tyrell="margaery-tyrell", lannister="cersei-lannister")


TYRELL_FIRST = ["tyrell", "greyjoy", "martell", "stark", "lannister", "baratheon"]


def test_holder_may_add_one_after_the_cards_are_revealed():
    s = blade_fight(TYRELL_FIRST)
    d = pending(s, "tyrell", "use_blade")[0]
    assert d.options["options"] == ["use", "pass"]
    assert R.view(s, None)["combat"]["cards"] == {"tyrell": "margaery-tyrell", "lannister": "cersei-lannister"}
    s = choose(s, "tyrell", "use")
    assert events(s, "combat_result")[-1]["strength"] == {"tyrell": 2 + 1 + 1, "lannister": 2}
    assert R.view(s, None)["blade_used"] is True


def test_once_per_round():
    s = blade_fight(TYRELL_FIRST, blade_used=True)
    assert pending(s, kind="use_blade") == []
    assert events(s, "combat_result")[-1]["strength"]["tyrell"] == 3


def test_passing_keeps_it_for_a_later_combat_this_round():
    s = blade_fight(TYRELL_FIRST)
    s = choose(s, "tyrell", "pass")
    assert events(s, "combat_result")[-1]["strength"]["tyrell"] == 3
    assert not s.flags["blade_used"]


def test_only_a_fighting_holder_uses_it():
    s = blade_fight(["greyjoy", "tyrell", "martell", "stark", "lannister", "baratheon"])
    assert pending(s, kind="use_blade") == []


def test_defending_holder_may_use_it():
    s = blade_fight(["lannister", "tyrell", "greyjoy", "martell", "stark", "baratheon"])
    s = choose(s, "lannister", "use")
    assert events(s, "combat_result")[-1]["strength"]["lannister"] == 3


def test_bad_option_refused():
    import pytest

    from game.rules.base import IllegalAction

    s = blade_fight(TYRELL_FIRST)
    with pytest.raises(IllegalAction) as e:
        choose(s, "tyrell", "redraw")  # no Tides of Battle in this game
    assert e.value.code == "choose.bad_option"
