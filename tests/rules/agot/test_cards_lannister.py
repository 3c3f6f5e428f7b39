"""兰尼斯特家族卡牌 / House Lannister's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌 (conflicts: 忽略/取消 first, then turn order, then
赢得/输去本次战斗 texts), 战斗符号, 伤亡, 撤退和溃败, 清理战场. Default position: 6 players,
Iron Throne Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell; Fiefdoms Greyjoy, Tyrell,
Martell, Stark, Baratheon, Lannister.
"""

import pytest

from game.rules.base import IllegalAction

from .card_util import ability_events, answer, base, battle, events, finish, losses, pending, pick, play, result
from .combat_util import units

STARK = ["eddard-stark", "robb-stark", "roose-bolton", "greatjon-umber", "ser-rodrik-cassel", "the-blackfish", "catelyn-stark"]


def lannister_attacks_riverrun(att=("knight", "knight"), stark=("footman", "footman"), **kw):
    return battle("lannister", "lannisport", att, "stark", "riverrun", stark, **kw)


def stark_attacks_riverrun(att=("knight", "knight"), lannister=("footman", "footman"), **kw):
    return battle("stark", "seagard", att, "lannister", "riverrun", lannister, **kw)


def test_tywin_lannister_gains_two_power_on_a_win():
    """Tywin Lannister (泰温·兰尼斯特): strength 4. "If you win, gain two power tokens."

    Two knights + Tywin (8) beat two footmen + Eddard Stark (6): Lannister's available power goes
    from 5 to 7 (taken from its Power Pool). Winning with Ser Gregor instead gains nothing."""
    s = finish(play(lannister_attacks_riverrun(), lannister="tywin-lannister", stark="eddard-stark"))
    assert result(s)["strength"] == {"lannister": 8, "stark": 6} and result(s)["winner"] == "lannister"
    assert s.power["lannister"] == 7
    assert ability_events(s, "tywin-lannister")[0]["gained"] == 2

    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight")), lannister="ser-gregor-clegane", stark="eddard-stark"))
    assert result(s)["winner"] == "lannister" and s.power["lannister"] == 5


def test_tywin_lannister_gains_nothing_on_a_loss_and_at_most_the_pool():
    """Tywin Lannister (泰温·兰尼斯特): a loss gains nothing; with one token left in the Power Pool
    (19 available, 20 per house) he gains only that one."""
    s = finish(play(lannister_attacks_riverrun(att=("footman",), stark=("knight", "knight", "knight")), lannister="tywin-lannister", stark="eddard-stark"))
    assert result(s)["winner"] == "stark" and s.power["lannister"] == 5
    s = finish(play(lannister_attacks_riverrun(power={"lannister": 19}), lannister="tywin-lannister", stark="catelyn-stark"))
    assert s.power["lannister"] == 20


def test_ser_gregor_clegane_three_swords():
    """Ser Gregor Clegane (格雷果·克里冈爵士): strength 3, three swords, no text.

    Three knights + Gregor beat three Stark footmen (Catelyn): three swords kill all three, nothing
    retreats. With Ser Jaime (one sword) one dies and two retreat."""
    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), stark=("footman",) * 3), lannister="ser-gregor-clegane", stark="catelyn-stark"))
    assert len(losses(s, "stark")) == 3 and not events(s, "retreat")
    assert units(s, "riverrun") == ["knight", "knight", "knight"]

    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), stark=("footman",) * 3), lannister="ser-jaime-lannister", stark="catelyn-stark"))
    assert len(losses(s, "stark")) == 1 and events(s, "retreat")[-1]["units"] == ["footman", "footman"]


def test_the_hound_fortifications_cancel_eddards_swords():
    """The Hound (猎狗): strength 2, two fortifications, no text.

    Stark (two knights + Eddard Stark, two swords) beats two Lannister footmen: with the Hound no
    casualty (2 swords - 2 fortifications); with Ser Jaime (no fortification) both footmen die."""
    s = finish(play(stark_attacks_riverrun(), stark="eddard-stark", lannister="the-hound"))
    assert result(s)["winner"] == "stark" and losses(s, "lannister") == []
    assert events(s, "retreat")[-1]["units"] == ["footman", "footman"]

    s = finish(play(stark_attacks_riverrun(), stark="eddard-stark", lannister="ser-jaime-lannister"))
    assert len(losses(s, "lannister")) == 2


