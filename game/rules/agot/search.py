"""The ``strong`` bot's search: flat Monte Carlo over candidate actions, on determinised states,
with the ``basic`` bot as the rollout policy and a board evaluation at the rollout's horizon.

How one decision is made (:func:`search`):

1. :func:`forget` turns the real state into the *public state* of the deciding house: every
   face-down answer of another house to the decision in progress (orders, bid, house card) is
   taken back (:func:`.flow.withdraw`, the rulebook's own "nobody has seen it"), the game's random
   generator is replaced, the decks are put in a canonical order (sizes and contents are public:
   Westeros cards drawn go to the bottom of their deck, every card stays in it), another house's
   face-down Tides of Battle card is put back into the Tides deck, the Messenger Raven's look at
   the wildling deck is kept only if it is the deciding house's, and the log keeps only the
   events told to that house. The result depends only on what ``view(state, house)`` shows, so
   the bot cannot use anything else (the leak test in ``tests/rules/agot`` checks it).
2. :mod:`.candidates` proposes a handful of actions (the basic bot's, variations of it, some
   random ones) for the decision.
3. Each sweep draws one determinisation (:func:`determinise`: decks, Tides deck and the random
   generator reshuffled with the sweep's seed; the withdrawn answers are made again by the basic
   bot inside the rollout, as every future decision is), applies every candidate still in the
   race to it and plays on with basic bots for every house up to the horizon (:func:`rollout`),
   then scores the end position for the deciding house (:func:`evaluate`). The same
   determinisation and rollout seed serve all candidates of a sweep (common random numbers).
4. Successive halving: after sweeps 2, 4, 8, ... the worse half of the candidates drops out. The
   best mean wins; the basic bot's own answer wins ties and gets a small head start.

The search stops at a count of playouts (``iterations``, deterministic: tests) or when the CPU
time spent reaches ``budget`` seconds (checked between playouts: live play), whichever first.
No rulebook section of its own: a bot implements no rule; the evaluation's terms follow the end
of game scoring (游戏胜利 / Winning the game: castles and strongholds, then supply, then power,
see :mod:`.victory`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..base import Decision, IllegalAction
from .actions import parse_action
from .basic_bot import BasicBot
from .combat import current as current_combat
from .control import castle_count, stronghold_count
from .data import board
from .flow import apply as _apply
from .flow import current_decisions, withdraw
from .legal import random_action
from .state import State, events

#: seconds of CPU per decision when none is given (live play's default)
DEFAULT_BUDGET = 2.0
#: rollout horizon: rounds played past the current one (then the board is scored)
HORIZON = 1
#: at most this many actions in one rollout (a safety net: a round has about 20 per house)
MAX_ROLLOUT_ACTIONS = 400
#: the basic bot's answer starts with this many points (ties and noise go its way)
BASIC_PRIOR = 0.05

__all__ = ["DEFAULT_BUDGET", "determinise", "evaluate", "forget", "rollout", "search"]


def forget(state: State, me: str, ruleset: Any = None) -> State:
    """The public state of ``me``: ``state`` with everything ``view(state, me)`` hides replaced by
    canonical values (see the module docstring). Pure; the input is untouched.

    Orders placed in turn order (没有足够的指令标记了？ / Not enough orders: a house short of order
    tokens makes every house place one after another, still face-down) cannot be taken back: the
    public state has them placed again, in turn order, by the basic bot of ``ruleset`` (seed 0;
    without a ruleset, a random legal set, seed 0) from what those houses could see, so nothing of
    the real ones remains."""
    s = state
    for h in s.houses:
        if h == me:
            continue
        try:
            s = withdraw(s, h)
        except IllegalAction:
            pass
    if s is state:
        s = state.clone()
    s.seed = 0
    s.rng_n = 0
    saw = s.ctx.get("raven_saw")
    keep_top = bool(saw and saw[0] == me and s.decks.get("wildling") and s.decks["wildling"][0] == saw[1])
    for k, deck in list(s.decks.items()):
        if k == "tides_discard":  # face up
            continue
        if k == "wildling" and keep_top:
            s.decks[k] = deck[:1] + tuple(sorted(deck[1:]))
        else:
            s.decks[k] = tuple(sorted(deck))
    if saw and not keep_top:
        s.ctx.pop("raven_saw", None)
    c = current_combat(s)
    if c is not None and c.tides and not c.tides_revealed:
        pool = list(s.decks.get("tides", ()))
        tides = []
        for h, t in c.tides:
            if h == me:
                tides.append((h, t))
            else:
                pool.append(t)
                tides.append((h, None))
        pool.sort()
        tides = [(h, t if t is not None else pool.pop(0)) for h, t in tides]
        s.decks["tides"] = tuple(pool)
        s.ctx["combat"] = _replace(c, tides=tuple(tides))
    chain = None
    for ev in events(s):
        if ev["to"] is None or ev["to"] == me:
            chain = (ev, chain)
    s.log = chain
    s._events_seen = s._told_seen = None  # the memos of the chain replaced (state.events, events_told)
    others = [h for h in s.placed if h != me]
    if others:  # still placed: orders placed in turn order (final), placed again
        for h in others:
            del s.placed[h]
        for _ in others:
            d = next(iter(current_decisions(s)), None)
            if d is None or d.actor == me or d.kind != "place_orders":
                break
            if ruleset is not None:
                _, s = policy_action(ruleset, s, d, 0)
            else:
                s = _apply(s, d.actor, parse_action(random_action(s, d, random.Random(0))))
    return s


def _replace(obj: Any, **kw: Any) -> Any:
    from dataclasses import replace

    return replace(obj, **kw)


def determinise(public: State, me: str, rnd: random.Random) -> State:
    """One sample of the hidden information behind ``public`` (a :func:`forget` result): the
    decks (all but a top wildling card ``me`` saw), the Tides deck with the other side's
    face-down Tides card, and the game's random generator, drawn from ``rnd``."""
    s = public.clone()
    s.seed = rnd.getrandbits(62)
    s.rng_n = 0
    saw = s.ctx.get("raven_saw")
    for k, deck in list(s.decks.items()):
        if k == "tides_discard" or len(deck) < 2:
            continue
        cards = list(deck)
        top = ()
        if k == "wildling" and saw and saw[0] == me and cards[0] == saw[1]:
            top, cards = (cards[0],), cards[1:]
        rnd.shuffle(cards)
        s.decks[k] = top + tuple(cards)
    c = current_combat(s)
    if c is not None and c.tides and not c.tides_revealed:
        pool = list(s.decks.get("tides", ()))
        others = [h for h, _ in c.tides if h != me]
        if others and pool:
            pool += [t for h, t in c.tides if h != me]
            rnd.shuffle(pool)
            tides = tuple((h, t if h == me else pool.pop()) for h, t in c.tides)
            s.decks["tides"] = tuple(pool)
            s.ctx["combat"] = _replace(c, tides=tides)
    return s


