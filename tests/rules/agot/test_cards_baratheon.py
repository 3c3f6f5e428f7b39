"""拜拉席恩家族卡牌 / House Baratheon's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌, 计算总战力, 战斗符号, 伤亡, 清理战场 (the seventh card
returns the other six). Default position: 6 players, Iron Throne Baratheon, Lannister, Stark,
Martell, Greyjoy, Tyrell; Fiefdoms Greyjoy, Tyrell, Martell, Stark, Baratheon, Lannister.
"""

from .card_util import ability_events, answer, battle, events, finish, losses, pending, pick, play, result
from .combat_util import units

BARATHEON = ["stannis-baratheon", "renly-baratheon", "ser-davos-seaworth", "brienne-of-tarth", "salladhor-saan", "melisandre", "patchface"]
STARK = ["eddard-stark", "robb-stark", "roose-bolton", "greatjon-umber", "ser-rodrik-cassel", "the-blackfish", "catelyn-stark"]
LANNISTER_FIEF = ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]


def baratheon_attacks_blackwater(att=("knight", "footman"), lannister=("footman",), **kw):
    return battle("baratheon", "kings-landing", att, "lannister", "blackwater", lannister, **kw)


def test_stannis_baratheon_plus_one_against_a_higher_iron_throne():
    """Stannis Baratheon (史坦尼斯·拜拉席恩): strength 4. "Gets +1 strength whenever the opponent
    stands above you on the Iron Throne track."

    Knight + footman + Stannis against two knights, a footman and the Hound (7), Lannister ahead on
    Fiefdoms: with Lannister above Baratheon on the Iron Throne Stannis counts 5 and Baratheon wins
    8-7; with Baratheon on top it is 7-7 and Lannister wins the tie."""
    kw = dict(lannister=("knight", "knight", "footman"))
    s = finish(play(baratheon_attacks_blackwater(tracks={"fiefdoms": LANNISTER_FIEF, "iron_throne": ["lannister", "baratheon", "stark", "martell", "greyjoy", "tyrell"]}, **kw),
                    baratheon="stannis-baratheon", lannister="the-hound"))
    assert result(s)["strength"] == {"baratheon": 8, "lannister": 7} and result(s)["winner"] == "baratheon"

    s = finish(play(baratheon_attacks_blackwater(tracks={"fiefdoms": LANNISTER_FIEF}, **kw), baratheon="stannis-baratheon", lannister="the-hound"))
    assert result(s)["strength"] == {"baratheon": 7, "lannister": 7} and result(s)["winner"] == "lannister"


def test_renly_baratheon_upgrades_an_attacking_footman():
    """Renly Baratheon (蓝礼·拜拉席恩): strength 3. "On a win you may swap one of your footmen in
    the fight (or one Baratheon footman that supported) for a knight."

    Baratheon wins Blackwater and upgrades one of its attacking footmen: it enters Blackwater as a
    knight (footman back to the reserve). Answering ``none`` keeps the footmen."""
    s = play(baratheon_attacks_blackwater(att=("knight", "footman", "footman")), baratheon="renly-baratheon", lannister="the-hound")
    d = pending(s, "baratheon", "choose")[0]
    assert d.options["purpose"] == "renly-baratheon" and d.options["options"] == ["kings-landing", "none"]
    s = finish(answer(s, "baratheon", "kings-landing"))
    assert units(s, "blackwater") == ["footman", "knight", "knight"]
    assert events(s, "unit_replaced")[-1] == {**events(s, "unit_replaced")[-1], "old": "footman", "new": "knight"}

    s = finish(answer(play(baratheon_attacks_blackwater(att=("knight", "footman", "footman")), baratheon="renly-baratheon", lannister="the-hound"), "baratheon", "none"))
    assert units(s, "blackwater") == ["footman", "footman", "knight"]


def test_renly_baratheon_upgrades_a_supporting_baratheon_footman():
    """Renly Baratheon (蓝礼·拜拉席恩): a supporting Baratheon footman (Crackclaw Point) may be the
    one upgraded, where it stands."""
    s = baratheon_attacks_blackwater(att=("knight",), extra={"crackclaw-point": {"house": "baratheon", "units": ["footman"]}},
                                     orders={"crackclaw-point": "support"}, supports={"crackclaw-point": "attacker"})
    s = play(s, baratheon="renly-baratheon", lannister="the-hound")
    assert pending(s, "baratheon", "choose")[0].options["options"] == ["crackclaw-point", "none"]
    s = finish(answer(s, "baratheon", "crackclaw-point"))
    assert units(s, "crackclaw-point") == ["knight"] and units(s, "blackwater") == ["knight"]


