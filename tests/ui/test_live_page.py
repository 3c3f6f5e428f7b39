"""The renderer on the real live game page (/game/<id>/, websocket client): a host plays
Lannister against two bots, places orders only by clicking the map and the token panel, and sees
the reveal on the map; a spectator watches the same screen with no panel."""

from __future__ import annotations


import pytest

from tests.e2e.conftest import start_server, stop_server
from tests.e2e.pages import fill_with_bots_and_start, guest_creates_lobby
from tests.ui.conftest import place_order

pytestmark = pytest.mark.e2e

LANNISTER = {"lannisport": "march", "stoney-sept": "defense-plus-one", "the-golden-sound": "support"}


@pytest.fixture
def game_server(tmp_path):
    url, proc = start_server(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.2"}, "daphne-live-ui")
    yield url
    stop_server(proc)


def test_orders_by_clicking_on_the_live_page(browser, game_server, shots):
    from playwright.sync_api import expect

    base = game_server
    ctx = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 950})
    host = ctx.new_page()
    host.set_default_timeout(20_000)
    errors = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    guest_creates_lobby(host, base, "Clicking at Casterly Rock")
    game_path = fill_with_bots_and_start(host, base, bots=2)

    expect(host.locator("#board-root")).to_have_attribute("data-ready", "1")
    expect(host.locator("#board-root")).to_have_attribute("data-decision", "place_orders")
    for area, token in LANNISTER.items():
        place_order(host, area, token)
    host.screenshot(path=shots("1-live-drafted"))
    host.locator(".decision .btn-primary").click()
    # the bots have placed theirs: every order is revealed face up on the map
    expect(host.locator(".ov-order.up")).to_have_count(9)
    expect(host.locator(".ov-order.up[data-token='defense-plus-one'][data-house='lannister']")).to_have_count(1)
    # Lannister leads the King's Court: the Messenger Raven panel comes next
    expect(host.locator("#board-root")).to_have_attribute("data-decision", "raven")
    host.screenshot(path=shots("2-live-revealed"))

    spectator = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 950}).new_page()
    spectator.set_default_timeout(20_000)
    spectator.goto(base + game_path)
    expect(spectator.locator("#board-root")).to_have_attribute("data-ready", "1")
    expect(spectator.locator(".ov-order.up")).to_have_count(9)
    assert spectator.locator(".decision").count() == 0
    # the host passes with the Raven; the spectator's map follows live
    host.locator(".decision button[data-key='pass']").click()
    expect(host.locator("#board-root")).not_to_have_attribute("data-decision", "raven")
    spectator.screenshot(path=shots("3-live-spectator"))
    assert errors == []
    ctx.close()
    spectator.context.close()
