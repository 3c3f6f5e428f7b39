"""Every scenario file in tests/rules/agot/scenarios/ passes (format: docs/scenarios.md)."""

import json
from pathlib import Path

import pytest

from game.rules.agot.scenario import run_scenario

DIR = Path(__file__).parent / "scenarios"
FILES = sorted(DIR.glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    sc = json.loads(path.read_text(encoding="utf-8"))
    assert run_scenario(sc) == []