def test_ser_jaime_lannister_rulebook_example():
    """Ser Jaime Lannister (詹姆·兰尼斯特爵士): strength 2, one sword, no text.

    战斗结算示例 / the rulebook's combat example: Tyrell (footman + knight, March +0) from King's
    Landing into the Kingswood against two Lannister footmen; Jaime against Alester Florent is
    4-4, Lannister wins on Fiefdoms and Alester's fortification cancels Jaime's sword. Against the
    Queen of Thorns (strength 0, no fortification) Lannister wins 4-3 and the sword kills a unit."""
    fief = {"fiefdoms": ["greyjoy", "martell", "lannister", "stark", "tyrell", "baratheon"]}

    def start():
        return battle("tyrell", "kings-landing", ("footman", "knight"), "lannister", "kingswood", ("footman", "footman"), tracks=fief)

    s = finish(play(start(), lannister="ser-jaime-lannister", tyrell="alester-florent"))
    assert result(s)["strength"] == {"tyrell": 4, "lannister": 4} and result(s)["winner"] == "lannister"
    assert losses(s, "tyrell") == [] and units(s, "kings-landing") == ["footman*", "knight*"]

    s = play(start(), lannister="ser-jaime-lannister", tyrell="queen-of-thorns")
    assert result(s)["strength"] == {"tyrell": 3, "lannister": 4}
    d = pending(s, "tyrell", "casualties")[0]
    assert d.options["count"] == 1
    s = finish(s)
    assert len(losses(s, "tyrell")) == 1 and len(units(s, "kings-landing")) == 1


def test_tyrion_lannister_cancels_the_opponents_card():
    """Tyrion Lannister (提利昂·兰尼斯特): strength 1. "You may immediately cancel your opponent's
    house card: it returns to their hand and they must choose a different card to reveal."

    Stark reveals Eddard Stark (2 + 4 = 6 against 4 + 1 = 5); Tyrion cancels it, Eddard goes back
    to Stark's hand, Stark must pick another card (not Eddard) and loses with Catelyn Stark."""
    s = play(lannister_attacks_riverrun(), lannister="tyrion-lannister", stark="eddard-stark")
    d = pending(s, "lannister", "choose")[0]
    assert d.options["purpose"] == "tyrion-lannister" and d.options["options"] == ["cancel", "keep"]
    s = answer(s, "lannister", "cancel")
    d = pending(s, "stark", "choose_house_card")[0]
    assert "eddard-stark" not in d.options["cards"] and "eddard-stark" in s.hands["stark"]
    with pytest.raises(IllegalAction) as e:
        pick(s, "stark", "eddard-stark")
    assert e.value.code == "card.not_in_hand"
    s = finish(pick(s, "stark", "catelyn-stark"))
    assert result(s)["strength"] == {"lannister": 5, "stark": 2} and result(s)["winner"] == "lannister"
    assert "eddard-stark" in s.hands["stark"] and s.discards["stark"] == ("catelyn-stark",)
    assert s.discards["lannister"] == ("tyrion-lannister",)


def test_tyrion_lannister_may_keep_the_opponents_card():
    """Tyrion Lannister (提利昂·兰尼斯特): "may": keeping it, Eddard Stark stays and wins 6-5."""
    s = finish(answer(play(lannister_attacks_riverrun(), lannister="tyrion-lannister", stark="eddard-stark"), "lannister", "keep"))
    assert result(s)["winner"] == "stark" and s.discards["stark"] == ("eddard-stark",)


def test_tyrion_lannister_opponent_without_another_card_fights_without_one():
    """Tyrion Lannister (提利昂·兰尼斯特): an opponent with no other card in hand fights without a
    house card (its cancelled card stays in its hand: it was not played)."""
    sc = {"hands": {"stark": ["eddard-stark"]}, "discards": {"stark": STARK[1:]}}
    s = play(lannister_attacks_riverrun(**sc), lannister="tyrion-lannister", stark="eddard-stark")
    s = finish(answer(s, "lannister", "cancel"))
    assert pending(s, "stark", "choose_house_card") == []
    assert result(s)["strength"] == {"lannister": 5, "stark": 2}
    assert s.hands["stark"] == ("eddard-stark",) and sorted(s.discards["stark"]) == sorted(STARK[1:])


def test_tyrion_cancels_mace_tyrell_before_it_acts_whatever_the_turn_order():
    """Tyrion Lannister against Mace Tyrell (梅斯·提利尔, "immediately destroy one of your
    opponent's attacking or defending footmen"): 家族卡牌 conflict order ①: a text that cancels
    ("取消") resolves first, before other texts in turn order. Tyrell is first on the Iron Throne
    here, yet Mace kills nothing: Tyrion cancels him, he returns to Tyrell's hand, and Tyrell
    picks another card."""
    s = battle("lannister", "blackwater", ("footman", "footman"), "tyrell", "the-reach", ("knight",),
               tracks={"iron_throne": ["tyrell", "baratheon", "stark", "martell", "greyjoy", "lannister"]})
    s = play(s, lannister="tyrion-lannister", tyrell="mace-tyrell")
    assert events(s, "casualties") == []
    s = answer(s, "lannister", "cancel")
    s = finish(pick(s, "tyrell", "alester-florent"))
    assert ability_events(s, "mace-tyrell") == [] and "mace-tyrell" in s.hands["tyrell"]
    assert base(s) == {"lannister": 2, "tyrell": 2}
    assert result(s)["strength"] == {"lannister": 3, "tyrell": 3}