def policy_action(ruleset: Any, state: State, d: Decision, seed: int) -> Any:
    """The rollout policy: the basic bot's answer to ``d`` (a random legal one should it fail)."""
    try:
        act = parse_action(BasicBot(ruleset, state, d.actor, d, random.Random(seed)).basic())
        return act, _apply(state, d.actor, act)
    except (IllegalAction, NotImplementedError, ValueError, KeyError):
        act = random_action(state, d, random.Random(seed))
        return act, _apply(state, d.actor, parse_action(act))


def rollout(ruleset: Any, state: State, rnd: random.Random, horizon: int = HORIZON) -> State:
    """Play on from ``state`` with basic bots for every house until the planning phase of round
    ``state.round + horizon`` (or the game's end, or :data:`MAX_ROLLOUT_ACTIONS`)."""
    stop = state.round + horizon
    s = state
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if s.result is not None or (s.round >= stop and s.phase == "planning"):
            break
        ds = current_decisions(s)
        if not ds:
            break
        _, s = policy_action(ruleset, s, ds[0], rnd.getrandbits(32))
    return s


def house_score(state: State, h: str) -> float:
    """A house's standing as one number (higher is better): the end of game's order (游戏胜利:
    castles and strongholds, then strongholds, supply, available power) weighted so that one
    castle outweighs the rest, plus the units' strength on the board and power on the board
    (the means to take the next castles)."""
    b = board(state)
    strength = 0.0
    for us in state.units.values():
        if us[0][0] == h:
            for _, t, routed in us:
                if not routed:
                    strength += b.unit_strength.get(t, 1) if t != "siege_engine" else 1.5
    tokens = sum(1 for x in state.power_tokens.values() if x == h)
    tracks = sum(1 for order in state.tracks.values() if order[0] == h)
    return (castle_count(state, h) + 0.25 * stronghold_count(state, h) + 0.12 * state.supply[h] + 0.025 * state.power[h]
            + 0.04 * strength + 0.03 * tokens + 0.1 * tracks)


