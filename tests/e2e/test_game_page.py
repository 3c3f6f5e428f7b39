"""In a real browser: a host fills a lobby with two bots, starts, and plays on the live game page:
the socket connects, the log tells what happened, the bots act through the server, chat works
and is escaped, a spectator watches, and the page recovers by itself when the server restarts."""

from __future__ import annotations

import re

import pytest

from tests.daphne import free_port

from .conftest import start_server, stop_server
from .pages import fill_with_bots_and_start, guest_creates_lobby

pytestmark = pytest.mark.e2e


@pytest.fixture
def own_server(tmp_path):
    """A daphne server this test may kill and start again on the same port (SQLite file)."""
    port = free_port()
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.2"}
    box = {}

    def start():
        box["url"], box["proc"] = start_server(tmp_path, env, "daphne-game", port=port)
        return box["url"]

    def stop():
        stop_server(box.pop("proc"))

    start()
    yield box["url"], start, stop
    if "proc" in box:
        stop()


def test_play_page_connects_chats_and_survives_a_restart(browser, own_server, shots):
    from playwright.sync_api import expect

    base, start, stop = own_server
    host = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    host.set_default_timeout(15_000)
    errors = []
    host.on("pageerror", lambda e: errors.append(str(e)))

    guest_creates_lobby(host, base, "Bots at Casterly Rock")
    game_path = fill_with_bots_and_start(host, base, bots=2)

    expect(host.locator("#conn-status")).to_have_attribute("data-state", "open")
    expect(host.locator("#log")).to_contain_text("A 3-player game begins:")
    expect(host.locator("#board-root")).not_to_contain_text("Loading the board")
    # the two bots place their orders through the server; the host is awaited
    expect(host.locator("#log")).to_contain_text("has placed its orders.")
    # the host decides: nobody else is awaited ("Waiting for"), the bots who placed are ready
    expect(host.locator("#board-root .waiting .awaited")).to_have_count(0)
    expect(host.locator("#board-root .waiting .ready").first).to_be_visible()
    expect(host.locator("#board-root .decision")).to_be_visible()
    expect(host.locator("#turn-banner")).to_be_visible()
    expect(host).to_have_title(re.compile("Your turn"))

    host.fill("#chat-text", "<b>Hear me roar</b>")
    host.locator("#chat-form button").click()
    expect(host.locator("#chat-messages")).to_contain_text("<b>Hear me roar</b>")  # shown as text, not HTML
    assert host.locator("#chat-messages b").count() == 0

    spectator = browser.new_context(locale="en-US").new_page()
    spectator.set_default_timeout(15_000)
    spectator.goto(base + game_path)
    expect(spectator.locator("#spectator-note")).to_be_visible()
    expect(spectator.locator("#conn-status")).to_have_attribute("data-state", "open")
    expect(spectator.locator("#chat-messages")).to_contain_text("Hear me roar")  # the public game chat
    expect(spectator.locator("#log")).to_contain_text("A 3-player game begins:")
    host.screenshot(path=shots("01-host-game-page"), full_page=True)

    # the server goes away and comes back on the same port: the page reconnects by itself
    stop()
    expect(host.locator("#conn-status")).to_have_attribute("data-state", re.compile("closed|connecting"))
    start()
    expect(host.locator("#conn-status")).to_have_attribute("data-state", "open", timeout=30_000)
    expect(host.locator("#chat-messages")).to_contain_text("<b>Hear me roar</b>")
    version = host.evaluate("window.gotwebClient.version")
    assert version >= 2
    answer = host.evaluate("window.gotwebClient.send({type: 'place_orders', orders: {}})")
    assert answer["ok"] is False and answer["error"]["message"]
    host.screenshot(path=shots("02-host-after-restart"), full_page=True)
    assert errors == []
