"""In a real browser: two guests and a bot end their AGoT game early by the table's vote; "Play
again" appears on both pages as the game ends there; the host opens the rematch and lands in its
lobby, with the bot seated again; Arya's page, still on the finished game, turns its button into
"Join the rematch" by itself (the `rematch` socket message, which a finished game's page takes
from its live socket while it shows the replay), as does the "Your games" of her home page open
in another tab (the lobby list's socket), and one click seats her. Screenshots:
test-results/<test name>/."""

from __future__ import annotations

import re

import pytest

from .conftest import server_on_sqlite
from .pages import guests_at_a_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-rematch", GAME_BOT_DELAY="0.2") as (url, _env):
        yield url


def test_play_again_with_the_same_table(browser, server, shots):
    from playwright.sync_api import expect

    host, arya, errors = guests_at_a_table(browser, server, "Once more")
    game_url = host.url
    for page in (host, arya):
        expect(page.locator("#rematch-box")).to_be_hidden()  # not while the game runs
    # the table agrees to end the game now
    host.locator(".side-tab[data-tab='players']").click()
    host.select_option("#vote-kind", "end")
    host.locator("#vote-ask").click()
    arya.locator(".side-tab[data-tab='players']").click()
    arya.locator("#vote-yes").click()
    for page in (host, arya):
        expect(page.locator("#awaited")).to_have_text("The game is over.")
        expect(page.locator("#rematch-button")).to_be_visible()
        expect(page.locator("#rematch-button")).to_have_text("Play again")
    arya.screenshot(path=shots("01-game-over"), full_page=True)
    # Arya comes back to the finished game: it opens in its replay, its socket still live
    arya.reload()
    expect(arya.locator("#replay-bar")).to_be_visible()
    expect(arya.locator("#conn-status")).to_have_attribute("data-state", "open")

    # and in another tab she has the home page open, with nothing of hers on it yet
    home = arya.context.new_page()
    home.goto(server + "/")
    expect(home.locator("#your-games")).to_be_hidden()
    expect(home.locator("#open-lobbies")).to_have_attribute("data-live", "open")  # its socket listens

    host.locator("#rematch-button").click()
    expect(host).to_have_url(re.compile(r"/lobby/\d+/$"))
    lobby_url = host.url
    expect(host.locator("h1")).to_contain_text("Once more")
    expect(host.locator("#seat-count")).to_have_text("2 / 3")  # the host and the bot again
    # Arya's page, still on the finished game, is told
    expect(arya.locator("#rematch-button")).to_have_text("Join the rematch")
    expect(arya.locator("#rematch-note")).to_have_text("A player of this game opened a rematch.")
    arya.screenshot(path=shots("02-arya-told"), full_page=True)
    # the home page's "Your games" offers it too, without a reload
    expect(home.locator("#rematches")).to_contain_text("Join the rematch")
    expect(home.locator("#your-games")).to_be_visible()
    home.screenshot(path=shots("02-arya-home"), full_page=True)
    home.close()
    arya.locator("#rematch-button").click()
    expect(arya).to_have_url(lobby_url)
    expect(host.locator("#seat-count")).to_have_text("3 / 3")  # the lobby page updates by itself
    host.screenshot(path=shots("03-lobby-full"), full_page=True)
    # back on the old game, the button leads to the rematch
    arya.goto(game_url)
    expect(arya.locator("#rematch-button")).to_have_text("Go to the rematch")
    assert not errors, errors
