"""The lobby in a real browser: the create form offers only the houses in play with
the chosen player count (and follows the count when it changes; the server still refuses a house
out of play), the home page names both games, and when the creator starts the game every seated
player is taken to the game page (the creator by the start itself, the others by the lobby
socket's push). Screenshots: ``test-results/<test name>/``."""

from __future__ import annotations

import re

import pytest

from game.rules import get_ruleset

pytestmark = pytest.mark.e2e


def _house_options(page) -> list[str]:
    return page.eval_on_selector_all("#id_house option", "els => els.map(e => e.value)")


def test_create_form_offers_only_houses_in_play(browser, live_server_url, shots):
    from playwright.sync_api import expect

    rules = get_ruleset("agot2")
    ctx = browser.new_context(viewport={"width": 375, "height": 812}, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server_url + "/")
    hero = page.locator(".hero")
    expect(hero).to_contain_text("A Game of Thrones")
    expect(hero).to_contain_text("The Duke")
    expect(hero.locator("a[data-game='duke']")).to_have_attribute("href", "/lobby/new/?game=duke")
    page.screenshot(path=shots("1-home"), full_page=True)
    page.goto(live_server_url + "/accounts/guest/")
    page.fill("#id_display_name", "Olenna")
    page.get_by_role("button", name="Play").click()
    page.goto(live_server_url + "/lobby/new/")
    random_id = _house_options(page)[0]
    assert _house_options(page)[1:] == rules.seats(3, {})
    assert "martell" not in _house_options(page) and "tyrell" not in _house_options(page)
    for n in (4, 5, 6, 3):
        page.select_option("#id_players", str(n))
        assert _house_options(page) == [random_id, *rules.seats(n, {})], n
    # a house chosen at 6 players and then out of play falls back to random
    page.select_option("#id_players", "6")
    page.select_option("#id_house", "martell")
    page.select_option("#id_players", "3")
    assert page.input_value("#id_house") == random_id
    page.screenshot(path=shots("2-create-3-players"), full_page=True)
    # the server still refuses a house out of play (a hostile form), and the form keeps the count
    page.evaluate("""() => { const s = document.getElementById('id_house'); s.add(new Option('Martell', 'martell')); s.value = 'martell'; }""")
    page.fill("#id_name", "Out of play")
    page.get_by_role("button", name="Create the lobby").click()
    expect(page.locator("#id_house_error")).to_contain_text("not in play with 3 players")
    assert "martell" not in _house_options(page)
    ctx.close()


def test_start_takes_every_seated_player_to_the_game(browser, live_server_url, shots):
    from playwright.sync_api import expect

    base = live_server_url
    host = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
    guest = browser.new_context(viewport={"width": 375, "height": 812}, locale="en-US", is_mobile=True, has_touch=True).new_page()
    watcher = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US").new_page()
    for page in (host, guest, watcher):
        page.set_default_timeout(20_000)
    host.goto(base + "/accounts/guest/")
    host.fill("#id_display_name", "Catelyn")
    host.get_by_role("button", name="Play").click()
    host.goto(base + "/lobby/new/")
    host.fill("#id_name", "Off to war")
    host.select_option("#id_players", "3")
    host.get_by_role("button", name="Create the lobby").click()
    expect(host).to_have_url(re.compile(r"/lobby/\d+/$"))
    lobby_url = host.url
    guest.goto(base + "/accounts/guest/?next=" + lobby_url.replace(base, ""))
    guest.fill("#id_display_name", "Brienne")
    guest.get_by_role("button", name="Play").click()
    guest.get_by_role("button", name="Join").click()
    expect(guest.locator("#seat-count")).to_have_text("2 / 3")
    expect(guest.locator("#conn-status")).to_have_attribute("data-state", "open")
    watcher.goto(lobby_url)  # not seated: stays on the lobby page
    expect(watcher.locator("#conn-status")).to_have_attribute("data-state", "open")
    host.locator("#add-bot-button").click()
    expect(host.locator("#seat-count")).to_have_text("3 / 3")
    expect(guest.locator("#seat-count")).to_have_text("3 / 3")
    host.locator("#start-button").click()
    for page in (host, guest):
        expect(page).to_have_url(re.compile(r"/game/\d+/$"))
        expect(page.locator("#board-root")).to_be_attached()
    assert host.url == guest.url
    guest.screenshot(path=shots("1-guest-in-game-375px"))
    host.screenshot(path=shots("2-host-in-game"))
    expect(watcher.locator(".seats-card")).to_contain_text("The game has started. Houses:")
    assert re.search(r"/lobby/\d+/$", watcher.url)
    for page in (host, guest, watcher):
        page.context.close()
