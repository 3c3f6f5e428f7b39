"""In a real browser: a player who walked away is handed to a stand-in bot by another player once
awaited for GAME_AWAY_AFTER seconds; everyone reads it in the log; the bot plays for them; they
take their seat back with one button."""

from __future__ import annotations

import re

import pytest

from .conftest import start_server, stop_server
from .pages import fill_with_bots_and_start, guest_creates_lobby

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.2", "GAME_AWAY_AFTER": "1.5"}
    url, proc = start_server(tmp_path, env, "daphne-stand-in")
    yield url
    stop_server(proc)


def test_a_bot_stands_in_for_an_away_player(browser, server, shots):
    from playwright.sync_api import expect

    base = server
    errors = []
    host = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    arya = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    for page in (host, arya):
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))

    lobby_path = guest_creates_lobby(host, base, "Who is away?")

    arya.goto(base + "/accounts/guest/?next=" + lobby_path)
    arya.fill("#id_display_name", "Arya")
    arya.get_by_role("button", name="Play").click()
    arya.select_option("#id_house", "stark")
    arya.get_by_role("button", name="Join").click()
    expect(host.locator("#seat-count")).to_have_text("2 / 3")
    fill_with_bots_and_start(host, base, bots=1)
    # a seated player's lobby page goes to the game by itself (a goto of ours could race with it)
    expect(arya).to_have_url(host.url)

    # nobody may hand a seat before it has waited; then each player may hand the other's
    hand = host.get_by_role("button", name="Let a bot play for Stark")
    expect(hand).to_be_visible()
    expect(arya.get_by_role("button", name="Let a bot play for Lannister")).to_be_visible()
    expect(host.get_by_role("button", name="Let a bot play for Lannister")).to_have_count(0)  # not oneself
    expect(host.locator("#stand-in").get_by_role("button", name=re.compile("Baratheon"))).to_have_count(0)  # a bot's seat
    host.screenshot(path=shots("01-host-may-hand-stark"), full_page=True)
    hand.click()

    for page in (host, arya):
        expect(page.locator("#log")).to_contain_text("A bot now plays for Stark.")
        page.locator(".side-tab[data-tab='players']").click()  # the seats are in the Players tab
        expect(page.locator('.play-seats li[data-seat="stark"] .tag-stand-in')).to_be_visible()
    expect(hand).to_have_count(0)
    take_back = arya.get_by_role("button", name="Take back my seat")
    expect(take_back).to_be_visible()
    # the stand-in places Stark's orders through the server: only the host is awaited now
    expect(arya.locator("#board-root .decision")).to_have_count(0)
    expect(arya.get_by_role("button", name="Let a bot play for Lannister")).to_be_visible()
    arya.screenshot(path=shots("02-arya-played-by-a-bot"), full_page=True)

    take_back.click()
    for page in (host, arya):
        expect(page.locator("#log")).to_contain_text("Stark is back: the bot no longer plays for them.")
        expect(page.locator('.play-seats li[data-seat="stark"] .tag-stand-in')).to_be_hidden()
    expect(take_back).to_have_count(0)
    arya.screenshot(path=shots("03-arya-is-back"), full_page=True)
    assert errors == []