def evaluate(state: State, me: str) -> float:
    """``me``'s score minus the best other house's (:func:`house_score`); a finished game adds
    +10 for a win (shared or not) and -10 for a loss."""
    mine = house_score(state, me)
    best = max(house_score(state, h) for h in state.houses if h != me)
    v = mine - best
    if state.result is not None:
        r = state.result
        won = r.get("winner") == me or me in (r.get("winners") or ())
        v += 10.0 if won else -10.0
    return v


def search(
    ruleset: Any,
    state: State,
    me: str,
    seed: int,
    candidates_fn: Callable[[Any, State, str, Decision, random.Random], list[dict]],
    budget: float | None = None,
    iterations: int | None = None,
    horizon: int = HORIZON,
    clock: Callable[[], float] = time.process_time,
    stats: dict | None = None,
) -> dict | None:
    """The best of ``candidates_fn(ruleset, public, me, decision, rnd)`` for ``me`` by flat Monte
    Carlo (module docstring), or None when there is nothing to search (one candidate or none:
    the caller answers as the basic bot). ``budget``: CPU seconds (None and no ``iterations``:
    :data:`DEFAULT_BUDGET`); ``iterations``: playouts at most. Deterministic in ``seed`` when
    bounded by ``iterations`` alone. ``stats``, if given, receives ``{"candidates", "totals",
    "counts", "playouts"}`` (the race as it ended)."""
    if budget is None and iterations is None:
        budget = DEFAULT_BUDGET
    t0 = clock()
    rnd = random.Random(seed)
    public = forget(state, me, ruleset)
    d = next((x for x in current_decisions(public) if x.actor == me), None)
    if d is None:
        return None
    cands = _dedupe(candidates_fn(ruleset, public, me, d, rnd))
    if len(cands) < 2:
        return cands[0] if cands else None
    total = [BASIC_PRIOR if i == 0 else 0.0 for i in range(len(cands))]
    count = [0] * len(cands)
    alive = list(range(len(cands)))
    played = 0
    sweep = 0
    next_cut = 2

    def done(i: int) -> dict:
        if stats is not None:
            stats.update(candidates=cands, totals=list(total), counts=list(count), playouts=played)
        return cands[i]

    while True:
        sample = determinise(public, me, rnd)
        rseed = rnd.getrandbits(62)
        for i in alive:
            if (iterations is not None and played >= iterations) or (budget is not None and clock() - t0 >= budget):
                return done(_best(alive, total, count))
            try:
                after = _apply(sample, me, parse_action(cands[i]))
            except IllegalAction:
                total[i] = float("-inf")
                count[i] += 1
                continue
            end = rollout(ruleset, after, random.Random(rseed), horizon)
            total[i] += evaluate(end, me)
            count[i] += 1
            played += 1
        sweep += 1
        alive = [i for i in alive if total[i] != float("-inf")] or [0]
        if sweep >= next_cut and len(alive) > 2:
            alive.sort(key=lambda i: (-total[i] / max(count[i], 1), i))
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
            next_cut *= 2
        if len(alive) == 1:
            return done(alive[0])


def _best(alive: list[int], total: list[float], count: list[int]) -> int:
    seen = [i for i in alive if count[i] > 0]
    if not seen:
        return 0
    return max(seen, key=lambda i: (total[i] / count[i], -i))


def _dedupe(cands: list[dict]) -> list[dict]:
    out, seen = [], set()
    for c in cands:
        key = repr(sorted(c.items())) if isinstance(c, dict) else repr(c)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
