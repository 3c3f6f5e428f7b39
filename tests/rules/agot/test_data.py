"""The data loader validates the files and fails loudly on a bad one."""

import copy

import pytest

from game.rules.agot.data import DataError, board, load_raw, validate


def test_board_counts():
    b = board()
    assert len(b.areas) == 58
    assert len(b.castle_areas) == 20
    assert len(b.order_pool) == 15
    assert {k: len(v) for k, v in b.westeros_decks.items()} == {"I": 10, "II": 10, "III": 10}
    assert len(b.wildling_cards) == 9
    assert len(b.house_cards) == 42


def test_adjacency_symmetric():
    b = board()
    for a, nb in b.adjacent.items():
        for n in nb:
            assert a in b.adjacent[n]


@pytest.mark.parametrize(
    "breaker, fragment",
    [
        (lambda r: r["adjacency"]["pairs"].append(["winterfell", "nowhere"]), "unknown area"),
        (lambda r: r["adjacency"]["pairs"].append(["winterfell", "winterfell"]), "bad pair"),
        (lambda r: r["adjacency"]["pairs"].append(list(r["adjacency"]["pairs"][0])), "duplicate pair"),
        (lambda r: r["areas"].pop(), "expected 38 land"),
        (lambda r: r["houses"][0]["house_cards"].pop(), "7 house cards"),
        (lambda r: r["westeros"]["decks"]["I"][0].update(count=9), "10 cards"),
        (lambda r: r["setups"]["player_counts"]["4"]["influence_tracks"]["fiefdoms"].pop(), "track fiefdoms"),
        (lambda r: r["areas"][0].pop("kind"), "lacks key"),
        (lambda r: r["houses"][0]["house_cards"][1].update(ability_zh=None), "no Chinese text"),
        (lambda r: r["houses"][0]["house_cards"][1].update(ability_zh="On a win..."), "no Chinese text"),
        (lambda r: r["houses"][0]["house_cards"][0].update(ability_zh="胜利"), "no English one"),
    ],
)
def test_bad_data_fails_loudly(breaker, fragment):
    raw = copy.deepcopy(load_raw())
    breaker(raw)
    with pytest.raises(DataError, match=fragment):
        validate(raw)


def test_every_house_card_ability_has_a_chinese_text():
    """The 24 cards with a text ability carry a Chinese text (ours) in the rulebook's terms."""
    cards = board().house_cards.values()
    with_text = [c for c in cards if c["ability"]]
    assert len(with_text) == 24
    for c in cards:
        if c["ability"]:
            assert c["ability_zh"] and c["ability_zh"] != c["ability"]
            assert any("\u4e00" <= ch <= "\u9fff" for ch in c["ability_zh"])
        else:
            assert c.get("ability_zh") is None
    zh = {c["id"]: c["ability_zh"] for c in with_text}
    assert "利剑" in zh["the-blackfish"] and "战局卡牌" in zh["the-blackfish"]
    assert "王权势力条" in zh["stannis-baratheon"]
    assert "权力池" in zh["tywin-lannister"]
    assert "行军指令" in zh["ser-loras-tyrell"]
