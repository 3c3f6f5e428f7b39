"""Playwright steps the live-site browser tests share: a guest creates a lobby, the creator fills
the empty seats with bots and starts the game."""

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
