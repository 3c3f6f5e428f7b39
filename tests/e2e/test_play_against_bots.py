"""The home page's "Play against bots" in a real browser: a guest picks the game and the bots'
level and clicks once; the game's table opens with the bots seated and the player's first
decision on the board (AGoT, 3 players: everyone places orders at once; the form fits a 360 px
phone), and a game of The Duke
against a strong bot gets its bot's moves (thought in the server's worker process).
Screenshots: ``test-results/<test name>/``."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e


def _guest(browser, base: str, name: str):
    page = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
    page.set_default_timeout(30_000)
    page.goto(base + "/accounts/guest/")
    page.fill("#id_display_name", name)
    page.get_by_role("button", name="Play").click()
    return page


def test_one_click_to_a_game_against_bots(browser, live_server_url, shots):
    from playwright.sync_api import expect

    page = _guest(browser, live_server_url, "Lonely by the Wall's gate")
    page.goto(live_server_url + "/")
    form = page.locator("#play-bots-form")
    expect(form).to_be_visible()
    assert page.input_value("#play-bots-game") == page.eval_on_selector("#play-bots-game option", "o => o.value")
    page.screenshot(path=shots("1-home"), full_page=True)
    # on a 360 px phone the form fits: its selects (the longest game's name) push nothing sideways
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert page.locator("#play-bots-game").bounding_box()["width"] <= 360
    page.screenshot(path=shots("1-home-phone"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 860})
    page.select_option("#play-bots-level", "basic")
    page.locator("#play-bots-button").click()
    expect(page).to_have_url(re.compile(r"/game/\d+/$"))
    expect(page.locator("#board-root .decision")).to_be_visible()  # the orders to place
    page.locator(".side-tab[data-tab='players']").click()
    seats = page.locator(".play-seats li")
    expect(seats).to_have_count(3)
    expect(page.locator(".play-seats")).to_contain_text("Bot 1 (basic)")
    expect(page.locator(".play-seats")).to_contain_text("Bot 2 (basic)")
    expect(page.locator(".play-seats")).to_contain_text("Lonely")
    page.screenshot(path=shots("2-agot-table"), full_page=True)
    # on a 320 px phone the head keeps to one line and cuts the game's name; "More" shows it whole
    page.set_viewport_size({"width": 320, "height": 640})
    name = page.locator(".play-head h1")
    cut = "(e) => e.scrollWidth > e.clientWidth"
    page.wait_for_function(f"() => ({cut})(document.querySelector('.play-head h1'))")
    page.locator("#head-more").click()
    expect(page.locator("#head-more")).to_have_attribute("aria-expanded", "true")
    assert not name.evaluate(cut) and name.inner_text() == "Lonely by the Wall's gate against bots"
    page.screenshot(path=shots("3-agot-head-phone"))
    page.context.close()


def test_a_duke_game_against_the_strong_bot(browser, live_server_url, shots):
    from playwright.sync_api import expect

    from . import duke_clicks as dc

    page = _guest(browser, live_server_url, "Duelist")
    page.goto(live_server_url + "/")
    page.select_option("#play-bots-game", "duke")
    page.select_option("#play-bots-level", "strong")
    page.locator("#play-bots-button").click()
    expect(page).to_have_url(re.compile(r"/game/\d+/$"))
    page.wait_for_function("() => document.getElementById('board-root').dukeData")
    expect(page.locator(".play-seats")).to_contain_text("Bot 1 (strong)")  # the Players card
    me = page.evaluate("document.getElementById('board-root').dukeData.view.viewer")
    # three decisions of the player, each answered by the strong bot (its tiles move on the board)
    for i in range(3):
        page.wait_for_function("() => document.getElementById('board-root').dataset.myTurn === '1'", timeout=60_000)
        mine = dc.data(page)
        if i == 0:
            page.screenshot(path=shots("1-duke-first-decision"), full_page=True)
        dc.perform(page, dc.choose(mine, me, i))
        dc.wait_version_after(page, mine["version"])
    page.wait_for_function("() => document.getElementById('board-root').dataset.myTurn === '1'", timeout=60_000)
    view = dc.data(page)["view"]
    assert {t["owner"] for t in view["tiles"]} == {"light", "dark"}
    page.screenshot(path=shots("2-duke-after-bot-moves"), full_page=True)
    page.context.close()
