"""The result of a battle stays after the battle is over: in the decision's place until it is
dismissed or a decision comes, and in the Battle tab; whole: both cards, every part of both
strengths, the tie-break by the Fiefdoms track, the casualties and the retreat; a spectator sees
it too. Screenshots under test-results/ (desktop and phone, mid-combat and after)."""

import pytest

from tests.ui.conftest import click_area, scroll_to, tap_area, wait_version_change

pytestmark = pytest.mark.e2e


def test_a_tied_battle_told_whole_after_it_is_over(harness, shots):
    gid = harness.new_game("combat3_tie")
    lan = harness.open(gid, "lannister", width=1400, height=900)
    spectator = harness.open(gid, None, width=1400, height=900)
    phone = harness.open(gid, "stark", width=390, height=844, touch=True)
    # mid-combat: the result is known, Cersei Lannister's order removal is Lannister's to decide
    lan.wait_for_selector(".combat-winner[data-winner='lannister']")
    lan.screenshot(path=shots("1-desktop-mid-combat"))
    phone.screenshot(path=shots("2-phone-mid-combat"))
    v = lan.locator("#board-root").get_attribute("data-version")
    click_area(lan, "winterfell")
    wait_version_change(lan, v)
    # Stark retreats (on the phone): the battle is over
    phone.wait_for_selector("#board-root[data-decision='retreat']")
    tap_area(phone, "moat-cailin")
    v = phone.locator("#board-root").get_attribute("data-version")
    phone.locator(".decision .btn-primary").tap()
    wait_version_change(phone, v)

    # the spectator, with nothing to decide, has it in the decision's place; the players, whose
    # next decisions (the Westeros phase) came, in the Battle tab
    for page, where in ((spectator, ".decision-panel"), (lan, ".side-panel[data-tab='battle']"), (phone, ".side-panel[data-tab='battle']")):
        page.wait_for_selector(f"{where} .combat-box.last .combat-after[data-kind='retreat']", state="attached")
        box = page.locator(f"{where} .combat-box.last")
        text = box.text_content()
        assert "Lannister (5) beat Stark (5) in The Twins." in text
        assert "A tie at 5: Lannister wins, being higher on the Fiefdoms track." in text
        assert "Cersei Lannister (0)" in text and "The Blackfish (1)" in text
        assert "No casualties." in text
        assert "Stark retreated to Moat Cailin with knight, footman." in text
        # every part of each side's strength, summing to its total
        for house, total in (("lannister", 5), ("stark", 5)):
            cell = box.locator(f"tr[data-row='parts'] td[data-house='{house}']")
            parts = [int(x) for x in cell.locator("li[data-strength]").evaluate_all("els => els.map(e => e.dataset.strength)")]
            assert sum(parts) == total and cell.locator(".part-total").get_attribute("data-total") == str(total)
    assert lan.locator(".decision-panel .combat-box.last").count() == 0  # a decision came: it gave way
    assert spectator.locator(".combat-box.last").count() == 1  # not twice: the decision's place only
    scroll_to(phone, ".side-tab[data-tab='battle']")
    spectator.screenshot(path=shots("3-desktop-after-battle"))
    phone.screenshot(path=shots("4-phone-after-battle"))
    # dismissed: gone from the decision's place and the tab
    spectator.locator(".decision-panel .dismiss-battle").click()
    assert spectator.locator(".combat-box.last").count() == 0
    assert spectator.locator(".side-tab[data-tab='battle']").count() == 0
    assert not (lan.errors or spectator.errors or phone.errors)


def test_the_result_in_chinese(harness):
    gid = harness.new_game("combat3_tie")
    lan = harness.open(gid, "lannister", width=1400, height=900)
    v = lan.locator("#board-root").get_attribute("data-version")
    click_area(lan, "winterfell")
    wait_version_change(lan, v)
    stark = harness.open(gid, "stark", width=1400, height=900)
    click_area(stark, "moat-cailin")
    v = stark.locator("#board-root").get_attribute("data-version")
    stark.locator(".decision .btn-primary").click()
    wait_version_change(stark, v)
    zh = harness.open(gid, None, width=1400, height=900, lang="zh-hans")
    text = zh.locator(".decision-panel .combat-box.last").text_content()
    assert "封臣势力条" in text and "没有伤亡" in text
