"""The Duke's board UI in a real browser, on the development harness page (``DUKE_HARNESS=1``:
a fake client playing through the real engine in the server): set-up, legal targets on click,
moving, drawing and placing, keyboard play, a spectator, 375 px wide, Chinese labels.
Screenshots go to ``test-results/<test>/``."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.e2e import duke_clicks as dc
from tests.e2e.conftest import start_server, stop_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def harness_url(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("duke-harness")
    url, proc = start_server(tmp, {"DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "DUKE_HARNESS": "1"})
    yield url
    stop_server(proc)


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(**kwargs):
        kwargs.setdefault("viewport", {"width": 1200, "height": 900})
        ctx = browser.new_context(**kwargs)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()


def api(url: str, game: str, seat: str = "") -> dict:
    with urllib.request.urlopen(f"{url}/duke/harness/api/{game}/?seat={seat}") as r:
        return json.loads(r.read())


def open_board(page, url: str, query: str) -> dict:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/duke/harness/?{query}")
    page.wait_for_function("() => document.getElementById('board-root').dukeData")
    page.errors = errors
    return dc.data(page)


def squares(page, selector: str) -> set[str]:
    return set(page.eval_on_selector_all(f"#board-root {selector}", "els => els.map(e => e.dataset.square)"))


def act(page, action: dict) -> None:
    v = dc.data(page)["version"]
    dc.perform(page, action)
    dc.wait_version_after(page, v)


def test_setup_then_targets_match_the_legal_actions(harness_url, new_page, shots):
    page = new_page()
    d = open_board(page, harness_url, "game=t-setup&seat=light&seed=3&bot=dark:basic")
    # set-up: the two middle home squares are offered first
    dec = dc.my_decision(d, "light")
    assert dec["kind"] == "setup"
    assert squares(page, ".sq.target") == {a["duke"] for a in dec["options"]["actions"]}
    page.screenshot(path=shots("1-setup"))
    act(page, {"type": "setup", "duke": "c1", "footmen": ["b1", "d1"]})
    d = dc.data(page)
    assert {t["square"] for t in d["view"]["tiles"] if t["owner"] == "light"} == {"b1", "c1", "d1"}
    dec = dc.my_decision(d, "light")
    assert dec["kind"] == "turn"
    acts = dec["options"]["actions"]
    # every tile that can act is marked; clicking one shows exactly its legal targets
    assert squares(page, ".sq.acting") == {a["frm"] for a in acts if "frm" in a}
    for frm in sorted({a["frm"] for a in acts if "frm" in a}):
        page.click(f"#board-root [data-square='{frm}']")
        expected = {a.get("to") or a.get("target") or a.get("piece") for a in acts if a.get("frm") == frm}
        assert squares(page, ".sq.target") == expected, frm
        assert squares(page, ".sq.selected") == {frm}
    page.screenshot(path=shots("2-targets"))
    page.keyboard.press("Escape")
    assert squares(page, ".sq.target") == set()
    assert not page.errors


def test_move_draw_and_place_by_clicking(harness_url, new_page, shots):
    page = new_page()
    open_board(page, harness_url, "game=t-play&seat=light&seed=11&bot=dark:basic")
    act(page, {"type": "setup", "duke": "d1", "footmen": ["c1", "e1"]})
    d = dc.data(page)
    move = next(a for a in dc.my_decision(d, "light")["options"]["actions"] if a["type"] == "move")
    act(page, move)
    d = dc.data(page)
    assert any(e["type"] == "move" and e["frm"] == move["frm"] and e["to"] == move["to"] for e in d["view"]["events"])
    # the bot answered; now draw a tile and place it
    bag = d["view"]["bags"]["light"]["count"]
    assert page.inner_text("[data-bag='light']").startswith(str(bag))
    act(page, {"type": "draw"})
    d = dc.data(page)
    dec = dc.my_decision(d, "light")
    assert dec["kind"] == "place"
    tile = dec["options"]["tile"]
    assert squares(page, ".sq.target") == {a["square"] for a in dec["options"]["actions"]}
    assert page.locator("#board-root .duke-drawn").count() == 1
    page.screenshot(path=shots("1-drawn"))
    square = dec["options"]["actions"][0]["square"]
    act(page, {"type": "place", "square": square})
    d = dc.data(page)
    assert {"square": square, "owner": "light", "kind": tile} in [
        {k: t[k] for k in ("square", "owner", "kind")} for t in d["view"]["tiles"]
    ]
    assert page.inner_text("[data-bag='light']").startswith(str(bag - 1))
    page.screenshot(path=shots("2-placed"))
    assert not page.errors


def test_keyboard_only(harness_url, new_page):
    page = new_page()
    open_board(page, harness_url, "game=t-keys&seat=light&seed=4&bot=dark:random")
    page.focus("#board-root [data-square][tabindex='0']")
    start = page.evaluate("document.activeElement.dataset.square")
    assert start in ("c1", "d1")  # the first target is in the tab order
    # walk to c1 with the arrow keys, then Enter; Footmen on b1 and c2
    steps = {"c1": [], "d1": ["ArrowLeft"]}[start]
    for key in steps + ["Enter", "ArrowLeft", "Enter", "ArrowRight", "ArrowUp", "Enter"]:
        page.keyboard.press(key)
    page.wait_for_function("() => document.getElementById('board-root').dataset.phase === 'play'")
    d = dc.data(page)
    assert {t["square"]: t["kind"] for t in d["view"]["tiles"] if t["owner"] == "light"} == {
        "c1": "duke",
        "b1": "footman",
        "c2": "footman",
    }
    # the Draw button is reachable with Tab and works with Enter
    page.focus("#board-root [data-button='draw']")
    v = dc.data(page)["version"]
    page.keyboard.press("Enter")
    dc.wait_version_after(page, v)
    assert dc.data(page)["view"]["phase"] == "place"


def test_spectator_sees_the_moves(harness_url, new_page, shots):
    player = new_page()
    open_board(player, harness_url, "game=t-watch&seat=light&seed=8&bot=dark:basic")
    watcher = new_page()
    open_board(watcher, harness_url, "game=t-watch&seat=")
    assert watcher.locator("#board-root .sq.acting").count() == 0
    for _ in range(4):
        d = dc.data(player)
        act(player, dc.choose(d, "light", d["version"]))
    want = dc.data(player)["version"]
    watcher.wait_for_function("(v) => document.getElementById('board-root').dukeData.version === v", arg=want)
    seen = dc.data(watcher)
    assert seen["view"]["tiles"] == dc.data(player)["view"]["tiles"]
    assert all("options" not in p for p in seen["pending"])
    assert watcher.locator("#board-root .sq.target").count() == 0
    watcher.screenshot(path=shots("spectator"))


def test_narrow_screen_and_chinese(harness_url, new_page, shots):
    page = new_page(viewport={"width": 375, "height": 740}, locale="zh-CN")
    open_board(page, harness_url, "game=t-narrow&seat=light&seed=5&bot=dark:basic&lang=zh-hans&options=mountain")
    act(page, {"type": "setup", "duke": "c1", "footmen": ["b1", "d1"]})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    board = page.locator("#board-root .duke-board")
    board.wait_for(state="visible")  # the board is redrawn after the set-up action's push
    box = board.bounding_box()
    assert box["width"] <= 375 and box["width"] > 300
    text = page.inner_text("#board-root")
    assert "公爵" in text and "侍卫" in text and "你的回合" in text
    page.screenshot(path=shots("375-zh"), full_page=True)


def test_harness_games_play_to_the_end(harness_url, new_page, shots):
    """Both seats clicked in two pages until the game ends (the basic bot chooses the clicks)."""
    pages = {"light": new_page(), "dark": new_page()}
    for seat, page in pages.items():
        open_board(page, harness_url, f"game=t-end&seat={seat}&seed=21")
    for turn in range(400):
        d = dc.data(pages["light"])
        if d["view"]["result"]:
            break
        seat = d["view"]["to_move"]
        page = pages[seat]
        page.wait_for_function("() => document.getElementById('board-root').dataset.myTurn === '1'")
        act(page, dc.choose(dc.data(page), seat, turn))
        pages["light"].wait_for_function(
            "(v) => document.getElementById('board-root').dukeData.version >= v", arg=dc.data(page)["version"]
        )
    result = dc.data(pages["light"])["view"]["result"]
    assert result is not None
    for seat, page in pages.items():
        page.wait_for_function("() => document.getElementById('board-root').dukeData.view.result")
        page.screenshot(path=shots(f"end-{seat}"))
        assert "Game over" in page.inner_text("#board-root .duke-status") or "You win" in page.inner_text(
            "#board-root .duke-status"
        )


def test_command_dragon_summon_and_divination(harness_url, new_page, shots):
    """The rarer interactions, each in a fresh copy of the "showcase" position."""
    q = "seat=light&scenario=showcase&seed=3"
    # Command: General c3 -> its Footman on b3 (marked as commandable) -> d3
    page = new_page()
    open_board(page, harness_url, f"game=sc-cmd&{q}")
    page.click("#board-root [data-square='c3']")
    assert "b3" in squares(page, ".sq.target") and page.locator("[data-square='b3'] .hl-command").count() == 1
    page.click("#board-root [data-square='b3']")
    assert squares(page, ".sq.target") == {"b2", "c2", "d2", "d3"}
    page.screenshot(path=shots("1-command"))
    v = dc.data(page)["version"]
    page.click("#board-root [data-square='d2']")  # captures the dark Footman there
    dc.wait_version_after(page, v)
    view = dc.data(page)["view"]
    assert view["lost"]["dark"] == ["footman"]
    assert {t["square"]: t["kind"] for t in view["tiles"] if t["owner"] == "light"}["d2"] == "footman"
    assert "Footman" in page.inner_text("[data-lost='dark']")
    # a Slide into the Dragon: the player chooses which way it faces
    page = new_page()
    open_board(page, harness_url, f"game=sc-dragon&{q}")
    page.click("#board-root [data-square='e2']")
    page.click("#board-root [data-square='c4']")
    kinds = page.eval_on_selector_all("#board-root [data-choice-kind]", "els => els.map(e => e.dataset.choiceKind)")
    assert sorted(kinds) == ["dragon-n", "dragon-s"]
    page.screenshot(path=shots("2-dragon-choice"))
    v = dc.data(page)["version"]
    page.click("#board-root [data-choice-kind='dragon-n']")
    dc.wait_version_after(page, v)
    dragon = dc.data(page)["view"]["dragon"]
    assert dragon["enraged"] and dragon["facing"] == "n"
    page.screenshot(path=shots("3-dragon-enraged"))
    # Summon the Duchess beside the Duke
    page = new_page()
    open_board(page, harness_url, f"game=sc-summon&{q}")
    page.click("#board-root [data-button='summon']")
    assert squares(page, ".sq.target") == {"c2", "d1"}
    v = dc.data(page)["version"]
    page.click("#board-root [data-square='d1']")
    dc.wait_version_after(page, v)
    assert any(t["square"] == "d1" and t["kind"] == "duchess" for t in dc.data(page)["view"]["tiles"])
    # Divination: keep one, destroy another, place the kept one
    page = new_page()
    open_board(page, harness_url, f"game=sc-divine&{q}")
    act(page, {"type": "divine"})
    d = dc.data(page)
    drawn = d["view"]["drawn"]
    assert len(drawn) == 3 and page.locator("#board-root [data-keep]").count() == 3
    page.click("#board-root [data-keep='1']")
    page.check("#board-root [data-destroy='2']")
    assert squares(page, ".sq.target")
    page.screenshot(path=shots("4-divination"))
    square = sorted(squares(page, ".sq.target"))[0]
    v = d["version"]
    page.click(f"#board-root [data-square='{square}']")
    dc.wait_version_after(page, v)
    view = dc.data(page)["view"]
    assert any(t["square"] == square and t["kind"] == drawn[1] for t in view["tiles"])
    assert view["destroyed"]["light"] == [drawn[2]]


def test_guard_is_shown(harness_url, new_page, shots):
    page = new_page()
    open_board(page, harness_url, "game=sc-guard&seat=light&scenario=guard")
    assert page.locator("#board-root .duke-guard").count() == 1
    assert page.locator("#board-root [data-square='c1'] .guard-ring").count() == 1
    page.screenshot(path=shots("guard"))
    spectator = new_page()
    open_board(spectator, harness_url, "game=sc-guard&seat=")
    assert "Guard" in spectator.inner_text("#board-root .duke-guard")
