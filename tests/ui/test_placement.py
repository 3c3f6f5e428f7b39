"""Every piece in its own area: on both boards, in every position the harness offers (the crowded
6-player one, battles, 3-6 players' starts, the 1st edition's), each unit row, order token, power
token, garrison and neutral force has its centre inside its own area's drawn fill (the area's
path, ``isPointInFill``) and covers no area's name; a piece's tooltip names its area.

The screenshots (test-results/) show the crowded position whole at 1400 x 900."""

import pytest

from game.devtools.ui_harness import POSITIONS

pytestmark = pytest.mark.e2e

# per piece: its class, its area, the area its centre is in; per name: the pieces over it
MEASURE = """() => {
  const svg = document.querySelector('svg.board');
  const inv = svg.getScreenCTM().inverse();
  // the pieces (not the small ones the last moves' marks draw)
  const pieces = [...svg.querySelectorAll('.ov-tokens .ov-units, .ov-tokens .ov-order, .ov-tokens .ov-power, .ov-tokens .ov-garrison, .ov-tokens .ov-neutral')]
    .filter(p => !p.closest('.ov-recent'));
  const areaAt = (x, y) => { const q = new DOMPoint(x, y).matrixTransform(inv);
    return [...svg.querySelectorAll('path[id^=area-][data-area]')].filter(p => p.isPointInFill(q)).map(p => p.dataset.area); };
  const out = {pieces: pieces.length, outside: [], covered: []};
  for (const p of pieces) {
    const r = p.getBoundingClientRect();
    const q = new DOMPoint(r.left + r.width / 2, r.top + r.height / 2).matrixTransform(inv);
    if (!document.getElementById('area-' + p.dataset.at).isPointInFill(q)) {
      out.outside.push([p.getAttribute('class'), p.dataset.at, areaAt(r.left + r.width / 2, r.top + r.height / 2)]);
    }
  }
  // the filled bodies of the pieces (not their halos), against every name on the board
  const bodies = pieces.flatMap(p => [...p.querySelectorAll(':scope .pc-body, :scope > circle')]);
  for (const t of svg.querySelectorAll('g.label[data-area] text')) {
    const n = t.getBoundingClientRect();
    for (const b of bodies) {
      const r = b.getBoundingClientRect();
      if (r.left < n.right - 1 && n.left < r.right - 1 && r.top < n.bottom - 1 && n.top < r.bottom - 1) {
        out.covered.push([t.parentNode.dataset.area, b.closest('[data-at]').dataset.at]);
        break;
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_every_piece_is_drawn_in_its_own_area_and_off_the_names(harness, shots, position):
    gid = harness.new_game(position)
    page = harness.open(gid, None, width=1400, height=900)
    got = page.evaluate(MEASURE)
    if position == "crowded6":
        page.screenshot(path=shots("1-crowded6-1400"))
        assert got["pieces"] >= 70
    assert got["pieces"] >= 10
    assert got["outside"] == [], got["outside"]
    assert got["covered"] == [], got["covered"]
    assert not page.errors


def test_a_piece_names_its_area(harness):
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=1400, height=900)
    assert page.locator(".ov-units[data-at='winterfell'] .ov-unit title").first.text_content().endswith(", in Winterfell")
    assert page.locator(".ov-order[data-at='winterfell'] title").text_content().endswith(", in Winterfell")
    assert page.locator(".ov-power[data-at='the-reach'] title").text_content().endswith(", in The Reach")
    assert page.locator(".ov-garrison[data-at='winterfell'] title").text_content().endswith(", in Winterfell")
    assert page.locator(".ov-neutral[data-at='the-eyrie'] title").text_content().endswith(", in The Eyrie")
    zh = harness.open(gid, "stark", width=1400, height=900, lang="zh-hans")
    assert "临冬城" in zh.locator(".ov-units[data-at='winterfell'] .ov-unit title").first.text_content()