def test_tyrion_cancelling_lets_the_new_cards_text_act():
    """Tyrion Lannister (提利昂·兰尼斯特): the replacement card is revealed and its own text
    resolves (here the Queen of Thorns removes Lannister's Support order next to the fight)."""
    s = battle("lannister", "blackwater", ("footman", "footman"), "tyrell", "the-reach", ("knight",),
               extra={"kingswood": {"house": "lannister", "units": ["knight"]}}, orders={"kingswood": "support"}, supports={"kingswood": "attacker"})
    s = play(s, lannister="tyrion-lannister", tyrell="alester-florent")
    s = answer(s, "lannister", "cancel")
    s = finish(pick(s, "tyrell", "queen-of-thorns"))
    assert "kingswood" not in s.orders
    assert result(s)["strength"] == {"lannister": 3, "tyrell": 2}


def test_ser_kevan_lannister_doubles_attacking_and_supporting_lannister_footmen():
    """Ser Kevan Lannister (凯冯·兰尼斯特爵士): strength 1. "If you are attacking, each of your
    attacking footmen and each supporting Lannister footman adds 2 strength instead of 1."

    Two attacking footmen and a supporting Lannister footman (Stoney Sept): 3 + 1 + 3 = 7 against
    two Stark knights + Roose Bolton (6); a supporting Baratheon footman (Harrenhal) still adds 1:
    8 in all. Without the doubling Lannister would have 5."""
    s = lannister_attacks_riverrun(att=("footman", "footman"), stark=("knight", "knight"),
                                   extra={"stoney-sept": {"house": "lannister", "units": ["footman"]}, "harrenhal": {"house": "baratheon", "units": ["footman"]}},
                                   orders={"stoney-sept": "support", "harrenhal": "support"}, supports={"stoney-sept": "attacker", "harrenhal": "attacker"})
    s = finish(play(s, lannister="ser-kevan-lannister", stark="roose-bolton"))
    assert base(s) == {"lannister": 4, "stark": 4}
    assert result(s)["strength"] == {"lannister": 4 + 1 + 3, "stark": 6} and result(s)["winner"] == "lannister"


def test_ser_kevan_lannister_defending_adds_nothing():
    """Ser Kevan Lannister (凯冯·兰尼斯特爵士): defending, the footmen count 1 each."""
    s = play(stark_attacks_riverrun(), stark="catelyn-stark", lannister="ser-kevan-lannister")
    assert result(s)["strength"] == {"stark": 4, "lannister": 3}


def test_cersei_lannister_removes_an_order_anywhere():
    """Cersei Lannister (瑟曦·兰尼斯特): strength 0. "If you win, you may remove one of your
    opponent's order tokens from anywhere on the board."

    Lannister wins at Riverrun and removes Stark's Consolidate Power order in Winterfell; the orders
    clean-up removes anyway (the defender's order in Riverrun) are not offered."""
    extra = {"winterfell": {"house": "stark", "units": ["footman"]}, "moat-cailin": {"house": "stark", "units": ["footman"]}}
    orders = {"winterfell": "consolidate-power", "moat-cailin": "raid", "riverrun": "defense-plus-one"}
    s = play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), extra=extra, orders=orders), lannister="cersei-lannister", stark="catelyn-stark")
    assert result(s)["winner"] == "lannister"
    d = pending(s, "lannister", "choose")[0]
    assert d.options["purpose"] == "cersei-lannister" and d.options["options"] == ["moat-cailin", "winterfell", "none"]
    s = finish(answer(s, "lannister", "winterfell"))
    assert "winterfell" not in s.orders and s.orders["moat-cailin"] == ("stark", "raid")
    assert events(s, "order_removed")[-1]["area"] == "winterfell"


def test_cersei_lannister_losing_removes_nothing():
    """Cersei Lannister (瑟曦·兰尼斯特): only a win lets her remove an order."""
    s = finish(play(lannister_attacks_riverrun(att=("footman",), extra={"winterfell": {"house": "stark", "units": ["footman"]}}, orders={"winterfell": "raid"}),
                    lannister="cersei-lannister", stark="eddard-stark"))
    assert result(s)["winner"] == "stark" and s.orders["winterfell"] == ("stark", "raid")
