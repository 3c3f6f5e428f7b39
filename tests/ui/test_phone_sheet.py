"""The decision sheet on a phone (375 x 812 px): by default it covers at most 40 % of
the screen, collapses to a one-line bar and expands again, the order tokens are in view without
scrolling inside the sheet, and the area pop-up closes when the sheet changes or the map is
tapped elsewhere."""

import pytest

from tests.ui.conftest import tap_area

pytestmark = pytest.mark.e2e

SHEET_SHARE = "() => { const r = document.querySelector('.decision-sheet').getBoundingClientRect(); return (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / innerHeight; }"


def _in_sheet_view(page, selector):
    """Whether every element of ``selector`` is inside the sheet's visible box (no scrolling)."""
    return page.evaluate(
        """(sel) => { const s = document.querySelector('.decision-sheet'); const sr = s.getBoundingClientRect();
            const els = [...s.querySelectorAll(sel)];
            return els.length > 0 && s.scrollTop === 0 && els.every(e => { const r = e.getBoundingClientRect();
              return r.top >= sr.top - 1 && r.bottom <= Math.min(sr.bottom, innerHeight) + 1; }); }""",
        selector,
    )


def test_sheet_covers_at_most_40_percent_and_collapses(harness, shots):
    gid = harness.new_game("start3")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    page.screenshot(path=shots("1-default"))
    assert page.evaluate(SHEET_SHARE) <= 0.40 + 1e-6
    # an area tapped: its order tokens are in view without scrolling inside the sheet
    tap_area(page, "winterfell")
    page.screenshot(path=shots("1b-tokens"))
    assert page.evaluate(SHEET_SHARE) <= 0.40 + 1e-6
    assert _in_sheet_view(page, ".token-grid button[data-token]")
    toggle = page.locator(".sheet-toggle")
    toggle.tap()
    page.screenshot(path=shots("2-collapsed"))
    sheet = page.locator(".decision-sheet").bounding_box()
    assert sheet["height"] <= 60  # one line
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.is_visible()
    toggle.tap()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.evaluate(SHEET_SHARE) > 0.15
    assert _in_sheet_view(page, ".token-grid button[data-token]")
    assert not page.errors


def test_area_popup_closes_on_sheet_change_and_tap_elsewhere(harness, shots):
    gid = harness.new_game("start3")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    tip = page.locator(".area-tip")
    tap_area(page, "winterfell")
    assert tip.is_visible() and "Winterfell" in tip.inner_text()
    page.screenshot(path=shots("1-tip"))
    # tapping the same area again (the map elsewhere than a new area) closes it
    tap_area(page, "winterfell")
    assert not tip.is_visible()
    tap_area(page, "winterfell")
    assert tip.is_visible()
    # the sheet changes (collapsed, expanded): the pop-up closes
    page.locator(".sheet-toggle").tap()
    assert not tip.is_visible()
    page.locator(".sheet-toggle").tap()
    tap_area(page, "winterfell")
    assert tip.is_visible()
    # a new decision in the sheet (the orders sent): the pop-up closes
    for area, token in (("winterfell", "march"), ("white-harbor", "defense-plus-one"), ("the-shivering-sea", "support")):
        tap_area(page, area)
        page.locator(f".token-grid button[data-token='{token}']").tap()
    tap_area(page, "winterfell")
    assert tip.is_visible()
    page.locator(".decision .btn-primary").tap()
    page.wait_for_function("() => document.getElementById('board-root').dataset.decision !== 'place_orders'")
    assert not tip.is_visible()
    page.screenshot(path=shots("2-after-orders"))
    assert not page.errors
