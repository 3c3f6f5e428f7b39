"""A whole first round of a live 3-player game only by clicking, one browser context per house
and a spectator: orders placed on the map, the reveal, the Messenger Raven, a Raid, marches, a
sea battle (house cards with the opponent's hand in view, the Valyrian Steel Blade, the beaten
ship's retreat to a highlighted area), Consolidate Power; the game reaches the Westeros phase.
The spectator sees the orders revealed and the battle's result.

From the standard 3-player set-up (turn order Baratheon, Lannister, Stark; Stark leads the
Fiefdoms track and holds the Blade): Stark's ship sails into The Narrow Sea, then Baratheon's two
ships attack it from Shipbreaker Bay."""

from __future__ import annotations

import pytest

from .conftest import server_on_sqlite
from .live_tools import replay, setup_game

pytestmark = pytest.mark.e2e

ORDERS = {
    "stark": {"winterfell": "consolidate-power", "white-harbor": "support", "the-shivering-sea": "march"},
    "lannister": {"lannisport": "consolidate-power", "stoney-sept": "raid", "the-golden-sound": "support"},
    "baratheon": {"dragonstone": "consolidate-power", "kingswood": "march-minus-one", "shipbreaker-bay": "march"},
}


@pytest.fixture
def live(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-round") as (url, env):
        info = setup_game({**env, "ALLOWED_HOSTS": "127.0.0.1,localhost"}, players=3)
        yield url, env["DATABASE_URL"], info


def open_seat(browser, url, game, cookie=None):
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    if cookie:
        name, value = cookie.split("=", 1)
        ctx.add_cookies([{"name": name, "value": value, "url": url}])
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/game/{game}/")
    page.wait_for_selector("#board-root[data-ready='1'][data-version]")
    return ctx, page


def click_area(page, area):
    """Click the map inside ``area`` at a point where nothing covers it (the map's zoom buttons,
    the area details box), as a player would."""
    page.evaluate("(a) => document.getElementById('area-' + a).scrollIntoView({block: 'center'})", area)
    point = page.evaluate(
        """(a) => { const p = document.getElementById('area-' + a); const r = p.getBoundingClientRect();
        const s = p.ownerSVGElement; const [lx, ly] = p.getAttribute('data-label').split(',').map(Number);
        const q = new DOMPoint(lx, ly).matrixTransform(s.getScreenCTM()); const pts = [[q.x, q.y]];
        for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) pts.push([r.x + r.width * i / 10, r.y + r.height * j / 10]);
        return pts.find(([x, y]) => document.elementFromPoint(x, y) === p) || null; }""",
        area,
    )
    assert point, f"{area} is not visible on the map"
    page.mouse.click(point[0], point[1])


def wait_decision(page, kind):
    page.wait_for_selector(f"#board-root[data-decision='{kind}']")


def act(page, selector):
    """Click ``selector`` (a button that sends an action) and wait for the next version."""
    v = page.locator("#board-root").get_attribute("data-version")
    page.locator(selector).first.click()
    page.wait_for_function("(v) => document.getElementById('board-root').dataset.version !== v", arg=v)


def test_live_round_by_clicking(browser, live, shots):
    url, db, info = live
    game, cookies = info["game"], info["cookies"]
    contexts, pages = [], {}
    try:
        for house in ORDERS:
            ctx, pages[house] = open_seat(browser, url, game, cookies[house])
            contexts.append(ctx)
        ctx, spectator = open_seat(browser, url, game)
        contexts.append(ctx)
        stark, lan, bar = pages["stark"], pages["lannister"], pages["baratheon"]

        # planning: every house places its orders on the map
        for house, orders in ORDERS.items():
            p = pages[house]
            wait_decision(p, "place_orders")
            for area, token in orders.items():
                click_area(p, area)
                p.locator(f".token-grid button[data-token='{token}']").click()
            act(p, ".decision .btn-primary")
        # the reveal, seen by the spectator
        spectator.wait_for_selector(".ov-order.up >> nth=8")
        assert spectator.locator(".ov-order.up").count() == 9
        spectator.screenshot(path=shots("1-spectator-revealed"))

        # the Messenger Raven (Lannister leads the King's Court), then Lannister's Raid (no target)
        wait_decision(lan, "raven")
        act(lan, ".decision button[data-key='pass']")
        wait_decision(lan, "raid")
        lan.locator(".decision button[data-key='to-none']").click()
        act(lan, ".decision .btn-primary")

        # marches, in turn order: Baratheon's footman to The Reach, Stark's ship to The Narrow Sea
        wait_decision(bar, "march")
        bar.locator(".decision button[data-key='from-kingswood']").click()
        click_area(bar, "the-reach")
        act(bar, ".decision .btn-primary")
        wait_decision(stark, "march")
        click_area(stark, "the-narrow-sea")
        act(stark, ".decision .btn-primary")
        # Baratheon's two ships attack it
        wait_decision(bar, "march")
        assert "(battle)" in bar.locator(".decision").inner_text()
        click_area(bar, "the-narrow-sea")
        act(bar, ".decision .btn-primary")

        # house cards, chosen face down; each side sees the other's public hand
        wait_decision(stark, "choose_house_card")
        assert stark.locator(".opponent-hand .house-card").count() == 7
        stark.locator(".decision button[data-card='catelyn-stark']").click()
        act(stark, ".decision .btn-primary")
        wait_decision(bar, "choose_house_card")
        bar.locator(".decision button[data-card='stannis-baratheon']").click()
        act(bar, ".decision .btn-primary")
        # the Valyrian Steel Blade: Stark uses it (+1), and loses all the same
        wait_decision(stark, "use_blade")
        act(stark, ".decision button[data-key='opt-use']")
        spectator.wait_for_selector(".combat-winner[data-winner='baratheon']")
        assert "Stannis Baratheon" in spectator.locator(".combat-box").inner_text()
        spectator.screenshot(path=shots("2-spectator-battle"))
        # the retreat: two legal areas glow, one is clicked on the map
        wait_decision(stark, "retreat")
        hl = sorted(stark.evaluate("[...document.querySelectorAll('.hl-target')].map(p => p.dataset.hl)"))
        assert hl == ["port-of-white-harbor", "the-shivering-sea"]
        click_area(stark, "the-shivering-sea")
        stark.screenshot(path=shots("3-retreat"))
        act(stark, ".decision .btn-primary")

        # Consolidate Power is automatic; the round is over: the Westeros phase of round 2
        spectator.wait_for_selector(".combat-box.last")
        assert "Baratheon (6) beat Stark (2) in The Narrow Sea" in spectator.locator(".combat-box.last").inner_text()
        _, state, _ = replay(db, game)
        assert state.round == 2
        assert state.units["the-narrow-sea"][0][0] == "baratheon"
        spectator.screenshot(path=shots("4-spectator-after"))
        for p in (*pages.values(), spectator):
            assert not p.errors
            assert p.locator(".decision.unknown").count() == 0
            wire = p.evaluate("window.gotwebClient.wire")  # pushes came as patches, each applied
            assert wire["patches"] > 5 and wire["refused"] == 0, wire
    finally:
        for c in contexts:
            c.close()
