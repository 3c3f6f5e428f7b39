"""Exports: a finished game's log as JSON, and ``manage.py replay`` rebuilding it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from .archive_helpers import clear_caches, play_to_end, start_duke
from .live_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live(live_settings):
    clear_caches()
    yield live_settings
    clear_caches()


def _replay(path, *args) -> dict:
    out = io.StringIO()
    call_command("replay", str(path), *args, stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.parametrize("ruleset", ["duke", "agot2"])
def test_export_then_replay_gives_the_same_result(make_lobby, make_user, tmp_path, ruleset):
    if ruleset == "duke":
        game, users = start_duke(make_lobby, make_user, bot=True)
    else:
        game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users)
    r = Client().get(f"/game/{game.pk}/export.json")
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    data = json.loads(r.content)
    assert (data["ruleset"], data["players"], data["seed"], data["version"]) == (ruleset, game.players, game.seed, game.version)
    assert [a["n"] for a in data["actions"]] == list(range(1, game.version + 1))
    assert {s["seat"] for s in data["seats"]} == set(game.rules.seats(game.players, game.options))
    path = tmp_path / "game.json"
    path.write_text(r.content.decode(), "utf-8")
    out = _replay(path, "--check")
    assert out["result"] == game.result and out["matches"] and out["actions"] == game.version


def test_replay_refuses_bad_files(tmp_path, make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, bot=True)
    game = play_to_end(game.pk, users)
    data = json.loads(Client().get(f"/game/{game.pk}/export.json").content)
    cases = {
        "not json": "{",
        "wrong format": json.dumps({**data, "format": "other"}),
        "unknown ruleset": json.dumps({**data, "ruleset": "chess"}),
        "bad seed": json.dumps({**data, "seed": "x"}),
        "refused action": json.dumps({**data, "actions": [{"actor": "light", "action": {"type": "nonsense"}}]}),
        "not a list": json.dumps({**data, "actions": 5}),
        "changed result": json.dumps({**data, "result": {"winner": "nobody"}}),
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, "utf-8")
        with pytest.raises(CommandError):
            _replay(path, "--check")
    with pytest.raises(CommandError):
        _replay(tmp_path / "missing.json")


def test_running_games_cannot_be_exported(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user)
    c = Client()
    c.force_login(next(iter(users.values())))
    r = c.get(f"/game/{game.pk}/export.json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "export.not_finished"
