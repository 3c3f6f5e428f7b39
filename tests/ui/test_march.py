"""A march only by clicking: pick the March order's area, the units, a highlighted legal
destination (ship transport included), leave a power token, confirm; the engine moves them."""

import pytest

from tests.ui.conftest import click_area, wait_version_change

pytestmark = pytest.mark.e2e


def test_march_by_clicking(harness, shots):
    gid = harness.new_game("marches3")
    page = harness.open(gid, "baratheon")
    assert page.locator("#board-root").get_attribute("data-decision") == "march"
    # one March order: its area is chosen already and every unit is picked; legal destinations glow
    targets = page.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)")
    assert "kingswood" in targets and "the-mountains-of-the-moon" not in targets
    # ship transport over Shipbreaker Bay reaches the far side of the bay
    assert "storms-end" not in targets  # blocked in a 3-player game
    # move only the knight: unpick the footman
    page.locator(".unit-chips button", has_text="footman").click()
    page.screenshot(path=shots("1-destinations"))
    click_area(page, "kingswood")
    assert page.locator(".moves li").count() == 1
    assert page.locator(".ov-move").count() == 1
    # then the footman too; Dragonstone's garrison keeps control, so no power token is offered
    click_area(page, "kingswood")
    assert page.locator("#leave-power").count() == 0
    page.screenshot(path=shots("2-planned"))
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)
    assert harness.sent(gid)[-1]["action"] == {
        "type": "march", "area": "dragonstone", "leave_power": False,
        "moves": [{"to": "kingswood", "units": ["knight", "footman"]}],
    }
    view = harness.state(gid)["view"]
    assert sorted(u["type"] for u in view["units"]["kingswood"]["units"]) == ["footman", "footman", "knight"]
    assert "dragonstone" not in view["units"]
    page.wait_for_selector("#board-root[data-decision='']")
    page.screenshot(path=shots("3-after"))
    assert not page.errors


def test_leave_a_power_token(harness):
    gid = harness.new_game("marches3")
    for house, area, to in (("baratheon", "dragonstone", "kingswood"), ("lannister", "lannisport", "searoad-marches")):
        p = harness.open(gid, house)
        click_area(p, to)
        v = p.locator("#board-root").get_attribute("data-version")
        p.locator(".decision .btn-primary").click()
        wait_version_change(p, v)
    page = harness.open(gid, "stark")
    page.locator(".decision button", has_text="White Harbor").click()
    click_area(page, "widows-watch")
    page.locator("#leave-power").check()
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)
    assert harness.state(gid)["view"]["power_tokens"]["white-harbor"] == "stark"
    page.wait_for_selector(".ov-power[data-house='stark']")
