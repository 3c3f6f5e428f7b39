"""Mustering by clicking: pick a castle area, add units within its points, place a ship by
clicking a highlighted sea, confirm; the engine has the new units."""

import pytest

from tests.ui.conftest import click_area

pytestmark = pytest.mark.e2e


def test_muster_by_clicking(harness, shots):
    gid = harness.new_game("muster3")
    page = harness.open(gid, "baratheon")
    assert page.locator("#board-root").get_attribute("data-decision") == "muster"
    click_area(page, "dragonstone")
    assert "2 mustering point(s) left" in page.locator(".decision .counter").inner_text()
    page.locator(".decision button[data-key='up-knight']").click()
    page.locator(".decision button[data-key='ship']").click()
    targets = page.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)")
    assert "shipbreaker-bay" in targets
    page.screenshot(path=shots("1-ship-target"))
    click_area(page, "shipbreaker-bay")
    assert page.locator(".decision button[data-key='footman']").is_disabled()  # no points left
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    page.wait_for_function("(v) => document.getElementById('board-root').dataset.version !== v || document.querySelector('.action-error p')", arg=v)
    assert page.locator(".action-error p").count() == 0, page.locator(".action-error p").inner_text()
    sent = harness.sent(gid)[-1]
    assert sent["ok"], sent
    assert sent["action"] == {"type": "muster", "recruits": [
        {"area": "dragonstone", "unit": "knight", "upgrade": True}, {"area": "dragonstone", "unit": "ship", "to": "shipbreaker-bay"}]}
    units = harness.state(gid)["view"]["units"]
    assert [u["type"] for u in units["dragonstone"]["units"]] == ["knight", "knight"]
    assert [u["type"] for u in units["shipbreaker-bay"]["units"]].count("ship") == 3
    assert not page.errors
