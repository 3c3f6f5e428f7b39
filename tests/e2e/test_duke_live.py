"""The Duke in a real browser, on the real site: a host creates a lobby of The Duke (choosing the game
on the create page), a guest on a 375 px phone joins, the host starts; both play the whole game
on the live game page by clicking the board (each click chosen by the engine's ``basic`` bot from
that player's own view), while a third, anonymous browser spectates and sees every move arrive
without reloading. Screenshots: ``test-results/test_duke_game_played_to_the_end_by_clicking/``."""

from __future__ import annotations

import re

import pytest

from tests.e2e import duke_clicks as dc

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 400  # basic-vs-basic games end in far fewer; a bound keeps a bug from hanging


def _guest(page, base: str, name: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/guest/?next={next_url}")
    page.fill("#id_display_name", name)
    page.get_by_role("button", name="Play").click()


def _version(page):
    return page.evaluate("() => document.getElementById('board-root').dukeData?.version ?? null")


def test_duke_game_played_to_the_end_by_clicking(browser, live_server_url, shots):
    from playwright.sync_api import expect

    base = live_server_url
    desktop = dict(viewport={"width": 1280, "height": 900}, locale="en-US")
    phone = dict(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US")
    contexts = [browser.new_context(**desktop), browser.new_context(**phone), browser.new_context(**desktop)]
    host, guest, watcher = (c.new_page() for c in contexts)
    errors: list[str] = []
    for page in (host, guest, watcher):
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # 1. the host chooses The Duke on the create page: two seats, no player count to pick
        _guest(host, base, "Ann", "/lobby/new/")
        host.click(".game-choice [data-game='duke']")
        expect(host.locator(".game-choice [aria-current='page']")).to_have_text("The Duke")
        host.fill("#id_name", "Duel at dawn")
        host.select_option("#id_house", "light")
        host.screenshot(path=shots("01-create"), full_page=True)
        host.get_by_role("button", name="Create the lobby").click()
        expect(host).to_have_url(re.compile(r"/lobby/\d+/$"))
        lobby_url = host.url

        # 2. a guest on a phone joins; the host starts
        _guest(guest, base, "Bob", lobby_url.replace(base, ""))
        expect(guest).to_have_url(lobby_url)
        guest.get_by_role("button", name="Join").click()
        expect(host.locator("#seat-count")).to_have_text("2 / 2")
        host.locator("#start-button").click()
        for page in (host, guest):  # every seated player is taken to the game when it starts
            expect(page).to_have_url(re.compile(r"/game/\d+/$"))
        game_url = host.url

        # 3. an anonymous spectator opens the same page
        watcher.goto(game_url)
        for page in (host, guest, watcher):
            page.wait_for_function("() => document.getElementById('board-root').dukeData")
            page.evaluate("window.__stillHere = true")
        assert host.evaluate("document.getElementById('board-root').dukeData.view.viewer") == "light"
        assert guest.evaluate("document.getElementById('board-root').dukeData.view.viewer") == "dark"
        assert watcher.evaluate("document.getElementById('board-root').dukeData.view.viewer") is None
        seats = {"light": host, "dark": guest}
        host.screenshot(path=shots("02-host-setup"), full_page=True)
        guest.screenshot(path=shots("03-guest-setup-375px"), full_page=True)

        # 4. play by clicking until the game ends; the spectator follows every move
        actions = 0
        checked_live = False
        while actions < MAX_ACTIONS:
            d = dc.data(host)
            if d["view"]["result"]:
                break
            seat = d["view"]["to_move"]
            page = seats[seat]
            page.wait_for_function(
                "() => { const r = document.getElementById('board-root'); return r.dataset.myTurn === '1'; }"
            )
            mine = dc.data(page)
            action = dc.choose(mine, seat, actions)
            dc.perform(page, action)
            dc.wait_version_after(page, mine["version"])
            actions += 1
            new = _version(page)
            for other in (host, guest, watcher):
                other.wait_for_function(
                    "(v) => (document.getElementById('board-root').dukeData?.version ?? -1) >= v", arg=new
                )
            if actions == 6:
                seen = dc.data(watcher)["view"]
                assert seen["tiles"] == dc.data(host)["view"]["tiles"]
                assert watcher.locator("#board-root .sq.target, #board-root .sq.acting").count() == 0
                host.screenshot(path=shots("04-host-midgame"), full_page=True)
                guest.screenshot(path=shots("05-guest-midgame-375px"), full_page=True)
                watcher.screenshot(path=shots("06-spectator-midgame"), full_page=True)
                checked_live = True
        assert checked_live
        result = dc.data(host)["view"]["result"]
        assert result is not None, f"no result after {actions} actions"

        # 5. everyone sees the end; nobody's page was reloaded
        for page in (host, guest, watcher):
            page.wait_for_function("() => document.getElementById('board-root').dukeData.view.result")
            expect(page.locator("#board-root .duke-status")).to_have_class(re.compile("over"))
            assert page.evaluate("window.__stillHere") is True
        winner_page = seats.get(result["winner"])
        if winner_page is not None:
            expect(winner_page.locator("#board-root .duke-status")).to_contain_text("You win!")
        expect(watcher.locator("#board-root .duke-status")).to_contain_text("Game over")
        host.screenshot(path=shots("07-host-end"), full_page=True)
        guest.screenshot(path=shots("08-guest-end-375px"), full_page=True)
        watcher.screenshot(path=shots("09-spectator-end"), full_page=True)
        # 6. the spectator switches to Chinese: the board's labels follow
        watcher.select_option("#language-select", "zh-hans")
        expect(watcher.locator("html")).to_have_attribute("lang", "zh-hans")
        watcher.wait_for_function("() => document.getElementById('board-root').dukeData?.view.result")
        expect(watcher.locator("#board-root .duke-status")).to_contain_text("游戏结束")
        expect(watcher.locator("#board-root .duke-seats")).to_contain_text("浅色方")
        expect(watcher.locator("#board-root [data-square='c1']").first).to_have_attribute("aria-label", re.compile(r"c1"))
        watcher.screenshot(path=shots("10-spectator-end-chinese"), full_page=True)
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()
