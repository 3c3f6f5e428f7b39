"""史塔克家族卡牌 / House Stark's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌 (card texts resolve; conflicts: 忽略/取消 first, then
turn order, then win/lose texts), 战斗符号 (利剑/铁堡), 伤亡, 撤退和溃败. Default position: 6
players, Iron Throne Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell; Fiefdoms Greyjoy,
Tyrell, Martell, Stark, Baratheon, Lannister (Stark wins ties against Lannister).
"""

from .card_util import battle, events, finish, losses, pending, play, result
from .combat_util import choose, units

ALL = ["eddard-stark", "robb-stark", "roose-bolton", "greatjon-umber", "ser-rodrik-cassel", "the-blackfish", "catelyn-stark"]


def lannister_attacks_riverrun(att=("knight", "knight"), stark=("footman", "footman"), **kw):
    """Lannister marches from Lannisport into Riverrun, held by Stark."""
    return battle("lannister", "lannisport", att, "stark", "riverrun", stark, **kw)


def stark_attacks_riverrun(att=("knight", "knight"), lannister=("footman",), **kw):
    """Stark marches from Seagard into Riverrun, held by Lannister."""
    return battle("stark", "seagard", att, "lannister", "riverrun", lannister, **kw)


def test_eddard_stark_strength_and_two_swords():
    """Eddard Stark (艾德·史塔克): strength 4, two swords (利剑), no text.

    Lannister (knight, 2 footmen + Ser Jaime 2 = 6) attacks two Stark footmen. With Eddard Stark
    (2 + 4 = 6) the tie goes to Stark on the Fiefdoms track and his two swords kill two attackers;
    with Greatjon Umber (2 + 2 = 4) Stark loses."""
    s = play(lannister_attacks_riverrun(att=("knight", "footman", "footman")), lannister="ser-jaime-lannister", stark="eddard-stark")
    assert result(s)["strength"] == {"lannister": 6, "stark": 6} and result(s)["winner"] == "stark"
    s = finish(s)
    assert len(losses(s, "lannister")) == 2
    assert len(units(s, "lannisport")) == 1 and units(s, "lannisport")[0].endswith("*")  # the survivor retreated, routed
    assert units(s, "riverrun") == ["footman", "footman"]

    s = play(lannister_attacks_riverrun(att=("knight", "footman", "footman")), lannister="ser-jaime-lannister", stark="greatjon-umber")
    assert result(s)["winner"] == "lannister"


def test_greatjon_umber_sword_kills_a_defender():
    """Greatjon Umber (大琼恩·安柏): strength 2, one sword, no text.

    Stark (footman + knight) attacks two Lannister footmen (Ser Jaime): 3 + 2 = 5 against 4; the
    sword kills one footman. With Ser Rodrik Cassel (strength 1, no sword) Stark still wins the
    4-4 tie on Fiefdoms, but nobody dies."""
    s = finish(play(stark_attacks_riverrun(att=("footman", "knight"), lannister=("footman", "footman")), stark="greatjon-umber", lannister="ser-jaime-lannister"))
    assert result(s)["strength"] == {"stark": 5, "lannister": 4}
    assert losses(s, "lannister") == [["riverrun", "footman"]]

    s = finish(play(stark_attacks_riverrun(att=("footman", "knight"), lannister=("footman", "footman")), stark="ser-rodrik-cassel", lannister="ser-jaime-lannister"))
    assert result(s)["winner"] == "stark" and result(s)["tie"]
    assert losses(s, "lannister") == []


def test_ser_rodrik_cassel_fortifications_save_units():
    """Ser Rodrik Cassel (罗德利克·凯索爵士): strength 1, two fortifications (铁堡), no text.

    Ser Gregor's three swords against Rodrik's two fortifications: Stark loses one footman and the
    other retreats. With Catelyn Stark (no fortification) both footmen die."""
    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight")), lannister="ser-gregor-clegane", stark="ser-rodrik-cassel"))
    assert result(s)["winner"] == "lannister"
    assert len(losses(s, "stark")) == 1
    assert events(s, "retreat")[-1]["units"] == ["footman"]

    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight")), lannister="ser-gregor-clegane", stark="catelyn-stark"))
    assert len(losses(s, "stark")) == 2 and not events(s, "retreat")


