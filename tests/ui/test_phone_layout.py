"""The game screen at 375 x 812 px (a phone): nothing overflows sideways, the map fills most of
the first screen, areas are tapped to place an order, and the map pans and pinch-zooms."""

import pytest

from tests.ui.conftest import scroll_to, tap_area

pytestmark = pytest.mark.e2e


def test_phone_layout_and_tapping(harness, shots):
    gid = harness.new_game("start3")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    page.screenshot(path=shots("1-phone"))
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    wide = page.evaluate("""() => [...document.querySelectorAll('#board-root *')]
        .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1); })
        .filter(e => !e.closest('svg'))
        .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
    assert wide == []
    box = page.locator(".map-wrap").bounding_box()
    assert box["width"] >= 340 and box["height"] >= 0.5 * 812 * 0.9
    # tap Winterfell, tap a token: an order is drafted
    tap_area(page, "winterfell")
    page.locator(".token-grid button[data-token='march']").tap()
    assert page.locator(".ov-order.draft[data-token='march']").count() == 1
    scroll_to(page, ".map-wrap")
    page.evaluate("document.querySelector('.map-wrap').scrollIntoView()")
    page.screenshot(path=shots("2-phone-order"))
    # buttons are big enough to tap
    small = page.evaluate("""() => [...document.querySelectorAll('.decision button')]
        .filter(b => b.getBoundingClientRect().height < 40).length""")
    assert small == 0
    assert not page.errors


def test_zoom_buttons_and_pinch(harness):
    gid = harness.new_game("start3")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    svg = page.locator("svg.board")
    # the map follows the decision (Stark's areas, brought above the sheet); the whole map first
    page.locator(".map-controls button[aria-label='Show the whole map']").tap()
    assert svg.get_attribute("data-zoom") == "1.00"
    page.locator(".map-controls button[aria-label='Zoom in']").tap()
    assert float(svg.get_attribute("data-zoom")) > 1.3
    page.locator(".map-controls button[aria-label='Show the whole map']").tap()
    assert svg.get_attribute("data-zoom") == "1.00"
    # a two-finger pinch (pointer events as a phone sends them) zooms in
    box = svg.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(
        """([cx, cy]) => {
          const s = document.querySelector('svg.board');
          const ev = (type, id, x) => s.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x, clientY: cy, bubbles: true, pointerType: 'touch', isPrimary: id === 1}));
          ev('pointerdown', 1, cx - 20); ev('pointerdown', 2, cx + 20);
          for (let i = 1; i <= 10; i++) { ev('pointermove', 1, cx - 20 - 8 * i); ev('pointermove', 2, cx + 20 + 8 * i); }
          ev('pointerup', 1, cx - 100); ev('pointerup', 2, cx + 100);
        }""",
        [cx, cy],
    )
    assert float(svg.get_attribute("data-zoom")) > 2
