"""In a real browser: one player registers and opens a 3-player lobby, two guests join, everyone
sees the seats fill without reloading, the creator starts the game."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e


def test_three_players_fill_a_lobby_and_start(browser, live_server_url, shots):
    from playwright.sync_api import expect

    base = live_server_url
    desktop = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    phone = dict(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US")
    ctx2, ctx3 = browser.new_context(**phone), browser.new_context(**phone)
    host, arya, bran = desktop.new_page(), ctx2.new_page(), ctx3.new_page()
    for page in (host, arya, bran):
        page.set_default_timeout(15_000)

    # 1. register and create a lobby (a guest-to-be watches the list of open games meanwhile)
    arya.goto(base + "/")
    expect(arya.locator("#open-lobbies")).to_contain_text("No open games right now.")
    expect(arya.locator("#open-lobbies")).to_have_attribute("data-live", "open")
    host.goto(base + "/")
    host.screenshot(path=shots("01-home"), full_page=True)
    host.get_by_role("link", name="Register").click()
    host.fill("#id_username", "cersei")
    host.fill("#id_password1", "wildfire-Green-7")
    host.fill("#id_password2", "wildfire-Green-7")
    host.get_by_role("button", name="Register").click()
    expect(host.locator(".messages")).to_contain_text("Welcome, cersei!")
    host.get_by_role("link", name="Create a game").first.click()
    host.fill("#id_name", "Kings of Westeros")
    host.select_option("#id_players", "3")
    host.select_option("#id_house", "lannister")
    host.check("#id_tides_of_battle")
    host.screenshot(path=shots("02-create"), full_page=True)
    host.get_by_role("button", name="Create the lobby").click()
    expect(host).to_have_url(re.compile(r"/lobby/\d+/$"))
    lobby_url = host.url
    expect(host.locator("#seat-count")).to_have_text("1 / 3")
    expect(host.locator("#conn-status")).to_have_attribute("data-state", "open")
    host.evaluate("window.__stillHere = true")  # disappears if the page reloads
    host.screenshot(path=shots("03-lobby-created"), full_page=True)

    # 2. the new lobby appears on the list without a reload; a guest joins with a chosen house
    expect(arya.locator("#open-lobbies")).to_contain_text("Kings of Westeros")
    expect(arya.locator("#open-lobbies")).to_contain_text("1 / 3 players")
    arya.screenshot(path=shots("04a-list-updated-375px"), full_page=True)
    arya.goto(lobby_url)
    arya.screenshot(path=shots("04-guest-sees-lobby"), full_page=True)
    arya.locator(".actions-card").get_by_role("link", name="Play as guest").click()
    arya.fill("#id_display_name", "Arya")
    arya.screenshot(path=shots("05-guest-name"), full_page=True)
    arya.get_by_role("button", name="Play").click()
    expect(arya).to_have_url(lobby_url)
    arya.select_option("#id_house", "stark")
    arya.get_by_role("button", name="Join").click()
    expect(arya.locator(".messages")).to_contain_text("You have joined the lobby.")
    expect(host.locator("#seats")).to_contain_text("Arya")
    expect(host.locator("#seat-count")).to_have_text("2 / 3")
    expect(arya.locator("#conn-status")).to_have_attribute("data-state", "open")
    arya.evaluate("window.__stillHere = true")
    host.screenshot(path=shots("06-host-sees-arya"), full_page=True)

    # 3. a second guest joins on a random house
    bran.goto(lobby_url)
    bran.locator(".actions-card").get_by_role("link", name="Play as guest").click()
    bran.fill("#id_display_name", "Bran")
    bran.get_by_role("button", name="Play").click()
    expect(bran).to_have_url(lobby_url)
    bran.get_by_role("button", name="Join").click()
    expect(bran.locator("#seat-count")).to_have_text("3 / 3")
    bran.evaluate("window.__stillHere = true")
    for page in (host, arya):
        expect(page.locator("#seats")).to_contain_text("Bran")
        expect(page.locator("#seat-count")).to_have_text("3 / 3")
    expect(host.locator("#start-button")).to_be_visible()
    assert host.evaluate("window.__stillHere") is True  # the host's page was never reloaded
    host.screenshot(path=shots("07-host-full"), full_page=True)
    arya.screenshot(path=shots("08-arya-full-375px"), full_page=True)
    bran.screenshot(path=shots("09-bran-full-375px"), full_page=True)

    # 4. the creator starts; every seated player is taken to the game, and the lobby shows the houses
    host.locator("#start-button").click()
    for page in (host, arya, bran):
        expect(page).to_have_url(re.compile(r"/game/\d+/$"))
        page.goto(lobby_url)
        expect(page.locator(".seats-card")).to_contain_text("The game has started. Houses:")
        for house in ("Stark", "Lannister", "Baratheon"):
            expect(page.locator("#seats")).to_contain_text(house)
    expect(bran.locator("#seats")).to_contain_text("(drawn)")
    host.screenshot(path=shots("10-host-started"), full_page=True)
    arya.screenshot(path=shots("11-arya-started-375px"), full_page=True)

    # 5. Chinese (on a phone the language is in the top bar's menu)
    arya.click("#menu-toggle")
    arya.select_option("#language-select", "zh-hans")
    expect(arya.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(arya.locator("#seats")).to_contain_text("史塔克")
    arya.screenshot(path=shots("12-arya-chinese-375px"), full_page=True)
    arya.goto(base + "/spectate/")
    expect(arya.locator(".lobby-cards")).to_contain_text("Kings of Westeros")
    arya.screenshot(path=shots("13-spectate-chinese-375px"), full_page=True)
    for ctx in (desktop, ctx2, ctx3):
        ctx.close()


def test_wrong_password_shows_beside_field(browser, live_server_url, shots):
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 375, "height": 812}, locale="en-US")
    page = ctx.new_page()
    page.goto(live_server_url + "/accounts/guest/")
    page.fill("#id_display_name", "Sansa")
    page.get_by_role("button", name="Play").click()
    page.goto(live_server_url + "/lobby/new/")
    page.fill("#id_name", "Secret council")
    page.check("#id_is_private")
    page.fill("#id_password", "lemoncake")
    page.screenshot(path=shots("create-375px"), full_page=True)
    page.get_by_role("button", name="Create the lobby").click()
    # the lobby page has loaded (its socket open) before its address is read and the browser leaves:
    # closing the context while the form's POST was still in flight once hung ctx.close() for 300 s
    expect(page).to_have_url(re.compile(r"/lobby/\d+/$"))
    expect(page.locator("#seat-count")).to_have_text("1 / 3")
    lobby_url = page.url
    ctx.close()

    ctx = browser.new_context(viewport={"width": 375, "height": 812}, locale="en-US")
    page = ctx.new_page()
    page.goto(live_server_url + "/accounts/guest/?next=" + lobby_url.replace(live_server_url, ""))
    page.fill("#id_display_name", "Joffrey")
    page.get_by_role("button", name="Play").click()
    page.fill("#id_password", "wrong")
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#id_password_error")).to_have_text("Wrong password.")
    expect(page.locator("#seat-count")).to_have_text("1 / 3")
    page.screenshot(path=shots("wrong-password-375px"), full_page=True)
    ctx.close()
