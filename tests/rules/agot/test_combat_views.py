"""视图 / Views of a combat: public progress, face-down cards hidden until both are revealed."""

import json

from game.rules.agot import RULESET as R

from .combat_util import act, march, position, support


def start():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight", "footman"]}, "blackwater": {"house": "lannister", "units": ["footman"]},
               "stoney-sept": {"house": "lannister", "units": ["knight"]}},
        orders={"the-reach": "march-plus-one", "stoney-sept": "support"},
    )
    return march(s, "tyrell", "the-reach", "blackwater", ["knight", "footman"])


def test_combat_is_public():
    s = start()
    for viewer in (None, "stark", "tyrell", "lannister"):
        c = R.view(s, viewer)["combat"]
        assert (c["attacker"], c["defender"], c["area"], c["origin"]) == ("tyrell", "lannister", "blackwater", "the-reach")
        assert sorted(c["attacking_units"]) == ["footman", "knight"] and c["defending_units"] == ["footman"]
        assert c["supports"] == [] and c["march_token"] == "march-plus-one"
    s = support(s, "lannister", "defender")
    assert R.view(s, None)["combat"]["supports"] == [{"house": "lannister", "area": "stoney-sept", "side": "defender"}]
    assert R.view(s, None)["combat"]["base"] == {"tyrell": 4, "lannister": 3}


def test_chosen_card_is_hidden_until_both_are_revealed():
    s = support(start(), "lannister", "defender")
    s = act(s, "lannister", {"type": "select_card", "card": "tywin-lannister"})
    for viewer in (None, "stark", "tyrell"):
        v = R.view(s, viewer)
        text = json.dumps({k: v[k] for k in ("combat", "pending", "events")})
        assert "tywin-lannister" not in text
        assert v["combat"]["chosen"] == ["lannister"] and "my_card" not in v["combat"] and "cards" not in v["combat"]
        # hands of the two sides are not shown to others while cards are chosen
        assert "lannister" not in v["hands"]
    v = R.view(s, "lannister")
    assert v["combat"]["my_card"] == "tywin-lannister" and "tywin-lannister" in v["hands"]["lannister"]
    s = act(s, "tyrell", {"type": "select_card", "card": "ser-garlan-tyrell"})
    for viewer in (None, "stark", "tyrell", "lannister"):
        v = R.view(s, viewer)
        assert v.get("combat") is None or v["combat"]["cards"] == {"tyrell": "ser-garlan-tyrell", "lannister": "tywin-lannister"}
        assert any(e["kind"] == "house_cards_revealed" for e in v["events"])
        assert "lannister" in v["hands"]


def test_strength_and_winner_shown_once_resolved():
    s = support(start(), "lannister", "defender")
    s = act(s, "lannister", {"type": "select_card", "card": "the-hound"})
    s = act(s, "tyrell", {"type": "select_card", "card": "randyll-tarly"})
    v = R.view(s, None)
    ev = [e for e in v["events"] if e["kind"] == "combat_result"][-1]
    assert ev["strength"] == {"tyrell": 6, "lannister": 5} and ev["winner"] == "tyrell"
    if "combat" in v:
        assert v["combat"]["strength"] == {"tyrell": 6, "lannister": 5}


def test_decision_options_only_for_their_house():
    s = start()
    for viewer in (None, "tyrell", "stark"):
        assert all("options" not in p for p in R.view(s, viewer)["pending"])
    assert R.view(s, "lannister")["pending"][0]["options"]["from"] == "stoney-sept"
