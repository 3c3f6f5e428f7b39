"""葛雷乔伊家族卡牌 / House Greyjoy's seven house cards: each one deciding a combat.

Rulebook: 战斗 step 3 选择并打出家族卡牌 (conflicts: 忽略/取消 first, then turn order), 战斗符号,
伤亡, 计算总战力 (a card's text may change strength). Default position: 6 players, Iron Throne
Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell; Fiefdoms Greyjoy (Valyrian Steel Blade,
passed in these tests), Tyrell, Martell, Stark, Baratheon, Lannister: Greyjoy wins every tie.
"""

from .card_util import ability_events, answer, base, battle, events, finish, losses, pending, pick, play, result
from .combat_util import units


def greyjoy_attacks_riverrun(att=("footman", "knight"), stark=("footman", "footman"), **kw):
    return battle("greyjoy", "seagard", att, "stark", "riverrun", stark, **kw)


def stark_attacks_seagard(att=("footman", "footman"), greyjoy=("footman",), **kw):
    return battle("stark", "riverrun", att, "greyjoy", "seagard", greyjoy, **kw)


def test_euron_crows_eye_strength_and_sword():
    """Euron Crow's Eye (鸦眼攸伦): strength 4, one sword, no text.

    Footman + knight + Euron (7) beat two Stark footmen + Greatjon Umber (4); the sword kills one
    footman. Aeron Damphair kept (strength 0) loses 3-4 instead, and Greatjon's sword kills a
    Greyjoy unit."""
    s = finish(play(greyjoy_attacks_riverrun(), greyjoy="euron-crows-eye", stark="greatjon-umber"))
    assert result(s)["strength"] == {"greyjoy": 7, "stark": 4}
    assert losses(s, "stark") == [["riverrun", "footman"]] and units(s, "riverrun") == ["footman", "knight"]

    s = finish(answer(play(greyjoy_attacks_riverrun(), greyjoy="aeron-damphair", stark="greatjon-umber"), "greyjoy", "keep"))
    assert result(s)["strength"] == {"greyjoy": 3, "stark": 4} and len(losses(s, "greyjoy")) == 1


def test_victarion_greyjoy_doubles_attacking_and_supporting_greyjoy_ships():
    """Victarion Greyjoy (维克塔利昂·葛雷乔伊): strength 3. "If you are attacking, each of your
    attacking ships and each supporting Greyjoy ship adds 2 strength instead of 1."

    Two ships from Ironman's Bay attack three Lannister ships in the Golden Sound, with a Greyjoy
    ship supporting from the Sunset Sea: 2 + 1 + 3 (Victarion) + 3 (doubling) = 9 beats 3 + Tywin
    Lannister (4) = 7; without the doubling it would be 6."""
    s = battle("greyjoy", "ironmans-bay", ("ship", "ship"), "lannister", "the-golden-sound", ("ship", "ship", "ship"),
               extra={"sunset-sea": {"house": "greyjoy", "units": ["ship"]}}, orders={"sunset-sea": "support"}, supports={"sunset-sea": "attacker"})
    s = finish(play(s, greyjoy="victarion-greyjoy", lannister="tywin-lannister"))
    assert base(s) == {"greyjoy": 3, "lannister": 3}
    assert result(s)["strength"] == {"greyjoy": 9, "lannister": 7} and result(s)["winner"] == "greyjoy"


def test_victarion_greyjoy_defending_adds_nothing():
    """Victarion Greyjoy (维克塔利昂·葛雷乔伊): defending, his ships count 1 each."""
    s = battle("lannister", "the-golden-sound", ("ship", "ship"), "greyjoy", "ironmans-bay", ("ship", "ship"))
    s = finish(play(s, greyjoy="victarion-greyjoy", lannister="the-hound"))
    assert result(s)["strength"] == {"lannister": 4, "greyjoy": 5}


