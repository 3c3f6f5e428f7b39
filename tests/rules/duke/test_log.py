"""The Duke's log sentences: every event kind a game produces is told in English and Chinese
(never just its kind), with the right seats, tiles and squares."""

import pytest

from game.rules.duke.log import describe
from game.rules.duke.selfplay import play_game

from .helpers import RULESET


def _all_events():
    states = []
    opts = {"mountain": True, "dragon": True, "duchess": True, "oracle": True}
    for seed in range(6):
        play_game(seed, ("basic", "random"), opts, on_state=lambda b, a, act, after: states.append(after))
    return [e for e in states[-1].events] + [e for s in states[-40:] for e in RULESET.view(s, "light")["events"]]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_every_event_of_real_games_is_told(lang):
    events = _all_events()
    kinds = {e["type"] for e in events}
    assert {"first_player", "setup", "move", "draw", "place", "game_over"} <= kinds
    for e in events:
        text = describe(e, lang)
        assert text != e["type"], e
        assert "{" not in text and "None" not in text, (e, text)


def test_sentences():
    assert describe({"type": "strike", "seat": "dark", "frm": "a6", "target": "a3"}) == "Dark strikes a3 from a6."
    assert describe({"type": "strike", "seat": "dark", "frm": "a6", "target": "a3"}, "zh-hans") == "深色方从 a6 攻击 a3。"
    assert describe({"type": "guard", "seat": "light"}) == "Light: Guard! Dark's Duke can be captured."
    assert (
        describe({"type": "capture", "by": "light", "square": "a5", "owner": "dark", "kind": "assassin"})
        == "Light captures Dark's Assassin on a5."
    )
    assert describe({"type": "capture", "by": "dragon", "square": "c3", "owner": "light", "kind": "footman"}, "zh-hans") == (
        "巨龙俘获了浅色方在 c3 的侍卫。"
    )
    assert describe({"type": "game_over", "winner": None, "reason": "no_progress"}).startswith("Game over: a draw")
    assert describe({"type": "game_over", "winner": "dark", "reason": "checkmate"}) == (
        "Game over: Dark wins (no legal action while in Guard)."
    )
    assert describe({"type": "divine_choose", "seat": "light", "kind": "seer", "square": "c2", "destroyed": ["knight"], "returned_count": 1}) == (
        "Light keeps the Seer on c2. Destroyed: Knight. 1 back to the bag."
    )
    assert describe({"type": "something_new", "seat": "light"}) == "something_new"
    assert describe({"type": "move", "seat": "light"}) == "move"  # missing fields: the kind, no crash
