"""The Duke behind the site's ruleset contract (game.rules.base)."""

import json

import pytest

from game.rules import get_ruleset
from game.rules.base import Decision, IllegalAction, Ruleset
from game.rules.duke import RULESET


def test_registered_and_matches_the_protocol():
    assert get_ruleset("duke") is RULESET
    assert isinstance(RULESET, Ruleset)
    assert RULESET.id == "duke"
    assert RULESET.min_players == RULESET.max_players == 2
    assert set(RULESET.names) == {"en", "zh-hans"}
    assert RULESET.default_options == {"mountain": False, "dragon": False, "duchess": False, "oracle": False}


def test_seats_and_names():
    assert RULESET.seats(2, {}) == ["light", "dark"]
    names = RULESET.seat_names()
    assert set(names) == {"light", "dark"}
    assert all(set(v) == {"en", "zh-hans"} for v in names.values())


def test_only_two_players():
    with pytest.raises(IllegalAction) as e:
        RULESET.new_game(3, 1, {})
    assert e.value.code == "options.players"


def test_unknown_or_non_boolean_option_refused():
    for bad in ({"castle": True}, {"dragon": "yes"}):
        with pytest.raises(IllegalAction) as e:
            RULESET.new_game(2, 1, bad)
        assert e.value.code == "options.invalid"


def test_new_game_is_deterministic_and_first_player_random():
    firsts = {RULESET.new_game(2, s, {}).first for s in range(20)}
    assert firsts == {"light", "dark"}
    assert RULESET.new_game(2, 5, {}) == RULESET.new_game(2, 5, {})


def test_pending_and_view_are_json():
    s = RULESET.new_game(2, 3, {"mountain": True, "dragon": True, "duchess": True, "oracle": True})
    (d,) = RULESET.pending(s)
    assert isinstance(d, Decision) and d.kind == "setup" and d.actor == s.first
    json.dumps(d.as_dict())
    for viewer in ("light", "dark", None):
        json.dumps(RULESET.view(s, viewer))
    assert RULESET.result(s) is None


def test_actions_round_trip_through_json():
    s = RULESET.new_game(2, 3, {})
    for a in RULESET.pending(s)[0].options["actions"]:
        act = RULESET.parse_action(json.loads(json.dumps(a)))
        assert act.type == a["type"]
