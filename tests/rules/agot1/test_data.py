"""The 1st edition's data (game/data/agot1): what it holds, what it inherits from the 2nd
edition, and that every reconstructed fact is marked (docs/agot1.md explains each)."""

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from game.rules.agot.data import DATA_ROOT, DataError, board, load_raw, validate
from game.rules.agot.house_cards import ABILITIES

#: (strength, swords, fortifications, has a text) per card: the 1st edition's reference (docs/agot1.md, House cards)
CARDS = {
    "stark": {"eddard-stark": (3, 0, 2, False), "robb-stark": (2, 0, 0, True), "greatjon-umber": (2, 1, 0, False), "lord-mormont": (1, 1, 0, False),
              "ser-rodrik-cassel": (1, 0, 1, False), "catelyn-stark": (0, 0, 0, True), "maester-luwin": (0, 0, 0, True)},
    "greyjoy": {"euron-crows-eye": (3, 2, 0, False), "asha-greyjoy": (2, 0, 0, True), "theon-greyjoy": (2, 1, 0, False), "blacktyde-captain": (1, 0, 1, False),
                "aeron-damphair": (1, 0, 1, False), "victarion-greyjoy": (0, 0, 0, True), "balon-greyjoy": (0, 0, 0, True)},
    "lannister": {"tywin-lannister": (3, 2, 0, False), "ser-jaime-lannister": (2, 0, 0, True), "tyrion-lannister": (2, 0, 1, False), "kevan-lannister": (1, 1, 0, False),
                  "lannister-captain": (1, 1, 0, False), "vargo-hoat": (0, 0, 0, True), "cersei-lannister": (0, 0, 0, True)},
    "baratheon": {"stannis-baratheon": (3, 1, 1, False), "renly-baratheon": (2, 0, 0, True), "ser-davos-seaworth": (2, 0, 1, False), "ser-axell-florent": (1, 1, 0, False),
                  "house-florent-lord": (1, 1, 0, False), "salladhor-saan": (0, 0, 0, True), "melisandre": (0, 0, 0, True)},
    "tyrell": {"mace-tyrell": (3, 2, 0, False), "ser-loras-tyrell": (2, 0, 0, True), "ser-garlan-tyrell": (2, 1, 0, False), "tyrell-captain": (1, 1, 0, False),
               "margaery-tyrell": (1, 0, 1, False), "brienne-of-tarth": (0, 0, 0, True), "queen-of-thorns": (0, 0, 0, True)},
}


def test_counts():
    b = board("agot1")
    kinds = Counter(a.kind for a in b.areas.values())
    assert (kinds["land"], kinds["sea"], kinds["port"]) == (34, 11, 0)
    assert set(b.houses) == set(CARDS) and len(b.house_cards) == 35
    assert {k: len(v) for k, v in b.westeros_decks.items()} == {"I": 10, "II": 10, "III": 10}
    assert b.wildling_cards == {}
    assert b.unit_limits == {"footman": 10, "knight": 4, "ship": 5}
    assert set(b.unit_strength) == {"footman", "knight", "ship"}


def test_the_35_house_cards():
    b = board("agot1")
    for house, cards in CARDS.items():
        assert [c["id"] for c in b.houses[house]["house_cards"]] == list(cards)
        for cid, (st, sw, fo, text) in cards.items():
            c = b.house_cards[cid]
            assert (c["strength"], c["swords"], c["fortifications"], bool(c["ability"])) == (st, sw, fo, text), cid
            assert bool(c["ability_key"]) == text and (not text or c["ability_key"] in ABILITIES), cid
        # every house: one 3, two 2s, two 1s, two 0s (the reference, section 1)
        assert sorted(st for st, *_ in cards.values()) == [0, 0, 1, 1, 2, 2, 3]


def test_shared_facts_are_inherited_not_copied():
    """Order tokens, the supply track, power tokens and mustering points are the 2nd edition's
    (game/data/agot1 has no copy of them); names of shared cards and areas too."""
    b1, b2 = board("agot1"), board("agot2")
    assert b1.order_pool == b2.order_pool and b1.order_tokens == b2.order_tokens
    assert b1.supply_limits == b2.supply_limits
    assert b1.tracks["power_tokens"] == b2.tracks["power_tokens"] and b1.tracks["mustering_points"] == b2.tracks["mustering_points"]
    own = json.loads((DATA_ROOT / "agot1" / "tracks.json").read_text(encoding="utf-8"))
    assert not {"supply_track", "power_tokens", "mustering_points"} & set(own)
    assert "tokens" not in own["order_tokens"]
    for deck, cards in json.loads((DATA_ROOT / "agot1" / "westeros_cards.json").read_text(encoding="utf-8"))["decks"].items():
        for c in cards:
            assert set(c) <= {"id", "count", "wildling_icon", "reconstructed"}, c
    assert not (DATA_ROOT / "agot1" / "tides_of_battle.json").exists()
    assert b1.westeros_cards["supply"]["effect_zh"] == b2.westeros_cards["supply"]["effect_zh"]


