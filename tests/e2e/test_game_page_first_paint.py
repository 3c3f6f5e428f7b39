"""In a real browser: the game page draws the board and the player's decision from the
state it carries, before (here: without) its socket; every module the page runs was asked for
at once by a modulepreload link, and nothing is fetched twice (the board's preloaded answers are
the ones the screen uses). What the player sends before the socket first opens waits for it, and
the chat cannot be sent before the page's script has run."""

from __future__ import annotations

import pytest

from .conftest import start_server, stop_server
from .pages import fill_with_bots_and_start, guest_creates_lobby

pytestmark = pytest.mark.e2e

# a WebSocket that opens 1.5 s late (the page is drawn long before)
LATE_SOCKET = """
const Real = window.WebSocket;
window.WebSocket = class extends EventTarget {
  constructor(url) {
    super();
    this.readyState = 0;
    setTimeout(() => {
      const ws = (this.ws = new Real(url));
      ws.addEventListener("open", () => { this.readyState = 1; this.dispatchEvent(new Event("open")); });
      ws.addEventListener("message", (e) => this.dispatchEvent(new MessageEvent("message", { data: e.data })));
      ws.addEventListener("close", (e) => { this.readyState = 3; this.dispatchEvent(new CloseEvent("close", { code: e.code })); });
    }, 1500);
  }
  send(d) { this.ws.send(d); }
  close() { if (this.ws) this.ws.close(); }
};
"""

# a WebSocket that never connects: the page must do without it
NO_SOCKET = """
window.WebSocket = class {
  constructor(url) { this.url = url; this.readyState = 0; window.__socketsTried = (window.__socketsTried || 0) + 1; }
  addEventListener() {}
  removeEventListener() {}
  send() { throw new Error("not connected"); }
  close() {}
};
"""


def test_board_and_decision_come_with_the_page(browser, tmp_path, shots):
    from playwright.sync_api import expect

    base, proc = start_server(tmp_path, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.1"})
    try:
        ctx = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 900})
        host = ctx.new_page()
        host.set_default_timeout(20_000)
        guest_creates_lobby(host, base, "Quick start", house="stark")
        path = fill_with_bots_and_start(host, base, bots=2)
        expect(host.locator("#turn-banner")).to_be_visible()  # the bots have placed their orders
        version = host.locator("#board-root").get_attribute("data-version")
        host.close()

        page = ctx.new_page()
        page.set_default_timeout(20_000)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(NO_SOCKET)
        page.goto(base + path)
        assert not errors, errors
        expect(page.locator("#board-root")).to_have_attribute("data-version", version)
        expect(page.locator("#board-root .decision.place-orders")).to_be_visible()
        expect(page.locator("#board-root .ov-units").first).to_be_attached()
        expect(page.locator("#log li").first).to_be_attached()
        assert page.locator("#conn-status").get_attribute("data-state") == "connecting"
        assert page.evaluate("window.__socketsTried") >= 1
        page.screenshot(path=shots("01-without-socket"))

        preloaded = set(page.eval_on_selector_all("link[rel=modulepreload]", "els => els.map(e => e.href)"))
        fetched = page.evaluate("performance.getEntriesByType('resource').map(r => r.name)")
        scripts = {u for u in fetched if u.split("?")[0].endswith(".js")}
        assert scripts and scripts <= preloaded, scripts - preloaded
        assert len(fetched) == len(set(fetched)), sorted(u for u in fetched if fetched.count(u) > 1)
        assert any("/boards/agot2.svg" in u for u in fetched) and any("/boards/agot2.json" in u for u in fetched)
        assert not errors, errors
        page.close()

        # a chat line sent before the socket opens goes out once it does, with no error shown
        late = ctx.new_page()
        late.set_default_timeout(20_000)
        late.add_init_script(LATE_SOCKET)
        late.goto(base + path)
        expect(late.locator("#board-root")).to_have_attribute("data-version", version)
        assert late.locator("#conn-status").get_attribute("data-state") == "connecting"
        late.fill("#chat-text", "Winter is coming")
        late.locator("#chat-form button").click()
        expect(late.locator("#chat-messages .chat-line", has_text="Winter is coming")).to_have_count(1)
        expect(late.locator("#conn-status")).to_have_attribute("data-state", "open")
        assert late.locator("#chat-error").inner_text() == ""
        late.close()

        # Send pressed before the page's script has run (its request held here) does nothing: the
        # browser's own form submission would reload the page and lose the line
        held = []
        early = ctx.new_page()
        early.set_default_timeout(20_000)
        early.route("**/js/live/play.js*", lambda route: held.append(route))
        early.goto(base + path, wait_until="commit")
        expect(early.locator("#chat-text")).to_be_visible()
        send = early.locator("#chat-form button")
        expect(send).to_be_disabled()
        early.fill("#chat-text", "The north remembers")
        early.press("#chat-text", "Enter")  # implicit submission: no form goes out
        send.click(force=True)  # nor from the button
        early.wait_for_timeout(500)
        assert held, "the page did not ask for its script"
        assert "text=" not in early.url and early.input_value("#chat-text") == "The north remembers"
        for route in held:  # the script's preload and, if asked for apart, its load
            route.continue_()
        early.unroute("**/js/live/play.js*")
        expect(send).to_be_enabled()
        send.click()
        expect(early.locator("#chat-messages .chat-line", has_text="The north remembers")).to_have_count(1)
        assert "text=" not in early.url
        ctx.close()
    finally:
        stop_server(proc)
