"""Every IllegalAction code is documented in docs/scenarios.md and has a scenario (or a unit test)."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "game" / "rules" / "agot"
DOC = ROOT / "docs" / "scenarios.md"
SCEN = Path(__file__).parent / "scenarios"
#: the 1st edition's scenarios (the same engine: game/rules/agot/edition.py) cover its own codes
SCEN_1E = Path(__file__).parents[1] / "agot1" / "scenarios"

#: codes checked by unit tests instead of scenario files
UNIT_TESTED = {"setup.players": "test_setup.py::test_bad_player_count",
               "bot.level": "test_bots.py::test_bot_refuses_a_house_with_nothing_to_decide",
               "game.wrong_ruleset": "../agot1/test_ruleset.py::test_a_state_of_the_other_edition_is_refused"}


def raised_codes() -> set[str]:
    codes = set()
    for p in list(SRC.glob("*.py")) + list(SRC.glob("cards/*.py")):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+\.[a-z_]+)"', p.read_text(encoding="utf-8")))
    return codes


def documented_codes() -> set[str]:
    codes = set()
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `") and "." in line.split("|")[1]:
            codes |= set(re.findall(r"`([a-z_]+\.[a-z_]+)`", line.split("|")[1]))
    return codes


def scenario_codes() -> set[str]:
    out = set()
    for p in list(SCEN.glob("*.json")) + list(SCEN_1E.glob("*.json")):
        err = json.loads(p.read_text(encoding="utf-8")).get("expect_error")
        if err:
            out.add(err["code"])
    return out


def test_every_raised_code_is_documented():
    assert raised_codes() - documented_codes() == set()


def test_every_documented_code_is_raised():
    assert documented_codes() - raised_codes() == set()


def test_every_code_has_a_scenario():
    missing = raised_codes() - scenario_codes() - set(UNIT_TESTED)
    assert missing == set()
