"""In a real browser: when it becomes the player's turn while their tab is hidden,
the tab's title says so ("(1) Your turn · ..."), the favicon gets a badge, and a browser
notification is shown (permission granted through the browser context). Then "My games" and its
header badge on a 375 px phone, in Chinese, and the same badge on the game page itself, pushed by
its game socket.

The notification is the real ``window.Notification`` (no wrapper): the page keeps what it showed
in ``window.gotwebTurnAlert.notifications`` (title, body and tag read back from the Notification
object the browser made). The tab is made hidden by overriding ``document.visibilityState`` and
firing ``visibilitychange`` (a headless browser's tabs are always visible)."""

from __future__ import annotations

import re
import secrets

import pytest

from tests.e2e import duke_clicks as dc

from .conftest import start_server, stop_server

pytestmark = pytest.mark.e2e

HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def _guest(page, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/guest/?next=/lobby/new/?game=duke")
    page.fill("#id_display_name", name)
    page.get_by_role("button", name="Play").click()


@pytest.fixture
def slow_bot_server(tmp_path):
    """A daphne server whose bots wait 3 s before acting, so the moments between a move and the
    bot's answer (the badge at 0) are long enough to see on a loaded machine."""
    url, proc = start_server(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "3"}, "daphne-notify")
    yield url
    stop_server(proc)


def test_hidden_tab_gets_title_favicon_and_notification_on_its_turn(browser, slow_bot_server, shots):
    from playwright.sync_api import expect

    base = slow_bot_server
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}, permissions=["notifications"])
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _guest(page, base, f"Nora {secrets.token_hex(2)}")
        page.click(".game-choice [data-game='duke']")
        page.fill("#id_name", "Notify duel")
        page.select_option("#id_house", "light")
        page.get_by_role("button", name="Create the lobby").click()
        expect(page).to_have_url(re.compile(r"/lobby/\d+/$"))
        page.locator("#add-bot-button").click()
        expect(page.locator("#seat-count")).to_have_text("2 / 2")
        page.locator("#start-button").click()  # starting takes the creator to the game
        expect(page).to_have_url(re.compile(r"/game/\d+/$"))
        page.wait_for_function("() => document.getElementById('board-root').dukeData")
        assert page.evaluate("Notification.permission") == "granted"
        expect(page.locator("#notify-turn")).to_be_hidden()  # already allowed: nothing to ask

        # the player moves until a move of theirs hands the turn to the bot
        for _ in range(6):
            page.wait_for_function("() => document.getElementById('board-root').dukeData")
            data = dc.data(page)
            if dc.my_decision(data, "light") is None:
                break
            answer = page.evaluate("(a) => window.gotwebClient.send(a)", dc.choose(data, "light", 1))
            assert answer["ok"], answer
            page.wait_for_function("(v) => document.getElementById('board-root').dukeData.version > v", arg=data["version"])
        # the bot's turn (it waits GAME_BOT_DELAY before acting): hide the tab before it answers
        page.evaluate(HIDE)
        assert not page.title().startswith("(1)")
        # the bot moves, the player's turn comes while the tab is hidden
        expect(page).to_have_title(re.compile(r"^\(1\) Your turn · Notify duel · gotweb$"))
        page.wait_for_function("() => window.gotwebTurnAlert.notifications.length > 0")
        shown = page.evaluate("window.gotwebTurnAlert")
        assert shown["errors"] == []
        assert shown["notifications"][0]["title"] == "Your turn"
        assert shown["notifications"][0]["body"] == "Notify duel is waiting for your decision."
        assert shown["notifications"][0]["tag"].startswith("gotweb-game-")
        icon = page.get_attribute('link[rel="icon"]', "href")
        assert icon.startswith("data:image/svg+xml,") and "circle" in icon
        page.screenshot(path=shots("01-your-turn-hidden"), full_page=True)

        # "My games" on a phone, in Chinese: the game awaits the player, first, with the badge
        phone = browser.new_context(locale="zh-CN", viewport={"width": 375, "height": 740}, storage_state=ctx.storage_state())
        mobile = phone.new_page()
        mobile.set_default_timeout(20_000)
        mobile.on("pageerror", lambda e: errors.append(str(e)))
        mobile.goto(base + "/my/games/")
        expect(mobile.locator("h1")).to_have_text("我的对局")
        expect(mobile.locator("#my-running .my-game").first).to_have_attribute("data-mine", "1")
        expect(mobile.locator("#my-games-badge")).to_have_text("1")
        expect(mobile.locator("#my-games-badge")).to_have_attribute("data-pushes", "1")  # the socket's first count
        assert mobile.evaluate("document.documentElement.scrollWidth") <= 375
        mobile.screenshot(path=shots("02-my-games-phone-zh"), full_page=True)

        # the player moves (in the other tab): the phone's badge drops to 0 live (the bot's turn),
        # then comes back to 1 when the bot has moved; the page's list follows
        watch = """() => {
          window.badgeSeen = [];
          const b = document.getElementById('my-games-badge');
          new MutationObserver(() => window.badgeSeen.push(b.dataset.count)).observe(b, {attributes: true});
        }"""
        mobile.evaluate(watch)
        page.evaluate(watch)  # the game page's own badge, pushed by its game socket (no second socket)
        for seed in range(2, 8):  # a turn may be two decisions (draw, then place)
            data = dc.data(page)
            if dc.my_decision(data, "light") is None:
                break
            answer = page.evaluate("(a) => window.gotwebClient.send(a)", dc.choose(data, "light", seed))
            assert answer["ok"], answer
            page.wait_for_function("(v) => document.getElementById('board-root').dukeData.version > v", arg=data["version"])
        for tab in (mobile, page):
            tab.wait_for_function("() => window.badgeSeen.includes('0')")
            tab.wait_for_function("() => window.badgeSeen.at(-1) === '1'", timeout=30_000)
            expect(tab.locator("#my-games-badge")).to_have_text("1")
            expect(tab.locator("#my-games-badge")).to_be_visible()

        # a browser that has not been asked yet: the game page never asks on load, it offers the button
        mobile.locator("#my-running .my-game a").first.click()
        expect(mobile).to_have_url(re.compile(r"/game/\d+/$"))
        mobile.wait_for_function("() => document.getElementById('board-root').dukeData")
        expect(mobile.locator("#notify-turn")).to_be_visible()
        expect(mobile.locator("#notify-turn")).to_have_text("轮到我时通知我")
        assert mobile.evaluate("Notification.permission") == "default"
        assert mobile.evaluate("document.documentElement.scrollWidth") <= 375
        mobile.screenshot(path=shots("03-game-page-phone-zh"), full_page=True)
        phone.close()
        assert errors == []
    finally:
        ctx.close()
