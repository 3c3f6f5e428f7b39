"""What just happened, on the map (view["recent"], board/recent.js): the marches as arrows with
the units they carried, a Raid and the order it removed, a battle with its winner; a spectator
sees the same marks; the "Last moves" toggle hides them; every log line of a battle or a Raid
highlights the battle's or the Raid's areas (static/js/live/log_areas.js)."""

import pytest

pytestmark = pytest.mark.e2e

MARKS = """() => [...document.querySelectorAll('.ov-recent .rc')].map(m => ({kind: m.dataset.kind, from: m.dataset.from || null,
  to: m.dataset.to || null, area: m.dataset.area || null, winner: m.dataset.winner || null, attack: m.classList.contains('rc-attack'),
  title: m.querySelector(':scope > title').textContent, units: m.querySelectorAll('.rc-units .ov-unit').length}))"""


def test_marches_and_a_raid_on_the_map(harness, shots):
    gid = harness.new_game("moves3")
    page = harness.open(gid, "stark", width=1400, height=900)
    marks = page.evaluate(MARKS)
    kinds = [(m["kind"], m["from"], m["to"]) for m in marks]
    assert kinds == [("raid", "stoney-sept", "blackwater"), ("march", "dragonstone", "crackclaw-point"),
                     ("march", "lannisport", "searoad-marches")]
    assert marks[1]["title"] == "Baratheon marched from Dragonstone to Crackclaw Point with knight, footman"
    assert marks[1]["units"] == 2 and marks[2]["units"] == 1  # the units carried, drawn on the arrow
    assert marks[0]["title"] == "Lannister raided Blackwater from Stoney Sept: its Consolidate Power order removed"
    assert page.locator(".rc-raid .rc-removed .ov-order[data-token='consolidate-power']").count() == 1
    page.screenshot(path=shots("1-desktop-mid-march"))
    # a spectator sees the same
    spectator = harness.open(gid, None, width=1400, height=900)
    assert [(m["kind"], m["from"], m["to"]) for m in spectator.evaluate(MARKS)] == kinds
    # the toggle hides them, and the choice stays
    toggle = page.locator(".map-controls .recent-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert page.locator(".ov-recent").count() == 0 and toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("#board-root[data-version]")
    assert page.locator(".ov-recent").count() == 0
    page.locator(".map-controls .recent-toggle").click()
    assert page.locator(".ov-recent .rc").count() == 3
    # Chinese
    zh = harness.open(gid, "stark", width=1400, height=900, lang="zh-hans")
    assert "行军" in zh.evaluate(MARKS)[1]["title"]
    assert not page.errors and not spectator.errors and not zh.errors


def test_the_phone_mid_march(harness, shots):
    gid = harness.new_game("moves3")
    page = harness.open(gid, "stark", width=390, height=844, touch=True)
    page.locator(".decision button", has_text="Winterfell").tap()
    page.wait_for_selector(".hl-target")
    assert page.locator(".ov-recent .rc").count() == 3
    page.screenshot(path=shots("1-phone-mid-march"))
    assert not page.errors


def test_a_battle_and_its_winner(harness):
    gid = harness.new_game("combat3_robb")  # Stark won Seagard with Robb Stark; Stark picks the retreat
    page = harness.open(gid, None, width=1400, height=900)
    marks = page.evaluate(MARKS)
    attack = [m for m in marks if m["kind"] == "march"]
    assert attack and attack[0]["attack"] and (attack[0]["from"], attack[0]["to"]) == ("the-twins", "seagard")
    battle = [m for m in marks if m["kind"] == "battle"]
    assert [(b["area"], b["winner"]) for b in battle] == [("seagard", "stark")]
    assert battle[0]["title"] == "Battle in Seagard: Stark won"
    assert page.locator(".rc-battle .ov-badge[data-house='stark']").count() == 1
    assert "attacked Seagard from The Twins" in attack[0]["title"]


def test_every_line_of_a_battle_highlights_it(harness):
    gid = harness.new_game("start3")
    page = harness.open(gid, None)
    got = page.evaluate("""async () => {
      const { lineAreas } = await import('/static/js/live/log_areas.js');
      const events = [{kind: 'round_start'}, {kind: 'raid'}, {kind: 'pillage'}, {kind: 'combat_started'}, {kind: 'house_card_chosen'},
        {kind: 'house_cards_revealed'}, {kind: 'blade_used'}, {kind: 'combat_result'}, {kind: 'combat_end'}, {kind: 'power_income'}];
      const areas = [[], ['stoney-sept', 'blackwater'], [], ['the-twins', 'seagard'], [], [], [], ['the-twins'], ['the-twins'], []];
      const log = events.map((e, i) => ({n: 40 + i, text: e.kind, areas: areas[i]}));
      return lineAreas(log, {events_from: 40, events});
    }""")
    assert got == [[], ["stoney-sept", "blackwater"], ["stoney-sept", "blackwater"], ["the-twins", "seagard"],
                   ["the-twins", "seagard"], ["the-twins", "seagard"], ["the-twins", "seagard"], ["the-twins"], ["the-twins"], []]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_toolbar_labels_on_one_line(harness, lang):
    """"Last moves" and "Legend" keep their label on one line beside the map on a desktop and in
    the toolbar above it on a 320 px phone ("最近行动" broke into "最近行" over "动")."""
    gid = harness.new_game("moves3")
    for width, height in ((1366, 800), (320, 640)):
        page = harness.open(gid, "stark", width=width, height=height, lang=lang)
        for sel in (".map-controls .recent-toggle", ".map-controls .legend-toggle"):
            lines = page.eval_on_selector(sel, "b => { const r = document.createRange(); r.selectNodeContents(b); return r.getClientRects().length; }")
            assert lines == 1, (width, sel, lines)
            assert page.locator(sel).bounding_box()["height"] <= 44
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        assert not page.errors
