"""马泰尔家族卡牌 / House Martell's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌 (conflicts: 忽略/取消 first, then turn order), 调整势力条
(Doran Martell), 战斗符号, 伤亡, 清理战场. Default position: 6 players, Iron Throne Baratheon,
Lannister, Stark, Martell, Greyjoy, Tyrell; Fiefdoms Greyjoy, Tyrell, Martell, Stark, Baratheon,
Lannister (Tyrell wins ties against Martell).
"""

from .card_util import ability_events, answer, battle, events, finish, losses, pending, pick, play, result
from .combat_util import units


def martell_attacks_the_reach(att=("knight", "footman"), tyrell=("footman", "footman"), **kw):
    return battle("martell", "dornish-marches", att, "tyrell", "the-reach", tyrell, **kw)


def tyrell_attacks_dornish_marches(att=("knight", "knight", "knight"), martell=("footman", "footman"), **kw):
    return battle("tyrell", "the-reach", att, "martell", "dornish-marches", martell, **kw)


def test_the_red_viper_strength_and_two_swords():
    """The Red Viper (红毒蛇): strength 4, two swords and one fortification, no text.

    Knight + footman + Red Viper (7) beat two footmen + Randyll Tarly (4) and both footmen die.
    With Areo Hotah (3, no sword) Martell wins 6-4 and nobody dies."""
    s = finish(play(martell_attacks_the_reach(), martell="the-red-viper", tyrell="randyll-tarly"))
    assert result(s)["strength"] == {"martell": 7, "tyrell": 4} and len(losses(s, "tyrell")) == 2
    s = finish(play(martell_attacks_the_reach(), martell="areo-hotah", tyrell="randyll-tarly"))
    assert result(s)["strength"] == {"martell": 6, "tyrell": 4} and losses(s, "tyrell") == []


def test_the_red_viper_fortification_when_losing():
    """The Red Viper (红毒蛇): losing to Randyll Tarly (one sword), his fortification saves the
    footman; against Ser Garlan Tyrell (two swords) it dies."""
    s = finish(play(tyrell_attacks_dornish_marches(martell=("footman",)), tyrell="randyll-tarly", martell="the-red-viper"))
    assert result(s)["strength"] == {"tyrell": 8, "martell": 5} and losses(s, "martell") == []
    s = finish(play(tyrell_attacks_dornish_marches(martell=("footman",)), tyrell="ser-garlan-tyrell", martell="the-red-viper"))
    assert losses(s, "martell") == [["dornish-marches", "footman"]]


def test_areo_hotah_fortification_cancels_a_sword():
    """Areo Hotah (阿利欧·何塔): strength 3, one fortification, no text.

    Three Tyrell knights + Randyll Tarly (one sword) beat two footmen + Areo: the sword is
    cancelled and both footmen retreat. With Darkstar (no fortification) one dies."""
    s = finish(play(tyrell_attacks_dornish_marches(), tyrell="randyll-tarly", martell="areo-hotah"))
    assert result(s)["strength"] == {"tyrell": 8, "martell": 5} and losses(s, "martell") == []
    assert events(s, "retreat")[-1]["units"] == ["footman", "footman"]
    s = finish(play(tyrell_attacks_dornish_marches(), tyrell="randyll-tarly", martell="darkstar"))
    assert len(losses(s, "martell")) == 1


def test_obara_sand_strength_and_sword():
    """Obara Sand (奥芭娅·沙德): strength 2, one sword, no text.

    Knight + Obara (4) beat a footman + the Queen of Thorns (1): the sword kills it. With Arianne
    Martell (1, no sword, attacking) Martell wins 3-1 and the footman retreats."""
    s = finish(play(martell_attacks_the_reach(att=("knight",), tyrell=("footman",)), martell="obara-sand", tyrell="queen-of-thorns"))
    assert result(s)["strength"] == {"martell": 4, "tyrell": 1} and losses(s, "tyrell") == [["the-reach", "footman"]]
    s = finish(play(martell_attacks_the_reach(att=("knight",), tyrell=("footman",)), martell="arianne-martell", tyrell="queen-of-thorns"))
    assert losses(s, "tyrell") == [] and events(s, "retreat")[-1]["units"] == ["footman"]


