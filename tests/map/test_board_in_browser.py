"""The board in a real browser (Playwright driving Debian's /usr/bin/chromium): the anchor
points the overlay uses are inside the drawn outline of their own area, and clicking there (or
on a name or an icon) hits the area element, because decorations take no pointer events.
Renders the SVG inline, as the game page will; for both boards (2nd and 1st edition)."""


import pytest

from game.boards import anchors, render

pytestmark = pytest.mark.e2e

HIT_TEST = """
(anchors) => {
  const svg = document.querySelector('svg.board');
  const m = svg.getScreenCTM();
  const out = {};
  for (const [area, points] of Object.entries(anchors)) {
    for (const [name, [x, y]] of Object.entries(points)) {
      const p = new DOMPoint(x, y).matrixTransform(m);
      const el = document.elementFromPoint(p.x, p.y);
      out[area + ' ' + name] = el ? el.id : null;
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def page(browser):
    context = browser.new_context(viewport={"width": 768 * 2, "height": 1104 * 2})
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("board", ["agot2", "agot1"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_anchor_hits_its_own_area(page, lang, board):
    page.set_content(
        "<!doctype html><meta charset=utf-8><body style='margin:0'>"
        f"<div style='width:{768 * 2}px;height:{1104 * 2}px'>{render.render_board(lang, board)}</div>"
    )
    hits = page.evaluate(HIT_TEST, anchors.area_anchors(board))
    wrong = {k: v for k, v in hits.items() if v != f"area-{k.split()[0]}"}
    assert not wrong
    assert len(hits) == sum(len(p) for p in anchors.area_anchors(board).values())


def test_areas_take_keyboard_focus(page):
    page.set_content("<!doctype html><meta charset=utf-8><body>" + render.render_board("en"))
    page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.id")
    assert first.startswith("area-")
    page.keyboard.press("Tab")
    second = page.evaluate("document.activeElement.id")
    assert second.startswith("area-") and second != first