def test_theon_greyjoy_defending_a_castle_gains_strength_and_a_sword():
    """Theon Greyjoy (席恩·葛雷乔伊): strength 2. "If you are defending an area with a castle or
    stronghold, this card gains +1 strength and a sword icon."

    Seagard (stronghold): one footman + Theon 2 + 1 = 4 against two Stark footmen + Greatjon Umber
    (4): Greyjoy wins the tie on Fiefdoms and the sword kills a footman. In Greywater Watch (no
    castle) the same fight is 3 against 4 and Stark wins."""
    s = finish(play(stark_attacks_seagard(), stark="greatjon-umber", greyjoy="theon-greyjoy"))
    assert result(s)["strength"] == {"stark": 4, "greyjoy": 4} and result(s)["winner"] == "greyjoy"
    assert losses(s, "stark") == [["riverrun", "footman"]]

    s = battle("stark", "moat-cailin", ("footman", "footman"), "greyjoy", "greywater-watch", ("footman",))
    s = finish(play(s, stark="greatjon-umber", greyjoy="theon-greyjoy"))
    assert result(s)["strength"] == {"stark": 4, "greyjoy": 3} and result(s)["winner"] == "stark"


def test_theon_greyjoy_attacking_a_castle_gains_nothing():
    """Theon Greyjoy (席恩·葛雷乔伊): attacking a stronghold is not defending one."""
    s = finish(play(greyjoy_attacks_riverrun(), greyjoy="theon-greyjoy", stark="eddard-stark"))
    assert result(s)["strength"] == {"greyjoy": 5, "stark": 6}


def test_balon_greyjoy_zeroes_the_opponents_printed_strength():
    """Balon Greyjoy (巴隆·葛雷乔伊): strength 2. "The printed strength of your opponent's house card
    is 0."

    Eddard Stark's 4 counts 0: Greyjoy 3 + 2 = 5 beats Stark 2 + 0. With Theon Greyjoy (2, no text
    attacking) Greyjoy loses 5 to 6. Eddard's swords are not strength: they would still count."""
    s = finish(play(greyjoy_attacks_riverrun(), greyjoy="balon-greyjoy", stark="eddard-stark"))
    assert result(s)["strength"] == {"greyjoy": 5, "stark": 2} and result(s)["winner"] == "greyjoy"

    s = finish(play(greyjoy_attacks_riverrun(stark=("knight", "knight", "footman")), greyjoy="balon-greyjoy", stark="eddard-stark"))
    assert result(s)["strength"] == {"greyjoy": 5, "stark": 5} and result(s)["winner"] == "greyjoy"
    s = finish(play(greyjoy_attacks_riverrun(stark=("knight", "knight", "knight")), greyjoy="balon-greyjoy", stark="eddard-stark"))
    assert result(s)["winner"] == "stark" and len(losses(s, "greyjoy")) == 2


def test_balon_greyjoy_leaves_text_bonuses():
    """Balon Greyjoy against Ser Davos Seaworth (戴佛斯·席渥斯爵士, +1 strength and a sword with
    Stannis in the discard pile): only the printed 2 is zeroed, the +1 of Davos' text stays."""
    s = battle("greyjoy", "seagard", ("footman", "knight"), "baratheon", "riverrun", ("footman", "footman"),
               discards={"baratheon": ["stannis-baratheon"]},
               hands={"baratheon": ["renly-baratheon", "ser-davos-seaworth", "brienne-of-tarth", "salladhor-saan", "melisandre", "patchface"]})
    s = finish(play(s, greyjoy="balon-greyjoy", baratheon="ser-davos-seaworth"))
    assert result(s)["strength"] == {"greyjoy": 5, "baratheon": 2 + 0 + 1}


def test_asha_greyjoy_unsupported_gains_two_swords_and_a_fortification():
    """Asha Greyjoy (阿莎·葛雷乔伊): strength 1. "If nobody supports you in this combat, this card
    gains two sword icons and one fortification icon."

    Unsupported, Asha's two swords kill both Stark footmen. Supported by a Greyjoy ship in
    Ironman's Bay, Greyjoy wins by more but Asha has no icon: nobody dies."""
    s = finish(play(greyjoy_attacks_riverrun(), greyjoy="asha-greyjoy", stark="catelyn-stark"))
    assert result(s)["strength"] == {"greyjoy": 4, "stark": 2}
    assert len(losses(s, "stark")) == 2 and not events(s, "retreat")

    s = greyjoy_attacks_riverrun(extra={"ironmans-bay": {"house": "greyjoy", "units": ["ship"]}}, orders={"ironmans-bay": "support"}, supports={"ironmans-bay": "attacker"})
    s = finish(play(s, greyjoy="asha-greyjoy", stark="catelyn-stark"))
    assert result(s)["strength"] == {"greyjoy": 5, "stark": 2}
    assert losses(s, "stark") == [] and events(s, "retreat")[-1]["units"] == ["footman", "footman"]