def test_darkstar_strength_decides_the_winner():
    """Darkstar (暗星): strength 2, one sword, no text.

    Knight + Darkstar (4) beat two footmen + Margaery Tyrell (3; her fortification cancels the
    sword). With Nymeria Sand (1 + a sword) it is 3-3 and Tyrell wins the tie on Fiefdoms."""
    s = finish(play(martell_attacks_the_reach(att=("knight",)), martell="darkstar", tyrell="margaery-tyrell"))
    assert result(s)["strength"] == {"martell": 4, "tyrell": 3} and result(s)["winner"] == "martell"
    assert losses(s, "tyrell") == []
    s = finish(play(martell_attacks_the_reach(att=("knight",)), martell="nymeria-sand", tyrell="margaery-tyrell"))
    assert result(s)["winner"] == "tyrell"


def test_nymeria_sand_sword_when_attacking():
    """Nymeria Sand (娜梅莉亚·沙德): strength 1. "This card gets one fortification when you defend,
    or one sword when you attack."

    Attacking, knight + Nymeria (3) beat a footman + the Queen of Thorns (1) and her sword kills
    it."""
    s = finish(play(martell_attacks_the_reach(att=("knight",), tyrell=("footman",)), martell="nymeria-sand", tyrell="queen-of-thorns"))
    assert result(s)["winner"] == "martell" and losses(s, "tyrell") == [["the-reach", "footman"]]


def test_nymeria_sand_fortification_when_defending():
    """Nymeria Sand (娜梅莉亚·沙德): defending, her fortification cancels Randyll Tarly's sword (with
    Arianne Martell, who has none, a footman dies)."""
    s = finish(play(tyrell_attacks_dornish_marches(), tyrell="randyll-tarly", martell="nymeria-sand"))
    assert result(s)["winner"] == "tyrell" and losses(s, "martell") == []
    s = finish(play(tyrell_attacks_dornish_marches(), tyrell="randyll-tarly", martell="arianne-martell"))
    assert len(losses(s, "martell")) == 1


def test_arianne_martell_keeps_the_winner_out():
    """Arianne Martell (亚莲恩·马泰尔): strength 1. "If you defend and lose, the attackers may not
    enter and go back to where they marched from, although your units still retreat."

    Tyrell wins at Dornish Marches: the Martell footmen retreat, but the Tyrell knights stay in The
    Reach (standing, not routed) and Dornish Marches is left empty; Martell's Defense order and
    power token there are still removed as after any defeat. With Areo Hotah, Tyrell moves in."""
    sc = dict(orders={"dornish-marches": "defense-plus-one"}, power_tokens={"dornish-marches": "martell"})
    s = finish(play(tyrell_attacks_dornish_marches(**sc), tyrell="randyll-tarly", martell="arianne-martell"))
    assert result(s)["winner"] == "tyrell"
    assert units(s, "the-reach") == ["knight", "knight", "knight"] and units(s, "dornish-marches") == []
    assert s.power_tokens.get("dornish-marches") is None and "dornish-marches" not in s.orders
    assert len(losses(s, "martell")) == 1 and events(s, "retreat")[-1]["units"] == ["footman"]

    s = finish(play(tyrell_attacks_dornish_marches(**sc), tyrell="randyll-tarly", martell="areo-hotah"))
    assert units(s, "dornish-marches") == ["knight", "knight", "knight"] and units(s, "the-reach") == []


def test_arianne_martell_stops_ser_loras_march_order():
    """Arianne Martell against Ser Loras Tyrell (洛拉斯·提利尔爵士, the March order moves into the
    conquered area): the attackers do not enter, so there is no conquered area and the March order
    is removed as usual."""
    s = finish(play(tyrell_attacks_dornish_marches(), tyrell="ser-loras-tyrell", martell="arianne-martell"))
    assert result(s)["winner"] == "tyrell" and units(s, "the-reach") == ["knight", "knight", "knight"]
    assert s.orders == {} and ability_events(s, "ser-loras-tyrell") == []


def test_arianne_martell_attacking_does_nothing():
    """Arianne Martell (亚莲恩·马泰尔): only a defending Arianne keeps the winner out; attacking
    and losing, Martell simply retreats."""
    s = finish(play(martell_attacks_the_reach(att=("footman",), tyrell=("knight",)), martell="arianne-martell", tyrell="ser-loras-tyrell"))
    assert result(s)["winner"] == "tyrell" and units(s, "dornish-marches") == ["footman*"] and units(s, "the-reach") == ["knight"]


