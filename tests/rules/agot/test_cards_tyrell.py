"""提利尔家族卡牌 / House Tyrell's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌 (conflicts: 忽略/取消 first, then turn order), 计算总战力
("如果一张打出的家族卡牌消灭了对方的一个步兵，在本步骤中对方的基础战力下降1点"), 战斗符号, 伤亡,
清理战场. Default position: 6 players, Iron Throne Baratheon, Lannister, Stark, Martell, Greyjoy,
Tyrell; Fiefdoms Greyjoy, Tyrell, Martell, Stark, Baratheon, Lannister (Tyrell wins ties against
Lannister and Stark).
"""

from .card_util import ability_events, answer, base, battle, events, finish, losses, pending, play, result
from .combat_util import march, units

LANNISTER_FIRST = {"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]}


def tyrell_attacks_blackwater(att=("knight", "knight"), lannister=("footman",), **kw):
    return battle("tyrell", "the-reach", att, "lannister", "blackwater", lannister, **kw)


def lannister_attacks_the_reach(att=("knight", "knight", "knight"), tyrell=("footman", "knight"), **kw):
    return battle("lannister", "blackwater", att, "tyrell", "the-reach", tyrell, **kw)


def test_mace_tyrell_kills_a_footman_before_the_fight():
    """Mace Tyrell (梅斯·提利尔): strength 4. "Immediately destroy one of your opponent's attacking
    or defending footmen."

    Tyrell (knight + Mace = 6) attacks two Lannister footmen (Tywin: 2 + 4 = 6, Lannister first on
    Fiefdoms so it would win the tie). Mace kills a footman on reveal, the base is recounted
    (2 -> 1) and Tyrell wins 6-5. Against two Lannister knights there is no footman to kill."""
    s = play(tyrell_attacks_blackwater(att=("knight",), lannister=("footman", "footman"), tracks=LANNISTER_FIRST), tyrell="mace-tyrell", lannister="tywin-lannister")
    assert base(s) == {"tyrell": 2, "lannister": 2}
    assert ability_events(s, "mace-tyrell")[0]["effect"] == "destroy_footman"
    assert events(s, "casualties")[0] == {**events(s, "casualties")[0], "house": "lannister", "source": "ability", "units": [["blackwater", "footman"]]}
    s = finish(s)
    assert result(s)["strength"] == {"tyrell": 6, "lannister": 5} and result(s)["winner"] == "tyrell"

    s = finish(play(tyrell_attacks_blackwater(att=("knight",), lannister=("knight",), tracks=LANNISTER_FIRST), tyrell="mace-tyrell", lannister="tywin-lannister"))
    assert ability_events(s, "mace-tyrell") == [] and result(s)["winner"] == "lannister"


def test_mace_tyrell_kills_the_last_defender_whose_order_goes_at_clean_up():
    """Mace Tyrell destroys the defender's only unit, a footman, before the fight: the combat
    still resolves (Lannister's strength 0 + its card), Tyrell wins, and the clean-up (清理战场)
    removes Lannister's order from the emptied area; Tyrell's knight advances into it. (Found by
    the self-play invariants, which check the order's stay mid-combat: 6 players, seed 466, mixed
    bots, an example of ``test_random_games_to_the_end_keep_invariants``.)"""
    s = finish(play(tyrell_attacks_blackwater(att=("knight",), lannister=("footman",)), tyrell="mace-tyrell", lannister="the-hound"))
    assert events(s, "casualties")[0]["units"] == [["blackwater", "footman"]]
    assert result(s)["winner"] == "tyrell"
    assert s.orders.get("blackwater", ("tyrell",))[0] != "lannister"
    assert s.owner("blackwater") == "tyrell" and units(s, "blackwater") == ["knight"]


def test_mace_tyrell_defending_kills_an_attacking_footman_not_a_supporting_one():
    """Mace Tyrell (梅斯·提利尔): the footman may be an attacker (it dies in its March origin); a
    supporting footman is neither attacking nor defending."""
    s = lannister_attacks_the_reach(att=("footman", "knight"), tyrell=("knight",))
    s = finish(play(s, lannister="the-hound", tyrell="mace-tyrell"))
    assert losses(s, "lannister")[0] == ["blackwater", "footman"]
    assert result(s)["strength"] == {"lannister": 2 + 2, "tyrell": 2 + 4}

    s = lannister_attacks_the_reach(att=("knight",), tyrell=("knight",), extra={"kingswood": {"house": "lannister", "units": ["footman"]}},
                                    orders={"kingswood": "support"}, supports={"kingswood": "attacker"})
    s = finish(play(s, lannister="the-hound", tyrell="mace-tyrell"))
    assert ability_events(s, "mace-tyrell") == [] and units(s, "kingswood") == ["footman"]
    assert result(s)["strength"]["lannister"] == 2 + 1 + 2


def test_the_blackfish_prevents_mace_tyrell():
    """Mace Tyrell against The Blackfish (黑鱼, "your units suffer no losses in this fight from
    swords, card abilities or Tides of Battle skulls"): no footman dies and Stark keeps its base
    strength. Against Ser Rodrik Cassel a footman dies."""
    def start():
        return battle("tyrell", "seagard", ("knight", "knight"), "stark", "riverrun", ("footman", "footman"))

    s = finish(play(start(), tyrell="mace-tyrell", stark="the-blackfish"))
    assert ability_events(s, "mace-tyrell")[0]["effect"] == "destroy_footman_prevented"
    assert losses(s, "stark") == [] and result(s)["strength"] == {"tyrell": 8, "stark": 3}
    assert events(s, "retreat")[-1]["units"] == ["footman", "footman"]

    s = finish(play(start(), tyrell="mace-tyrell", stark="ser-rodrik-cassel"))
    assert losses(s, "stark") == [["riverrun", "footman"]] and result(s)["strength"] == {"tyrell": 8, "stark": 2}


def test_ser_loras_tyrell_march_order_follows_the_attack():
    """Ser Loras Tyrell (洛拉斯·提利尔爵士): strength 3. "If you are attacking and win, the March
    order moves into the conquered area instead of being removed; it may be resolved again later
    this round."

    Tyrell takes Blackwater: its March order now stands in Blackwater (not removed from The Reach)
    and Tyrell is asked to resolve it again. With Randyll Tarly the order is removed and no march
    is left."""
    s = finish(play(tyrell_attacks_blackwater(), tyrell="ser-loras-tyrell", lannister="ser-jaime-lannister"))
    assert result(s)["winner"] == "tyrell" and units(s, "blackwater") == ["knight", "knight"]
    assert s.orders.get("blackwater") == ("tyrell", "march") and "the-reach" not in s.orders
    d = pending(s, "tyrell", "march")[0]
    assert list(d.options["marches"]) == ["blackwater"]
    s = march(s, "tyrell", "blackwater", "searoad-marches", ["knight"])  # resolved again: one knight moves on
    assert units(s, "searoad-marches") == ["knight"] and units(s, "blackwater") == ["knight"] and "blackwater" not in s.orders
    s = finish(play(tyrell_attacks_blackwater(), tyrell="randyll-tarly", lannister="ser-jaime-lannister"))
    assert "blackwater" not in s.orders and "the-reach" not in s.orders and pending(s, "tyrell", "march") == []


def test_ser_loras_tyrell_defending_moves_nothing():
    """Ser Loras Tyrell (洛拉斯·提利尔爵士): defending and winning, the attacker's March order is
    removed as usual (it is not Tyrell's March order)."""
    s = finish(play(lannister_attacks_the_reach(att=("knight",)), lannister="the-hound", tyrell="ser-loras-tyrell"))
    assert result(s)["winner"] == "tyrell" and s.orders == {}


def test_ser_garlan_tyrell_two_swords():
    """Ser Garlan Tyrell (加兰·提利尔爵士): strength 2, two swords, no text.

    Tyrell (knight + footman + Garlan = 5) beats two Lannister footmen + Cersei (2): both footmen
    die. With Randyll Tarly (one sword) one dies and one retreats."""
    s = finish(play(tyrell_attacks_blackwater(att=("knight", "footman"), lannister=("footman", "footman")), tyrell="ser-garlan-tyrell", lannister="cersei-lannister"))
    assert len(losses(s, "lannister")) == 2 and not events(s, "retreat")
    s = finish(play(tyrell_attacks_blackwater(att=("knight", "footman"), lannister=("footman", "footman")), tyrell="randyll-tarly", lannister="cersei-lannister"))
    assert len(losses(s, "lannister")) == 1 and events(s, "retreat")[-1]["units"] == ["footman"]


def test_randyll_tarly_strength_and_sword():
    """Randyll Tarly (蓝道·塔利): strength 2, one sword, no text.

    Knight + footman + Randyll (5) beat two footmen + Ser Jaime (4): one footman dies. With
    Alester Florent (1, no sword) Tyrell still wins the 4-4 tie on Fiefdoms, without casualties."""
    s = finish(play(tyrell_attacks_blackwater(att=("knight", "footman"), lannister=("footman", "footman")), tyrell="randyll-tarly", lannister="ser-jaime-lannister"))
    assert result(s)["strength"] == {"tyrell": 5, "lannister": 4} and len(losses(s, "lannister")) == 1
    s = finish(play(tyrell_attacks_blackwater(att=("knight", "footman"), lannister=("footman", "footman")), tyrell="alester-florent", lannister="ser-jaime-lannister"))
    assert result(s)["tie"] and result(s)["winner"] == "tyrell" and losses(s, "lannister") == []


def test_alester_florent_fortification_saves_a_unit():
    """Alester Florent (艾利斯特·佛罗伦): strength 1, one fortification, no text.

    Defending The Reach against three knights and Ser Jaime: Alester's fortification cancels the
    sword, footman and knight both retreat. With the Queen of Thorns one of them dies."""
    s = finish(play(lannister_attacks_the_reach(), lannister="ser-jaime-lannister", tyrell="alester-florent"))
    assert result(s)["winner"] == "lannister" and losses(s, "tyrell") == []
    assert sorted(events(s, "retreat")[-1]["units"]) == ["footman", "knight"]
    s = finish(play(lannister_attacks_the_reach(), lannister="ser-jaime-lannister", tyrell="queen-of-thorns"))
    assert len(losses(s, "tyrell")) == 1


def test_margaery_tyrell_fortification():
    """Margaery Tyrell (玛格丽·提利尔): strength 1, one fortification, no text.

    Losing The Reach to Ser Jaime, her fortification cancels his sword and both defenders retreat
    (with the Queen of Thorns one dies). Winning (knight + Margaery 3 against a footman + Cersei
    1) she has no sword: the footman retreats alive."""
    s = finish(play(lannister_attacks_the_reach(), lannister="ser-jaime-lannister", tyrell="margaery-tyrell"))
    assert result(s)["winner"] == "lannister" and losses(s, "tyrell") == []
    s = finish(play(lannister_attacks_the_reach(), lannister="ser-jaime-lannister", tyrell="queen-of-thorns"))
    assert len(losses(s, "tyrell")) == 1
    s = finish(play(tyrell_attacks_blackwater(att=("knight",)), tyrell="margaery-tyrell", lannister="cersei-lannister"))
    assert result(s)["winner"] == "tyrell" and losses(s, "lannister") == [] and events(s, "retreat")[-1]["units"] == ["footman"]


def queen_position():
    """Lannister (knight) marches from Harrenhal into Blackwater (Tyrell knight), supported from
    Stoney Sept (knight); Lannister also has a Raid order in Crackclaw Point."""
    return battle("lannister", "harrenhal", ("knight",), "tyrell", "blackwater", ("knight",),
                  extra={"stoney-sept": {"house": "lannister", "units": ["knight"]}, "crackclaw-point": {"house": "lannister", "units": ["footman"]}},
                  orders={"stoney-sept": "support", "crackclaw-point": "raid"}, supports={"stoney-sept": "attacker"})


def test_queen_of_thorns_removes_the_supporting_order():
    """Queen of Thorns (荆棘女王): strength 0. "Immediately remove one of your opponent's order
    tokens in an area adjacent to the embattled area, except the March order that started this
    combat."

    Tyrell chooses between Lannister's Support (Stoney Sept) and Raid (Crackclaw Point), not the
    March in Harrenhal. Removing the Support takes its 2 away: 2-2, Tyrell wins on Fiefdoms.
    Removing the Raid instead leaves Lannister 4-2 ahead."""
    s = play(queen_position(), lannister="cersei-lannister", tyrell="queen-of-thorns")
    assert base(s) == {"lannister": 4, "tyrell": 2}
    d = pending(s, "tyrell", "choose")[0]
    assert d.options["purpose"] == "queen-of-thorns" and d.options["options"] == ["crackclaw-point", "stoney-sept"]
    s = finish(answer(s, "tyrell", "stoney-sept"))
    assert "stoney-sept" not in s.orders and s.orders["crackclaw-point"] == ("lannister", "raid")
    assert result(s)["strength"] == {"lannister": 2, "tyrell": 2} and result(s)["winner"] == "tyrell"

    s = finish(answer(play(queen_position(), lannister="cersei-lannister", tyrell="queen-of-thorns"), "tyrell", "crackclaw-point"))
    assert "crackclaw-point" not in s.orders and result(s)["winner"] == "lannister"


def test_queen_of_thorns_single_order_removed_without_asking():
    """Queen of Thorns (荆棘女王): the text is mandatory; with one order in reach it goes at once."""
    s = battle("lannister", "harrenhal", ("knight",), "tyrell", "blackwater", ("knight",),
               extra={"stoney-sept": {"house": "lannister", "units": ["knight"]}}, orders={"stoney-sept": "support"}, supports={"stoney-sept": "attacker"})
    s = play(s, lannister="cersei-lannister", tyrell="queen-of-thorns")
    assert pending(s, "tyrell", "choose") == [] and "stoney-sept" not in s.orders
    assert [e["area"] for e in events(s, "order_removed")] == ["stoney-sept"]
    s = finish(s)
    assert result(s)["winner"] == "tyrell"


def test_queen_of_thorns_removing_ashas_support_gives_her_icons():
    """Queen of Thorns against Asha Greyjoy (阿莎·葛雷乔伊, two swords and a fortification if
    nobody supports her): Queen of Thorns removes the Greyjoy Support order (Ironman's Bay), so
    Asha is no longer supported: the Greyjoy win (3 + 1 against 1) now comes with two swords."""
    def start():
        return battle("greyjoy", "seagard", ("footman", "knight"), "tyrell", "riverrun", ("footman",),
                      extra={"ironmans-bay": {"house": "greyjoy", "units": ["ship"]}}, orders={"ironmans-bay": "support"},
                      supports={"ironmans-bay": "attacker"})

    s = finish(play(start(), greyjoy="asha-greyjoy", tyrell="queen-of-thorns"))
    assert "ironmans-bay" not in s.orders
    assert result(s)["strength"] == {"greyjoy": 4, "tyrell": 1} and losses(s, "tyrell") == [["riverrun", "footman"]]

    s = finish(play(start(), greyjoy="asha-greyjoy", tyrell="alester-florent"))
    assert result(s)["strength"] == {"greyjoy": 5, "tyrell": 2} and losses(s, "tyrell") == []
