"""Every IllegalAction code the engine can raise: a refusal leaves the state unchanged, and every
code is documented in docs/duke.md."""

import copy
import re
from pathlib import Path

import pytest

from game.rules.base import IllegalAction

from .helpers import RULESET, build, play

ROOT = Path(__file__).resolve().parents[3]
DUKES = {"a1": "light duke", "f6": "dark duke"}


def _refused_code(state, data, actor=None):
    snapshot = copy.deepcopy(state)
    actor = actor or state.to_move
    with pytest.raises(IllegalAction) as e:
        RULESET.apply(state, actor, RULESET.parse_action(data) if isinstance(data, dict) else data)
    assert state == snapshot  # nothing changed
    assert set(e.value.as_dict()) == {"code", "message", "params"}
    return e.value.code


def _divination():
    s = build({**DUKES, "c3": "light oracle back"}, options={"oracle": True},
              bags={"light": ["knight", "seer", "wizard"]})
    return play(s, {"type": "divine"})


CASES = {
    "game.over": lambda: (play(build({"a1": "light duke", "c3": "light footman", "c4": "dark duke"}),
                                {"type": "move", "frm": "c3", "to": "c4"}), {"type": "draw"}, "dark"),
    "turn.not_your_turn": lambda: (build(DUKES), {"type": "draw"}, "dark"),
    "turn.wrong_phase": lambda: (build(DUKES), {"type": "place", "square": "a2"}, None),
    "setup.duke_square": lambda: (RULESET.new_game(2, 2, {}), None, None),
    "setup.footman_square": lambda: (RULESET.new_game(2, 2, {}), "footman", None),
    "tile.not_yours": lambda: (build(DUKES), {"type": "move", "frm": "f6", "to": "e6"}, None),
    "tile.frozen": lambda: (build({**DUKES, "c3": "dark dreadlord", "c2": "light footman"}, custom={
        "dreadlord": {"kind": "troop", "start": [{"icon": "dread", "dx": 0, "dy": 1}], "back": []}}),
        {"type": "move", "frm": "c2", "to": "b2"}, None),
    "move.not_allowed": lambda: (build(DUKES), {"type": "move", "frm": "a1", "to": "b2"}, None),
    "strike.not_allowed": lambda: (build({**DUKES, "c2": "light bowman", "c4": "dark footman"}),
                                   {"type": "strike", "frm": "c2", "target": "c4"}, None),
    "command.not_allowed": lambda: (build({**DUKES, "c3": "light general", "b3": "light footman"}),
                                    {"type": "command", "frm": "c3", "piece": "b3", "to": "d3"}, None),
    "dragon.facing_required": lambda: (build({**DUKES, "a3": "light marshall"}, dragon=("c3", "e")),
                                       {"type": "move", "frm": "a3", "to": "c3"}, None),
    "dragon.facing_unexpected": lambda: (build({**DUKES, "a3": "light marshall"}, dragon=("c3", "e")),
                                         {"type": "move", "frm": "a3", "to": "b3", "dragon_facing": "n"}, None),
    "duke.exposed": lambda: (build({"a1": "light duke", "b1": "light footman", "d1": "dark marshall", "f6": "dark duke"}),
                             {"type": "move", "frm": "b1", "to": "b2"}, None),
    "draw.bag_empty": lambda: (build(DUKES, bags={"light": []}), {"type": "draw"}, None),
    "draw.no_space": lambda: (build({**DUKES, "a2": "light footman", "b1": "light footman"}), {"type": "draw"}, None),
    "place.square": lambda: (play(build(DUKES), {"type": "draw"}), {"type": "place", "square": "b2"}, None),
    "summon.no_duchess": lambda: (build(DUKES, options={"duchess": True}), {"type": "summon", "square": "a2"}, None),
    "divine.no_oracle": lambda: (build(DUKES, options={"oracle": True}), {"type": "divine"}, None),
    "divine.start_side": lambda: (build({**DUKES, "c3": "light oracle"}, options={"oracle": True}),
                                  {"type": "divine"}, None),
    "divine.keep": lambda: (_divination(), {"type": "divine_choose", "keep": 3, "square": "a2"}, None),
    "divine.destroy": lambda: (_divination(), {"type": "divine_choose", "keep": 0, "square": "a2", "destroy": [0]}, None),
    "action.malformed": lambda: (build(DUKES), "malformed", None),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code(code):
    state, data, actor = CASES[code]()
    if code.startswith("setup."):
        seat = state.to_move
        row = "1" if seat == "light" else "6"
        data = ({"type": "setup", "duke": "a" + row, "footmen": ["b" + row, "f" + row]} if data is None
                else {"type": "setup", "duke": "c" + row, "footmen": ["b" + row, "f" + row]})
    if data == "malformed":
        for bad in ({"type": "fly"}, {"type": "move", "frm": "z9", "to": "a2"}, [1], {"type": "draw", "x": 1},
                    {"type": "divine_choose", "keep": "0", "square": "a2"}, {"type": "move", "frm": "a1",
                                                                             "to": "a2", "dragon_facing": "e"}):
            with pytest.raises(IllegalAction) as e:
                RULESET.parse_action(bad)
            assert e.value.code == "action.malformed"
        return
    assert _refused_code(state, data, actor) == code


def test_option_and_bot_codes():
    with pytest.raises(IllegalAction) as e:
        RULESET.new_game(2, 1, {"fog": True})
    assert e.value.code == "options.invalid"
    with pytest.raises(IllegalAction) as e:
        RULESET.seats(3, {})
    assert e.value.code == "options.players"
    s = build(DUKES)
    with pytest.raises(IllegalAction) as e:
        RULESET.bot_action(s, "light", "genius", 1)
    assert e.value.code == "bot.level"
    with pytest.raises(IllegalAction) as e:
        RULESET.bot_action(s, "dark", "random", 1)
    assert e.value.code == "bot.no_decision"


def _engine_codes():
    codes = set()
    for p in (ROOT / "game" / "rules" / "duke").glob("*.py"):
        text = p.read_text()
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+\.[a-z_]+)"', text))
        if 'IllegalAction(f"{kind}.not_allowed"' in text:  # move / strike / command
            codes |= {f"{k}.not_allowed" for k in ("move", "strike", "command")}
    return codes


def test_every_code_is_tested_and_documented():
    codes = _engine_codes()
    assert "duke.exposed" in codes and "move.not_allowed" in codes
    tested = set(CASES) | {"options.invalid", "options.players", "bot.level", "bot.no_decision"}
    assert codes <= tested, codes - tested
    doc = (ROOT / "docs" / "duke.md").read_text()
    missing = [c for c in codes if f"`{c}`" not in doc]
    assert not missing, missing
