"""游戏设置 / Game setup for 3-6 players."""

import pytest

from game.rules.agot import RULESET as R
from game.rules.base import IllegalAction
from game.rules.agot.control import castle_count


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_new_game(players):
    s = R.new_game(players, 7, {})
    assert s.houses == tuple(R.seats(players))
    assert s.round == 1 and s.phase == "planning" and s.threat == 2
    assert all(s.power[h] == 5 for h in s.houses)
    for t, order in s.tracks.items():
        assert len(order) == players
    v = R.view(s, None)
    assert set(v["dominance"]) == {"iron-throne", "valyrian-steel-blade", "messenger-raven"}
    assert {d.kind for d in R.pending(s)} == {"place_orders"}
    assert all(d.simultaneous for d in R.pending(s))
    # every house's units belong to houses in play
    assert {us[0][0] for us in s.units.values()} == set(s.houses)


def test_setup_counts_3p():
    s = R.new_game(3, 1, {})
    assert len(s.blocked) == 12 + 4
    assert s.neutral == {"kings-landing": 5, "the-eyrie": 6}
    assert "port-of-lannisport" not in s.units
    assert [3, 2, 1] == [__import__("game.rules.agot.planning", fromlist=["stars"]).stars(s, h) for h in s.tracks["kings_court"]]


def test_setup_4p_neutrals_and_highgarden_empty():
    s = R.new_game(4, 1, {})
    assert len(s.neutral) == 12
    assert "highgarden" not in s.units and "highgarden" not in s.garrisons


def test_starting_victory_and_supply_match_reference():
    from game.rules.agot.data import board

    s = R.new_game(6, 1, {})
    for h in s.houses:
        hd = board().houses[h]
        assert s.supply[h] == hd["starting_supply"], h
        assert castle_count(s, h) == hd["starting_victory_track"], h


def test_deterministic_and_seed_dependent():
    a, b, c = R.new_game(6, 5, {}), R.new_game(6, 5, {}), R.new_game(6, 6, {})
    assert a == b
    assert a.decks != c.decks


@pytest.mark.parametrize("n", [2, 7, "3"])
def test_bad_player_count(n):
    with pytest.raises(IllegalAction) as e:
        R.new_game(n, 1, {})
    assert e.value.code == "setup.players"


def test_lobby_members():
    assert R.seats(3) == ["stark", "lannister", "baratheon"]
    assert set(R.seat_names()) == {"stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"}
    with pytest.raises(ValueError):
        R.seats(2)