def test_robb_stark_chooses_the_retreat_area():
    """Robb Stark (罗柏·史塔克): "On a win you pick where the loser retreats, using a legal
    destination that costs the loser as few units as possible."

    Stark wins at Riverrun: Stark, not Lannister, is asked where the Lannister footman retreats
    (Harrenhal, Lannisport or Stoney Sept; never Seagard, the attacker's origin). With Greatjon
    Umber (whose sword is cancelled by the Hound's fortifications) Lannister chooses."""
    s = play(stark_attacks_riverrun(), stark="robb-stark", lannister="the-hound")
    assert result(s)["winner"] == "stark"
    d = pending(s, kind="retreat")[0]
    assert d.actor == "stark" and d.options["house"] == "lannister"
    assert d.options["options"] == ["harrenhal", "lannisport", "stoney-sept"]
    s = choose(s, "stark", "stoney-sept")
    assert units(s, "stoney-sept") == ["footman*"] and units(s, "riverrun") == ["knight", "knight"]

    s = play(stark_attacks_riverrun(), stark="greatjon-umber", lannister="the-hound")
    assert pending(s, kind="retreat")[0].actor == "lannister"


def test_robb_stark_must_pick_an_area_costing_fewest_units():
    """Robb Stark (罗柏·史塔克): when every legal area breaks the loser's supply limit (撤退 ④), the
    loser may pick any of them, destroying units first; Robb may pick only among those that cost
    the fewest units.

    Lannister (supply 1: armies of 3 and 2; a second army of two in Stoney Sept, lone footmen in
    Harrenhal and Lannisport) retreats three footmen from Riverrun: Harrenhal and Lannisport (4 ->
    3) cost one footman each, Stoney Sept (5 -> 3) two. Without Robb, Lannister may pick any of the
    three; Robb (choosing for Lannister) only Harrenhal or Lannisport."""
    extra = {"stoney-sept": {"house": "lannister", "units": ["footman", "footman"]}, "harrenhal": {"house": "lannister", "units": ["footman"]},
             "lannisport": {"house": "lannister", "units": ["footman"]}}
    kw = dict(att=("knight", "knight", "knight"), lannister=("footman", "footman", "footman"), extra=extra, supply={"lannister": 1, "stark": 1})
    s = play(stark_attacks_riverrun(**kw), stark="greatjon-umber", lannister="the-hound")
    d = pending(s, kind="retreat")[0]
    assert d.actor == "lannister" and d.options["losses"] == {"harrenhal": 1, "lannisport": 1, "stoney-sept": 2}

    s = play(stark_attacks_riverrun(**kw), stark="robb-stark", lannister="the-hound")
    d = pending(s, kind="retreat")[0]
    assert d.actor == "stark" and d.options["losses"] == {"harrenhal": 1, "lannisport": 1}
    s = choose(s, "stark", "harrenhal")
    assert units(s, "harrenhal") == ["footman", "footman*", "footman*"]
    assert losses(s, "lannister") == [["riverrun", "footman"]]


def test_roose_bolton_takes_the_discard_pile_back_on_a_loss():
    """Roose Bolton (卢斯·波顿): "On a loss all your used house cards, Roose included, go back into
    your hand."

    Stark has discarded Eddard Stark and Greatjon Umber; losing with Roose Bolton returns both and
    Roose himself: a full hand of seven, an empty discard pile. Losing with Ser Rodrik Cassel
    instead adds Rodrik to the discard pile."""
    sc = {"hands": {"stark": [c for c in ALL if c not in ("eddard-stark", "greatjon-umber")]}, "discards": {"stark": ["eddard-stark", "greatjon-umber"]}}
    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), **sc), lannister="ser-gregor-clegane", stark="roose-bolton"))
    assert result(s)["winner"] == "lannister"
    assert sorted(s.hands["stark"]) == sorted(ALL) and s.discards["stark"] == ()
    assert [e["effect"] for e in events(s, "house_card_ability")] == ["discards_to_hand"]

    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), **sc), lannister="ser-gregor-clegane", stark="ser-rodrik-cassel"))
    assert sorted(s.discards["stark"]) == ["eddard-stark", "greatjon-umber", "ser-rodrik-cassel"]


def test_roose_bolton_winning_is_discarded_as_usual():
    """Roose Bolton (卢斯·波顿): only a loss brings the cards back; a win discards Roose."""
    sc = {"hands": {"stark": [c for c in ALL if c != "eddard-stark"]}, "discards": {"stark": ["eddard-stark"]}}
    s = finish(play(lannister_attacks_riverrun(att=("footman",), **sc), lannister="cersei-lannister", stark="roose-bolton"))
    assert result(s)["winner"] == "stark"
    assert sorted(s.discards["stark"]) == ["eddard-stark", "roose-bolton"]


