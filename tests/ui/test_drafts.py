"""A march's moves and a mustering's units, picked in the panel but not yet sent, survive a reload
of the page (drafts.js, in the tab's sessionStorage), as the orders being placed do
(test_place_orders.py): a phone that drops the tab in the background and loads it again brings
back what its player had picked. Once sent, nothing is kept; a draft that no longer fits the
decision is not restored."""

import json

import pytest

from tests.ui.conftest import click_area, reload, wait_version_change

pytestmark = pytest.mark.e2e

KEPT = "Object.keys(sessionStorage).filter((k) => k.startsWith('gotweb.draft|'))"
#: the draft is forgotten when the answer's acknowledgement arrives, which may come after the new
#: version's push: waited for, not read once
NONE_KEPT = "() => " + KEPT + ".length === 0"


def _send(page) -> None:
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)


def test_a_mustering_survives_a_reload(harness):
    gid = harness.new_game("muster3")
    page = harness.open(gid, "baratheon")
    click_area(page, "dragonstone")
    page.locator(".decision button[data-key='up-knight']").click()
    reload(page)
    assert page.locator(".decision.muster ul.moves li").count() == 1
    assert "1 mustering point(s) left" in page.locator(".decision .counter").inner_text()
    assert harness.sent(gid) == []  # a draft never reaches the server
    page.locator(".decision button[data-key='footman']").click()
    _send(page)
    assert harness.sent(gid)[-1]["action"] == {"type": "muster", "recruits": [
        {"area": "dragonstone", "unit": "knight", "upgrade": True}, {"area": "dragonstone", "unit": "footman"}]}
    page.wait_for_function(NONE_KEPT)
    assert not page.errors


def test_a_march_survives_a_reload(harness):
    gid = harness.new_game("moves3")  # Stark marches next: a knight and a footman in Winterfell
    page = harness.open(gid, "stark")
    page.locator(".decision button[data-key='from-winterfell']").click()
    page.locator(".decision .unit-chips button").first.click()  # one unit stays behind
    page.locator(".decision button.dest").first.click()
    move = page.locator(".decision ul.moves li").first.inner_text()
    reload(page)
    assert page.locator(".decision ul.moves li").count() == 1
    assert page.locator(".decision ul.moves li").first.inner_text() == move
    assert page.locator(".decision .unit-chips button").count() == 1  # the other unit, still to move
    assert harness.sent(gid) == []
    _send(page)
    sent = harness.sent(gid)[-1]
    assert sent["ok"] and sent["action"]["area"] == "winterfell" and len(sent["action"]["moves"]) == 1, sent
    page.wait_for_function(NONE_KEPT)
    assert not page.errors


def test_a_draft_that_does_not_fit_is_not_restored(harness):
    """A kept march whose units the order does not have (an old tab, a hand-edited store) opens the
    decision as new: the order chosen, no moves."""
    gid = harness.new_game("moves3")
    page = harness.open(gid, "stark")
    page.locator(".decision button[data-key='from-winterfell']").click()
    key = page.evaluate(KEPT)[0]
    bad = {"kind": "march", "from": "winterfell", "moves": [{"to": "castle-black", "units": ["siege_engine", "knight"]}], "leave_power": True}
    page.evaluate("([k, v]) => sessionStorage.setItem(k, v)", [key, json.dumps(bad)])
    reload(page)
    assert page.locator(".decision ul.moves li").count() == 0
    assert page.locator(".decision .unit-chips button").count() == 2
    assert not page.locator("#leave-power").is_visible() or not page.locator("#leave-power").is_checked()
    assert not page.errors
