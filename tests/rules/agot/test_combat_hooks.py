"""The house-card hook API (game/rules/agot/house_cards.py): every hook is called at its timing.

Abilities are registered here with stand-in implementations (monkeypatched, so the real ones of
the cards module are restored after each test)."""

import pytest

from game.rules.agot import combat, combat_cards
from game.rules.agot.house_cards import ABILITIES, Ability

from .combat_util import act, cards, choose, events, fight, finish, march, pending, position, units

# two cards whose own texts we replace for the test
T_CARD, T_KEY = "queen-of-thorns", "remove_adjacent_opponent_order"  # Tyrell, strength 0
L_CARD, L_KEY = "cersei-lannister", "win_remove_opponent_order"  # Lannister, strength 0


def start(tyrell_units=("knight",), lannister_units=("footman", "knight")):
    s = position(
        units={"the-reach": {"house": "tyrell", "units": list(tyrell_units)}, "blackwater": {"house": "lannister", "units": list(lannister_units)}},
        orders={"the-reach": "march"},
        tracks={"iron_throne": ["lannister", "tyrell", "baratheon", "stark", "martell", "greyjoy"]},
    )
    return march(s, "tyrell", "the-reach", "blackwater", list(tyrell_units))


class Recorder(Ability):
    def __init__(self, name, first=False, **kw):
        self.name = name
        self.first = first
        self.kw = kw

    def reveal(self, state, house):
        state.emit("test_hook", hook="reveal", who=self.name)
        if "push_choice_for" in self.kw:
            c = combat.current(state)
            combat_cards.set_card(state, combat.opponent(c, house), None)
            combat_cards.push_card_choice(state, combat.opponent(c, house), "test_rechoose", exclude=(L_CARD,))

    def strength(self, state, house):
        return self.kw.get("strength", {})

    def icons(self, state, house):
        return self.kw.get("icons", (0, 0))

    def result(self, state, house, won):
        state.emit("test_hook", hook="result", who=self.name, won=won)

    def casualties(self, state, house, victim, n, source):
        return 0 if self.kw.get("immune") and victim == house else n

    def retreat_chooser(self, state, house):
        return house if self.kw.get("choose_retreat") else None

    def attacker_advances(self, state, house):
        return not self.kw.get("bounce")

    def after_combat(self, state, house):
        state.emit("test_hook", hook="after_combat", who=self.name, discards=list(state.discards[house]))


def hooks(s, hook=None):
    return [(e["hook"], e["who"]) for e in events(s, "test_hook") if hook is None or e["hook"] == hook]


@pytest.fixture
def register(monkeypatch):
    def reg(t=None, lan=None):
        if t:
            monkeypatch.setitem(ABILITIES, T_KEY, t)
        if lan:
            monkeypatch.setitem(ABILITIES, L_KEY, lan)

    return reg


def test_cancel_ignore_abilities_first_then_turn_order(register):
    register(Recorder("tyrell", first=True), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    assert hooks(s, "reveal") == [("reveal", "tyrell"), ("reveal", "lannister")]
    register(Recorder("tyrell"), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    assert hooks(s, "reveal") == [("reveal", "lannister"), ("reveal", "tyrell")]  # Lannister first on the Iron Throne


def test_strength_and_icons_hooks(register):
    register(Recorder("tyrell", strength={"tyrell": 5, "lannister": -1}, icons=(2, 0)), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    assert events(s, "combat_result")[-1]["strength"] == {"tyrell": 2 + 5, "lannister": 3 - 1}
    assert sorted(u[1] for u in events(s, "casualties")[-1]["units"]) == ["footman", "knight"]


def test_result_hooks_after_the_winner_before_casualties(register):
    register(Recorder("tyrell", icons=(1, 0)), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)  # Lannister 3 vs Tyrell 2: Lannister wins
    res = [e for e in events(s, "test_hook") if e["hook"] == "result"]
    assert [(e["who"], e["won"]) for e in res] == [("lannister", True), ("tyrell", False)]


def test_casualty_filter(register):
    register(Recorder("tyrell", strength={"tyrell": 9}, icons=(2, 0)), Recorder("lannister", immune=True))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    assert events(s, "casualties") == []


def test_retreat_chooser_and_after_combat(register):
    register(Recorder("tyrell", strength={"tyrell": 9}, choose_retreat=True), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    d = pending(s, kind="retreat")[0]
    assert d.actor == "tyrell" and d.options["house"] == "lannister"
    s = choose(s, "tyrell", d.options["options"][0])
    # after-combat effects run once the cards are in the discard piles
    after = [e for e in events(s, "test_hook") if e["hook"] == "after_combat"]
    assert [e["who"] for e in after] == ["lannister", "tyrell"] and T_CARD in after[1]["discards"]
    assert fight(s) is None


def test_attacker_bounced_back(register):
    register(Recorder("tyrell", strength={"tyrell": 9}), Recorder("lannister", bounce=True))
    s = finish(cards(start(lannister_units=("footman",)), tyrell=T_CARD, lannister=L_CARD))
    assert events(s, "combat_result")[-1]["winner"] == "tyrell"
    assert units(s, "the-reach") == ["knight"] and s.owner("blackwater") is None


def test_a_card_may_make_the_opponent_choose_again(register):
    register(Recorder("tyrell", first=True, push_choice_for=True), Recorder("lannister"))
    s = cards(start(), tyrell=T_CARD, lannister=L_CARD)
    d = pending(s, "lannister", "choose_house_card")[0]
    assert d.options["purpose"] == "test_rechoose" and L_CARD not in d.options["cards"] and L_CARD in s.hands["lannister"]
    s = act(s, "lannister", {"type": "select_card", "card": "the-hound"})
    assert events(s, "house_card_replaced")[-1]["card"] == "the-hound"
    assert events(s, "combat_result")[-1]["strength"]["lannister"] == 3 + 2
    assert "the-hound" in s.discards["lannister"] and L_CARD in s.hands["lannister"]
