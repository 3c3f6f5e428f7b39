"""The 1st edition through the ruleset contract (game/rules/base.py): registry, seats, new_game,
pending, apply, view and result for 3-5 players; the two editions' states never mix."""

import pickle

import pytest

from game.rules import get_ruleset
from game.rules.agot import RULESET as R2
from game.rules.agot import RULESET_1E as R
from game.rules.base import IllegalAction, Ruleset


def test_registered_as_agot1():
    r = get_ruleset("agot1")
    assert r is R and isinstance(r, Ruleset)
    assert (r.id, r.min_players, r.max_players) == ("agot1", 3, 5)
    assert r.names["en"].endswith("(1st edition)") and "第一版" in r.names["zh-hans"]
    assert r.default_options == {}


def test_seats_without_martell():
    assert R.seats(3) == ["stark", "lannister", "baratheon"]
    assert R.seats(4) == ["stark", "lannister", "tyrell", "baratheon"]
    assert R.seats(5) == ["stark", "lannister", "greyjoy", "tyrell", "baratheon"]
    assert "martell" not in R.seat_names()
    with pytest.raises(ValueError):
        R.seats(6)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_new_game_pending_apply_view(players):
    s = R.new_game(players, 11, {})
    assert s.edition == "agot1" and s.round == 1 and s.phase == "planning"
    ds = R.pending(s)
    assert {d.actor for d in ds} == set(R.seats(players)) and all(d.kind == "place_orders" and d.simultaneous for d in ds)
    v = R.view(s, ds[0].actor)
    assert v["ruleset"] == "agot1" and v["threat"] == 0 and v["garrisons"] == {} and "wildling" not in v["decks"]
    assert v["castles_to_win"] == (8 if players == 3 else 7)
    a = R.bot_action(s, ds[0].actor, "basic", 1)
    s2 = R.apply(s, ds[0].actor, a)
    assert s2.version == 1 and R.result(s2) is None
    assert R.view(s2, None)["orders_placed"] == [ds[0].actor]


def test_six_players_refused():
    with pytest.raises(IllegalAction) as e:
        R.new_game(6, 1, {})
    assert e.value.code == "setup.players"


def test_tides_of_battle_is_not_a_1st_edition_option():
    assert R.new_game(5, 1, {"tides_of_battle": True}).options == {}
    assert R2.new_game(5, 1, {"tides_of_battle": True}).options == {"tides_of_battle": True}


def test_a_state_of_the_other_edition_is_refused():
    s1, s2 = R.new_game(3, 1, {}), R2.new_game(3, 1, {})
    act = R.bot_action(s1, "stark", "random", 1)
    with pytest.raises(IllegalAction) as e:
        R2.apply(s1, "stark", act)
    assert e.value.code == "game.wrong_ruleset"
    with pytest.raises(IllegalAction) as e:
        R.apply(s2, "stark", R2.bot_action(s2, "stark", "random", 1))
    assert e.value.code == "game.wrong_ruleset"


def test_the_same_seed_gives_the_same_game_and_states_pickle():
    a, b = R.new_game(4, 99, {}), R.new_game(4, 99, {})
    assert a == b
    back = pickle.loads(pickle.dumps(a))
    assert back == a and back.edition == "agot1"


def test_an_old_snapshot_without_an_edition_is_the_2nd_edition():
    s = R2.new_game(3, 1, {})
    fields = s.__getstate__()
    del fields["edition"]
    old = s.__class__.__new__(s.__class__)
    old.__setstate__(fields)
    assert old.edition == "agot2" and old == s
