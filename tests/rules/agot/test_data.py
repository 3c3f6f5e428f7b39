"""The data loader validates the files and fails loudly on a bad one."""

import copy
from pathlib import Path

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
        (lambda r: r["westeros"]["decks"]["II"][0].pop("effect_zh"), "Westeros card 'game-of-thrones' has an effect but no Chinese"),
        (lambda r: r["westeros"]["decks"]["III"][1].update(effect_zh="No Defense orders."), "no Chinese text \\(effect_zh\\)"),
        (lambda r: r["westeros"]["decks"]["I"][4].update(effect_zh="无事发生。"), "different Chinese texts"),
        (lambda r: r["wildlings"]["cards"][2].update(lowest_bidder_zh=None), "'crow-killers' has a lowest_bidder text but no Chinese"),
        (lambda r: r["wildlings"]["cards"][3].update(everyone_else_zh=""), "no Chinese text \\(everyone_else_zh\\)"),
        (lambda r: r["wildlings"]["cards"][8].update(highest_bidder_zh="Gets its bid back."), "highest_bidder_zh"),
        (lambda r: r["wildlings"]["cards"][0].update(highest_bidder=None), "no English one"),
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


RULEBOOK = Path("/work/shared/rules/002_4f69165c3bd6bc45.txt")
WILDLING_TEXTS = ("lowest_bidder", "everyone_else", "highest_bidder")


def is_chinese(text):
    return isinstance(text, str) and any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_every_westeros_card_effect_has_a_chinese_text():
    """Each of the 15 Westeros card types has the rulebook's Chinese text (维斯特洛卡牌参考)."""
    cards = board().westeros_cards
    assert len(cards) == 15
    for c in cards.values():
        assert c["effect"] and is_chinese(c["effect_zh"])
    assert cards["storm-of-swords"]["effect_zh"] == "玩家在本回合战略阶段，不能部署防御指令（包括特殊防御指令）。"
    assert cards["rains-of-autumn"]["effect_zh"] == "玩家在本回合战略阶段，不能部署行军+1指令。"
    assert cards["last-days-of-summer"]["effect_zh"] == "无事发生。执行下一张维斯特洛卡牌。"
    assert "信鸽拥有者" in cards["dark-wings-dark-words"]["effect_zh"]
    assert "瓦雷利亚钢剑拥有者" in cards["put-to-the-sword"]["effect_zh"]
    assert "铁王座拥有者" in cards["a-throne-of-blades"]["effect_zh"]


def test_westeros_card_texts_are_quoted_from_the_chinese_rulebook():
    if not RULEBOOK.exists():
        pytest.skip("the Chinese rulebook is not on this machine")
    text = RULEBOOK.read_text(encoding="utf-8")
    for c in board().westeros_cards.values():
        assert c["effect_zh"] in text, c["id"]


def test_every_wildling_card_text_has_a_chinese_text():
    """The 9 wildling cards carry Chinese lowest / everyone else / highest bidder texts (ours)."""
    cards = board().wildling_cards
    for c in cards.values():
        for key in WILDLING_TEXTS:
            assert c[key] and is_chinese(c[key + "_zh"]) and c[key + "_zh"] != c[key]
    assert all(cards["silence-at-the-wall"][k + "_zh"] == "无事发生。" for k in WILDLING_TEXTS)
    assert "骑士" in cards["crow-killers"]["lowest_bidder_zh"] and "步兵" in cards["crow-killers"]["lowest_bidder_zh"]
    assert "补给" in cards["rattleshirts-raiders"]["everyone_else_zh"]
    assert "优势标记" in cards["a-king-beyond-the-wall"]["highest_bidder_zh"]
    assert "弃牌堆" in cards["mammoth-riders"]["highest_bidder_zh"]
    assert "现有权力" in cards["skinchanger-scout"]["lowest_bidder_zh"]
    # the only wildling card the rulebook names (调整势力条) keeps its name
    assert cards["a-king-beyond-the-wall"]["name_zh"] == "塞外之王"