def test_renly_baratheon_losing_upgrades_nothing():
    """Renly Baratheon (蓝礼·拜拉席恩): no win, no upgrade."""
    s = finish(play(baratheon_attacks_blackwater(lannister=("knight", "knight", "knight")), baratheon="renly-baratheon", lannister="tywin-lannister"))
    assert result(s)["winner"] == "lannister" and pending(s, "baratheon", "choose") == [] and ability_events(s, "renly-baratheon") == []


def test_ser_davos_seaworth_with_stannis_discarded():
    """Ser Davos Seaworth (戴佛斯·席渥斯爵士): strength 2. "Davos gets +1 strength and one sword as
    long as Stannis Baratheon sits among your used cards."

    Knight + Davos against two footmen + Ser Jaime (4): with Stannis discarded, 5-4 and the sword
    kills a footman; with Stannis in hand, 4-4 (Baratheon wins on Fiefdoms) and nobody dies."""
    sc = {"hands": {"baratheon": BARATHEON[1:]}, "discards": {"baratheon": ["stannis-baratheon"]}}
    s = finish(play(baratheon_attacks_blackwater(att=("knight",), lannister=("footman", "footman"), **sc), baratheon="ser-davos-seaworth", lannister="ser-jaime-lannister"))
    assert result(s)["strength"] == {"baratheon": 5, "lannister": 4} and len(losses(s, "lannister")) == 1

    s = finish(play(baratheon_attacks_blackwater(att=("knight",), lannister=("footman", "footman")), baratheon="ser-davos-seaworth", lannister="ser-jaime-lannister"))
    assert result(s)["strength"] == {"baratheon": 4, "lannister": 4} and result(s)["winner"] == "baratheon" and losses(s, "lannister") == []


def test_brienne_of_tarth_sword_and_fortification():
    """Brienne of Tarth (塔斯的布蕾妮): strength 2, one sword and one fortification, no text.

    Winning (knight + Brienne 4 against a footman + Cersei 1) her sword kills the footman; losing
    to Ser Jaime her fortification saves the Baratheon unit. With Patchface (none) it dies."""
    s = finish(play(baratheon_attacks_blackwater(att=("knight",)), baratheon="brienne-of-tarth", lannister="cersei-lannister"))
    assert result(s)["winner"] == "baratheon" and losses(s, "lannister") == [["blackwater", "footman"]]

    def defend():
        return battle("lannister", "blackwater", ("knight", "knight", "knight"), "baratheon", "kings-landing", ("footman",))

    s = finish(play(defend(), lannister="ser-jaime-lannister", baratheon="brienne-of-tarth"))
    assert result(s)["winner"] == "lannister" and losses(s, "baratheon") == []
    s = finish(play(defend(), lannister="ser-jaime-lannister", baratheon="patchface"))
    assert losses(s, "baratheon") == [["kings-landing", "footman"]]


def test_melisandre_strength_and_sword():
    """Melisandre (梅丽珊卓): strength 1, one sword, no text.

    Knight + Melisandre (3) against a footman + Ser Kevan (defending: 2): the sword kills it. With
    Patchface (0) it is 2-2, Baratheon still wins on Fiefdoms, but without a sword the footman
    retreats."""
    s = finish(play(baratheon_attacks_blackwater(att=("knight",)), baratheon="melisandre", lannister="ser-kevan-lannister"))
    assert result(s)["strength"] == {"baratheon": 3, "lannister": 2} and losses(s, "lannister") == [["blackwater", "footman"]]
    s = finish(play(baratheon_attacks_blackwater(att=("knight",)), baratheon="patchface", lannister="ser-kevan-lannister"))
    assert result(s)["winner"] == "baratheon" and losses(s, "lannister") == []


