"""Spectators see the same screen with the public view: no decision panel, who is awaited, and
none of the face-down orders' tokens while orders are being placed (checked in the page's DOM
and in the payload the harness pushed). With nothing to show between battles a spectator has no
decision sheet over a phone's page."""

import json

import pytest

pytestmark = pytest.mark.e2e


def test_spectator_sees_no_hidden_orders(harness, shots):
    gid = harness.new_game("start3")
    stark = harness.open(gid, "stark")
    for area, token in {"winterfell": "march-plus-one", "white-harbor": "support", "the-shivering-sea": "raid"}.items():
        stark.evaluate("(a) => document.getElementById('area-' + a).dispatchEvent(new MouseEvent('click', {bubbles: true}))", area)
        stark.locator(f".token-grid button[data-token='{token}']").click()
    v = stark.locator("#board-root").get_attribute("data-version")
    stark.locator(".decision .btn-primary").click()
    stark.wait_for_function("(v) => document.getElementById('board-root').dataset.version !== v", arg=v)

    page = harness.open(gid, None)
    page.screenshot(path=shots("1-spectator"))
    assert page.locator(".decision").count() == 0
    assert page.locator(".decision-panel").inner_text().strip() == ""
    assert "Waiting for" in page.locator(".waiting").inner_text()
    # Stark's three orders show face down, with no token anywhere in the page
    assert page.locator(".ov-order.down[data-house='stark']").count() == 3
    assert page.locator(".ov-order.up").count() == 0
    html = page.content()
    for token in ("march-plus-one", "special-raid"):
        assert token not in html
    pushed = page.evaluate("JSON.stringify(window.__harness.last)")
    assert "my_orders" not in json.loads(pushed)["view"]
    assert "march-plus-one" not in pushed
    # the house cards (public in this game) are shown in the Cards tab, with no panel to play them
    page.locator(".side-tab[data-tab='cards']").click()
    assert page.locator(".cards-box details").count() == 3
    assert not page.errors


def test_a_spectator_on_a_phone_has_no_sheet_between_battles(harness, shots):
    gid = harness.new_game("start3")
    page = harness.open(gid, None, width=390, height=844, touch=True)
    assert page.locator(".decision-sheet").is_hidden()
    assert page.evaluate("getComputedStyle(document.querySelector('.agot2-screen')).paddingBottom") == "0px"
    player = harness.open(gid, "stark", width=390, height=844, touch=True)  # a player's sheet is there
    assert player.locator(".decision-sheet").is_visible()
    page.screenshot(path=shots("2-spectator-phone"))
    assert not page.errors and not player.errors
