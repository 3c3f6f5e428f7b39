"""A battle only by clicking, one browser page per house and a spectator: the March into an
enemy area, the third house's Support, both house cards (the opponent's public hand shown
beside one's own), the Valyrian Steel Blade, casualties (crossed out on the map) and the
retreat to a highlighted area clicked on the map. The combat panel shows the battle to every
viewer from the view, with nothing hidden leaking (the face-down card stays out of the
spectator's payload until both are revealed). Positions: ``combat3`` / ``combat3_tides`` in
game/devtools/ui_harness.py."""

import json
import urllib.request

import pytest

from tests.ui.conftest import click_area, scroll_to, tap_area, wait_version_change

pytestmark = pytest.mark.e2e


def wait_decision(page, kind):
    page.wait_for_selector(f"#board-root[data-decision='{kind}']", timeout=10000)


def click_and_wait(page, selector):
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(selector).first.click()
    wait_version_change(page, v)


def targets(page):
    return sorted(page.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)"))


def test_battle_by_clicking(harness, shots):
    gid = harness.new_game("combat3")
    lan = harness.open(gid, "lannister")
    spectator = harness.open(gid, None)
    # the March: its only order is selected with every unit; The Twins is a battle
    wait_decision(lan, "march")
    assert "the-twins" in targets(lan)
    assert "(battle)" in lan.locator(".decision").inner_text()
    click_area(lan, "the-twins")
    click_and_wait(lan, ".decision .btn-primary")

    # 1. support: Baratheon's Support in The Fingers declares for a side; the battle is highlighted
    bar = harness.open(gid, "baratheon")
    wait_decision(bar, "support_combat")
    assert targets(bar) == ["the-twins"]
    panel = bar.locator(".decision").inner_text()
    assert "Lannister attacks Stark in The Twins (from Seagard)" in panel
    assert "Support Lannister (attacker, +2)" in panel and "Support Stark (defender, +2)" in panel
    assert bar.locator(".combat-box").count() == 1 and bar.locator(".ov-attack").count() == 1
    bar.screenshot(path=shots("1-support"))
    click_and_wait(bar, ".decision button[data-key='opt-attacker']")
    assert harness.sent(gid)[-1] == {"actor": "baratheon", "action": {"type": "choose", "option": "attacker"}, "ok": True}

    # 3. house cards, face down: Stark sees its hand and Lannister's public hand
    stark = harness.open(gid, "stark")
    wait_decision(stark, "choose_house_card")
    assert stark.locator(".decision .cards button.house-card").count() == 7
    assert stark.locator(".opponent-hand .house-card").count() == 7
    assert "Lannister's hand" in stark.locator(".opponent-hand").inner_text()
    assert stark.locator(".decision .btn-primary").is_disabled()
    stark.locator(".decision button[data-card='catelyn-stark']").click()
    assert stark.locator(".decision button[data-card='catelyn-stark']").get_attribute("aria-pressed") == "true"
    stark.screenshot(path=shots("2-house-card"))
    click_and_wait(stark, ".decision .btn-primary")
    stark.wait_for_selector(".combat-box td[data-house='stark']:has-text('face down')")
    # nobody else learns the face-down card
    spectator.wait_for_selector(".combat-box td[data-house='stark']:has-text('chosen (face down)')")
    pushed = spectator.evaluate("JSON.stringify(window.__harness.last)")
    assert "catelyn-stark" not in pushed
    spectator.locator(".side-tab[data-tab='cards']").click()  # the hands are in the Cards tab
    assert spectator.locator(".cards-box details[data-house='stark'] .house-card").count() == 7
    spectator.locator(".side-tab[data-tab='battle']").click()

    wait_decision(lan, "choose_house_card")
    assert lan.locator(".opponent-hand .house-card").count() == 7
    lan.locator(".decision button[data-card='ser-jaime-lannister']").click()
    click_and_wait(lan, ".decision .btn-primary")

    # 4. the Valyrian Steel Blade (Lannister leads the Fiefdoms track), cards revealed
    wait_decision(lan, "use_blade")
    assert "Catelyn Stark" in lan.locator(".decision").inner_text()
    lan.screenshot(path=shots("3-blade"))
    click_and_wait(lan, ".decision button[data-key='opt-use']")

    # casualties: Jaime's sword kills one of Stark's two units; the chosen one is crossed out
    wait_decision(stark, "casualties")
    assert "Casualties" in stark.locator(".decision-title").inner_text()
    spectator.wait_for_selector(".combat-winner[data-winner='lannister']")
    assert spectator.locator(".combat-table tr[data-row='strength'] td[data-house='lannister']").inner_text() == "10"
    assert spectator.locator(".combat-table tr[data-row='card'] td[data-house='stark']").inner_text().startswith("Catelyn Stark")
    assert spectator.locator(".combat-table tr[data-row='blade'] td[data-house='lannister']").inner_text() == "+1"
    spectator.screenshot(path=shots("4-spectator-result"))
    assert stark.locator(".decision .btn-primary").is_disabled()
    stark.locator(".decision .unit-row button", has_text="Footman").click()
    assert stark.locator(".ov-unit.doomed[data-house='stark'][data-unit='footman']").count() == 1
    stark.screenshot(path=shots("5-casualties"))
    click_and_wait(stark, ".decision .btn-primary")

    # retreat: the legal areas glow; clicking one on the map picks it
    wait_decision(stark, "retreat")
    assert targets(stark) == ["moat-cailin", "the-mountains-of-the-moon"]
    click_area(stark, "the-mountains-of-the-moon")
    assert stark.locator(".decision button[data-key='to-the-mountains-of-the-moon']").get_attribute("aria-pressed") == "true"
    assert stark.locator(".ov-move").count() == 1
    stark.screenshot(path=shots("6-retreat"))
    click_and_wait(stark, ".decision .btn-primary")

    view = harness.state(gid)["view"]
    assert "combat" not in view
    assert view["units"]["the-mountains-of-the-moon"]["house"] == "stark"
    assert [u["type"] for u in view["units"]["the-mountains-of-the-moon"]["units"]] == ["knight"]
    assert view["units"]["the-twins"]["house"] == "lannister"
    assert [s["action"] for s in harness.sent(gid) if s["actor"] == "stark"] == [
        {"type": "select_card", "card": "catelyn-stark"},
        {"type": "select_units", "units": [{"area": "the-twins", "unit": "footman"}]},
        {"type": "choose", "option": "the-mountains-of-the-moon"},
    ]
    assert all(s["ok"] for s in harness.sent(gid))
    # after the battle everyone sees its result in one line
    spectator.wait_for_selector(".combat-box.last")
    assert "Lannister (10) beat Stark (5) in The Twins" in spectator.locator(".combat-box.last").inner_text()
    spectator.screenshot(path=shots("7-spectator-after"))
    for p in (lan, bar, stark, spectator):
        assert not p.errors
        assert p.locator(".decision.unknown").count() == 0