def test_doran_martell_moves_the_opponent_down_fiefdoms_and_wins_the_tie():
    """Doran Martell (道朗·马泰尔): strength 0. "At once move the opponent down to last place on any
    single influence track you pick."

    Knight + footman + Doran (3) against two footmen + Alester Florent (3): Tyrell, above Martell on
    Fiefdoms, would win the tie; Doran sends Tyrell to the bottom of Fiefdoms (the houses below move
    up, 调整势力条) and Martell wins the tie. Choosing the King's Court instead, Tyrell still wins."""
    s = play(martell_attacks_the_reach(), martell="doran-martell", tyrell="alester-florent")
    d = pending(s, "martell", "choose")[0]
    assert d.options["purpose"] == "doran-martell" and d.options["options"] == ["iron_throne", "fiefdoms", "kings_court"]
    assert d.options["positions"] == {"iron_throne": 6, "fiefdoms": 2, "kings_court": 5}
    s = finish(answer(s, "martell", "fiefdoms"))
    assert s.tracks["fiefdoms"] == ("greyjoy", "martell", "stark", "baratheon", "lannister", "tyrell")
    assert result(s)["strength"] == {"martell": 3, "tyrell": 3} and result(s)["winner"] == "martell"

    s = finish(answer(play(martell_attacks_the_reach(), martell="doran-martell", tyrell="alester-florent"), "martell", "kings_court"))
    assert s.tracks["kings_court"][-1] == "tyrell" and result(s)["winner"] == "tyrell"


def test_doran_martell_takes_the_valyrian_steel_blade_away():
    """Doran Martell (道朗·马泰尔) against the Blade holder: moved off position 1 of Fiefdoms,
    Greyjoy hands the Valyrian Steel Blade to the new leader (调整势力条), so it cannot use it in
    this combat. Without the move Greyjoy is asked whether to use it."""
    def start():
        return battle("martell", "riverrun", ("knight",), "greyjoy", "seagard", ("footman",))

    s = play(start(), martell="doran-martell", greyjoy="dagmar-cleftjaw")
    s = answer(s, "martell", "fiefdoms")
    assert s.holder("fiefdoms") == "tyrell" and pending(s, kind="use_blade") == []
    assert result(s)["strength"] == {"martell": 2, "greyjoy": 2} and result(s)["winner"] == "martell"

    s = answer(play(start(), martell="doran-martell", greyjoy="dagmar-cleftjaw"), "martell", "kings_court")
    assert pending(s, "greyjoy", "use_blade")


def test_doran_martell_resolves_before_stannis_is_counted():
    """Doran Martell against Stannis Baratheon (史坦尼斯·拜拉席恩, +1 if the opponent is higher on
    the Iron Throne): Doran acts on reveal, Stannis' bonus is judged at final strength, on the
    moved track. Sending Baratheon to the bottom of the Iron Throne gives Stannis his +1."""
    def start():
        return battle("baratheon", "kingswood", ("knight",), "martell", "the-boneway", ("knight", "knight"))

    s = finish(answer(play(start(), baratheon="stannis-baratheon", martell="doran-martell"), "martell", "iron_throne"))
    assert s.tracks["iron_throne"][-1] == "baratheon" and result(s)["strength"] == {"baratheon": 2 + 4 + 1, "martell": 4}
    s = finish(answer(play(start(), baratheon="stannis-baratheon", martell="doran-martell"), "martell", "kings_court"))
    assert result(s)["strength"] == {"baratheon": 6, "martell": 4}


def test_tyrion_cancels_doran_martell():
    """Doran Martell against Tyrion Lannister (提利昂·兰尼斯特): the cancel resolves first, Doran
    returns to Martell's hand and no track moves; Martell picks another card."""
    s = battle("lannister", "kingswood", ("knight",), "martell", "the-boneway", ("footman",))
    s = play(s, lannister="tyrion-lannister", martell="doran-martell")
    assert pending(s, "martell", "choose") == []
    before = dict(s.tracks)
    s = answer(s, "lannister", "cancel")
    s = finish(pick(s, "martell", "nymeria-sand"))
    assert s.tracks == before and "doran-martell" in s.hands["martell"] and ability_events(s, "doran-martell") == []
