"""Change of mind in a real browser: a player who confirmed their orders sees them, face down, with
a "Change" button until the last player is in; the seat list of every page (players and
spectators) marks who is ready; Change takes the orders back (the others see only that the player
is no longer ready) and opens the decision again with them filled in; the orders placed last are
the ones revealed, and after the reveal nothing can be changed."""

from __future__ import annotations

import pytest

from .conftest import server_on_sqlite
from .live_tools import replay, setup_game
from .test_full_round import act, open_seat, wait_decision

pytestmark = pytest.mark.e2e


@pytest.fixture
def live(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-change-of-mind", GAME_BOT_DELAY="0") as (url, env):
        info = setup_game({**env, "ALLOWED_HOSTS": "127.0.0.1,localhost"}, players=3, bots=1)
        yield url, env["DATABASE_URL"], info


def place_every_order(page):
    """An order in each of the player's areas: the first token still free for each."""
    wait_decision(page, "place_orders")
    areas = page.locator(".decision .area-list button")
    for i in range(areas.count()):
        areas.nth(i).click()
        page.locator(".token-grid button:not([disabled])").first.click()


def ready_tag(page, seat):
    """The seat list's "ready" mark of ``seat`` (in the Players tab)."""
    return page.locator(f".play-seats li[data-seat='{seat}'] .tag-ready")


def marked_ready(page, seat, ready=True):
    """The seat list and the line above the map agree that ``seat`` is (not) ready."""
    from playwright.sync_api import expect

    if ready:
        expect(ready_tag(page, seat)).not_to_have_attribute("hidden", "")
        expect(page.locator(f".waiting .ready[data-house='{seat}']")).to_be_visible()
    else:
        expect(ready_tag(page, seat)).to_have_attribute("hidden", "")
        expect(page.locator(f".waiting .ready[data-house='{seat}']")).to_have_count(0)


def test_change_of_mind_on_the_page(browser, live, shots):
    from playwright.sync_api import expect

    url, db, info = live
    game, cookies = info["game"], info["cookies"]
    first, second = sorted(cookies)
    _, state, _ = replay(db, game)
    bot = next(h for h in state.houses if h not in cookies)
    contexts, pages = [], {}
    try:
        for house in (first, second):
            ctx, pages[house] = open_seat(browser, url, game, cookies[house])
            contexts.append(ctx)
        ctx, spectator = open_seat(browser, url, game)
        contexts.append(ctx)
        me, other = pages[first], pages[second]

        # the bot placed its orders at once: everyone sees it ready, not what it placed
        for page in (me, other, spectator):
            marked_ready(page, bot)
            marked_ready(page, first, False)

        place_every_order(me)
        act(me, ".decision .btn-primary")
        panel = me.locator(".decision.face-down")
        expect(panel).to_be_visible()
        placed = panel.locator(".face-down-orders li")
        n = placed.count()
        assert n >= 2
        first_area = placed.first.get_attribute("data-area")
        before = placed.first.get_attribute("data-token")
        for page in (other, spectator):
            marked_ready(page, first)
            assert page.locator(".decision.face-down").count() == 0
        me.screenshot(path=shots("1-face-down"))

        # Change: the orders come back to the player, filled in; the others see them not ready
        act(me, ".decision.face-down button[data-key='withdraw']")
        wait_decision(me, "place_orders")
        expect(me.locator("[data-role='orders-count']")).to_contain_text(f"Orders placed: {n} of {n}")
        for page in (other, spectator):
            marked_ready(page, first, False)
        # one order changed: the first area gets another token
        me.locator(f".decision .area-list button[data-key='area-{first_area}']").click()
        me.locator(".token-grid button:not([disabled])[aria-pressed='false']").first.click()
        act(me, ".decision .btn-primary")
        changed = me.locator(f".decision.face-down .face-down-orders li[data-area='{first_area}']").get_attribute("data-token")
        assert changed != before

        # the last player's orders: the reveal; nothing can be changed any more
        place_every_order(other)
        act(other, ".decision .btn-primary")
        spectator.wait_for_selector(".ov-order.up")
        expect(me.locator(".decision.face-down")).to_have_count(0)
        for page in (me, other, spectator):
            expect(ready_tag(page, first)).to_have_attribute("hidden", "")
        _, state, _ = replay(db, game)
        assert state.orders[first_area] == (first, changed)  # the orders placed last were revealed
        assert not me.errors and not other.errors and not spectator.errors
    finally:
        for c in contexts:
            c.close()
