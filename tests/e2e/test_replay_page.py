"""The replay in a real browser: a game of The Duke (a person against the basic bot) is played to its
end on a real daphne server; its player opens the game page, which shows the replay at the end;
they go to the start, step forward, open a deep link to the middle (``?at=``), and the board
drawn there is checked square by square against the engine's state at that version; then they
jump to the end with the jump list. The archive and the phone layout (375 px) are looked at too.
Screenshots: ``test-results/test_replay_of_a_finished_game/``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as the setup script in the server's environment
    sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import start_server, stop_server  # noqa: E402
from tests.e2e.live_tools import _rows, run_script, session_cookie  # noqa: E402

pytestmark = pytest.mark.e2e


def _finished_game(env: dict) -> dict:
    """Run this file as a script in the server's environment: a finished Duke game and the
    person's session cookie."""
    return run_script(__file__, env, "setup", timeout=300)


def _engine_tiles(db_url: str, game_id: int, version: int) -> dict:
    from game.rules import get_ruleset
    from game.rules.duke import board as B

    ruleset, players, options, seed, acts = _rows(db_url, game_id)
    rules = get_ruleset(ruleset)
    state = rules.new_game(players, seed, options)
    for actor, action in acts[:version]:
        state = rules.apply(state, actor, rules.parse_action(action))
    return {B.name(sq): f"{t.owner}:{'back' if t.back else 'start'}" for sq, t in enumerate(state.pos.board) if t is not None}


DOM_TILES = """() => Object.fromEntries([...document.querySelectorAll('#board-root [data-square]')]
  .map((g) => [g.dataset.square, g.querySelector('.tile-light, .tile-dark')])
  .filter(([, t]) => t)
  .map(([sq, t]) => [sq, (t.classList.contains('tile-light') ? 'light' : 'dark') + ':' + (t.classList.contains('side-back') ? 'back' : 'start')]))"""


def test_replay_of_a_finished_game(browser, tmp_path, shots):
    from playwright.sync_api import expect

    db_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    base, proc = start_server(tmp_path, {"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
    errors: list[str] = []
    try:
        info = _finished_game({"DATABASE_URL": db_url, "GAME_BOT_DELAY": "none"})
        game, last = info["game"], info["version"]
        assert last >= 6
        name, value = info["cookie"].split("=", 1)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        ctx.add_cookies([{"name": name, "value": value, "url": base}])
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        bar = page.locator("#replay-bar")

        # a finished game opens in replay mode, at its end
        page.goto(f"{base}/game/{game}/")
        expect(bar).to_have_attribute("data-version", str(last))
        expect(page.locator("#replay-export")).to_be_visible()
        # to the start, then three steps forward
        page.click("#replay-first")
        expect(bar).to_have_attribute("data-version", "0")
        for v in (1, 2, 3):
            page.click("#replay-forward")
            expect(bar).to_have_attribute("data-version", str(v))
        page.click("#replay-back")
        expect(bar).to_have_attribute("data-version", "2")
        assert "at=2" in page.url
        # a deep link to the middle: the board is the engine's state at that version
        mid = last // 2
        page.goto(f"{base}/game/{game}/?at={mid}")
        expect(bar).to_have_attribute("data-version", str(mid))
        page.wait_for_function("(v) => document.getElementById('board-root').dataset.version === String(v)", arg=mid)
        assert page.evaluate(DOM_TILES) == _engine_tiles(db_url, game, mid)
        expect(page.locator("#log li").first).to_be_visible()
        page.screenshot(path=shots("01-middle"), full_page=True)
        # jump to the end with the jump list (its last mark), then the last step
        options = page.locator("#replay-jump option")
        expect(options.nth(2)).to_be_attached()
        last_mark = options.nth(options.count() - 1).get_attribute("value")
        page.select_option("#replay-jump", last_mark)
        expect(bar).to_have_attribute("data-version", last_mark)
        page.click("#replay-last")
        expect(bar).to_have_attribute("data-version", str(last))
        page.wait_for_function("(v) => document.getElementById('board-root').dataset.version === String(v)", arg=last)
        assert page.evaluate(DOM_TILES) == _engine_tiles(db_url, game, last)
        # play at the fastest speed from a few steps before the end: it stops by itself at the end
        page.goto(f"{base}/game/{game}/?at={last - 3}")
        expect(bar).to_have_attribute("data-version", str(last - 3))
        page.select_option("#replay-speed", "200")
        page.click("#replay-play")
        expect(bar).to_have_attribute("data-version", str(last))
        expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
        page.screenshot(path=shots("02-end"), full_page=True)

        # the archive lists it with a link to the replay; the phone layout holds at 375 px
        phone = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, locale="zh-CN")
        p2 = phone.new_page()
        p2.on("pageerror", lambda e: errors.append(str(e)))
        p2.goto(f"{base}/archive/")
        expect(p2.locator(f".archive-game[data-game='{game}']")).to_be_visible()
        assert p2.evaluate("document.documentElement.scrollWidth") <= 375
        p2.screenshot(path=shots("03-archive-375px-zh"), full_page=True)
        p2.locator(f".archive-game[data-game='{game}'] .archive-replay").click()
        expect(p2.locator("#replay-bar")).to_have_attribute("data-version", str(last))
        assert p2.evaluate("document.documentElement.scrollWidth") <= 375
        p2.screenshot(path=shots("04-replay-375px-zh"), full_page=True)
        phone.close()
        ctx.close()
        assert not errors, errors
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

    user = get_user_model().objects.create_user(f"ann-{os.urandom(3).hex()}", password="pw-long-enough-1")
    Profile.objects.create(user=user, display_name="Ann")
    lobby = lobbies.create_lobby(user, name="Duel at dusk", players=2, ruleset="duke", house="light")
    lobbies.add_bot(lobby.pk, user, level="basic")
    lobbies.start_lobby(lobby.pk, user)
    game = play_to_end(lobby.game.pk, {"light": user})
    print(json.dumps({"game": game.pk, "version": game.version, "cookie": session_cookie(user)}))


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        _setup()