def test_asha_greyjoy_fortification_when_losing():
    """Asha Greyjoy (阿莎·葛雷乔伊): the fortification icon cancels a sword when Asha loses."""
    s = finish(play(stark_attacks_seagard(att=("knight", "knight"), greyjoy=("footman", "footman")), stark="greatjon-umber", greyjoy="asha-greyjoy"))
    assert result(s)["winner"] == "stark" and losses(s, "greyjoy") == []


def test_dagmar_cleftjaw_fortification_cancels_a_sword():
    """Dagmar Cleftjaw (裂颚达格默): strength 1, one sword and one fortification, no text.

    Losing to Greatjon Umber (one sword) in Greywater Watch, Dagmar's fortification saves both
    footmen; with Victarion Greyjoy (no fortification) one dies."""
    def start():
        return battle("stark", "moat-cailin", ("knight", "knight"), "greyjoy", "greywater-watch", ("footman", "footman"))

    s = finish(play(start(), stark="greatjon-umber", greyjoy="dagmar-cleftjaw"))
    assert result(s)["winner"] == "stark" and losses(s, "greyjoy") == []
    s = finish(play(start(), stark="greatjon-umber", greyjoy="victarion-greyjoy"))
    assert result(s)["winner"] == "stark" and len(losses(s, "greyjoy")) == 1


def test_dagmar_cleftjaw_sword_when_winning():
    """Dagmar Cleftjaw (裂颚达格默): his sword kills a unit when Greyjoy wins (3 + 1 vs 2 + 0)."""
    s = finish(play(greyjoy_attacks_riverrun(), greyjoy="dagmar-cleftjaw", stark="catelyn-stark"))
    assert result(s)["winner"] == "greyjoy" and len(losses(s, "stark")) == 1


def test_aeron_damphair_pays_two_power_to_swap_his_card():
    """Aeron Damphair (湿发伊伦): strength 0. "You may immediately discard two of your available
    power tokens to discard Aeron and choose a different house card from your hand."

    Defending Seagard with two footmen against Stark (4 + Greatjon 2 = 6), Greyjoy pays two power
    (5 -> 3) and swaps Aeron for Euron Crow's Eye: 2 + 4 = 6, Greyjoy wins on Fiefdoms and Euron's
    sword kills a knight. Both Aeron and Euron end in the discard pile. Keeping Aeron loses 2-6."""
    s = play(stark_attacks_seagard(att=("knight", "knight"), greyjoy=("footman", "footman")), stark="greatjon-umber", greyjoy="aeron-damphair")
    d = pending(s, "greyjoy", "choose")[0]
    assert d.options["purpose"] == "aeron-damphair" and d.options["options"] == ["swap", "keep"] and d.options["cost"] == 2
    s = answer(s, "greyjoy", "swap")
    assert s.power["greyjoy"] == 3 and s.discards["greyjoy"] == ("aeron-damphair",)
    d = pending(s, "greyjoy", "choose_house_card")[0]
    assert "aeron-damphair" not in d.options["cards"]
    s = finish(pick(s, "greyjoy", "euron-crows-eye"))
    assert result(s)["strength"] == {"stark": 6, "greyjoy": 6} and result(s)["winner"] == "greyjoy"
    assert losses(s, "stark") == [["riverrun", "knight"]]
    assert sorted(s.discards["greyjoy"]) == ["aeron-damphair", "euron-crows-eye"]

    s = finish(answer(play(stark_attacks_seagard(att=("knight", "knight"), greyjoy=("footman", "footman")), stark="greatjon-umber", greyjoy="aeron-damphair"), "greyjoy", "keep"))
    assert result(s)["strength"] == {"stark": 6, "greyjoy": 2} and s.power["greyjoy"] == 5


