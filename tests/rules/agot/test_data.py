"""The data loader validates the files and fails loudly on a bad one."""

import copy

import pytest

from game.rules.agot.data import DataError, board, load_raw, validate


def test_board_counts():
    b = board()
    assert len(b.areas) == 58
    assert len(b.castle_areas) == 20
    assert len(b.order_pool) == 15
    assert {k: len(v) for k, v in b.westeros_decks.items()} == {"I": 10, "II": 10, "III": 10}
    assert len(b.wildling_cards) == 9
    assert len(b.house_cards) == 42


def test_adjacency_symmetric():
    b = board()
    for a, nb in b.adjacent.items():
        for n in nb:
            assert a in b.adjacent[n]


@pytest.mark.parametrize(
    "breaker, fragment",
    [
        (lambda r: r["adjacency"]["pairs"].append(["winterfell", "nowhere"]), "unknown area"),
        (lambda r: r["adjacency"]["pairs"].append(["winterfell", "winterfell"]), "bad pair"),
        (lambda r: r["adjacency"]["pairs"].append(list(r["adjacency"]["pairs"][0])), "duplicate pair"),
        (lambda r: r["areas"].pop(), "expected 38 land"),
        (lambda r: r["houses"][0]["house_cards"].pop(), "7 house cards"),
        (lambda r: r["westeros"]["decks"]["I"][0].update(count=9), "10 cards"),
        (lambda r: r["setups"]["player_counts"]["4"]["influence_tracks"]["fiefdoms"].pop(), "track fiefdoms"),
        (lambda r: r["areas"][0].pop("kind"), "lacks key"),
    ],
)
def test_bad_data_fails_loudly(breaker, fragment):
    raw = copy.deepcopy(load_raw())
    breaker(raw)
    with pytest.raises(DataError, match=fragment):
        validate(raw)
