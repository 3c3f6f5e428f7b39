"""Every greyed choice says why, in both languages: a unit the supply limit keeps from being
mustered, an order a Westeros card forbids (named), the main button's missing step; an empty home
area is held by its house (the printed emblem), as the engine counts it."""

import pytest

from tests.ui.conftest import click_area

pytestmark = pytest.mark.e2e


def test_mustering_over_the_supply_limit_says_so(harness, shots):
    gid = harness.new_game("muster3_supply")
    page = harness.open(gid, "baratheon", width=1400, height=900)
    page.locator(".decision button[data-key='area-dragonstone']").click()
    knight = page.locator(".decision button[data-key='knight']")
    assert knight.is_disabled()
    assert knight.locator(".why").inner_text() == "It would pass your supply limit"
    assert knight.get_attribute("title") == "It would pass your supply limit"
    assert page.locator(".decision button[data-key='footman'] .why").inner_text() == "It would pass your supply limit"
    assert not page.locator(".decision button[data-key='ship']").is_disabled()  # a ship goes to sea: another army
    page.screenshot(path=shots("1-muster-supply"))
    zh = harness.open(gid, "baratheon", width=1400, height=900, lang="zh-hans")
    zh.locator(".decision button[data-key='area-dragonstone']").click()
    assert zh.locator(".decision button[data-key='knight'] .why").inner_text() == "会超出你的补给上限"


def test_a_forbidden_order_names_its_card(harness):
    gid = harness.new_game("rains3")
    page = harness.open(gid, "stark", width=1400, height=900)
    # nothing placed yet: the main button says what is missing
    assert page.locator(".decision .why-confirm").inner_text() == "Place 3 more order(s) first"
    click_area(page, "winterfell")
    tok = page.locator(".token-grid button[data-token='march-plus-one']")
    assert tok.is_disabled() and tok.locator(".why").inner_text() == "Forbidden this round by Rains of Autumn"
    zh = harness.open(gid, "stark", width=1400, height=900, lang="zh-hans")
    click_area(zh, "winterfell")
    assert "秋雨" in zh.locator(".token-grid button[data-token='march-plus-one'] .why").inner_text()


def test_an_empty_home_area_is_held_by_its_house(harness):
    gid = harness.new_game("moves3")  # Baratheon marched everything out of Dragonstone
    page = harness.open(gid, "baratheon", width=1400, height=900)
    page.locator("#area-dragonstone").dispatch_event("mouseover")
    tip = page.locator(".area-tip .area-details[data-area='dragonstone']")
    text = " ".join(tip.inner_text().split())
    assert "Held by: B Baratheon (its home area: the printed emblem holds it)" in text
    page.locator("#area-blackwater").dispatch_event("mouseover")  # Baratheon's footman holds it
    assert "home area" not in page.locator(".area-tip .area-details").inner_text()
