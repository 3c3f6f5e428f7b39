"""中立军队 / Neutral forces use the same support rule as combat (one rule: :mod:`support`).

Choice documented in game/rules/agot/march.py: the March order's modifier counts against a
neutral force (the rulebook's worked example counts March +1)."""

from game.rules.agot.support import can_support

from .combat_util import act, events, march, pending, position, units


def sunspear(extra, orders, token="march-plus-one"):
    u = {"yronwood": {"house": "tyrell", "units": ["knight", "footman"]}}
    u.update(extra)
    return position(players=5, units=u, orders={"yronwood": token, **orders}, neutral={"sunspear": 5})


def test_march_modifier_and_own_sea_support_reach_the_neutral_strength():
    s = sunspear({"sea-of-dorne": {"house": "tyrell", "units": ["ship"]}}, {"sea-of-dorne": "support"})
    s = march(s, "tyrell", "yronwood", "sunspear", ["knight", "footman"])
    assert events(s, "neutral_defeated")
    assert units(s, "sunspear") == ["footman", "knight"]


def test_without_the_march_bonus_the_same_attack_is_refused():
    import pytest

    from game.rules.base import IllegalAction

    s = sunspear({"sea-of-dorne": {"house": "tyrell", "units": ["ship"]}}, {"sea-of-dorne": "support"}, token="march")
    with pytest.raises(IllegalAction) as e:
        march(s, "tyrell", "yronwood", "sunspear", ["knight", "footman"])
    assert e.value.code == "march.neutral_too_strong"


def test_siege_engine_support_counts_against_a_castle():
    s = sunspear({"salt-shore": {"house": "greyjoy", "units": ["siege_engine"]}}, {"salt-shore": "support"}, token="march")
    s = march(s, "tyrell", "yronwood", "sunspear", ["knight", "footman"])
    d = pending(s, "greyjoy", "support_neutral_attack")[0]
    assert d.options["from"] == "salt-shore"
    s = act(s, "greyjoy", {"type": "support", "give": True})
    assert events(s, "neutral_defeated")


def test_ports_never_support_land_fights_neutral_or_not():
    assert not can_support("port-of-sunspear", "sunspear")
    assert can_support("port-of-sunspear", "east-summer-sea")
    assert can_support("sea-of-dorne", "sunspear")
    assert not can_support("salt-shore", "east-summer-sea")
