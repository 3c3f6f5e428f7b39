"""No symbol of the game screen depends on a font. The swords, fortifications, skulls,
stars, the dominance mark and the brand's crown are small SVG icons (``static/img/icons.svg``,
``static/js/icons.js``), drawn in both languages: the page's text holds no symbol character
(⚔ ♜ ☠ ★ ♛ ◆ ◀ ▶ ●, emoji) and every icon is drawn (its sprite symbol found, a size on screen)."""

import pytest

from tests.ui.conftest import wait_version_change

pytestmark = pytest.mark.e2e

# Symbols that only some fonts draw (or draw as emoji): geometric shapes, miscellaneous symbols,
# dingbats, miscellaneous symbols and arrows, emoji.
SYMBOLS = "[\\u25a0-\\u25ff\\u2600-\\u27bf\\u2b00-\\u2bff]|[\\ud83c-\\ud83e][\\udc00-\\udfff]"

READ = """(re) => {
  const rx = new RegExp(re, "u");
  const texts = [document.body.innerText];
  for (const e of document.querySelectorAll("[title], [aria-label]")) texts.push(e.getAttribute("title") || "", e.getAttribute("aria-label") || "");
  for (const e of document.querySelectorAll("*")) {
    const before = getComputedStyle(e, "::before").content, after = getComputedStyle(e, "::after").content;
    texts.push(before === "none" ? "" : before, after === "none" ? "" : after);
  }
  return texts.filter((t) => rx.test(t));
}"""

DRAWN = """(sel) => [...document.querySelectorAll(sel)].map((s) => {
  const r = s.getBoundingClientRect(), use = s.querySelector("use");
  let box = null;
  try { const b = use.getBBox(); box = [b.width, b.height]; } catch (e) { box = String(e); }
  return { name: s.getAttribute("class"), w: r.width, h: r.height, box, label: s.getAttribute("aria-label") };
})"""


def _icons(page, sel):
    page.wait_for_function("(sel) => [...document.querySelectorAll(sel + ' use')].every((u) => u.getBBox().width > 0)", arg=sel)
    return page.evaluate(DRAWN, sel)


def _check_drawn(icons):
    assert icons
    for i in icons:
        assert i["w"] >= 8 and i["h"] >= 8, i
        assert isinstance(i["box"], list) and i["box"][0] > 0 and i["box"][1] > 0, i


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_tracks_brand_and_order_panel_draw_icons(harness, shots, lang):
    """A crowded late game: the King's Court stars and the dominance marks of the tracks, the
    brand's crown, the order panel's special-order star are SVG; no symbol character anywhere."""
    gid = harness.new_game("crowded6")
    page = harness.open(gid, "stark", width=1400, height=900, lang=lang)
    assert page.evaluate(READ, SYMBOLS) == []
    stars = _icons(page, ".kc-stars svg.icon")
    _check_drawn(stars)
    assert page.locator(".kc-stars [role=img]").first.get_attribute("aria-label")
    dominance = _icons(page, ".dominance svg.icon")
    assert len(dominance) == 3 and all(d["label"] for d in dominance)
    _check_drawn(dominance)
    _check_drawn(_icons(page, ".brand svg.icon"))
    page.locator(".tracks").screenshot(path=shots(f"1-tracks-{lang}"))
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_combat_panels_draw_swords_towers_and_tides_icons(harness, shots, lang):
    """A battle with Tides of Battle: the battle's heading and banner (crossed swords), the house
    cards' swords and fortifications, the own Tides card in the Blade panel: icons with accessible
    names; no symbol character in the page, in English and in Chinese."""
    gid = harness.new_game("combat3_tides")
    stark = harness.open(gid, "stark", width=1400, height=900, lang=lang)
    stark.wait_for_selector("#board-root[data-decision='choose_house_card']")
    assert stark.evaluate(READ, SYMBOLS) == []
    _check_drawn(_icons(stark, ".combat-box h3 svg.icon-swords"))
    _check_drawn(_icons(stark, ".combat-banner svg.icon-swords"))
    swords = _icons(stark, ".decision .hc-icons svg.icon-sword")
    towers = _icons(stark, ".decision .hc-icons svg.icon-tower")
    _check_drawn(swords)
    _check_drawn(towers)
    # The Blackfish has no icon, Robb Stark 2 swords... each run names its count in words
    labels = stark.evaluate("[...document.querySelectorAll('.decision .hc-icons [role=img]')].map(e => e.getAttribute('aria-label'))")
    assert labels and all(any(ch.isdigit() for ch in x) for x in labels)
    stark.locator(".decision").screenshot(path=shots(f"1-cards-{lang}"))
    lan = harness.open(gid, "lannister", width=1400, height=900, lang=lang)
    lan.wait_for_selector("#board-root[data-decision='choose_house_card']")
    lan.locator(".decision button[data-card='tywin-lannister']").click()
    v = lan.locator("#board-root").get_attribute("data-version")
    lan.locator(".decision .btn-primary").click()
    wait_version_change(lan, v)
    stark.locator(".decision button[data-card='catelyn-stark']").click()
    v = lan.locator("#board-root").get_attribute("data-version")
    stark.locator(".decision .btn-primary").click()
    wait_version_change(lan, v)
    lan.wait_for_selector("#board-root[data-decision='use_blade']")
    mine = lan.locator(".decision .my-tides .tides-name")
    assert mine.count() == 1
    assert lan.evaluate(READ, SYMBOLS) == []
    tides = harness.state(gid, "lannister")["view"]["combat"]["my_tides"]
    assert mine.get_attribute("data-tides") == tides
    lan.locator(".decision").screenshot(path=shots(f"2-tides-{lang}"))
    for p in (stark, lan):
        assert not p.errors
