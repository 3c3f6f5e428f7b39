"""Bidding on the influence tracks (Clash of Kings) with the bounded number field, then the
Iron Throne holder orders tied bids by clicking."""

import pytest

from tests.ui.conftest import wait_version_change

pytestmark = pytest.mark.e2e


def bid(harness, gid, house, amount, shot=None):
    page = harness.open(gid, house)
    field = page.locator("#bid-amount")
    assert field.get_attribute("max") == "5" and field.get_attribute("min") == "0"
    field.fill(str(amount))
    if shot:
        page.screenshot(path=shot)
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)
    return page


def test_bids_and_tie_order(harness, shots):
    gid = harness.new_game("clash3")
    page = harness.open(gid, "stark")
    # out of range: the confirm button is disabled and the field says so
    page.locator("#bid-amount").fill("9")
    assert page.locator(".decision .btn-primary").is_disabled()
    assert page.locator("#bid-amount").get_attribute("aria-invalid") == "true"
    bid(harness, gid, "stark", 2, shots("1-bid"))
    assert harness.state(gid, "stark")["view"]["my_bid"] == 2
    # the others see that Stark has bid, never how much
    other = harness.state(gid, "lannister")["view"]
    assert "stark" in other["bids_placed"] and "my_bid" not in other
    bid(harness, gid, "lannister", 2)
    bid(harness, gid, "baratheon", 1)
    # Stark and Lannister tie at 2: Baratheon holds the Iron Throne and orders them
    page = harness.open(gid, "baratheon")
    assert page.locator("#board-root").get_attribute("data-decision") == "order_ties"
    page.screenshot(path=shots("2-ties"))
    first = page.locator(".tie-list li").first.inner_text()
    page.locator(".tie-list li").nth(1).locator("button[aria-label='Move up']").click()
    assert page.locator(".tie-list li").first.inner_text() != first
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(".decision .btn-primary").click()
    wait_version_change(page, v)
    sent = harness.sent(gid)[-1]
    assert sent["ok"] and sent["action"]["type"] == "order_ties"
    assert not page.errors
