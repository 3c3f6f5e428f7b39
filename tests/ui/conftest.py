"""The AGoT game screen in a real browser: a daphne server with the UI harness on
(``GOTWEB_UI_HARNESS=1``), Debian's chromium through the session ``browser`` fixture, and
helpers to open a harness game as one seat and to read what the engine recorded."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.conftest import start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def harness_url(tmp_path_factory):
    """``http://127.0.0.1:<port>`` of daphne with the harness turned on (SQLite, in-memory layer)."""
    tmp = tmp_path_factory.mktemp("ui")
    url, proc = start_server(tmp, {"DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "GOTWEB_UI_HARNESS": "1"}, name="daphne-ui")
    yield url
    stop_server(proc)


@pytest.fixture
def shots(request):
    """``shots("name")`` -> a screenshot path under test-results/<test name>/."""
    folder = ROOT / "test-results" / request.node.name.replace("/", "_")
    folder.mkdir(parents=True, exist_ok=True)
    return lambda name: str(folder / f"{name}.png")


class Harness:
    """Opens harness games in browser pages and reads the server side."""

    def __init__(self, url, browser):
        self.url = url
        self.browser = browser
        self.contexts = []

    def new_game(self, position: str) -> str:
        """A fresh harness game of ``position``; returns its id."""
        req = urllib.request.Request(f"{self.url}/harness/agot2/?position={position}")
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(req)
        except urllib.error.HTTPError as exc:  # the 302 to the game page
            return exc.headers["Location"].split("/")[3]
        raise AssertionError("no redirect")

    def open(self, gid: str, viewer: str | None, width=1280, height=900, lang="en", touch=False):
        """A page showing game ``gid`` as ``viewer`` (None: spectator), map ready."""
        ctx = self.browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
                                       locale="zh-CN" if lang.startswith("zh") else "en-US")
        self.contexts.append(ctx)
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        page.goto(f"{self.url}/harness/agot2/{gid}/?viewer={viewer or ''}&lang={lang}")
        shown(page)
        return page

    def state(self, gid: str, viewer: str | None = None) -> dict:
        with urllib.request.urlopen(f"{self.url}/harness/agot2/{gid}/state?viewer={viewer or ''}") as r:
            return json.load(r)

    def sent(self, gid: str) -> list:
        with urllib.request.urlopen(f"{self.url}/harness/agot2/{gid}/sent") as r:
            return json.load(r)

    def close(self):
        for c in self.contexts:
            c.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def harness(harness_url, browser):
    h = Harness(harness_url, browser)
    yield h
    h.close()


def shown(page) -> None:
    """Waits until a page just opened or reloaded shows the game: the board drawn (``data-ready``,
    set before the first state arrives), the first state rendered (``data-version``) and laid
    out (``settle``). A click on the map before the state is rendered selects nothing."""
    page.wait_for_selector("#board-root[data-ready='1']")
    page.wait_for_selector("#board-root[data-version]")
    settle(page)


def reload(page) -> None:
    """The page reloaded, as a player pressing F5 does, and waited for until it shows the game."""
    page.reload()
    shown(page)


def settle(page) -> None:
    """Two frames waited: what the screen does once a render is laid out (a new decision scrolled
    into view, the map following a phone's decision) runs at the next frame."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def scroll_to(page, selector: str) -> None:
    """Scroll the first element matching ``selector`` into view (``block: nearest``), waiting
    until one exists. One step in the page: a locator's ``scroll_into_view_if_needed`` finds the
    element first and fails ("not attached to the DOM") when a render replaces it meanwhile."""
    page.wait_for_function(
        "(s) => { const e = document.querySelector(s); if (!e) return false; e.scrollIntoView({block: 'nearest'}); return true; }",
        arg=selector,
    )


def area_point(page, area: str) -> tuple[float, float]:
    """The area's label anchor on the screen, scrolled into view first (where a player points).
    Two frames pass first: what the screen does at the next frame after a render (a new
    decision scrolled into view, the map following it) would otherwise move the map between
    this measure and the click (a page just reloaded has rendered but not yet laid out)."""
    settle(page)
    page.evaluate("(a) => document.getElementById('area-' + a).scrollIntoView({block: 'center'})", area)
    x, y = page.evaluate(
        """(a) => { const p = document.getElementById('area-' + a); const s = p.ownerSVGElement;
        const [x, y] = p.getAttribute('data-label').split(',').map(Number);
        const q = new DOMPoint(x, y).matrixTransform(s.getScreenCTM()); return [q.x, q.y]; }""",
        area,
    )
    return x, y


def click_area(page, area: str) -> None:
    """Click the map at the area's label anchor (what a player does)."""
    page.mouse.click(*area_point(page, area))


def place_order(page, area: str, token: str) -> None:
    """Place ``token`` in ``area`` as a player does: click the area on the map, then the token in
    the panel. Waits until the panel shows the area chosen, so a click that missed the area (or
    came before the page could take it) fails here, by name, not as a missing token button."""
    from playwright.sync_api import expect

    click_area(page, area)
    expect(page.locator(f".place-orders .area-list button[data-key='area-{area}']")).to_have_attribute("aria-pressed", "true")
    page.locator(f".token-grid button[data-token='{token}']").click()


def tap_area(page, area: str) -> None:
    """Tap the map at the area's label anchor (a phone's touch screen)."""
    page.touchscreen.tap(*area_point(page, area))


def wait_version_change(page, old: str) -> None:
    page.wait_for_function("(v) => document.getElementById('board-root').dataset.version !== v", arg=old)
