"""In a real browser: a player who walked away is handed to a stand-in bot by another player once
awaited for GAME_AWAY_AFTER seconds; everyone reads it in the log; the bot plays for them; they
take their seat back with one button."""

from __future__ import annotations

import re

import pytest

from .conftest import server_on_sqlite
from .pages import guests_at_a_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-stand-in", GAME_BOT_DELAY="0.2", GAME_AWAY_AFTER="1.5") as (url, _env):
        yield url


def test_a_bot_stands_in_for_an_away_player(browser, server, shots):
    from playwright.sync_api import expect

    base = server
    host, arya, errors = guests_at_a_table(browser, base, "Who is away?")

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
    # the stand-in places Stark's orders through the server: only the host is awaited now, and
    # Arya sees the orders placed for her, face down, which she may still change
    expect(arya.locator("#board-root .decision:not(.face-down)")).to_have_count(0)
    expect(arya.locator("#board-root .decision.face-down .face-down-orders li").first).to_be_visible()
    expect(arya.get_by_role("button", name="Let a bot play for Lannister")).to_be_visible()
    arya.screenshot(path=shots("02-arya-played-by-a-bot"), full_page=True)

    take_back.click()
    for page in (host, arya):
        expect(page.locator("#log")).to_contain_text("Stark is back: the bot no longer plays for them.")
        expect(page.locator('.play-seats li[data-seat="stark"] .tag-stand-in')).to_be_hidden()
    expect(take_back).to_have_count(0)
    arya.screenshot(path=shots("03-arya-is-back"), full_page=True)
    assert errors == []