def test_aeron_damphair_needs_two_available_power():
    """Aeron Damphair (湿发伊伦): with only one available power token there is no swap to offer."""
    s = finish(play(stark_attacks_seagard(power={"greyjoy": 1}), stark="greatjon-umber", greyjoy="aeron-damphair"))
    assert pending(s, "greyjoy", "choose") == [] and result(s)["winner"] == "stark" and s.power["greyjoy"] == 1


def test_tyrion_cancels_aeron_before_the_swap():
    """Aeron Damphair against Tyrion Lannister (提利昂·兰尼斯特, cancels the opponent's card):
    cancelling ("取消") resolves first (家族卡牌 ①), so Aeron goes back to Greyjoy's hand unused:
    no power is paid, and Greyjoy picks another card (not Aeron)."""
    s = battle("lannister", "riverrun", ("footman", "footman"), "greyjoy", "seagard", ("footman",))
    s = play(s, lannister="tyrion-lannister", greyjoy="aeron-damphair")
    assert pending(s, "greyjoy", "choose") == []
    s = answer(s, "lannister", "cancel")
    assert "aeron-damphair" in s.hands["greyjoy"] and "aeron-damphair" not in pending(s, "greyjoy", "choose_house_card")[0].options["cards"]
    s = finish(pick(s, "greyjoy", "dagmar-cleftjaw"))
    assert s.power["greyjoy"] == 5 and ability_events(s, "aeron-damphair") == []
    assert result(s)["strength"] == {"lannister": 3, "greyjoy": 2}


def test_aeron_damphair_cannot_bring_back_a_card_tyrion_cancelled():
    """Tyrion Lannister cancels Euron Crow's Eye; Greyjoy picks Aeron Damphair instead. Aeron's swap
    ("choose a different house card from your hand") may not bring Euron back: a card Tyrion
    cancelled takes no part in this combat (reading chosen, game/data/agot2/README.md)."""
    s = battle("lannister", "riverrun", ("footman", "footman"), "greyjoy", "seagard", ("footman",))
    s = answer(play(s, lannister="tyrion-lannister", greyjoy="euron-crows-eye"), "lannister", "cancel")
    s = pick(s, "greyjoy", "aeron-damphair")
    d = pending(s, "greyjoy", "choose")[0]
    assert "euron-crows-eye" not in d.options["cards"] and "euron-crows-eye" in s.hands["greyjoy"]
    s = answer(s, "greyjoy", "swap")
    assert "euron-crows-eye" not in pending(s, "greyjoy", "choose_house_card")[0].options["cards"]
    s = finish(pick(s, "greyjoy", "balon-greyjoy"))
    assert result(s)["strength"] == {"lannister": 3 - 1, "greyjoy": 1 + 2}
    assert "euron-crows-eye" in s.hands["greyjoy"] and sorted(s.discards["greyjoy"]) == ["aeron-damphair", "balon-greyjoy"]


def test_aeron_damphair_with_only_the_cancelled_card_left_cannot_swap():
    """Aeron Damphair after Tyrion cancelled Greyjoy's only other card: nothing to swap to, so no
    swap is offered (and no power is spent)."""
    s = battle("lannister", "riverrun", ("footman", "footman"), "greyjoy", "seagard", ("footman",),
               hands={"greyjoy": ["euron-crows-eye", "aeron-damphair"]},
               discards={"greyjoy": ["victarion-greyjoy", "balon-greyjoy", "theon-greyjoy", "dagmar-cleftjaw", "asha-greyjoy"]})
    s = answer(play(s, lannister="tyrion-lannister", greyjoy="euron-crows-eye"), "lannister", "cancel")
    s = finish(pick(s, "greyjoy", "aeron-damphair"))
    assert pending(s, "greyjoy", "choose") == [] and s.power["greyjoy"] == 5
    assert result(s)["strength"] == {"lannister": 3, "greyjoy": 1}
