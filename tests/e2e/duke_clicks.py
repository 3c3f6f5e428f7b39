"""Playing The Duke in a real browser by clicking, for the board tests: read what the page
received, pick an action (the engine's ``basic`` bot, from the viewer's own view and decision, so
nothing hidden is used), and perform it with the clicks a person would make."""

from __future__ import annotations

from typing import Any

from game.rules.base import Decision
from game.rules.duke.actions import action_to_json
from game.rules.duke.bots import bot_action

READ = """() => {
  const r = document.getElementById('board-root');
  return r && r.dukeData ? JSON.parse(JSON.stringify(r.dukeData)) : null;
}"""


def data(page) -> dict | None:
    """The latest ``{view, pending, version}`` the page's renderer received."""
    return page.evaluate(READ)


def my_decision(d: dict, viewer: str) -> dict | None:
    if not d or d["view"].get("result"):
        return None
    return next((p for p in d["pending"] if p["actor"] == viewer and "options" in p), None)


class _Shim:
    """Just enough of a ruleset for :func:`bot_action`: the viewer's own decision and view."""

    def __init__(self, decision: dict, view: dict) -> None:
        self._d = Decision(decision["actor"], decision["kind"], decision["options"], decision.get("simultaneous", False))
        self._v = view

    def pending(self, state: Any) -> list[Decision]:
        return [self._d]

    def view(self, state: Any, viewer: Any) -> dict:
        return self._v


def choose(d: dict, viewer: str, seed: int) -> dict:
    """The basic bot's action for ``viewer`` in JSON form."""
    dec = my_decision(d, viewer)
    return action_to_json(bot_action(_Shim(dec, d["view"]), None, viewer, "basic", seed))


def _sq(page, square: str) -> None:
    page.click(f"#board-root [data-square='{square}']")


def perform(page, action: dict) -> None:
    """Click through ``action`` (JSON form) on ``page``."""
    t = action["type"]
    if t == "setup":
        _sq(page, action["duke"])
        _sq(page, action["footmen"][0])
        _sq(page, action["footmen"][1])
    elif t in ("move", "strike"):
        target = action["to"] if t == "move" else action["target"]
        _sq(page, action["frm"])
        _sq(page, target)
        kind = "strike" if t == "strike" else (f"dragon-{action['dragon_facing']}" if action.get("dragon_facing") else "move")
        chooser = page.locator(f"#board-root [data-choice-kind='{kind}']")
        if chooser.count():
            chooser.click()
    elif t == "command":
        _sq(page, action["frm"])
        _sq(page, action["piece"])
        chooser = page.locator("#board-root [data-choice-kind='command']")
        if chooser.count():
            chooser.click()
        _sq(page, action["to"])
    elif t in ("draw", "divine"):
        page.click(f"#board-root [data-button='{t}']")
    elif t == "place":
        _sq(page, action["square"])
    elif t == "summon":
        page.click("#board-root [data-button='summon']")
        _sq(page, action["square"])
    elif t == "divine_choose":
        page.click(f"#board-root [data-keep='{action['keep']}']")
        for i in action["destroy"]:
            page.check(f"#board-root [data-destroy='{i}']")
        _sq(page, action["square"])
    else:  # pragma: no cover
        raise ValueError(t)


def wait_version_after(page, version: Any, timeout: float = 15000) -> None:
    """Wait until the page has received a state newer than ``version``."""
    page.wait_for_function(
        "(v) => { const r = document.getElementById('board-root'); return r.dukeData && r.dukeData.version !== v; }",
        arg=version,
        timeout=timeout,
    )