def test_westeros_decks_eleven_types():
    """维斯特洛卡表: eleven card types; Winter is Coming and Last Days of Summer in all three decks
    ("牌叠I、II和III中都有"); Wildling Attack in deck III ("当牌叠III出现「野蛮人入侵」卡时")."""
    b = board("agot1")
    ids = {c for cards in b.westeros_decks.values() for c in cards}
    assert ids == {"winter-is-coming", "last-days-of-summer", "sea-of-storms", "storm-of-swords", "supply", "clash-of-kings",
                   "feast-for-crows", "wildlings-attack", "mustering", "game-of-thrones", "rains-of-autumn"}
    for deck in ("I", "II", "III"):
        assert {"winter-is-coming", "last-days-of-summer"} <= set(b.westeros_decks[deck])
    assert "wildlings-attack" in b.westeros_decks["III"]
    assert b.westeros_cards["rains-of-autumn"]["effect_key"] == "footmen_give_no_support"


def test_reconstructed_facts_are_marked():
    raw = load_raw("agot1")
    for cards in raw["westeros"]["decks"].values():
        assert all(c.get("reconstructed") is True for c in cards)  # copies and wildling icons
    wt = raw["tracks"]["wildling_track"]
    assert wt["start"] == 0 and wt["reconstructed"] is True and {"max", "step_per_icon", "positions"} <= set(wt["reconstructed_fields"])
    note = raw["tracks"]["unit_limits_note"]
    assert note["reconstructed"] is True and note["reconstructed_fields"] == ["ship"]
    for h in raw["houses"]:
        assert h["starting_supply_reconstructed"] is True
    bar = {c["id"]: c for c in next(h for h in raw["houses"] if h["id"] == "baratheon")["house_cards"]}
    assert bar["renly-baratheon"]["reconstructed"] and bar["ser-davos-seaworth"]["reconstructed"]
    assert bar["house-florent-lord"]["reconstructed"] and bar["salladhor-saan"]["reconstructed"]
    for n in ("3", "4", "5"):
        assert "kings_court_stars_reconstructed" not in raw["setups"]["player_counts"][n]  # the rulebook's last place


def test_single_source_facts_are_marked():
    """Facts from one source only (NUTIS, of "medium" confidence: docs/agot1.md) carry
    ``<field>_single_source``: the neutral forces of King's Landing and The Eyrie, the start
    tracks and units of every house but Lannister (the rulebook's setup example), the King's Court
    stars the rulebook does not give."""
    raw = load_raw("agot1")
    setups = raw["setups"]
    assert set(setups["influence_tracks_5p_single_source"]["houses"]) == {"stark", "greyjoy", "baratheon", "tyrell"}
    for n, positions in (("3", [1, 2]), ("4", [1, 2]), ("5", [1, 2, 4])):
        s = setups["player_counts"][n]
        assert s["neutral_forces_single_source"]["areas"] == ["kings-landing", "the-eyrie"]
        assert s["neutral_forces_single_source"]["source"] == "NUTIS"
        assert set(s["influence_tracks_single_source"]["houses"]) == set(s["houses"]) - {"lannister"}
        assert s["kings_court_stars_single_source"]["positions"] == positions
    for h in raw["houses"]:
        assert h.get("starting_units_single_source") == (None if h["id"] == "lannister" else "NUTIS"), h["id"]


def test_setups():
    """特殊令牌, 附注: "在宫廷影响区居末位的玩家不可使用任何特殊令牌" - the last place has no star with
    any number of players; the others keep the board's printed stars."""
    b = board("agot1")
    for n, stars in (("3", [3, 3, 0]), ("4", [3, 3, 2, 0]), ("5", [3, 3, 2, 1, 0])):
        s = b.setups["player_counts"][n]
        assert s["kings_court_stars"] == stars
        assert s["neutral_forces"] == {"kings-landing": 5, "the-eyrie": 6, "sunspear": 5}
    assert b.setups["player_counts"]["3"]["victory_points_to_win"] == 8


def test_board_pairs_against_the_2nd_edition():
    """docs/agot1.md, Board: of the 2nd edition's 96 pairs between areas both boards have, the 1st
    edition keeps 95 (not Highgarden-Redwyne Straights) and has 16 of its own: 111 pairs."""
    b1, b2 = board("agot1"), board("agot2")
    shared = set(b1.areas) & set(b2.areas)

    def pairs(b):
        return {frozenset((a, n)) for a in b.adjacent for n in b.adjacent[a] if a in b.areas and n in b.areas}

    p1, p2 = pairs(b1), {p for p in pairs(b2) if p <= shared}
    assert (len(p1), len(p2), len(p1 & p2), len(p1 - p2)) == (111, 96, 95, 16)
    assert p2 - p1 == {frozenset(("highgarden", "redwyne-straights"))}


@pytest.mark.parametrize("breaker, fragment", [
    (lambda r: r["houses"].pop(), "expected the 5 houses"),
    (lambda r: r["areas"].pop(), "expected 34 land, 11 sea and 0 port areas"),
    (lambda r: r["houses"][0]["house_cards"].pop(), "7 house cards"),
    (lambda r: r["setups"]["player_counts"].pop("4"), "no setup for 4 players"),
    (lambda r: r["houses"][0]["starting_units"].append({"area": "winterfell", "type": "siege_engine"}), "bad starting unit"),
])
def test_bad_1st_edition_data_fails_loudly(breaker, fragment):
    raw = copy.deepcopy(load_raw("agot1"))
    breaker(raw)
    with pytest.raises(DataError, match=fragment):
        validate(raw, "agot1")