def salladhor_fight(supporters):
    """Greyjoy (three ships, Victarion) attacks two Baratheon ships in Shipbreaker Bay;
    ``supporters``: ``{sea: house}`` ships with a Support order declared for Baratheon."""
    extra = {a: {"house": h, "units": ["ship"]} for a, h in supporters.items()}
    s = battle("greyjoy", "east-summer-sea", ("ship", "ship", "ship"), "baratheon", "shipbreaker-bay", ("ship", "ship"),
               extra=extra, orders={a: "support" for a in supporters}, supports={a: "defender" for a in supporters})
    return finish(play(s, greyjoy="victarion-greyjoy", baratheon="salladhor-saan"))


def test_salladhor_saan_supported_zeroes_other_houses_ships():
    """Salladhor Saan (萨拉多·桑恩): strength 1. "If you receive support in this fight, every ship
    that is not Baratheon contributes 0 strength."

    Supported by a Baratheon ship from Blackwater Bay, the three attacking Greyjoy ships count 0
    (and Victarion Greyjoy has nothing to double): Greyjoy 3 (card) against 2 + 1 + 1 = 4.
    Unsupported, Salladhor does nothing and Victarion wins 9-3."""
    s = salladhor_fight({"blackwater-bay": "baratheon"})
    assert result(s)["strength"] == {"greyjoy": 3, "baratheon": 4} and result(s)["winner"] == "baratheon"

    s = salladhor_fight({})
    assert result(s)["strength"] == {"greyjoy": 9, "baratheon": 3} and result(s)["winner"] == "greyjoy"


def test_salladhor_saan_zeroes_a_supporting_ship_of_another_house_too():
    """Salladhor Saan (萨拉多·桑恩): a Martell ship supporting Baratheon makes him supported, yet it
    is not Baratheon: it adds 0. Greyjoy 3 against 2 + 0 + 1: a tie that Greyjoy wins on Fiefdoms."""
    s = salladhor_fight({"the-narrow-sea": "martell"})
    assert result(s)["strength"] == {"greyjoy": 3, "baratheon": 3} and result(s)["winner"] == "greyjoy"


def patchface_fight(**sc):
    """Baratheon (two knights + footman + Patchface: 5) attacks Stark (two footmen) in Blackwater."""
    return battle("baratheon", "kings-landing", ("knight", "knight", "footman"), "stark", "blackwater", ("footman", "footman"), **sc)


def test_patchface_discards_a_card_from_the_opponents_hand():
    """Patchface (补丁脸): strength 0. "After the fight you may view the enemy hand and pick one
    card from it to throw away."

    After the combat (cards already discarded) Baratheon picks Eddard Stark from Stark's hand: it
    goes to Stark's discard pile next to the card Stark played. ``null`` discards nothing."""
    s = finish(play(patchface_fight(), baratheon="patchface", stark="catelyn-stark"))
    d = pending(s, "baratheon", "select_card")[0]
    assert d.options["purpose"] == "patchface" and d.options["from"] == "stark" and d.options["optional"]
    assert d.options["cards"] == sorted(c for c in STARK if c != "catelyn-stark")
    assert s.discards["baratheon"] == ("patchface",) and s.discards["stark"] == ("catelyn-stark",)
    s = pick(s, "baratheon", "eddard-stark")
    assert sorted(s.discards["stark"]) == ["catelyn-stark", "eddard-stark"] and "eddard-stark" not in s.hands["stark"]
    assert ability_events(s, "patchface")[0]["discarded"] == "eddard-stark"
    assert s.ctx.get("combat") is None

    s = pick(finish(play(patchface_fight(), baratheon="patchface", stark="catelyn-stark")), "baratheon", None)
    assert s.discards["stark"] == ("catelyn-stark",)


def test_patchface_after_roose_bolton_took_the_cards_back():
    """Patchface against Roose Bolton (卢斯·波顿, on a loss the discards return to hand): Roose's
    loss effect comes first (赢得/输去本次战斗), Patchface acts after the combat, so he may pick
    from the whole returned hand."""
    sc = {"hands": {"stark": ["roose-bolton", "catelyn-stark"]}, "discards": {"stark": [c for c in STARK if c not in ("roose-bolton", "catelyn-stark")]}}
    s = finish(play(patchface_fight(**sc), baratheon="patchface", stark="roose-bolton"))
    assert result(s)["winner"] == "baratheon"
    d = pending(s, "baratheon", "select_card")[0]
    assert d.options["cards"] == sorted(STARK)
    s = pick(s, "baratheon", "eddard-stark")
    assert s.discards["stark"] == ("eddard-stark",) and len(s.hands["stark"]) == 6


