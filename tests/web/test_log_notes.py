"""The site's notes in a game's log: a time-out, a hand-over to the stand-in and a
take-back are versioned entries of the log, kept after a reload, in the replay and in the export
(rebuilt by ``manage.py replay``), never written by a client, and an act answered at the version
before a note still counts."""

from __future__ import annotations

import io
import json
import time

import pytest
from django.core.management import call_command
from django.test import Client

from game.live import apply, payloads, scheduler, stand_ins
from game.models import Action, Game
from game.rules import IllegalAction

from .archive_helpers import clear_caches, next_move, play_to_end, start_duke

pytestmark = pytest.mark.django_db(transaction=True)
LIVE = {"kind": "live", "bank": 60, "increment": 5, "max_timeouts": 3}


@pytest.fixture(autouse=True)
def _live(live_settings):
    live_settings.GAME_AWAY_AFTER = 0
    clear_caches()
    yield live_settings
    clear_caches()


def _awaited(game) -> str:
    return next(iter(Game.objects.get(pk=game.pk).awaited_since))


def test_a_timeout_is_in_the_replay_and_the_export_and_the_game_rebuilds(make_lobby, make_user, tmp_path):
    game, users = start_duke(make_lobby, make_user, time_control=LIVE)
    first = _awaited(game)
    assert scheduler.fire_game(game.pk, time.time() + 61) == [(first, "timeout")]
    house = game.rules.seat_names()[first]
    game = play_to_end(game.pk, users)
    note = Action.objects.get(game=game, number=1)
    assert (note.actor, note.action, note.user) == ("", {"type": "timeout", "seat": first}, None)

    # the finished game's replay tells the note at its version, in the viewer's language
    c = Client()
    step = json.loads(c.get(f"/game/{game.pk}/replay/1.json").content)["state"]
    assert step["version"] == 1 and step["log"][-1]["note"] is True
    assert step["log"][-1]["text"] == f"The stand-in plays for {house['en']}: {house['en']}'s time ran out."
    before = json.loads(c.get(f"/game/{game.pk}/replay/0.json").content)["state"]
    assert step["pending"] == before["pending"]  # the rules did not move
    c.cookies["django_language"] = "zh-hans"
    zh = json.loads(c.get(f"/game/{game.pk}/replay/1.json").content)["state"]
    assert house["zh-hans"] in zh["log"][-1]["text"] and "时间用完" in zh["log"][-1]["text"]

    # the export holds the whole log, notes included; the pure engine rebuilds the same result
    data = json.loads(Client().get(f"/game/{game.pk}/export.json").content)
    assert data["format_version"] == 2 and data["actions"][0] == {"n": 1, "actor": "", "action": {"type": "timeout", "seat": first}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), "utf-8")
    out = io.StringIO()
    call_command("replay", str(path), "--check", stdout=out)
    rebuilt = json.loads(out.getvalue())
    assert rebuilt["matches"] and rebuilt["notes"] == 1 and rebuilt["actions"] == game.version - 1 and rebuilt["version"] == game.version


def test_a_reload_still_tells_the_hand_over_and_the_take_back(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user)
    first = _awaited(game)
    other = next(s for s in users if s != first)
    stand_ins.hand_to_bot(game.pk, users[other], first)
    stand_ins.take_back(game.pk, users[first])
    clear_caches()  # another process, or a restart: everything from the database
    for viewer in (None, first, other):
        version, text = payloads.payload_text(game.pk, viewer, "en")
        lines = [line for line in json.loads(text)["log"] if line.get("note")]
        assert version == 2 and [line["n"] for line in lines] == sorted(line["n"] for line in lines)
        name = game.rules.seat_names()[first]["en"]
        assert [line["text"] for line in lines] == [f"A bot now plays for {name}.", f"{name} is back: the bot no longer plays for them."]


def test_an_act_answered_before_a_note_still_counts(make_lobby, make_user):
    """The player decided at version 0; meanwhile the other player handed the seat to the
    stand-in (version 1, a note): the decision is unchanged, so the act is accepted."""
    game, users = start_duke(make_lobby, make_user)
    actor, action, version = next_move(game.pk)
    other = next(s for s in users if s != actor)
    stand_ins.hand_to_bot(game.pk, users[other], actor)
    assert Game.objects.get(pk=game.pk).version == 1
    assert apply.act(game.pk, users[actor], action, version) == 2
    assert Action.objects.get(game=game, number=2).actor == actor


@pytest.mark.parametrize(
    "action",
    [{"type": "timeout", "seat": "light"}, {"type": "stand_in", "seat": "dark"}, {"type": "note", "note": {"type": "timeout"}}],
)
def test_a_client_cannot_write_a_note(make_lobby, make_user, action):
    game, users = start_duke(make_lobby, make_user)
    actor = _awaited(game)
    with pytest.raises(IllegalAction) as e:
        apply.act(game.pk, users[actor], action, 0)
    assert e.value.code.startswith("action.")
    assert Game.objects.get(pk=game.pk).version == 0 and not Action.objects.filter(game=game).exists()


def test_notes_do_not_make_a_game_unrated(make_lobby, make_user):
    """A hand-over taken back before the stand-in moved leaves the game rated (the ratings count
    the stand-in's moves, not the notes)."""
    from game.models import GameRating

    game, users = start_duke(make_lobby, make_user)
    first = _awaited(game)
    other = next(s for s in users if s != first)
    stand_ins.hand_to_bot(game.pk, users[other], first)
    stand_ins.take_back(game.pk, users[first])
    game = play_to_end(game.pk, users)
    assert GameRating.objects.get(game=game).rated is True
