"""The self-play checker's seventh-card invariant (``game.rules.agot.selfplay.LastCardCheck``):
after any combat in which a house played its last card, all its cards are back in hand (1st ed.
rulebook, 用掉的家族卡: "所有的将军卡重新在手上集全"), except as a documented reading says (docs/agot1.md:
a card Melisandre then takes from that hand stays discarded)."""

import json
from pathlib import Path

import pytest

from game.rules.agot.actions import parse_action
from game.rules.agot.flow import apply
from game.rules.agot.scenario import build
from game.rules.agot.selfplay import InvariantBroken, LastCardCheck

DIR = Path(__file__).parent / "scenarios"
FILES = sorted(DIR.glob("*.json"))


def through_the_check(sc: dict, last_step=None):
    """Play a scenario's accepted steps, feeding every (before, after) pair to a LastCardCheck;
    ``last_step(before, after) -> after`` may change the last state before it is checked."""
    s, check = build(sc), LastCardCheck()
    steps = sc.get("steps", [])
    if "expect_error" in sc:
        steps = steps[: sc["expect_error"]["step"]]
    for i, (house, data) in enumerate(steps):
        after = apply(s, house, parse_action(data))
        if last_step is not None and i == len(steps) - 1:
            after = last_step(s, after)
        check.step(s, after)
        s = after
    return s


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_keeps_the_invariant(path):
    through_the_check(json.loads(path.read_text(encoding="utf-8")))


def test_the_pre_fix_luwin_outcome_is_caught():
    """The bug the invariant was written for: Maester Luwin, Stark's seventh card, wins and (acting
    before the clean-up) takes one card back, so the clean-up saw a hand that was not empty: Stark
    ended with one card in hand and six discarded."""
    sc = json.loads((DIR / "seventh_card_maester_luwin_all_seven_in_hand.json").read_text(encoding="utf-8"))

    def old_outcome(before, after):
        bad = after.clone()
        everything = bad.hands["stark"] + bad.discards["stark"]
        bad.hands["stark"] = ("eddard-stark",)
        bad.discards["stark"] = tuple(c for c in everything if c != "eddard-stark")
        return bad

    with pytest.raises(InvariantBroken, match="stark played its last card maester-luwin"):
        through_the_check(sc, old_outcome)


def test_only_the_card_melisandre_took_may_be_missing():
    """The documented exception covers the card Melisandre took, not another one."""
    sc = json.loads((DIR / "card_melisandre_after_a_seventh_card_chooses_among_seven.json").read_text(encoding="utf-8"))
    assert through_the_check(sc).discards["tyrell"] == ("mace-tyrell",)

    def one_more_gone(before, after):
        bad = after.clone()
        bad.hands["tyrell"] = tuple(c for c in bad.hands["tyrell"] if c != "queen-of-thorns")
        bad.discards["tyrell"] = bad.discards["tyrell"] + ("queen-of-thorns",)
        return bad

    with pytest.raises(InvariantBroken, match="tyrell played its last card margaery-tyrell"):
        through_the_check(sc, one_more_gone)