def test_patchface_discarding_the_last_card_returns_the_others():
    """Patchface (补丁脸) taking the opponent's last card in hand: the opponent then takes back its
    other discarded cards, as after playing its last card (reading chosen, see
    game/data/agot2/README.md)."""
    sc = {"hands": {"stark": ["catelyn-stark", "eddard-stark"]}, "discards": {"stark": STARK[1:6]}}
    s = finish(play(patchface_fight(**sc), baratheon="patchface", stark="catelyn-stark"))
    assert pending(s, "baratheon", "select_card")[0].options["cards"] == ["eddard-stark"]
    s = pick(s, "baratheon", "eddard-stark")
    assert s.discards["stark"] == ("eddard-stark",) and sorted(s.hands["stark"]) == sorted(c for c in STARK if c != "eddard-stark")


def test_patchface_after_the_opponents_seventh_card():
    """Patchface (补丁脸) after the opponent played its seventh card: clean-up first returns the
    other six to its hand (清理战场), then Patchface picks one of them."""
    sc = {"hands": {"stark": ["catelyn-stark"]}, "discards": {"stark": STARK[:6]}}
    s = finish(play(patchface_fight(**sc), baratheon="patchface", stark="catelyn-stark"))
    assert pending(s, "baratheon", "select_card")[0].options["cards"] == sorted(STARK[:6])
    s = pick(s, "baratheon", "eddard-stark")
    assert sorted(s.discards["stark"]) == ["catelyn-stark", "eddard-stark"] and len(s.hands["stark"]) == 5


def test_renly_baratheon_needs_a_knight_in_the_reserve():
    """Renly Baratheon (蓝礼·拜拉席恩): with all five Baratheon knights on the board (超出配件数量 /
    component limits) there is no knight to upgrade to, so no choice is offered."""
    s = baratheon_attacks_blackwater(att=("knight", "knight", "footman"), extra={"dragonstone": {"house": "baratheon", "units": ["knight", "knight", "knight"]}}, supply={"baratheon": 6})
    s = finish(play(s, baratheon="renly-baratheon", lannister="the-hound"))
    assert result(s)["winner"] == "baratheon" and pending(s, "baratheon", "choose") == []
    assert units(s, "blackwater") == ["footman", "knight", "knight"]


def test_salladhor_saan_cancels_ship_support_in_a_land_battle():
    """Salladhor Saan (萨拉多·桑恩) on land: Lannister's knight attacks two Baratheon footmen in the
    Kingswood with two supporting Lannister ships (Blackwater Bay, Shipbreaker Bay) and Ser Jaime:
    2 + 2 + 2 = 6. Baratheon, supported by a footman from Storm's End, plays Salladhor: the ships'
    support counts 0, 4 against 2 + 1 + 1 = 4, and Baratheon wins the tie on Fiefdoms. Without the
    Baratheon support Salladhor does nothing and Lannister wins 6-3."""
    ships = {"blackwater-bay": {"house": "lannister", "units": ["ship"]}, "shipbreaker-bay": {"house": "lannister", "units": ["ship"]}}
    orders = {"blackwater-bay": "support", "shipbreaker-bay": "support"}
    sup = {"blackwater-bay": "attacker", "shipbreaker-bay": "attacker"}
    s = battle("lannister", "kings-landing", ("knight",), "baratheon", "kingswood", ("footman", "footman"),
               extra={**ships, "storms-end": {"house": "baratheon", "units": ["footman"]}}, orders={**orders, "storms-end": "support"},
               supports={**sup, "storms-end": "defender"})
    s = finish(play(s, lannister="ser-jaime-lannister", baratheon="salladhor-saan"))
    assert result(s)["strength"] == {"lannister": 4, "baratheon": 4} and result(s)["winner"] == "baratheon"

    s = battle("lannister", "kings-landing", ("knight",), "baratheon", "kingswood", ("footman", "footman"), extra=ships, orders=orders, supports=sup)
    s = finish(play(s, lannister="ser-jaime-lannister", baratheon="salladhor-saan"))
    assert result(s)["strength"] == {"lannister": 6, "baratheon": 3} and result(s)["winner"] == "lannister"
