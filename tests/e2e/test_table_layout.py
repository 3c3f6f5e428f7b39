"""The live game page as a table: at 1400 x 900 the map, the decision (with its buttons), the tabs
and the log's newest lines are all in the window without scrolling, and at a laptop's 1366 x 768
the chat keeps room beside the decision, its newest line and its input in view (the head's
extras behind "More"); after the orders are confirmed the next decision's title
is in view. Screenshots under test-results/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import server_on_sqlite
from .pages import fill_with_bots_and_start, guest_creates_lobby

pytestmark = pytest.mark.e2e

LANNISTER = {"lannisport": "consolidate-power", "stoney-sept": "raid", "the-golden-sound": "support"}

IN_VIEW = """(sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; }"""

# in view and not hidden by a box that clips it: what is drawn at its middle is it
SEEN = """(sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return !!at && (at === e || e.contains(at)); }"""


@pytest.fixture
def live_url(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-table", GAME_BOT_DELAY="0.2") as (url, _env):
        yield url


def click_area(page, area):
    """Click the area where nothing else is drawn over it, as a player would."""
    point = page.evaluate(
        """(a) => { const p = document.getElementById('area-' + a); const r = p.getBoundingClientRect();
        const pts = []; for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) pts.push([r.x + r.width * i / 10, r.y + r.height * j / 10]);
        return pts.find(([x, y]) => document.elementFromPoint(x, y) === p) || null; }""", area)
    assert point, area
    page.mouse.click(*point)


def test_desktop_table_in_one_window(browser, live_url, shots):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    guest_creates_lobby(page, live_url, "A table to read")
    fill_with_bots_and_start(page, live_url, bots=2)
    root = page.locator("#board-root")
    expect(root).to_have_attribute("data-decision", "place_orders", timeout=30_000)
    page.wait_for_selector(".game-log li")
    # the page is the window: nothing below the fold
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 901
    for sel in [".map-wrap", ".decision-title", ".decision .btn-primary", ".side-tablist", ".log-card", ".game-log li:last-child"]:
        assert page.evaluate(IN_VIEW, sel), sel
    # the chat (open first) and the players are tabs beside the tracks, houses and cards
    tabs = page.locator(".side-tab").all_inner_texts()
    assert tabs == ["Chat", "Tracks", "Houses", "Cards", "Players"], tabs
    assert page.evaluate(IN_VIEW, "#chat-text")
    # the chat's newest line in view above its line and Send (before, the tab scrolled as a whole
    # and showed the top of the messages' own box, the newest lines and the input below the fold)
    for i in range(4):
        page.fill("#chat-text", f"Line {i}: shall we talk about the Reach before the orders are revealed?")
        page.locator("#chat-form button").click()
        expect(page.locator("#chat-messages li")).to_have_count(i + 1)
    for sel in ["#chat-messages li:last-child", "#chat-text", "#chat-form button"]:
        assert page.evaluate(IN_VIEW, sel) and page.evaluate(SEEN, sel), sel
    assert page.locator("#chat-messages").bounding_box()["height"] >= 40  # two lines at least
    # the head's extras wait behind "More" in a window this short
    expect(page.locator("#head-more")).to_be_visible()
    expect(page.locator(".play-head .help-link")).to_be_hidden()
    page.locator("#head-more").click()
    expect(page.locator(".play-head .help-link")).to_be_visible()
    page.locator("#head-more").click()
    page.locator(".side-tab[data-tab='tracks']").click()
    assert page.evaluate(IN_VIEW, ".side-panel[data-tab='tracks']") and page.locator(".tracks").is_visible()
    # the whole board at the desktop's default zoom: every area's name at 11 px or more on screen
    sizes = page.evaluate("""() => { const s = document.querySelector('svg.board'); const k = s.getScreenCTM().a;
        return [...s.querySelectorAll('g.label[data-area] text')].map(t => [t.parentNode.dataset.area, parseFloat(getComputedStyle(t).fontSize) * k]); }""")
    assert len(sizes) >= 50 and page.locator("svg.board").get_attribute("data-zoom") == "1.00"
    assert min(px for _, px in sizes) >= 11, sorted(sizes, key=lambda x: x[1])[:3]
    page.screenshot(path=shots("1-desktop-start"))

    # a laptop's 1366 x 768: still one window, with the decision's button and the chat's input in
    # view and the chat's panel keeping room for a few lines beside the decision
    page.locator(".side-tab[data-tab='chat']").click()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_function("() => innerHeight === 768 && document.scrollingElement.scrollHeight <= 769")
    for sel in [".decision-title", ".decision .btn-primary", "#chat-text", ".log-card", "#chat-messages li:last-child"]:
        assert page.evaluate(IN_VIEW, sel) and page.evaluate(SEEN, sel), sel
    assert page.evaluate("document.querySelector('.side-panel[data-tab=\"chat\"]').getBoundingClientRect().height") >= 100
    assert page.locator("#chat-messages").bounding_box()["height"] >= 40
    page.screenshot(path=shots("1b-laptop-start"))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.wait_for_function("() => innerHeight === 900")

    for area, token in LANNISTER.items():
        click_area(page, area)
        page.locator(f".token-grid button[data-token='{token}']").click()
    assert page.evaluate(IN_VIEW, ".decision .btn-primary")  # "Confirm orders", however long the panel
    page.locator(".decision .btn-primary").click()
    # the bots place theirs; Lannister's next decision (the Messenger Raven: Lannister leads the
    # King's Court) starts at its title, in view
    expect(root).to_have_attribute("data-decision", "raven", timeout=30_000)
    assert page.evaluate(IN_VIEW, ".decision-title")
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=shots("2-desktop-raven"))
    assert not errors
    ctx.close()
