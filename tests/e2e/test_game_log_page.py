"""In a real browser: a full AGoT game (3 players, Tides of Battle; the person's seat and
two basic bots, played to its end on the server) is opened on its game page in English and in
Chinese; at several points of its replay every log line is read and none shows a raw key or id;
hovering a log line highlights the board areas it names; during a battle the combat panel's
breakdown of each side sums to the total it shows. Screenshots:
``test-results/test_log_and_combat_breakdown_of_a_full_bot_game/``."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as the setup script in the server's environment
    sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import start_server, stop_server  # noqa: E402
from tests.e2e.live_tools import _rows, run_script, session_cookie  # noqa: E402

pytestmark = pytest.mark.e2e

RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+(?:-[a-z]+)+\b|\bNone\b|[{}]|\b(?:stark|lannister|baratheon)\b")


#: the first game's seed (the next games of a test add the lobby's number)
GAME_SEED = 20261127


def _finished_game(env: dict) -> dict:
    return run_script(__file__, env, "setup", timeout=600)


def _battle_versions(db_url: str, game_id: int) -> list[int]:
    """Versions at which a battle's final strengths are known (the engine's own state)."""
    from game.rules import get_ruleset

    ruleset, players, options, seed, acts = _rows(db_url, game_id)
    rules = get_ruleset(ruleset)
    state = rules.new_game(players, seed, options)
    out = []
    for v, (actor, action) in enumerate(acts, start=1):
        state = rules.apply(state, actor, rules.parse_action(action))
        c = state.ctx.get("combat")
        if c is not None and c.final and state.result is None:
            out.append(v)
    return out


def _log_texts(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")


def test_log_and_combat_breakdown_of_a_full_bot_game(browser, tmp_path, shots):
    from playwright.sync_api import expect

    db_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    base, proc = start_server(tmp_path, {"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
    try:
        for _ in range(3):  # a game may have no battle at all: then the next one (seeds pinned, the same person)
            setup = _finished_game({"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
            game, last = setup["game"], setup["version"]
            battles = _battle_versions(db_url, game)
            if battles:
                break
        assert battles, "three games had no battle"
        name, value = setup["cookie"].split("=", 1)
        points = sorted({max(1, last * i // 8) for i in range(1, 9)} | {battles[0], battles[-1]})
        for lang, locale in (("en", "en-US"), ("zh-hans", "zh-CN")):
            ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
            ctx.add_cookies([{"name": name, "value": value, "url": base}, {"name": "django_language", "value": lang, "url": base}])
            page = ctx.new_page()
            page.set_default_timeout(20_000)
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            seen = 0
            for v in points:
                page.goto(f"{base}/game/{game}/?at={v}")
                page.wait_for_function("(v) => document.getElementById('board-root').dataset.version === String(v)", arg=v)
                expect(page.locator("#log li").first).to_be_attached()
                for text in _log_texts(page):
                    seen += 1
                    assert not RAW.search(text), (lang, v, text)
                    if lang == "zh-hans":
                        assert not re.search(r"[A-Za-z]{3,}", text), (v, text)
            assert seen > 200
            page.screenshot(path=shots(f"01-log-{lang}"), full_page=True)

            # battles (the first and the last): each side's breakdown sums to its total and to the
            # final strength shown, also after casualties and retreats changed the board
            for b in sorted({battles[0], battles[-1]}):
                page.goto(f"{base}/game/{game}/?at={b}")
                page.wait_for_function("(v) => document.getElementById('board-root').dataset.version === String(v)", arg=b)
                lists = page.locator(".combat-table tr[data-row='parts'] td")
                expect(lists).to_have_count(2)
                for i in range(2):
                    td = lists.nth(i)
                    parts = [int(x) for x in td.locator("li[data-part]").evaluate_all("els => els.map(e => e.dataset.strength)")]
                    total = int(td.locator("li.part-total").get_attribute("data-total"))
                    house = td.get_attribute("data-house")
                    final = int(page.locator(f".combat-table tr[data-row='strength'] td[data-house='{house}']").inner_text())
                    assert parts and sum(parts) == total == final, (b, house, parts, final)
            page.locator(".combat-box").screenshot(path=shots(f"02-combat-{lang}"))

            # hovering a log line that names areas highlights them on the board; leaving clears it
            line = page.locator("#log li[data-areas]").last
            areas = line.get_attribute("data-areas").split()
            line.scroll_into_view_if_needed()
            line.hover()
            for a in areas:
                expect(page.locator(f"#area-{a}")).to_have_class(re.compile(r"\blog-hl\b"))
            page.screenshot(path=shots(f"03-hover-{lang}"))
            page.mouse.move(5, 5)
            expect(page.locator(".log-hl")).to_have_count(0)
            # a tap (click) pins it until the next one
            line.click()
            page.mouse.move(5, 5)
            expect(page.locator(f"#area-{areas[0]}")).to_have_class(re.compile(r"\blog-hl\b"))
            line.click()
            expect(page.locator(".log-hl")).to_have_count(0)
            assert not errors, errors
            ctx.close()
    finally:
        stop_server(proc)


def _setup() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from game.models import Profile
    from game.site import lobbies
    from tests.web.archive_helpers import play_to_end

    # one person for the (up to three) games of a test: a display name is unique on the site
    user = get_user_model().objects.filter(profile__display_name="Ned").first()
    if user is None:
        user = get_user_model().objects.create_user(f"ned-{os.urandom(3).hex()}", password="pw-long-enough-1")
        Profile.objects.create(user=user, display_name="Ned")
    lobby = lobbies.create_lobby(user, name="Five kings", players=3, ruleset="agot2", house="stark", options={"tides_of_battle": True})
    lobbies.add_bot(lobby.pk, user, level="basic")
    lobbies.add_bot(lobby.pk, user, level="basic")
    # the game's seed pinned (the site draws it from the system's random source): the n-th game of
    # a test is always the same game
    from game.live import apply

    seed = GAME_SEED + lobby.pk
    apply.secrets.randbits = lambda bits: seed % (1 << bits)
    lobbies.start_lobby(lobby.pk, user)
    game = play_to_end(lobby.game.pk, {"stark": user})
    print(json.dumps({"game": game.pk, "version": game.version, "cookie": session_cookie(user)}))


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        _setup()
