"""A finished AGoT game on a phone (390 x 844, English and Chinese), in a real browser on a real
daphne server: the game's name keeps its room in the head beside "The game is over."; no decision
sheet covers the page, since nothing is left to decide; the chat's and the replay's controls are a
tap high, the chat's line and its Send button on one row; a finished game offers no turn sound,
and "Play again" (game.site.rematch), which takes the player to a new game with the same bots.
Screenshots: ``test-results/test_a_finished_game_on_a_phone/``."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import start_server, stop_server
from tests.e2e.test_game_log_page import _finished_game

pytestmark = pytest.mark.e2e

BOX = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"


def test_a_finished_game_on_a_phone(browser, tmp_path, shots):
    from playwright.sync_api import expect

    db_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    base, proc = start_server(tmp_path, {"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
    try:
        setup = _finished_game({"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
        game, last = setup["game"], setup["version"]
        name, value = setup["cookie"].split("=", 1)
        for lang, locale, over in (("en", "en-US", "The game is over."), ("zh-hans", "zh-CN", "游戏已结束。")):
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=locale)
            ctx.add_cookies([{"name": name, "value": value, "url": base}, {"name": "django_language", "value": lang, "url": base}])
            page = ctx.new_page()
            page.set_default_timeout(20_000)
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(f"{base}/game/{game}/")
            page.wait_for_function("(v) => document.getElementById('board-root').dataset.version === String(v)", arg=last)
            expect(page.locator("#awaited")).to_have_text(over)
            expect(page.locator("#board-root .result")).to_be_visible()

            # the head: the name is not squeezed to a letter by the status beside it
            head = page.evaluate(BOX, ".play-head h1")
            assert head["w"] >= 110, head
            # nothing to decide: no sheet over the page, and no room kept at the bottom for one
            expect(page.locator(".decision-sheet")).to_be_hidden()
            assert page.evaluate("getComputedStyle(document.querySelector('.agot2-screen')).paddingBottom") == "0px"
            # the chat's and the replay's controls are a tap high; the line and Send share a row
            for sel in ("#chat-channel", "#chat-text", "#chat-form button", "#replay-speed", "#replay-jump"):
                assert page.evaluate(BOX, sel)["h"] >= 44, sel
            text, send = page.evaluate(BOX, "#chat-text"), page.evaluate(BOX, "#chat-form button")
            assert abs(text["y"] - send["y"]) < 2 and send["x"] > text["x"] + text["w"] - 1, (text, send)
            assert text["w"] >= 100, text
            # no turn sound to offer once the game is over; "Play again" in sight, not under "More"
            expect(page.locator("#sound-toggle")).to_have_count(0)
            expect(page.locator("#rematch-button")).to_be_visible()
            expect(page.locator("#rematch-button")).to_have_text("Play again" if lang == "en" else "再来一局")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=shots(f"01-finished-{lang}"), full_page=True)
            assert not errors, errors
            if lang == "zh-hans":  # the last pass: the first asked to play again
                # "Play again": the table was Ned and two bots, so the new game starts at once with
                # the same bots, and the player lands on its table with their first decision
                page.locator("#rematch-button").click()
                page.wait_for_url(lambda url: "/game/" in url and f"/game/{game}/" not in url)
                expect(page.locator("#board-root .decision")).to_be_visible()
                expect(page.locator(".play-seats")).to_contain_text("机器人 1（基础）")
                expect(page.locator(".play-seats")).to_contain_text("机器人 2（基础）")
                expect(page.locator("#rematch-box")).to_be_hidden()  # the new game is not over
                page.screenshot(path=shots("02-rematch-table"), full_page=True)
                assert not errors, errors
            ctx.close()
    finally:
        stop_server(proc)
