"""Playwright steps the live-site browser tests share: a guest creates a lobby, the creator fills
the empty seats with bots and starts the game, or both at once with a second guest seated."""

from __future__ import annotations

import re
import secrets


def guest_creates_lobby(page, base: str, name: str, display_name: str = "", house: str = "lannister", players: int = 3) -> str:
    """Sign ``page`` in as a guest and create an AGoT lobby; returns the lobby's path. The guest's
    name (default "Tywin <4 hex digits>") must be new on the server: names are unique."""
    display_name = display_name or f"Tywin {secrets.token_hex(2)}"
    page.goto(base + "/accounts/guest/")
    page.fill("#id_display_name", display_name)
    page.get_by_role("button", name="Play").click()
    page.goto(base + "/lobby/new/")
    page.fill("#id_name", name)
    page.select_option("#id_players", str(players))
    page.select_option("#id_house", house)
    page.get_by_role("button", name="Create the lobby").click()
    return page.url.replace(base, "")


def fill_with_bots_and_start(page, base: str, bots: int, players: int = 3) -> str:
    """On the creator's lobby page: add ``bots`` bots and start (which opens the game); returns its path."""
    from playwright.sync_api import expect

    for _ in range(bots):
        page.locator("#add-bot-button").click()
    expect(page.locator("#seat-count")).to_have_text(f"{players} / {players}")
    page.locator("#start-button").click()  # the start takes the creator to the game
    expect(page).to_have_url(re.compile(r"/game/\d+/$"))
    return page.url.replace(base, "")


def guests_at_a_table(browser, base: str, lobby_name: str):
    """Two guests in their own browser contexts (1280 x 900, English): the host creates a 3-player
    AGoT lobby as Lannister, "Arya" joins it as Stark, a bot fills the last seat and the game
    starts; returns ``(host, arya, errors)`` on the game's page, ``errors`` collecting both pages'
    uncaught script errors. Arya's name must be new on the server."""
    from playwright.sync_api import expect

    errors = []
    host = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    arya = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    for page in (host, arya):
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
    lobby_path = guest_creates_lobby(host, base, lobby_name)
    arya.goto(base + "/accounts/guest/?next=" + lobby_path)
    arya.fill("#id_display_name", "Arya")
    arya.get_by_role("button", name="Play").click()
    arya.select_option("#id_house", "stark")
    arya.get_by_role("button", name="Join").click()
    expect(host.locator("#seat-count")).to_have_text("2 / 3")
    fill_with_bots_and_start(host, base, bots=1)
    # a seated player's lobby page goes to the game by itself (a goto of ours could race with it)
    expect(arya).to_have_url(host.url)
    return host, arya, errors
