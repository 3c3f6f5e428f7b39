"""A whole action round of a 3-player game only by clicking, one browser page per house:
orders, reveal, the Messenger Raven, raids (one removing an order), marches, Consolidate Power;
the game reaches the next Westeros phase. A spectator page follows along."""

import pytest

from tests.ui.conftest import click_area, place_order, reload

pytestmark = pytest.mark.e2e

ORDERS = {
    "stark": {"winterfell": "march", "white-harbor": "consolidate-power", "the-shivering-sea": "support"},
    "lannister": {"lannisport": "march", "stoney-sept": "raid", "the-golden-sound": "support"},
    "baratheon": {"dragonstone": "consolidate-power", "kingswood": "support", "shipbreaker-bay": "raid"},
}


def wait_decision(page, kind):
    page.wait_for_selector(f"#board-root[data-decision='{kind}']")


def confirm(page):
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").first.click()
    page.wait_for_function("(v) => document.getElementById('board-root').dataset.version !== v", arg=v)


def test_one_round_by_clicking(harness, shots):
    gid = harness.new_game("start3")
    pages = {h: harness.open(gid, h) for h in ORDERS}
    spectator = harness.open(gid, None)
    for house, orders in ORDERS.items():
        p = pages[house]
        reload(p)
        for area, token in orders.items():
            place_order(p, area, token)
        confirm(p)
    # after the last house: orders revealed, Lannister (King's Court) holds the Raven
    lan = pages["lannister"]
    reload(lan)
    wait_decision(lan, "raven")
    assert lan.locator(".ov-order.up").count() == 9
    lan.screenshot(path=shots("1-revealed-raven"))
    lan.locator(".decision button[data-key='pass']").click()
    # raids in turn order: Baratheon's Raid at sea removes Lannister's Support in The Golden Sound? not adjacent:
    # Baratheon's Shipbreaker Bay raid has no target -> no effect; Lannister's Stoney Sept raid hits Kingswood? not adjacent either
    bar = pages["baratheon"]
    reload(bar)
    wait_decision(bar, "raid")
    bar.locator(".decision button[data-key='to-none']").click()
    confirm(bar)
    reload(lan)
    wait_decision(lan, "raid")
    targets = lan.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)")
    if targets:
        click_area(lan, targets[0])
    else:
        lan.locator(".decision button[data-key='to-none']").click()
    confirm(lan)
    # marches: Lannister then Stark (Baratheon has none)
    reload(lan)
    wait_decision(lan, "march")
    click_area(lan, "searoad-marches")
    lan.screenshot(path=shots("2-lannister-march"))
    confirm(lan)
    st = pages["stark"]
    reload(st)
    wait_decision(st, "march")
    st.locator(".unit-chips button", has_text="knight").click()  # only the footman goes
    click_area(st, "castle-black")
    confirm(st)
    view = harness.state(gid)["view"]
    assert view["units"]["searoad-marches"]["house"] == "lannister"
    assert view["units"]["castle-black"]["house"] == "stark"
    # Consolidate Power resolved by itself; the round moved on to the Westeros phase of round 2
    assert view["round"] == 2
    reload(spectator)
    spectator.screenshot(path=shots("3-spectator-round-2"))
    assert spectator.locator(".decision").count() == 0
    assert "2" in spectator.locator(".status-line .round").inner_text()
    for p in [*pages.values(), spectator]:
        assert not p.errors
