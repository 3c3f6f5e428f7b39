"""The board: readable at a glance, in a crowded late-game position
(``crowded6`` in game/devtools/ui_harness.py: six houses, round 8, orders revealed).

At 1400 x 900 and 375 x 812 (screenshots under test-results/): the map takes at least 60 % of the
width and the window's height on a desktop; every unit is one of four own silhouettes (no
emoji, no font glyph), routed units lie down and say so; crowded areas group their units with a
count; no order token overlaps a unit (bounding boxes from the DOM); power tokens, garrisons
and neutral forces have their own look and a tooltip; the legend toggles and explains them, in
English and Chinese; ports and other small areas take taps on at least 32 x 32 CSS px on a
phone, and the larger hit areas never take another area's label."""

import pytest


pytestmark = pytest.mark.e2e

# boxes of order tokens and unit pieces (their filled bodies), in CSS pixels
BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    orders: [...document.querySelectorAll('.ov-order')].map(o => ({area: o.dataset.at, box: box(o.querySelector('circle'))})),
    units: [...document.querySelectorAll('.ov-unit .pc-body, .ov-badge .pc-body')].map(u => ({area: u.closest('.ov-units').dataset.at, box: box(u)})),
  };
}"""


def overlaps(a, b, slack=0.5):
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def test_desktop_board_is_large_and_readable(harness, shots):
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=1400, height=900)
    page.evaluate("document.querySelector('.map-wrap').scrollIntoView({block: 'start'})")
    page.screenshot(path=shots("1-desktop-1400"))
    wrap = page.locator(".map-wrap").bounding_box()
    assert wrap["width"] >= 0.6 * 1400, wrap
    assert wrap["height"] >= 0.9 * 900, wrap
    # the map is the largest thing on the screen
    side = page.locator(".agot2-side").bounding_box()
    assert wrap["width"] > 2 * side["width"]
    # the drawn board itself, not just its frame: the SVG's drawing fills the frame's height
    drawn = page.evaluate("""() => { const s = document.querySelector('svg.board'); const m = s.getScreenCTM();
        return [768 * m.a, 1104 * m.d]; }""")
    assert drawn[1] >= 0.9 * wrap["height"] - 2 and drawn[0] >= 600, drawn

    # pieces: four silhouettes, each one path (no text glyph), in the house colour
    kinds = page.evaluate("""() => [...new Set([...document.querySelectorAll('.ov-unit')].map(u => u.dataset.unit))].sort()""")
    assert kinds == ["footman", "knight", "ship", "siege_engine"]
    shapes = page.evaluate("""() => Object.fromEntries(['footman', 'knight', 'ship', 'siege_engine'].map(t =>
        [t, document.querySelector(`.ov-unit[data-unit=${t}] .pc-body`).getAttribute('d')]))""")
    assert len(set(shapes.values())) == 4
    assert page.locator(".ov-unit text:not(.ov-count text)").count() == 0
    # a unit reads at 100 % zoom: at least 16 px tall
    h = page.evaluate("() => document.querySelector('.ov-unit[data-unit=knight] .pc-body').getBoundingClientRect().height")
    assert h >= 16, h

    # routed units lie down and say so
    routed = page.locator(".ov-unit.routed")
    assert routed.count() >= 4
    assert "routed" in routed.first.locator("title").text_content()
    assert routed.first.locator(".pc").get_attribute("transform") == "rotate(90)"

    # a crowded area (Winterfell: 2 knights, a footman, a siege engine) groups by type with a count
    wf = page.locator(".ov-units[data-at='winterfell'] .ov-unit")
    assert wf.count() == 3
    assert page.locator(".ov-units[data-at='winterfell'] .ov-unit[data-unit=knight]").get_attribute("data-count") == "2"
    assert page.locator(".ov-units[data-at='winterfell'] .ov-count").first.text_content() == "2×"
    # every unit row carries its house letter: colour is never the only cue
    assert page.locator(".ov-units[data-at='kings-landing'] .ov-badge text").text_content() == "B"

    # order tokens never cover units
    b = page.evaluate(BOXES)
    assert len(b["orders"]) >= 20 and len(b["units"]) >= 60
    bad = [(o["area"], u["area"]) for o in b["orders"] for u in b["units"] if overlaps(o["box"], u["box"])]
    assert bad == []

    # power tokens, garrisons, neutral forces: distinct, labelled
    assert "Power token of Tyrell" in page.locator(".ov-power[data-at='the-reach'] title").text_content()
    assert "Garrison of Stark, strength 2" in page.locator(".ov-garrison[data-at='winterfell'] title").text_content()
    assert "Neutral force of strength 6" in page.locator(".ov-neutral[data-at='the-eyrie'] title").text_content()

    # the legend: a toggle, closed at first, that explains every symbol
    toggle = page.locator(".map-controls .legend-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator("#map-legend").is_visible()
    toggle.click()
    legend = page.locator("#map-legend")
    assert legend.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    txt = legend.text_content()
    for words in ["Footman", "Knight", "Ship", "Siege engine", "Routed", "Order token, face down", "Special order",
                  "Power token", "Garrison", "Neutral force", "Stark"]:
        assert words in txt, words
    assert legend.locator(".legend-icon .ov-unit").count() >= 6
    page.screenshot(path=shots("2-desktop-legend"))
    toggle.click()
    assert not legend.is_visible()

    # hovering a piece shows its area (pieces take the pointer, for their tooltip)
    page.locator(".ov-units[data-at='riverrun'] .ov-unit").first.hover()
    assert page.locator(".area-tip .area-details").get_attribute("data-area") == "riverrun"
    assert not page.errors


def test_no_emoji_on_the_board(harness):
    """Icons are SVG: nothing the board draws needs an emoji font (⛵ ⚔ and co)."""
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=1400, height=900)
    page.locator(".legend-toggle").click()
    chars = page.evaluate("""() => [...document.querySelectorAll('svg.board text, .map-wrap text, .map-controls, .map-legend')]
        .map(e => e.textContent).join('')""")
    emoji = [c for c in chars if ord(c) >= 0x2600]
    assert emoji == []


def test_phone_board_hit_areas_and_legend(harness, shots):
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    page.evaluate("document.querySelector('.map-wrap').scrollIntoView({block: 'start'})")
    page.screenshot(path=shots("1-phone-375"))
    # every area takes taps on at least 32 x 32 CSS px: its own drawn box, or its hit area
    small = page.evaluate("""() => {
      const out = [];
      for (const p of document.querySelectorAll('svg.board path[id^=area-][data-area]')) {
        const id = p.dataset.area; const r = p.getBoundingClientRect();
        if (r.width >= 32 && r.height >= 32) continue;
        const hit = document.querySelector(`.ov-hits .hit-area[data-area="${id}"]`);
        const h = hit && hit.getBoundingClientRect();
        if (!h || h.width < 32 || h.height < 32) { out.push([id, r.width, r.height, h && h.width]); continue; }
        // the whole 32 x 32 square at its centre answers for that area
        const cx = h.left + h.width / 2, cy = h.top + h.height / 2;
        for (const dx of [-15, 0, 15]) for (const dy of [-15, 0, 15]) {
          const e = document.elementFromPoint(cx + dx, cy + dy);
          const a = e && (e.closest('[data-area]') || e.closest('[data-at]'));
          const got = a && (a.dataset.area || a.dataset.at);
          if (got !== id) out.push([id, dx, dy, got, e && e.tagName + "." + e.getAttribute("class")]);
        }
      }
      return out;
    }""")
    assert small == [], small
    ports = page.locator(".ov-hits .hit-area[data-area^='port-of-']").count()
    assert ports == 8
    # a hit area never takes another area's label: tapping each label still finds its area
    wrong = page.evaluate("""() => { const s = document.querySelector('svg.board'); const m = s.getScreenCTM(); const out = [];
      for (const p of s.querySelectorAll('path[id^=area-][data-area]')) {
        const [x, y] = p.dataset.label.split(',').map(Number); const q = new DOMPoint(x, y).matrixTransform(m);
        const e = document.elementFromPoint(q.x, q.y); if (!e) continue;  // scrolled out of the window
        const hit = e.closest('.hit-area'); if (hit && hit.dataset.area !== p.dataset.area) out.push([p.dataset.area, hit.dataset.area]);
      } return out; }""")
    assert wrong == []
    # tapping a port's hit area picks the port (its details show)
    hit = page.locator(".ov-hits .hit-area[data-area='port-of-pyke']").bounding_box()
    page.touchscreen.tap(hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2)
    assert page.locator(".area-tip .area-details").get_attribute("data-area") == "port-of-pyke"
    # order tokens beside the units here too
    b = page.evaluate(BOXES)
    assert [(o["area"], u["area"]) for o in b["orders"] for u in b["units"] if overlaps(o["box"], u["box"])] == []
    # the legend toggles on a phone, inside the map
    page.locator(".legend-toggle").tap()
    legend = page.locator("#map-legend")
    assert legend.is_visible()
    lb, wb = legend.bounding_box(), page.locator(".map-wrap").bounding_box()
    assert lb["x"] >= wb["x"] - 1 and lb["x"] + lb["width"] <= wb["x"] + wb["width"] + 1
    page.screenshot(path=shots("2-phone-legend"))
    # zooming in keeps the hit areas at least 32 px (they follow the zoom)
    page.locator(".map-controls button[aria-label='Zoom in']").tap()
    sizes = page.evaluate("() => [...document.querySelectorAll('.ov-hits .hit-area')].map(h => h.getBoundingClientRect().width)")
    assert all(w >= 32 for w in sizes)
    assert not page.errors


def test_legend_in_chinese(harness, shots):
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=1400, height=900, lang="zh-hans")
    toggle = page.locator(".map-controls .legend-toggle")
    assert toggle.text_content() == "图例"
    toggle.click()
    txt = page.locator("#map-legend").text_content()
    for words in ["步兵", "骑士", "战舰", "攻城车", "溃败", "权力标记", "守备军", "中立军队"]:
        assert words in txt, words
    page.screenshot(path=shots("1-zh-legend"))
    assert "溃败" in page.locator(".ov-unit.routed title").first.text_content()
    assert not page.errors


def test_live_page_gives_the_map_the_space(browser, tmp_path, shots):
    """On the real game page (/game/<id>/) at 1400 x 900 the map is at least 60 % of the width
    and the window's height, wholly in view when the page opens (no scrolling); the page's head,
    the decision panels, the log and the chat share the column beside it. At 375 x 812 the site's
    top bar is one line (its menu behind a button) and the map starts in the upper third."""
    from playwright.sync_api import expect

    from tests.e2e.conftest import start_server, stop_server
    from tests.e2e.pages import fill_with_bots_and_start, guest_creates_lobby

    url, proc = start_server(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.2"}, "daphne-board-live")
    try:
        ctx = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        guest_creates_lobby(page, url, "A board to read")
        fill_with_bots_and_start(page, url, bots=2)
        expect(page.locator("#board-root")).to_have_attribute("data-ready", "1", timeout=30_000)
        expect(page.locator("#board-root")).to_have_attribute("data-decision", "place_orders", timeout=30_000)
        page.screenshot(path=shots("1-live-1400"))
        assert page.evaluate("window.scrollY") == 0
        wrap = page.locator(".map-wrap").bounding_box()
        assert wrap["width"] >= 0.6 * 1400 and wrap["height"] >= 0.9 * 900, wrap
        assert wrap["y"] >= 0 and wrap["y"] + wrap["height"] <= 900, wrap  # whole, without scrolling
        right = wrap["x"] + wrap["width"]
        for sel in [".play-head", ".agot2-side", ".log-card", ".side-tabs"]:
            box = page.locator(sel).bounding_box()
            assert box["x"] >= right, (sel, box)

        page.set_viewport_size({"width": 375, "height": 812})
        page.reload()
        expect(page.locator("#board-root")).to_have_attribute("data-ready", "1", timeout=30_000)
        page.screenshot(path=shots("2-live-375"))
        assert page.locator(".topbar").bounding_box()["height"] <= 56
        assert page.locator(".map-wrap").bounding_box()["y"] <= 812 / 3
        assert not page.locator("#language-select").is_visible()
        page.locator("#menu-toggle").click()  # the menu opens below the bar, with the language
        expect(page.locator("#language-select")).to_be_visible()
        expect(page.locator("#menu-toggle")).to_have_attribute("aria-expanded", "true")
        page.screenshot(path=shots("3-live-375-menu"))
        page.keyboard.press("Escape")
        expect(page.locator("#language-select")).to_be_hidden()
        ctx.close()
    finally:
        stop_server(proc)