def test_tides_of_battle_and_blade_redraw(harness, shots):
    """With Tides of Battle each side sees only its own Tides card until the Blade step is over;
    with Tides the Blade's use is the redraw (Tides of Battle rules, 使用瓦雷利亚钢剑), not +1."""
    gid = harness.new_game("combat3_tides")
    lan = harness.open(gid, "lannister")
    stark = harness.open(gid, "stark")
    spectator = harness.open(gid, None)
    # Lannister picks a card; Stark plays first: Lannister's page updates and keeps the pick
    wait_decision(lan, "choose_house_card")
    lan.locator(".decision button[data-card='tywin-lannister']").click()
    wait_decision(stark, "choose_house_card")
    stark.locator(".decision button[data-card='catelyn-stark']").click()
    click_and_wait(stark, ".decision .btn-primary")
    lan.wait_for_selector(".combat-box td[data-house='stark']:has-text('chosen (face down)')")
    assert lan.locator(".decision button[data-card='tywin-lannister']").get_attribute("aria-pressed") == "true"
    click_and_wait(lan, ".decision .btn-primary")
    wait_decision(lan, "use_blade")
    mine = harness.state(gid, "lannister")["view"]["combat"]["my_tides"]
    assert lan.locator(".decision .my-tides").count() == 1
    assert lan.locator(".combat-table tr[data-row='tides'] td[data-house='lannister']").inner_text().endswith("(only you see it)")
    assert lan.locator(".combat-table tr[data-row='tides'] td[data-house='stark']").inner_text() == "drawn (face down)"
    spectator.wait_for_selector(".combat-table tr[data-row='tides']")
    assert json.loads(spectator.evaluate("JSON.stringify(window.__harness.last)"))["view"]["combat"].get("my_tides") is None
    assert mine
    lan.screenshot(path=shots("1-blade-tides"))
    assert [b.get_attribute("data-key") for b in lan.locator(".decision .choices button").all()] == ["opt-redraw", "opt-pass"]
    click_and_wait(lan, ".decision button[data-key='opt-redraw']")
    assert harness.sent(gid)[-1]["action"] == {"type": "choose", "option": "redraw"}
    view = harness.state(gid)["view"]
    assert view["blade_used"] is True
    if "combat" in view:  # a decision is still pending (casualties, retreat): the Tides cards are shown
        spectator.wait_for_selector(".combat-table tr[data-row='tides'] td[data-house='stark']:not(:has-text('face down'))")
        spectator.screenshot(path=shots("2-spectator-tides"))
    for p in (lan, stark, spectator):
        assert not p.errors
        assert p.locator(".decision.unknown").count() == 0


