"""The ``strong`` bot (flat Monte Carlo search, :mod:`game.rules.agot.search`): it sees only its
house's view, is deterministic when bounded by playouts, stops at its CPU budget, answers every
decision legally in both editions."""

from __future__ import annotations

import random

import pytest

from game.rules.agot import RULESET as R
from game.rules.agot import RULESETS
from game.rules.agot.bots import LEVELS, bot_action
from game.rules.agot.candidates import candidates
from game.rules.agot.legal import random_action
from game.rules.agot.search import evaluate, forget, search
from game.rules.agot.selfplay import game_seed

PLAYOUTS = 6


def strong(state, actor, seed=7, iterations=PLAYOUTS, ruleset=R):
    return bot_action(ruleset, state, actor, "strong", seed, iterations=iterations)


def secret_pair(players: int, seed: int, kind: str, ruleset=R):
    """``(s1, s2, me)``: from the first state of a basic game where two houses or more must
    answer a face-down decision of ``kind``, the first of them answers in two different ways;
    ``s2`` also has its decks in another order and another random generator. ``me``, another
    house still to answer, sees the two alike."""
    s = ruleset.new_game(players, seed)
    n = 0
    while True:
        ds = ruleset.pending(s)
        if len(ds) >= 2 and all(d.simultaneous for d in ds) and ds[0].kind == kind:
            break
        d = ds[0]
        s = ruleset.apply(s, d.actor, ruleset.bot_action(s, d.actor, "basic", game_seed(seed, n)))
        n += 1
    h, me = ds[0].actor, ds[1].actor
    s1 = ruleset.apply(s, h, ruleset.bot_action(s, h, "basic", 1))
    for k in range(50):
        s2 = ruleset.apply(s, h, random_action(s, ds[0], random.Random(k)))
        if s2.snapshot() != s1.snapshot():
            break
    assert s2.snapshot() != s1.snapshot()  # the answer itself differs (all else is equal)
    s2 = s2.clone()
    s2.seed = s.seed + 12345
    s2.rng_n = s.rng_n + 3
    s2.decks = {k: tuple(reversed(v)) for k, v in s2.decks.items()}
    return s1, s2, me


def test_levels_include_strong():
    assert LEVELS == ("random", "basic", "strong")


@pytest.mark.parametrize("kind", ["place_orders", "bid", "choose_house_card"])
def test_strong_bot_decides_from_its_view_only(kind):
    """Two states with the same ``view(state, me)`` but another house's face-down answer (orders,
    bid, house card), the decks' order and the random generator changed give the same action,
    and the same value in every playout (nothing hidden reaches a rollout)."""
    s1, s2, me = secret_pair(3, 11, kind)
    assert (s1.placed, s1.ctx.get("bids"), s1.ctx.get("combat"), s1.decks) != (s2.placed, s2.ctx.get("bids"), s2.ctx.get("combat"), s2.decks)
    assert R.view(s1, me) == R.view(s2, me)
    for seed in (1, 2):
        assert strong(s1, me, seed) == strong(s2, me, seed)
    st1, st2 = {}, {}
    search(R, s1, me, 3, candidates, iterations=12, stats=st1)
    search(R, s2, me, 3, candidates, iterations=12, stats=st2)
    assert st1 == st2 and st1["playouts"] == 12 and len(st1["candidates"]) > 1


def test_forget_withdraws_other_answers_and_keeps_only_my_events():
    s, _, me = secret_pair(3, 11, "place_orders")
    assert set(s.placed) - {me}
    pub = forget(s, me)
    assert set(pub.placed) <= {me}
    assert {d.actor for d in R.pending(pub)} == set(s.houses) - set(pub.placed)
    from game.rules.agot.state import events

    assert all(e["to"] in (None, me) for e in events(pub))
    assert pub.seed == 0 and s.seed != 0  # the input is untouched


def test_strong_bot_is_deterministic_when_bounded_by_playouts():
    s = R.new_game(4, 5, {})
    for i in range(12):
        d = R.pending(s)[0]
        a = strong(s, d.actor, seed=i)
        assert strong(s, d.actor, seed=i) == a
        s = R.apply(s, d.actor, a)


def test_search_stops_at_its_budget():
    """The clock is read between playouts: with a clock that advances one second per reading and
    a budget of 4 s, at most a handful of playouts are made."""
    s = R.new_game(3, 3, {})
    me = R.pending(s)[0].actor
    ticks = iter(range(10_000))
    played = []

    def cands(*a):
        out = candidates(*a)
        played.append(len(out))
        return out

    act = search(R, s, me, 5, cands, budget=4.0, clock=lambda: float(next(ticks)))
    assert act is not None and played == [played[0]] and played[0] > 2
    assert next(ticks) <= 8  # t0 + at most 4 checks + the one that stopped it
    R.apply(s, me, act)


