"""A phone (390 x 844) follows the decision: the sheet covers at most 40 % of the screen while a
decision needs the map, the page scrolls the site's bar and the game's head away, and the map
pans and zooms so that the area being decided and its destinations are in sight above the sheet;
the map cannot be dragged past its edges. Screenshots under test-results/."""

import pytest

from tests.ui.conftest import click_area, wait_version_change

pytestmark = pytest.mark.e2e

SHEET_SHARE = "() => { const r = document.querySelector('.decision-sheet').getBoundingClientRect(); return (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / innerHeight; }"

# the areas lit on the map (.hl-target, .hl-selected) that are not wholly in sight above the sheet
OUT_OF_SIGHT = """() => {
  const sheet = document.querySelector('.decision-sheet').getBoundingClientRect();
  const map = document.querySelector('svg.board').getBoundingClientRect();
  const bar = document.querySelector('.map-controls').getBoundingClientRect();
  const top = Math.max(map.top, 0, bar.bottom), bottom = Math.min(map.bottom, sheet.top);
  return [...document.querySelectorAll('.hl-target, .hl-selected')].filter(p => {
    const r = document.getElementById('area-' + p.dataset.hl).getBoundingClientRect();
    return !(r.top >= top - 2 && r.bottom <= bottom + 2 && r.left >= map.left - 2 && r.right <= map.right + 2);
  }).map(p => p.dataset.hl);
}"""


def phone(harness, gid, house):
    return harness.open(gid, house, width=390, height=844, touch=True)


def test_the_map_follows_a_march_above_the_sheet(harness, shots):
    gid = harness.new_game("marches3")
    # Baratheon's one March (Dragonstone): chosen already, its destinations lit
    page = phone(harness, gid, "baratheon")
    page.wait_for_selector(".hl-target")
    assert page.evaluate(SHEET_SHARE) <= 0.40 + 1e-6
    # the map follows once the page is laid out (the next frame)
    page.wait_for_function(f"() => ({OUT_OF_SIGHT})().length === 0")
    # the site's bar and the game's head have scrolled away: the map starts at the top
    assert page.locator(".topbar").bounding_box()["y"] + page.locator(".topbar").bounding_box()["height"] <= 0
    assert abs(page.locator(".map-wrap").bounding_box()["y"]) <= 3
    page.screenshot(path=shots("1-phone-march-baratheon"))

    # Lannister and Baratheon march (on a desktop); Stark has two Marches: picking White Harbor
    # lights its destinations, and the map follows them
    for house, to in (("baratheon", "kingswood"), ("lannister", "searoad-marches")):
        p = harness.open(gid, house)
        click_area(p, to)
        v = p.locator("#board-root").get_attribute("data-version")
        p.locator(".decision .btn-primary").click()
        wait_version_change(p, v)
    page = phone(harness, gid, "stark")
    assert page.locator("#board-root").get_attribute("data-decision") == "march"
    page.locator(".decision button", has_text="White Harbor").tap()
    page.wait_for_selector(".hl-target")
    assert page.evaluate(SHEET_SHARE) <= 0.40 + 1e-6
    page.wait_for_function(f"() => ({OUT_OF_SIGHT})().length === 0")
    page.screenshot(path=shots("2-phone-march-stark"))
    assert not page.errors


def test_the_map_stops_at_its_edges(harness):
    gid = harness.new_game("start3")
    page = phone(harness, gid, "stark")
    svg = page.locator("svg.board")
    page.locator(".map-controls button[aria-label='Zoom in']").tap()
    page.locator(".map-controls button[aria-label='Zoom in']").tap()
    box = svg.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    # drag far to the right and down, then far to the left and up (pointer events, as a finger)
    for dx, dy in ((900, 900), (-1800, -1800)):
        page.mouse.move(cx, cy)
        page.mouse.down()
        for i in range(1, 11):
            page.mouse.move(cx + dx * i / 10, cy + dy * i / 10)
        page.mouse.up()
        x, y, w, h = map(float, svg.get_attribute("viewBox").split())
        assert x >= -0.01 and y >= -0.01 and x + w <= 768.01, (x, y, w, h)
        # the bottom may go past the edge only as far as the sheet covers the map
        hidden = page.evaluate("""() => { const s = document.querySelector('svg.board').getBoundingClientRect();
            const t = document.querySelector('.decision-sheet').getBoundingClientRect().top;
            return Math.max(0, s.bottom - Math.max(s.top, t)) * (%s / s.width); }""" % w)
        assert y + h <= 1104 + hidden + 1, (y, h, hidden)
    assert not page.errors
