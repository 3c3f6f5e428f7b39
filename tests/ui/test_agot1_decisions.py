"""The 1st edition's own decisions by clicking (harness positions ``agot1_*``): the special Raid
that removes two adjacent orders (1st ed. rulebook, 突击令牌: 突击+1 "可以移除两个邻接地区的敌方
令牌"; never a Defense order), and the wildlings' victory, where each house removes units worth 2
mustering points (野蛮人胜利). The screen runs on the 1st-edition board."""

import pytest

from tests.ui.conftest import click_area, wait_version_change

pytestmark = pytest.mark.e2e


def test_special_raid_removes_two_orders(harness, shots):
    gid = harness.new_game("agot1_raid2")
    page = harness.open(gid, "lannister")
    assert page.locator("#board-root").get_attribute("data-board") == "agot1"
    assert page.locator("svg#board-agot1").count() == 1
    assert page.locator("#board-root").get_attribute("data-decision") == "raid"
    # its one Raid order is chosen; the orders it may remove glow, Defense orders do not
    targets = sorted(page.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)"))
    assert targets == ["blackwater", "crackclaw-point", "riverrun"]
    assert page.locator(".decision .two-targets").count() == 1
    click_area(page, "riverrun")
    click_area(page, "blackwater")
    assert page.locator(".decision button[aria-pressed='true'][data-key^='to-']").count() == 2
    # a third pick replaces the older of the two
    click_area(page, "crackclaw-point")
    assert sorted(page.evaluate("[...document.querySelectorAll(\".decision button[aria-pressed='true'][data-key^='to-']\")].map(b => b.dataset.key)")) == [
        "to-blackwater", "to-crackclaw-point"]
    click_area(page, "crackclaw-point")  # unpicked again
    click_area(page, "riverrun")
    page.screenshot(path=shots("1-two-targets"))
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)
    sent = harness.sent(gid)[-1]
    assert sent["ok"] and sent["action"] == {"type": "raid", "area": "harrenhal", "target": "blackwater", "second_target": "riverrun"}
    # the two orders are removed; Stark's Consolidate Power in Crackclaw Point still resolves
    events = harness.state(gid)["view"]["events"]
    raids = [(e["target"], e["token"]) for e in events if e["kind"] == "raid"]
    assert raids == [("blackwater", "raid"), ("riverrun", "support")]
    assert any(e["kind"] == "consolidate" and e["area"] == "crackclaw-point" for e in events)
    assert not page.errors


def test_wildlings_win_units_worth_mustering_points(harness, shots):
    gid = harness.new_game("agot1_wildlings3")
    for house, amount in (("stark", 0), ("lannister", 1), ("baratheon", 1)):
        p = harness.open(gid, house)
        p.locator("#bid-amount").fill(str(amount))
        v = p.locator("#board-root").get_attribute("data-version")
        p.locator(".decision .btn-primary").click()
        wait_version_change(p, v)
    # in turn order, each house picks; Baratheon and Lannister remove a knight (2 points)
    for house in ("baratheon", "lannister"):
        p = harness.open(gid, house)
        assert p.locator("#board-root").get_attribute("data-decision") == "select_units"
        p.locator(".decision .unit-row button.unit-knight").first.click()
        v = p.locator("#board-root").get_attribute("data-version")
        p.locator(".decision .btn-primary").click()
        wait_version_change(p, v)
    decision = harness.state(gid, "stark")["pending"][0]
    assert decision["actor"] == "stark" and decision["options"]["points"] == 4  # the lowest bidder: 2 more
    page = harness.open(gid, "stark", lang="zh-hans")
    assert page.locator("#board-root").get_attribute("data-decision") == "select_units"
    confirm = page.locator(".decision .btn-primary")
    units = page.locator(".decision .unit-row button")
    # a knight (2) and a footman (1): 3 of 4 points, not enough
    page.locator(".decision .unit-row button.unit-knight").first.click()
    page.locator(".decision .unit-row button.unit-footman").first.click()
    assert confirm.is_disabled()
    assert "3 / 4" in page.locator(".decision .counter").inner_text()
    # a second knight: 5 points, the footman is more than needed
    page.locator(".decision .unit-row button.unit-knight").nth(1).click()
    assert confirm.is_disabled()
    page.locator(".decision .unit-row button.unit-footman[aria-pressed='true']").click()
    assert not confirm.is_disabled()
    assert units.count() >= 5
    page.screenshot(path=shots("1-muster-points-zh"))
    v = page.locator("#board-root").get_attribute("data-version")
    confirm.click()
    wait_version_change(page, v)
    sent = [s for s in harness.sent(gid) if s["action"]["type"] == "select_units"][-1]
    assert sent["ok"] and sorted(u["unit"] for u in sent["action"]["units"]) == ["knight", "knight"]
    assert not page.errors
