"""A whole first round of a live 3-player 1st-edition game ("agot1") only by clicking, one browser
context per house and a spectator, on the 1st edition's board (``/boards/agot1.svg``): orders
placed on the map (no Support order on Dragonstone, an island), the reveal, the Messenger Raven
that can only replace an order (no wildling deck to look at), a Raid, a march into the neutral
army that Tyrell's absent house leaves in Dornish Marches, a sea battle with 1st-edition house
cards (their swords and fortifications shown, casualties = the winner's swords minus the loser's
fortifications), the Valyrian Steel Blade, the beaten ship's retreat (to the only legal area, so
without a question); Consolidate Power resolves
at once for everyone; the game reaches round 2. Screenshots at 1400 x 900 and 375 x 812.

From the 1st edition's 3-player set-up (turn order Baratheon, Lannister, Stark; Stark leads the
Fiefdoms track and holds the Blade; Greyjoy's and Tyrell's starting units stand as neutral
armies): Stark's ship sails into The Narrow Sea, then Baratheon's two ships attack it from
Shipbreaker Bay."""

from __future__ import annotations

import pytest

from .conftest import server_on_sqlite
from .live_tools import replay, setup_game
from .test_full_round import act, click_area, open_seat, wait_decision

pytestmark = pytest.mark.e2e

ORDERS = {
    "stark": {"winterfell": "consolidate-power", "white-harbor": "support", "the-shivering-sea": "march"},
    "lannister": {"lannisport": "special-consolidate-power", "stoney-sept": "raid", "the-golden-sound": "support"},
    # Baratheon is last on the King's Court: no special order (特殊令牌, 附注), so its second March is -1
    "baratheon": {"dragonstone": "consolidate-power", "kingswood": "march", "shipbreaker-bay": "march-minus-one"},
}