def test_combat_on_a_phone_and_in_chinese(harness, shots):
    gid = harness.new_game("combat3_tides")
    page = harness.open(gid, "stark", width=375, height=812, touch=True, lang="zh-hans")
    wait_decision(page, "choose_house_card")
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert page.locator(".combat-banner").count() == 1
    title = page.locator(".decision-title").inner_text()
    assert title == "选择你的家族卡牌"
    page.screenshot(path=shots("1-phone-zh"))
    small = page.evaluate("""() => [...document.querySelectorAll('.decision button')]
        .filter(b => b.getBoundingClientRect().height < 40).map(b => b.textContent)""")
    assert small == []
    page.locator(".decision button[data-card='catelyn-stark']").tap()
    scroll_to(page, ".decision .btn-primary")
    page.screenshot(path=shots("2-phone-picked"))
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").tap()
    wait_version_change(page, v)
    assert harness.sent(gid)[-1] == {"actor": "stark", "action": {"type": "select_card", "card": "catelyn-stark"}, "ok": True}
    scroll_to(page, ".combat-box")
    page.screenshot(path=shots("3-phone-combat-box"))
    assert not page.errors


def post(harness, gid, actor, action):
    """An action sent straight to the harness (another seat's move, not under test)."""
    req = urllib.request.Request(f"{harness.url}/harness/agot2/{gid}/act", data=json.dumps({"actor": actor, "action": action}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as r:
        assert json.load(r)["ok"] is True


def start_battle(harness, gid, stark_card, lannister_card, blade="use"):
    post(harness, gid, "lannister", {"type": "march", "area": "seagard", "leave_power": False,
                                      "moves": [{"to": "the-twins", "units": ["knight", "knight", "footman"]}]})
    post(harness, gid, "baratheon", {"type": "choose", "option": "attacker"})
    post(harness, gid, "stark", {"type": "select_card", "card": stark_card})
    post(harness, gid, "lannister", {"type": "select_card", "card": lannister_card})
    post(harness, gid, "lannister", {"type": "choose", "option": blade})


def test_house_card_ability_choice_on_the_map(harness, shots):
    """Cersei Lannister won: her owner removes one of Stark's orders; the card is shown and the
    order's area can be clicked on the map."""
    gid = harness.new_game("combat3")
    start_battle(harness, gid, "catelyn-stark", "cersei-lannister", blade="pass")
    lan = harness.open(gid, "lannister")
    wait_decision(lan, "choose")
    panel = lan.locator(".decision")
    assert panel.locator(".house-card[data-card='cersei-lannister']").count() == 1
    assert "Winterfell (Consolidate Power)" in panel.inner_text()
    assert targets(lan) == ["winterfell"]
    lan.screenshot(path=shots("1-cersei"))
    v = lan.locator("#board-root").get_attribute("data-version")
    click_area(lan, "winterfell")
    wait_version_change(lan, v)
    assert harness.sent(gid)[-1]["action"] == {"type": "choose", "option": "winterfell"}
    assert "winterfell" not in harness.state(gid)["view"]["orders"]
    assert not lan.errors


def test_casualties_and_retreat_on_a_phone(harness, shots):
    gid = harness.new_game("combat3")
    start_battle(harness, gid, "catelyn-stark", "ser-jaime-lannister")
    page = harness.open(gid, "stark", width=375, height=812, touch=True)
    wait_decision(page, "casualties")
    # the battle is small on a phone: the banner's button zooms onto it
    page.locator(".combat-banner .show-battle").tap()
    assert float(page.locator("svg.board").get_attribute("data-zoom")) >= 2.5
    inside = page.evaluate("""() => { const m = document.querySelector('.map-wrap').getBoundingClientRect();
        const r = document.getElementById('area-the-twins').getBoundingClientRect();
        return r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom && r.width > 60; }""")
    assert inside
    page.screenshot(path=shots("1-phone-casualties"))
    page.locator(".decision .unit-row button", has_text="Knight").tap()
    assert page.locator(".ov-unit.doomed[data-unit='knight']").count() == 1
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").tap()
    wait_version_change(page, v)
    wait_decision(page, "retreat")
    tap_area(page, "moat-cailin")
    assert page.locator(".decision button[data-key='to-moat-cailin']").get_attribute("aria-pressed") == "true"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots("2-phone-retreat"))
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").tap()
    wait_version_change(page, v)
    units = harness.state(gid)["view"]["units"]["moat-cailin"]
    assert units["house"] == "stark" and [u["type"] for u in units["units"]] == ["footman"]
    assert not page.errors


def test_winner_chooses_the_retreat_with_robb_stark(harness, shots):
    """Robb Stark won: Stark, not the loser, picks where Lannister's army retreats."""
    gid = harness.new_game("combat3_robb")
    stark = harness.open(gid, "stark")
    lan = harness.open(gid, None)
    wait_decision(stark, "retreat")
    assert stark.locator(".decision-title").inner_text() == "Choose where Lannister retreats"
    assert targets(stark) == ["greywater-watch", "moat-cailin", "riverrun"]
    stark.locator(".decision button[data-key='to-riverrun']").click()
    assert stark.locator(".ov-move").count() == 1
    stark.screenshot(path=shots("1-robb"))
    assert "Waiting for" in lan.locator(".waiting").inner_text()
    click_and_wait(stark, ".decision .btn-primary")
    view = harness.state(gid)["view"]
    assert view["units"]["riverrun"]["house"] == "lannister" and view["units"]["seagard"]["house"] == "stark"
    assert not stark.errors


def test_patchface_discards_a_card_of_the_opponents_hand(harness, shots):
    """A card ability's ``select_card``: the card and whose hand it picks from are shown."""
    gid = harness.new_game("combat3_patchface")
    bar = harness.open(gid, "baratheon")
    wait_decision(bar, "select_card")
    assert bar.locator(".decision-title").inner_text() == "Patchface: house card ability"
    assert "Choose a card from Stark's hand." in bar.locator(".decision").inner_text()
    assert bar.locator(".decision .house-card.static[data-card='patchface']").count() == 1
    assert bar.locator(".decision button.house-card").count() == 6
    bar.screenshot(path=shots("1-patchface"))
    click_and_wait(bar, ".decision button[data-card='eddard-stark']")
    assert "eddard-stark" in harness.state(gid)["view"]["discards"]["stark"]
    assert not bar.errors
