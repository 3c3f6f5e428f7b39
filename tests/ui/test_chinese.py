"""The game screen in simplified Chinese: panel words from the JS catalogue, area and token
names from the board data, the board drawn with Chinese names."""

import pytest

from tests.ui.conftest import click_area

pytestmark = pytest.mark.e2e


def test_screen_in_chinese(harness, shots):
    gid = harness.new_game("start3")
    page = harness.open(gid, "stark", lang="zh-hans")
    assert page.locator(".decision-title").inner_text() == "下达指令"
    assert "战略阶段" in page.locator(".status-line").inner_text()
    assert page.locator("svg.board").get_attribute("lang") == "zh-Hans"
    click_area(page, "winterfell")
    assert "临冬城" in page.locator(".decision h4").inner_text()
    assert page.locator(".token-grid button[data-token='march']").inner_text().startswith("军")
    page.screenshot(path=shots("1-zh"))
    assert not page.errors


def test_westeros_card_text_in_chinese(harness):
    """The round's Westeros cards show the rulebook's Chinese text (hover title) in Chinese."""
    from game.rules.agot.data import board

    gid = harness.new_game("clash3")
    page = harness.open(gid, "stark", lang="zh-hans")
    item = page.locator(".westeros-box li").first
    assert item.inner_text() == "列王的纷争"
    assert item.get_attribute("title") == board().westeros_cards["clash-of-kings"]["effect_zh"]
    assert not page.errors


def test_lists_joined_as_chinese_writes_them(harness):
    """A list of names reads "步兵、骑士" in Chinese, not "步兵, 骑士" (i18n.js listOf): here a
    march's move of two units, and the same units in English."""
    gid = harness.new_game("moves3")  # Stark marches next; Winterfell holds a knight and a footman
    for lang, joined in (("zh-hans", "、"), ("en", ", ")):
        page = harness.open(gid, "stark", lang=lang)
        page.locator(".decision button[data-key='from-winterfell']").click()
        page.locator(".decision button.dest").first.click()
        move = page.locator(".decision ul.moves li").first.inner_text()
        names = ("步兵", "骑士") if lang == "zh-hans" else ("footman", "knight")
        assert any(a + joined + b in move for a, b in (names, names[::-1])), move
        assert not page.errors


def test_a_label_and_its_value_with_the_chinese_colon(harness):
    """"临冬城：—", not "临冬城: —" (i18n.js labelled); English keeps "Winterfell: —"."""
    gid = harness.new_game("start3")
    for lang, text in (("zh-hans", "临冬城：—"), ("en", "Winterfell: —")):
        page = harness.open(gid, "stark", lang=lang)
        assert page.locator(".place-orders .area-list button[data-key='area-winterfell']").inner_text() == text
        assert not page.errors