@pytest.fixture
def live(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-agot1") as (url, env):
        info = setup_game({**env, "ALLOWED_HOSTS": "127.0.0.1,localhost"}, players=3, ruleset="agot1")
        yield url, env["DATABASE_URL"], info


def test_agot1_round_by_clicking(browser, live, shots):
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
        for p in (*pages.values(), spectator):
            assert p.locator("#board-root").get_attribute("data-board") == "agot1"
            assert p.locator("svg#board-agot1 #area-summer-sea").count() == 1
            assert p.locator("#area-salt-shore, [id^='area-port-of']").count() == 0
        # the absent houses' units stand as neutral armies (3 players: Greyjoy and Tyrell)
        assert spectator.locator(".ov-neutral").count() >= 9
        spectator.screenshot(path=shots("0-spectator-start"))

        # planning: every house places its orders on the map; Dragonstone (an island) takes no Support
        wait_decision(bar, "place_orders")
        click_area(bar, "dragonstone")
        assert bar.locator(".token-grid button[data-token='support']").is_disabled()
        for house, orders in ORDERS.items():
            p = pages[house]
            wait_decision(p, "place_orders")
            for area, token in orders.items():
                click_area(p, area)
                p.locator(f".token-grid button[data-token='{token}']").click()
            if house == "lannister":
                lan.screenshot(path=shots("1-lannister-orders"))
            act(p, ".decision .btn-primary")
        spectator.wait_for_selector(".ov-order.up >> nth=8")
        assert spectator.locator(".ov-order.up").count() == 9

        # the Messenger Raven (Lannister leads the King's Court) only replaces an order
        wait_decision(lan, "raven")
        assert lan.locator(".decision button[data-key='peek']").count() == 0
        act(lan, ".decision button[data-key='pass']")
        # Lannister's Raid from Stoney Sept: nothing to raid, it is just removed
        wait_decision(lan, "raid")
        lan.locator(".decision button[data-key='to-none']").click()
        act(lan, ".decision .btn-primary")

        # marches in turn order: Baratheon's footman into the Tyrell neutral army of Dornish Marches
        wait_decision(bar, "march")
        bar.locator(".decision button[data-key='from-kingswood']").click()
        assert "neutral force 1" in bar.locator(".decision button[data-key='to-dornish-marches']").inner_text()
        click_area(bar, "dornish-marches")
        act(bar, ".decision .btn-primary")
        # Stark's ship to The Narrow Sea
        wait_decision(stark, "march")
        click_area(stark, "the-narrow-sea")
        act(stark, ".decision .btn-primary")
        # Baratheon's two ships attack it (White Harbor's Support order cannot reach a sea battle)
        wait_decision(bar, "march")
        assert "(battle)" in bar.locator(".decision").inner_text()
        click_area(bar, "the-narrow-sea")
        act(bar, ".decision .btn-primary")

        # 1st-edition house cards: strength 0-3 with swords and fortifications
        wait_decision(stark, "choose_house_card")
        hand = stark.locator(".decision .cards button.house-card")
        assert hand.count() == 7
        rodrik = stark.locator(".decision button[data-card='ser-rodrik-cassel'] .hc-icons [role=img]")
        assert rodrik.count() == 1 and rodrik.get_attribute("aria-label") == "1 fortification(s)"
        assert stark.locator(".opponent-hand .house-card").count() == 7
        stark.locator(".decision button[data-card='ser-rodrik-cassel']").click()
        stark.screenshot(path=shots("2-stark-house-card"))
        act(stark, ".decision .btn-primary")
        wait_decision(bar, "choose_house_card")
        stannis = bar.locator(".decision button[data-card='stannis-baratheon'] .hc-icons [role=img]")
        assert [stannis.nth(i).get_attribute("aria-label") for i in range(stannis.count())] == ["1 sword(s)", "1 fortification(s)"]
        bar.locator(".decision button[data-card='stannis-baratheon']").click()
        act(bar, ".decision .btn-primary")
        # both cards revealed: every viewer's combat panel shows them with their icons
        wait_decision(stark, "use_blade")
        spectator.wait_for_selector(".combat-box:not(.last) >> text=Ser Rodrik Cassel")
        box = spectator.locator(".combat-box:not(.last)").inner_text()
        assert "Stannis Baratheon" in box and "Ser Rodrik Cassel" in box
        icons = spectator.locator(".combat-box:not(.last) tr[data-row='card'] .hc-icons")
        assert [icons.nth(i).get_attribute("data-swords") + "/" + icons.nth(i).get_attribute("data-fortifications")
                for i in range(2)] == ["1/1", "0/1"]  # Stannis (attacker), Ser Rodrik (defender)
        spectator.screenshot(path=shots("3-spectator-battle"))
        # the Valyrian Steel Blade: Stark uses it (+1) and loses all the same; Stannis's one sword
        # against Ser Rodrik's fortification kills nothing, and the ship retreats to the only
        # legal area (The Shivering Sea; not the attacker's Shipbreaker Bay)
        act(stark, ".decision button[data-key='opt-use']")
        spectator.wait_for_selector(".combat-box.last")
        assert "Baratheon (4) beat Stark (3) in The Narrow Sea" in spectator.locator(".combat-box.last").inner_text()
        # Consolidate Power resolves at once for every house; round 2 begins
        spectator.wait_for_selector("text=Round 2 of 10")
        _, state, _ = replay(db, game)
        assert state.round == 2
        assert state.units["the-narrow-sea"][0][0] == "baratheon"
        assert state.units["dornish-marches"][0][0] == "baratheon"
        assert state.units["the-shivering-sea"][0][0] == "stark"
        spectator.screenshot(path=shots("5-spectator-after"))
        for p in (*pages.values(), spectator):
            assert not p.errors
            assert p.locator(".decision.unknown").count() == 0

        # a wide screen: the same game at 1400 x 900, the whole page
        wide = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 900})
        contexts.append(wide)
        name, value = cookies["lannister"].split("=", 1)
        wide.add_cookies([{"name": name, "value": value, "url": url}])
        wp = wide.new_page()
        wp.goto(f"{url}/game/{game}/")
        wp.wait_for_selector("#board-root[data-ready='1'][data-version]")
        assert wp.evaluate("document.documentElement.scrollWidth") <= 1400
        wp.screenshot(path=shots("6-wide-1400"), full_page=True)

        # the phone layout: the same game at 375 x 812
        phone = browser.new_context(locale="zh-CN", viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
        contexts.append(phone)
        name, value = cookies["stark"].split("=", 1)
        phone.add_cookies([{"name": name, "value": value, "url": url},
                           {"name": "django_language", "value": "zh-hans", "url": url}])
        pp = phone.new_page()
        pp.goto(f"{url}/game/{game}/")
        pp.wait_for_selector("#board-root[data-ready='1'][data-version]")
        assert "夏日之海" in pp.locator("svg#board-agot1").inner_html()
        from playwright.sync_api import expect

        expect(pp.locator(".side-tab[data-tab='players']")).to_have_text("玩家")  # the seats, not the lobby's "number of players"
        assert pp.evaluate("document.documentElement.scrollWidth") <= 375
        pp.screenshot(path=shots("7-phone-zh"))
    finally:
        for c in contexts:
            c.close()
