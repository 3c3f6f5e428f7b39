"""视图 / The combat view's icons: once both house cards are revealed every viewer sees each side's
swords and fortifications (card, ability, Tides card), and once the battle is decided how many
units the loser loses to swords (伤亡 / Casualties: the winner's swords minus the loser's
fortifications). 1st edition: the same rule, with the 1st edition's cards (its rulebook, 战争 5)
伤亡)."""

from game.rules.agot import RULESET, RULESET_1E
from game.rules.agot.data import board
from game.rules.agot.scenario import build

from .combat_util import act, march, position, support


def test_icons_hidden_until_reveal_then_shown_with_the_casualties():
    s = position(
        units={"the-reach": {"house": "tyrell", "units": ["knight", "footman"]}, "blackwater": {"house": "lannister", "units": ["footman"]},
               "stoney-sept": {"house": "lannister", "units": ["knight"]}},
        orders={"the-reach": "march-plus-one", "stoney-sept": "support"},
    )
    s = support(march(s, "tyrell", "the-reach", "blackwater", ["knight", "footman"]), "lannister", "defender")
    s = act(s, "lannister", {"type": "select_card", "card": "the-hound"})
    assert "icons" not in RULESET.view(s, None)["combat"]
    s = act(s, "tyrell", {"type": "select_card", "card": "randyll-tarly"})
    ev = [e for e in RULESET.view(s, None)["events"] if e["kind"] == "combat_result"][-1]
    assert ev["winner"] == "tyrell"
    cards = board().house_cards
    hound, tarly = cards["the-hound"], cards["randyll-tarly"]
    assert (tarly["swords"], hound["fortifications"]) == (1, 2)
    c = RULESET.view(s, "stark")["combat"]  # the loser's retreat is still to come
    assert c["icons"] == {"tyrell": {"swords": 1, "fortifications": tarly["fortifications"]},
                          "lannister": {"swords": hound["swords"], "fortifications": 2}}
    assert c["winner"] == "tyrell" and c["casualties"] == 0


def test_first_edition_cards_icons():
    """Stannis Baratheon (3, one sword, one fortification) beats Ser Rodrik Cassel (1, one
    fortification): no casualty; the loser retreats."""
    s = build({"ruleset": "agot1", "players": 3, "board": "empty", "start": "marches", "turn": "baratheon", "halt": False,
               "units": {"shipbreaker-bay": {"house": "baratheon", "units": ["ship", "ship"]},
                         "the-narrow-sea": {"house": "stark", "units": ["ship"]},
                         "the-shivering-sea": {"house": "stark", "units": ["ship"]}},
               "orders": {"shipbreaker-bay": "march", "the-narrow-sea": "raid", "the-shivering-sea": "raid"}})
    s = RULESET_1E.apply(s, "baratheon", {"type": "march", "area": "shipbreaker-bay", "leave_power": False,
                                          "moves": [{"to": "the-narrow-sea", "units": ["ship", "ship"]}]})
    s = RULESET_1E.apply(s, "stark", {"type": "select_card", "card": "ser-rodrik-cassel"})
    s = RULESET_1E.apply(s, "baratheon", {"type": "select_card", "card": "stannis-baratheon"})
    c = RULESET_1E.view(s, None)["combat"]
    assert c["icons"] == {"baratheon": {"swords": 1, "fortifications": 1}, "stark": {"swords": 0, "fortifications": 1}}
    d = RULESET_1E.pending(s)[0]
    assert (d.actor, d.kind) == ("stark", "use_blade")
    s = RULESET_1E.apply(s, "stark", {"type": "choose", "option": "pass"})
    # no casualty, and the only legal retreat (The Shivering Sea) is taken without a question
    assert RULESET_1E.view(s, None).get("combat") is None
    assert [u for u in s.units["the-shivering-sea"]] == [("stark", "ship", False)] * 2