def test_the_blackfish_takes_no_sword_casualties():
    """The Blackfish (黑鱼): "Your units suffer no losses in this fight from swords, card abilities
    or Tides of Battle skulls."

    Ser Gregor's three swords kill nothing: both Stark footmen retreat. With Catelyn Stark both
    die."""
    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight")), lannister="ser-gregor-clegane", stark="the-blackfish"))
    assert result(s)["winner"] == "lannister"
    assert losses(s, "stark") == []
    assert events(s, "retreat")[-1]["units"] == ["footman", "footman"]


def test_the_blackfish_ignores_a_tides_of_battle_skull():
    """The Blackfish (黑鱼) with 战局卡牌 / Tides of Battle: a skull (骷髅) kills one enemy unit
    whatever the result (not cancelled by fortifications), but not Blackfish's units.

    Lannister (footman + Ser Jaime) draws a skull and Stark holds Riverrun on a 3-3 tie (Fiefdoms):
    with Ser Rodrik Cassel (also strength 1) Stark still loses a footman to the skull; with the
    Blackfish it loses nothing."""
    for card, lost in (("ser-rodrik-cassel", 1), ("the-blackfish", 0)):
        s = lannister_attacks_riverrun(att=("footman",), options={"tides_of_battle": True}, decks={"tides": ["skull", "zero"]})
        s = finish(play(s, lannister="ser-jaime-lannister", stark=card))
        tides = events(s, "tides_revealed")[-1]["cards"]
        assert tides == {"lannister": "skull", "stark": "zero"}
        assert result(s)["winner"] == "stark"
        assert len(losses(s, "stark")) == lost, card


def test_catelyn_stark_doubles_the_defense_order():
    """Catelyn Stark (凯特琳·史塔克): "A defense order of yours in the contested area counts
    double."

    Two Stark footmen on a Defense +2 order: 2 + 2, doubled to 2 + 4 = 6 against Lannister's two
    knights and Ser Jaime (6): Stark wins the tie on Fiefdoms. Without the Defense order Catelyn
    (strength 0) adds nothing and Stark loses 2 to 6."""
    s = play(lannister_attacks_riverrun(orders={"riverrun": "defense-plus-two"}), lannister="ser-jaime-lannister", stark="catelyn-stark")
    assert result(s)["strength"] == {"lannister": 6, "stark": 6} and result(s)["winner"] == "stark"

    s = play(lannister_attacks_riverrun(), lannister="ser-jaime-lannister", stark="catelyn-stark")
    assert result(s)["strength"] == {"lannister": 6, "stark": 2}


def test_catelyn_stark_attacking_has_no_defense_order_to_double():
    """Catelyn Stark (凯特琳·史塔克): only the Defense order *in the embattled area* counts; an
    attacking Catelyn gains nothing from a Defense order elsewhere."""
    s = play(stark_attacks_riverrun(orders={"winterfell": "defense-plus-two"}, extra={"winterfell": {"house": "stark", "units": ["footman"]}}),
             stark="catelyn-stark", lannister="the-hound")
    assert result(s)["strength"]["stark"] == 4


def test_roose_bolton_as_the_seventh_card():
    """Roose Bolton (卢斯·波顿) played as the last card in hand: losing, the six discarded cards and
    Roose all return (no card stays in the discard pile); winning, the usual seventh-card rule
    (清理战场) returns the other six and Roose is discarded."""
    sc = {"hands": {"stark": ["roose-bolton"]}, "discards": {"stark": [c for c in ALL if c != "roose-bolton"]}}
    s = finish(play(lannister_attacks_riverrun(att=("knight", "knight", "knight"), **sc), lannister="ser-gregor-clegane", stark="roose-bolton"))
    assert result(s)["winner"] == "lannister"
    assert sorted(s.hands["stark"]) == sorted(ALL) and s.discards["stark"] == ()

    s = finish(play(lannister_attacks_riverrun(att=("footman",), **sc), lannister="cersei-lannister", stark="roose-bolton"))
    assert result(s)["winner"] == "stark"
    assert sorted(s.hands["stark"]) == sorted(c for c in ALL if c != "roose-bolton") and s.discards["stark"] == ("roose-bolton",)