@pytest.mark.parametrize("edition,players,seed", [("agot2", 3, 21), ("agot2", 6, 22), ("agot1", 4, 23), ("agot1", 5, 24)])
def test_strong_bot_answers_every_decision_legally(edition, players, seed):
    """Random positions (random bots play on, the strong bot answers the decision at hand with
    two playouts per decision); every answer is legal and every decision kind met is answered."""
    rules = RULESETS[edition]
    s = rules.new_game(players, seed)
    rnd = random.Random(seed)
    kinds = set()
    for n in range(260):
        if rules.result(s) is not None:
            break
        d = rules.pending(s)[0]
        if rnd.random() < 0.35:
            act = bot_action(rules, s, d.actor, "strong", game_seed(seed, n), iterations=2)
            kinds.add(d.kind)
        else:
            act = rules.bot_action(s, d.actor, "random", game_seed(seed, n))
        s = rules.apply(s, d.actor, act)  # raises on an illegal action
    assert {"place_orders", "march"} <= kinds


def test_ruleset_bot_action_takes_a_budget():
    s = R.new_game(3, 4, {})
    d = R.pending(s)[0]
    R.apply(s, d.actor, R.bot_action(s, d.actor, "strong", 1, budget=0.05))
    R.apply(s, d.actor, R.bot_action(s, d.actor, "basic", 1, budget=0.05))


def test_evaluation_prefers_more_castles():
    s = R.new_game(3, 1, {})
    me, other = s.houses[0], s.houses[1]
    assert evaluate(s, me) == pytest.approx(evaluate(s, me))
    t = s.clone()
    t.supply = dict(t.supply, **{me: t.supply[me] + 1})
    assert evaluate(t, me) > evaluate(s, me)
    assert evaluate(t, other) < evaluate(s, other) or evaluate(t, other) == evaluate(s, other)


def test_other_sides_tides_card_is_forgotten():
    """Tides of Battle: while the drawn cards are face down (the Blade's use is being decided), the
    other side's card goes back into the Tides deck of the public state; the bot's own stays."""
    from dataclasses import replace

    from game.rules.agot.combat import current

    s = R.new_game(4, 31, {"tides_of_battle": True})
    n = 0
    while not ((c := current(s)) is not None and c.tides and not c.tides_revealed):
        d = R.pending(s)[0]
        s = R.apply(s, d.actor, R.bot_action(s, d.actor, "basic", game_seed(31, n)))
        n += 1
    me = R.pending(s)[0].actor
    other = next(h for h, _ in c.tides if h != me)
    mine = dict(c.tides)[me]
    theirs = dict(c.tides)[other]
    swap = next(t for t in s.decks["tides"] if t != theirs)
    t = s.clone()
    deck = list(t.decks["tides"])
    deck[deck.index(swap)] = theirs
    t.decks["tides"] = tuple(deck)
    t.ctx["combat"] = replace(c, tides=tuple((h, swap if h == other else x) for h, x in c.tides))
    assert R.view(s, me) == R.view(t, me)
    p1, p2 = forget(s, me), forget(t, me)
    assert p1.snapshot() == p2.snapshot()
    assert dict(current(p1).tides)[me] == mine
    assert strong(s, me) == strong(t, me)


def test_strong_bot_legal_with_tides_of_battle():
    rules = R
    s = rules.new_game(4, 32, {"tides_of_battle": True})
    rnd = random.Random(32)
    for n in range(200):
        if rules.result(s) is not None:
            break
        d = rules.pending(s)[0]
        level = "strong" if rnd.random() < 0.4 else "basic"
        act = bot_action(rules, s, d.actor, level, game_seed(32, n), iterations=2)
        s = rules.apply(s, d.actor, act)


def test_orders_placed_in_turn_order_are_placed_again():
    """Not enough orders (placement in turn order): another house's orders placed before the
    bot's turn are final and face-down; the public state holds orders the basic bot placed for it
    instead, the same whatever the real ones were."""
    s = R.new_game(3, 2)
    n = 0
    while True:
        d = R.pending(s)[0]
        if d.kind == "place_orders" and d.options.get("in_turn_order") and len(R.pending(s)) == 1:
            break
        s = R.apply(s, d.actor, R.bot_action(s, d.actor, "basic", game_seed(2, n)))
        n += 1
    first = d.actor
    a1 = R.apply(s, first, R.bot_action(s, first, "basic", 1))
    for k in range(50):
        a2 = R.apply(s, first, random_action(s, d, random.Random(k)))
        if a2.placed[first] != a1.placed[first]:
            break
    me = R.pending(a1)[0].actor
    assert me != first and R.pending(a1)[0].options["in_turn_order"]
    assert R.view(a1, me) == R.view(a2, me)
    p1, p2 = forget(a1, me, R), forget(a2, me, R)
    assert p1.placed == p2.placed and first in p1.placed
    assert [x.actor for x in R.pending(p1)] == [me]
    assert strong(a1, me) == strong(a2, me)
