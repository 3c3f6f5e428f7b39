"""Typed actions: JSON parsing, round trip, malformed input."""

import pytest

from game.rules.agot import RULESET as R
from game.rules.agot.actions import ACTION_TYPES, parse_action, to_json
from game.rules.base import IllegalAction

SAMPLES = [
    {"type": "place_orders", "orders": {"winterfell": "march", "white-harbor": "raid"}},
    {"type": "raven", "choice": "replace", "area": "winterfell", "token": "raid"},
    {"type": "raven", "choice": "pass", "area": None, "token": None},
    {"type": "raven_keep", "bottom": True},
    {"type": "raid", "area": "winterfell", "target": None},
    {"type": "march", "area": "winterfell", "moves": [{"to": "castle-black", "units": ["footman", "knight"]}], "leave_power": True},
    {"type": "support", "give": False},
    {"type": "consolidate", "area": "winterfell", "muster": [{"area": "winterfell", "unit": "ship", "to": "bay-of-ice", "upgrade": False}]},
    {"type": "consolidate", "area": "winterfell", "muster": None},
    {"type": "muster", "recruits": [{"area": "winterfell", "unit": "knight", "upgrade": True}]},
    {"type": "reconcile", "remove": [{"area": "winterfell", "unit": "footman"}]},
    {"type": "bid", "amount": 3},
    {"type": "withdraw"},
    {"type": "order_ties", "order": ["stark", "lannister"]},
    {"type": "choose", "option": "supply"},
    {"type": "select_units", "units": [{"area": "winterfell", "unit": "knight"}]},
    {"type": "select_card", "card": None},
]


def test_every_type_has_a_sample():
    assert {s["type"] for s in SAMPLES} == set(ACTION_TYPES)


@pytest.mark.parametrize("data", SAMPLES, ids=[s["type"] for s in SAMPLES])
def test_round_trip(data):
    a = parse_action(data)
    assert a.type == data["type"]
    assert parse_action(to_json(a)) == a
    hash(a)  # frozen, hashable


@pytest.mark.parametrize(
    "data",
    [
        None, 3, "march", [], {}, {"type": "fly"},
        {"type": "bid"}, {"type": "bid", "amount": "3"}, {"type": "bid", "amount": True}, {"type": "bid", "amount": 1, "x": 1},
        {"type": "place_orders", "orders": []}, {"type": "place_orders", "orders": {"a": 3}},
        {"type": "march", "area": "x", "moves": [{"to": "y"}]}, {"type": "march", "area": "x", "moves": "y"},
        {"type": "raven_keep", "bottom": "yes"}, {"type": "select_units", "units": [{"area": "x"}]},
        {"type": "muster", "recruits": [{"area": "x", "unit": "footman", "upgrade": 1}]}, {"type": "choose", "option": ""},
        {"type": ["bid"]}, {"type": {"bid": 1}}, {"type": None}, {"type": 3},  # unhashable types raised TypeError
    ],
)
def test_malformed(data):
    with pytest.raises(IllegalAction) as e:
        parse_action(data)
    assert e.value.code == "action.malformed"
    assert e.value.as_dict()["code"] == "action.malformed"


def test_apply_accepts_json_objects():
    s = R.new_game(3, 1, {})
    d = next(d for d in R.pending(s) if d.actor == "stark")
    orders = dict(zip(d.options["areas"], ["raid", "support", "march", "consolidate-power", "defense-plus-one"]))
    s2 = R.apply(s, "stark", {"type": "place_orders", "orders": orders})
    assert "stark" in s2.placed
