"""``manage.py scenario``: the thin wrapper over game.rules.agot.scenario (no Django settings needed)."""

import io
import json
from pathlib import Path

import pytest

from game.management.commands.scenario import Command, run_files

SCEN = Path(__file__).parent / "scenarios"


def test_run_files_pass(tmp_path):
    lines, failed = run_files([str(SCEN / "example_consolidate_dragonstone.json")])
    assert failed == 0 and lines[0].startswith("PASS")


def test_command_fails_on_mismatch(tmp_path):
    sc = json.loads((SCEN / "example_consolidate_dragonstone.json").read_text(encoding="utf-8"))
    sc["expect"]["power"]["baratheon"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sc), encoding="utf-8")
    out = io.StringIO()
    cmd = Command(stdout=out)
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        cmd.handle(files=[str(SCEN / "example_consolidate_dragonstone.json"), str(bad), str(tmp_path / "missing.json")])
    text = out.getvalue()
    assert "PASS" in text and "FAIL" in text and "expected 99" in text and "cannot read" in text


def test_manage_py_scenario_via_call_command(tmp_path):
    """The real Django command, through call_command (needs gotweb.settings)."""
    from django.conf import settings

    if not settings.configured:
        pytest.skip("Django settings are not configured (run without -p no:django)")
    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = io.StringIO()
    files = sorted(str(p) for p in SCEN.glob("example_*.json"))
    call_command("scenario", *files, stdout=out)
    assert out.getvalue().count("PASS") == len(files)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("scenario", str(bad), stdout=io.StringIO())
