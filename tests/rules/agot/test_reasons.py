"""Why a choice is not offered, in the decisions' options (the panels say it): the Westeros card
that forbids an order token (``place_orders`` ``forbidden_by``), and why a unit cannot be mustered
(``recruits[area]["why"]``: points, reserve, supply, no sea, no footman)."""

from __future__ import annotations

from game.rules.agot import RULESET as R
from game.rules.agot.scenario import build


def options(s, house, kind):
    return next(d.options for d in R.pending(s) if d.actor == house and d.kind == kind)


def test_the_card_that_forbids_an_order_is_named():
    s = build({"players": 3, "start": {"cards": ["rains-of-autumn"]}, "halt": False})
    while not any(d.kind == "place_orders" for d in R.pending(s)):
        d = R.pending(s)[0]
        s = R.apply(s, d.actor, R.bot_action(s, d.actor, "basic", 1))
    o = options(s, "stark", "place_orders")
    assert o["forbidden"] == ["march-plus-one"]
    assert o["forbidden_by"] == {"march-plus-one": "rains-of-autumn"}


def test_nothing_forbidden_nothing_named():
    s = R.new_game(3, 1, {})
    o = options(s, "stark", "place_orders")
    assert o["forbidden"] == [] and o["forbidden_by"] == {}


def test_why_a_unit_cannot_be_mustered():
    # Baratheon in Dragonstone (a stronghold, 2 points): at its supply limit, every knight on the board
    s = build({"players": 3, "start": "mustering", "halt": False, "supply": {"baratheon": 0},
               "units": {"dragonstone": {"house": "baratheon", "units": ["footman"]},
                         "kingswood": {"house": "baratheon", "units": ["knight", "knight", "knight", "knight", "knight"]}}})
    o = options(s, "baratheon", "muster")["recruits"]["dragonstone"]
    assert "footman" not in o["units"] and o["why"]["footman"] == "supply"
    assert o["why"]["knight"] == "reserve"  # all five knights are on the board
    assert o["why"]["upgrade_knight"] == "reserve" and "siege_engine" in o["upgrades"]


def test_a_castle_gives_too_few_points_for_a_knight_and_no_footman_to_upgrade():
    # Lannister holds Harrenhal (a castle: 1 point) with a knight; Baratheon musters nothing first
    s = build({"players": 3, "start": "mustering", "halt": False, "neutral": {"harrenhal": None},
               "units": {"harrenhal": {"house": "lannister", "units": ["knight"]}}})
    s = R.apply(s, "baratheon", {"type": "muster", "recruits": []})
    o = options(s, "lannister", "muster")["recruits"]["harrenhal"]
    assert o["points"] == 1
    assert o["why"]["knight"] == "points" and o["why"]["siege_engine"] == "points"
    assert o["why"]["upgrade_knight"] == "no_footman"
    assert "footman" in o["units"] and "footman" not in o["why"]
