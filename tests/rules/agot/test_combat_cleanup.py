"""清理战场 / Clean-up: orders, power tokens, house cards to the discard pile, hand recovery."""

from .combat_util import cards, choose, events, fight, march, position, support, units


def fight_in_blackwater(lannister_card, tyrell_card, **kw):
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight", "knight"]}, "blackwater": {"house": "lannister", "units": ["footman"]},
               "kings-landing": {"house": "tyrell", "units": ["footman"]}},
        orders={"the-reach": "march", "blackwater": "defense-plus-one", "kings-landing": "support"},
        **kw,
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["knight", "knight"])
    s = support(s, "tyrell", "attacker")
    return cards(s, lannister=lannister_card, tyrell=tyrell_card)


def test_attacker_wins_removes_defender_order_and_power_token_and_moves_in():
    s = fight_in_blackwater("cersei-lannister", "margaery-tyrell", power_tokens={"blackwater": "lannister"})
    assert events(s, "combat_result")[-1]["winner"] == "tyrell"
    s = choose(s, "lannister", "stoney-sept")
    assert "blackwater" not in s.power_tokens
    assert s.orders.get("blackwater") is None
    assert "the-reach" not in s.orders  # the March order
    assert s.orders["kings-landing"] == ("tyrell", "support")  # support stays
    assert units(s, "blackwater") == ["knight", "knight"] and s.owner("blackwater") == "tyrell"
    assert fight(s) is None


def test_defender_win_keeps_order():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["knight"]}},
        orders={"the-reach": "march", "blackwater": "defense-plus-one"}, power_tokens={"blackwater": "lannister"},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    s = cards(s, lannister="the-hound", tyrell="margaery-tyrell")
    assert events(s, "combat_result")[-1]["winner"] == "lannister"
    assert s.power_tokens["blackwater"] == "lannister" and s.orders["blackwater"] == ("lannister", "defense-plus-one")
    assert "the-reach" not in s.orders and units(s, "the-reach") == ["footman*"]


def test_played_cards_go_to_discards_and_the_seventh_brings_back_the_other_six():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["knight"]}},
        orders={"the-reach": "march"},
        hands={"lannister": ["the-hound"]},
        discards={"lannister": ["tywin-lannister", "ser-gregor-clegane", "ser-jaime-lannister", "ser-kevan-lannister", "tyrion-lannister", "cersei-lannister"]},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    s = cards(s, lannister="the-hound", tyrell="margaery-tyrell")
    assert s.discards["lannister"] == ("the-hound",)
    assert sorted(s.hands["lannister"]) == sorted(["tywin-lannister", "ser-gregor-clegane", "ser-jaime-lannister", "ser-kevan-lannister", "tyrion-lannister", "cersei-lannister"])
    assert s.discards["tyrell"] == ("margaery-tyrell",) and "margaery-tyrell" not in s.hands["tyrell"]
    assert events(s, "house_cards_recovered")[-1]["house"] == "lannister"


def test_discarded_cards_cannot_be_played():
    import pytest

    from game.rules.base import IllegalAction

    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["footman"]}, "blackwater": {"house": "lannister", "units": ["knight"]}},
        orders={"the-reach": "march"}, discards={"tyrell": ["mace-tyrell"]}, hands={"tyrell": ["margaery-tyrell", "alester-florent"]},
    )
    s = march(s, "tyrell", "the-reach", "blackwater", ["footman"])
    with pytest.raises(IllegalAction) as e:
        cards(s, tyrell="mace-tyrell")
    assert e.value.code == "card.not_in_hand"
