"""Nothing hidden can be learnt from any sequence of payloads (the per-viewer view is the only way a state reaches a browser).

Whole bot games of both rulesets are played (AGoT with 3, 4, 5 and 6 players, each with and
without Tides of Battle; The Duke with its options), and every payload each seat and a spectator
receives, version after version, is rendered by the real payload function
(:func:`game.live.payloads.cached_payload_text`, the text sockets send). One Duke game goes
through the real websocket instead (:func:`test_websocket_payloads_leak_nothing`).

**What a viewer may learn** (and nothing else, before the rules reveal it):

=================  ==========================================================================
AGoT, public       the board, revealed orders, tracks, power, supply, hands and discards
                   (except, during a combat's card choice, the two fighters' hands), deck
                   sizes, which houses have placed orders and where, who has bid, revealed
                   bids, the combat and its revealed cards, the public events
AGoT, own only     the viewer's face-down orders, bid, chosen house card, Tides of Battle
                   card, the top wildling card it looked at with the Raven (while on top), its
                   decisions' options, events addressed to it
AGoT, nobody       deck orders, the random generator (seed and counter)
Duke, public       the board, terrain, bag counts and each seat's tiles not yet in play (a
                   multiset: bag + tiles held in a Divination), a plainly drawn tile, lost and
                   destroyed tiles, how many tiles a Divination drew and returned, events
Duke, own only     the tiles the viewer drew by Divination (until the choice) and the ones it
                   returned, its decision's options
Duke, nobody       the generator (so the next draw)
=================  ==========================================================================

**How it is checked.** A viewer who has received the payloads of versions ``0..t`` knows
exactly those payloads. They reveal nothing early iff, for every ``t``, the payload of version
``t`` is the same in every world that agrees with the real one on what the rules have told the
viewer by ``t``. Two kinds of such worlds are built, and the viewer's payload in each must be
*identical* (byte for byte, except the game id) to the real one:

1. **Twins** (every version, every viewer): the state with everything the viewer may not know
   replaced (other houses' face-down orders, bids, chosen cards and Tides cards, deck orders,
   the generator, others' private events; the tiles a Duke Divination holds drawn, redrawn from
   the bag and the held tiles together, so the multiset the viewer saw at the version before
   stays). Catches a view that reads a hidden field.
2. **Branches** (every consecutive pair where a secret enters the game): the step from version
   ``t`` to ``t + 1`` played again by the engine with another secret (another legal face-down
   choice for a simultaneous decision; another generator state or Tides deck order for a secret
   draw), then the real game's next actions replayed on the branch for as long as the rules
   keep that secret (for orders and bids from the spectator's and one other seat's side, drawn
   at random; for a combat's cards from every other viewer's). The viewer's payloads along the
   branch must equal the real ones, so the *change* from one payload to the next (a bag's
   kinds, power, hand sizes, deck sizes, options, anything the engine derives from the secret)
   cannot tell the secret apart. This catches the Duke's Divination leak found by an attack on its
   own (each payload alone looked innocent; the difference between two consecutive ones named
   the drawn tiles), and a derived leak no twin can see (e.g. power shown net of a face-down
   bid).

On top, each Duke viewer's consecutive payloads are compared directly: a bag's kinds change only
by the tiles the same step's events show (drawn plainly, kept or destroyed by a Divination). The
games must exercise every kind of secret (asserted), so no check passes vacuously.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from asgiref.sync import sync_to_async

from game.rules.base import IllegalAction

from .live_helpers import connect, patched, start_game

LANGS = {None: "zh-hans"}  # the spectator reads Chinese; seats English

_IDS = itertools.count(-1, -1)  # stand-in game ids, never a real game's


def render(ruleset: str, state, viewer, version: int) -> str:
    """The payload text ``viewer`` is sent for ``state`` at ``version``, through the real payload
    function (from the process's state cache, as after a commit), its game id made null."""
    from game.live import payloads, snapshots

    gid = next(_IDS)
    snapshots.CACHE.put(gid, version, state)
    text = payloads.cached_payload_text(gid, ruleset, viewer, LANGS.get(viewer, "en"), version)
    head = f'{{"type":"state","game":{gid},'
    assert text.startswith(head)
    return '{"type":"state","game":null,' + text[len(head) :]


def _state_at(game_id: int, version: int):
    from game.live import snapshots
    from game.models import Game

    return snapshots.state_at(Game.objects.get(pk=game_id), version)


def differs(real, alt: str):
    """None when payload ``alt`` (text) is ``real`` (text, or a received message), else where
    they first differ: ``(path, real part, alt part)``."""
    if real == alt:
        return None
    if isinstance(real, str):  # texts: even the order of keys must not depend on a secret
        return first_difference(json.loads(real), json.loads(alt)) or ("payload text (key order)", real, alt)
    return first_difference(real, json.loads(alt))


def first_difference(a, b, path="payload"):
    """Where ``a`` and ``b`` first differ, as ``(path, a part, b part)``, or None."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}", a.get(k, "<absent>"), b.get(k, "<absent>")
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else (path, a, b)


# --------------------------------------------------------------------------- The Duke


class DukeModel:
    """What a viewer of The Duke may learn (see the table above)."""

    ruleset = "duke"

    def __init__(self):
        from game.rules.duke import RULESET
        from game.rules.duke.tiles import catalogue

        self.rules = RULESET
        self.kinds = sorted(catalogue())

    def viewers(self, state):
        return ["light", "dark", None]

    def twin(self, s, viewer, rnd):
        bags, drawn = dict(s.bags), s.drawn
        if s.phase == "divination" and viewer != s.to_move:
            pool = list(s.bags[s.to_move] + s.drawn)
            rnd.shuffle(pool)
            drawn, bags[s.to_move] = tuple(pool[: len(drawn)]), tuple(sorted(pool[len(drawn) :]))
        events = []
        for ev in s.events:
            priv = ev.get("private")
            if priv:
                redrawn = {
                    seat: part if seat == viewer else {k: [rnd.choice(self.kinds) for _ in v] for k, v in part.items()}
                    for seat, part in priv.items()
                }
                ev = {**ev, "private": redrawn}
            events.append(ev)
        return replace(s, rng=rnd.getrandbits(64), bags=bags, drawn=drawn, events=tuple(events))

    def secrets(self, before, actor, action, after):
        """``[(kind, viewers it is hidden from)]``: the secrets this step brings in."""
        if after.phase == "divination" and before.phase != "divination":
            return [("divination", [v for v in self.viewers(after) if v != actor])]
        return []

    def revealed(self, kind, before, after):
        """Whether the step ``before -> after`` ends the secret (the Divination's choice)."""
        return after.phase != "divination"

    def branch_viewers(self, kind, hidden_from, rnd):
        return hidden_from

    def alternative(self, before, actor, action, after, kind, viewer, rnd):
        """The step played again with another secret (another generator state), or None when
        no other draw differs (a bag of three kinds or fewer)."""
        for _ in range(30):
            alt = self.rules.apply(replace(before, rng=rnd.getrandbits(64)), actor, action)
            if sorted(alt.drawn) != sorted(after.drawn):
                return alt
        return None


def duke_bag_accounting(prev: dict, cur: dict) -> None:
    """Between two consecutive payloads of one viewer, a bag's ``kinds`` lose exactly the tiles
    that the new events show leaving it for good (a plain draw's tile, a Divination's kept and
    destroyed tiles) and gain nothing."""
    prev, cur = (json.loads(p) if isinstance(p, str) else p for p in (prev, cur))
    pv, cv = prev["view"], cur["view"]
    new = _new_events(pv["events"], cv["events"])
    for seat in ("light", "dark"):
        left = Counter()
        for e in new:
            if e.get("seat") != seat:
                continue
            if e["type"] == "draw":
                left[e["kind"]] += 1
            elif e["type"] == "divine_choose":
                left[e["kind"]] += 1
                left.update(e["destroyed"])
        before, after = Counter(pv["bags"][seat]["kinds"]), Counter(cv["bags"][seat]["kinds"])
        assert before - after == left and not after - before, (
            f"v{cur['version']} viewer {cur['viewer']}: {seat}'s bag kinds {dict(before)} -> {dict(after)}, "
            f"the events show {dict(left)}"
        )


def _new_events(old: list, cur: list) -> list:
    """The events of ``cur`` after ``old`` (both windows of one viewer's log, ``cur`` the later)."""
    for n in range(len(cur) + 1):
        overlap = len(cur) - n
        if overlap <= len(old) and old[len(old) - overlap :] == cur[:overlap]:
            return cur[overlap:]
    raise AssertionError("the event windows do not overlap")


# --------------------------------------------------------------------------- AGoT


class AgotModel:
    """What a viewer of AGoT may learn (see the table above)."""

    ruleset = "agot2"
    #: secret kind -> the event that reveals it
    REVEALS = {"place_orders": "orders_revealed", "bid": "bids_revealed", "choose_house_card": "house_cards_revealed",
               "tides": "tides_revealed"}

    def __init__(self):
        from game.rules.agot import RULESET
        from game.rules.agot.tides import new_tides_deck
        from game.rules.agot.data import board

        self.rules = RULESET
        b = board()
        self.tokens = list(b.order_pool)
        self.tides = sorted(set(new_tides_deck()))
        self.wildlings = sorted(b.wildling_cards)

    def viewers(self, state):
        return list(state.houses) + [None]

    def twin(self, s, viewer, rnd):
        from game.rules.agot.state import events

        t = s.clone()
        t.seed, t.rng_n = rnd.getrandbits(62), rnd.randrange(1, 10**6)
        t.placed = {
            h: o if h == viewer else tuple((a, rnd.choice(self.tokens)) for a, _ in o) for h, o in s.placed.items()
        }
        if "bids" in s.ctx:
            t.ctx["bids"] = tuple((h, n if h == viewer else rnd.randint(0, s.power[h])) for h, n in s.ctx["bids"])
        c = s.ctx.get("combat")
        if c is not None:
            chosen = tuple((h, v if h == viewer else rnd.choice(sorted(s.hands[h]))) for h, v in c.chosen)
            tides = c.tides if c.tides_revealed else tuple((h, v if h == viewer else rnd.choice(self.tides)) for h, v in c.tides)
            t.ctx["combat"] = replace(c, chosen=chosen, tides=tides)
        saw = s.ctx.get("raven_saw")
        for k, deck in s.decks.items():
            keep = 1 if k == "wildling" and saw and saw[0] == viewer and deck[:1] == (saw[1],) else 0
            rest = list(deck[keep:])
            rnd.shuffle(rest)
            t.decks[k] = tuple(deck[:keep]) + tuple(rest)
        if saw and saw[0] != viewer:
            t.ctx["raven_saw"] = (saw[0], rnd.choice(self.wildlings))
        log = None
        for ev in events(s):
            if ev["to"] is not None and ev["to"] != viewer:
                ev = {"kind": ev["kind"], "round": ev["round"], "to": ev["to"], "secret": rnd.random()}
            log = (ev, log)
        t.log = log
        return t

    def secrets(self, before, actor, action, after):
        """``[(kind, viewers it is hidden from)]``: the secrets this step brings in: the actor's
        face-down choice (orders, a bid, a combat's house card), Tides of Battle cards drawn."""
        out = []
        for d in self.rules.pending(before):
            if d.actor == actor and d.kind in self.REVEALS and (d.simultaneous or d.kind == "place_orders"):
                out.append((d.kind, [v for v in self.viewers(before) if v != actor]))
                break
        c, c0 = after.ctx.get("combat"), before.ctx.get("combat")
        if c is not None and c.tides and not c.tides_revealed and (c0 is None or c.tides != c0.tides):
            out.append(("tides", self.viewers(before)))  # each side's card is hidden from the other
        return out

    def revealed(self, kind, before, after):
        """Whether the step ``before -> after`` reveals the secrets of ``kind`` (its event)."""
        if after.result is not None:
            return True
        node = after.log
        while node is not None and node is not before.log:
            if node[0]["kind"] == self.REVEALS[kind]:
                return True
            node = node[1]
        return False

    def branch_viewers(self, kind, hidden_from, rnd):
        """All viewers for a combat's secrets; for orders and bids (many, and alike for every
        other seat) the spectator and one other seat, drawn at random."""
        if kind in ("choose_house_card", "tides"):
            return hidden_from
        return [None, rnd.choice([v for v in hidden_from if v is not None])]

    def alternative(self, before, actor, action, after, kind, viewer, rnd):
        """The step played again with another secret, the viewer's own left as they were: another
        legal choice (orders on the same areas), or another Tides deck order; None if none."""
        from game.rules.agot.combat import pairs_get
        from game.rules.agot.legal import random_action

        if kind == "tides":
            real = after.ctx["combat"].tides
            for _ in range(30):
                alt_before = before.clone()
                alt_before.seed = rnd.getrandbits(62)
                deck = list(before.decks.get("tides", ()))
                rnd.shuffle(deck)
                alt_before.decks["tides"] = tuple(deck)
                alt = self.rules.apply(alt_before, actor, action)
                mine = alt.ctx["combat"].tides
                if mine != real and pairs_get(mine, viewer) == pairs_get(real, viewer):
                    return alt
            return None
        d = next(d for d in self.rules.pending(before) if d.actor == actor and d.kind == kind)
        for _ in range(30):
            other = random_action(before, d, rnd)
            if other == action:
                continue
            if kind == "place_orders" and sorted(dict(other.orders)) != sorted(dict(action.orders)):
                continue  # where orders stand is public; only which orders is secret
            return self.rules.apply(before, actor, other)
        return None


# --------------------------------------------------------------------------- the check


def check_sequence(model, steps, payload, seed: int) -> Counter:
    """Check every viewer's payload sequence of one game.

    ``steps``: ``[(before, actor, action, after)]`` in order (version ``i`` is ``steps[i][0]``,
    the last version ``steps[-1][3]``); ``payload(version, viewer)``: the real payload.
    Twins: every viewer at every version. Branches: see :meth:`AgotModel.branch_viewers`.
    Returns how many twins and branch payloads of each secret kind were compared."""
    rnd = random.Random(seed)
    states = [steps[0][0]] + [s[3] for s in steps]
    stats: Counter = Counter()
    viewers = model.viewers(states[0])
    for version, state in enumerate(states):
        for v in viewers:
            real = payload(version, v)
            twin = render(model.ruleset, model.twin(state, v, rnd), v, version)
            d = differs(real, twin)
            assert d is None, f"{model.ruleset} v{version} viewer {v}: a twin differs at {d[0]}: {d[1]!r} / {d[2]!r}"
            stats["twins"] += 1
    for i, (before, actor, action, after) in enumerate(steps):
        for kind, hidden_from in model.secrets(before, actor, action, after):
            if model.revealed(kind, before, after):
                continue  # the last of a simultaneous batch: revealed in the same step
            for v in model.branch_viewers(kind, hidden_from, rnd):
                branch = model.alternative(before, actor, action, after, kind, v, rnd)
                if branch is None:
                    stats[f"{kind}: no other secret"] += 1
                    continue
                version = i + 1
                while True:
                    d = differs(payload(version, v), render(model.ruleset, branch, v, version))
                    assert d is None, (
                        f"{model.ruleset} v{version} viewer {v}: another {kind} (by {actor}, at v{i}) shows at "
                        f"{d[0]}: {d[1]!r} / {d[2]!r}"
                    )
                    stats[kind] += 1
                    if version == len(steps):
                        break
                    nbefore, nactor, naction, nafter = steps[version]
                    if model.revealed(kind, nbefore, nafter):
                        break
                    try:
                        branch = model.rules.apply(branch, nactor, naction)
                    except IllegalAction:  # the other secret made the real next action illegal
                        stats[f"{kind}: branch ended"] += 1
                        break
                    version += 1
    return stats


def pure_game(model, play):
    """``(steps, payload)`` of a bot game played by ``play(on_state)`` with the pure engine."""
    steps = []
    play(lambda before, actor, action, after: steps.append((before, actor, action, after)))
    states = [steps[0][0]] + [s[3] for s in steps]
    memo = {}

    def payload(version, viewer):
        key = (version, viewer)
        if key not in memo:
            memo[key] = render(model.ruleset, states[version], viewer, version)
        return memo[key]

    return steps, payload


AGOT_GAMES = [(players, tides) for players in (3, 4, 5, 6) for tides in (False, True)]


@pytest.mark.parametrize("players,tides", AGOT_GAMES, ids=[f"{p}p{'-tides' if t else ''}" for p, t in AGOT_GAMES])
def test_agot_payload_sequences_leak_nothing(players, tides):
    from game.rules.agot.selfplay import play_game

    model = AgotModel()
    seed = 1000 + players * 10 + tides
    steps, payload = pure_game(
        model, lambda on_state: play_game(players, seed, "random", {"tides_of_battle": tides}, on_state=on_state)
    )
    assert steps[-1][3].result is not None  # a whole game
    stats = check_sequence(model, steps, payload, seed)
    for kind in ("place_orders", "bid", "choose_house_card") + (("tides",) if tides else ()):
        assert stats[kind] > 0, (kind, stats)
    assert not any(k.startswith("tides") for k in stats) or tides


def fickle_game(players: int, seed: int, tides: bool, on_state) -> None:
    """A random bots' AGoT game in which a house that has just made a face-down choice (orders, a
    bid, a house card) while others still choose takes it back at once, half the time, and
    chooses again (change of mind, :func:`game.rules.agot.flow.withdraw`)."""
    from game.rules.agot import RULESET as R
    from game.rules.agot.actions import Withdraw

    rnd = random.Random(seed)
    state = R.new_game(players, seed, {"tides_of_battle": tides})
    while R.result(state) is None:
        d = R.pending(state)[0]
        action = R.bot_action(state, d.actor, "random", rnd.getrandbits(62))
        after = R.apply(state, d.actor, action)
        on_state(state, d.actor, action, after)
        state = after
        if d.simultaneous and R.pending(state) and rnd.random() < 0.5:
            try:
                after = R.apply(state, d.actor, Withdraw())
            except IllegalAction:  # revealed already (the last to choose)
                continue
            on_state(state, d.actor, Withdraw(), after)
            state = after


@pytest.mark.parametrize("players,tides", [(3, False), (4, True)], ids=["3p", "4p-tides"])
def test_agot_withdrawals_leak_nothing(players, tides):
    """Every face-down choice taken back and made again (half of them) tells no other viewer
    anything, in one payload or by comparing them in sequence: the same twins and branches as
    above, over a game full of withdrawals."""
    model = AgotModel()
    seed = 2000 + players
    steps, payload = pure_game(model, lambda on_state: fickle_game(players, seed, tides, on_state))
    withdrawals = sum(1 for _, _, action, _ in steps if getattr(action, "type", "") == "withdraw")
    assert withdrawals > 20, withdrawals
    stats = check_sequence(model, steps, payload, seed)
    for kind in ("place_orders", "bid", "choose_house_card"):
        assert stats[kind] > 0, (kind, stats)


#: (seed, options): random bots' games with Divinations by both sides, and with every option
DUKE_GAMES = [
    (4, {"mountain": True, "duchess": True, "oracle": True}),
    (15, {"mountain": True, "dragon": True, "duchess": True, "oracle": True}),
]


@pytest.mark.parametrize("seed,options", DUKE_GAMES, ids=["mountain-duchess-oracle", "all-options"])
def test_duke_payload_sequences_leak_nothing(seed, options):
    from game.rules.duke.selfplay import play_game

    model = DukeModel()
    steps, payload = pure_game(model, lambda on_state: play_game(seed, ("random", "random"), options, on_state=on_state))
    assert steps[-1][3].result is not None
    stats = check_sequence(model, steps, payload, seed)
    assert stats["divination"] > 0, stats
    for v in model.viewers(None):
        for version in range(len(steps)):
            duke_bag_accounting(payload(version, v), payload(version + 1, v))


# --------------------------------------------------------------------------- one websocket run

#: a random bots' game of 220 actions with Divinations by both sides
WS_SEED, WS_OPTIONS = 47, {"oracle": True}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("patch", [False, True], ids=["states", "patches"])
async def test_websocket_payloads_leak_nothing(make_lobby, make_user, monkeypatch, settings, patch):
    """A whole Duke game (with Divinations by both sides) played through the service while both
    seats and a spectator watch on real sockets: every socket gets every version once, in order,
    exactly the text the payload function makes for that version's state; and those received
    payloads pass the same checks. With ``patch``, the sockets ask for patches as the site's
    client does: each push after the first is a ``patch`` from the version before, whose values
    are all parts of the state it makes, and the states the patches make pass the same checks in
    sequence."""
    from gotweb.asgi import application

    from game.live import apply
    from game.rules.duke.selfplay import play_game

    settings.GAME_BOT_DELAY = None
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    model = DukeModel()
    steps = []
    play_game(WS_SEED, ("random", "random"), WS_OPTIONS, on_state=lambda b, a, x, af: steps.append((b, a, x, af)))
    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: WS_SEED)
    game, users = await sync_to_async(start_game)(make_lobby, 2, ruleset="duke", options=WS_OPTIONS)
    watcher = await sync_to_async(make_user)("watcher")
    viewers = {s: users[s] for s in users} | {None: watcher}
    socks, recorded, patches_seen = {}, {}, [0]
    for v, u in viewers.items():
        socks[v], first = await connect(application, game.pk, u, lang=LANGS.get(v, "en"), patch=patch)
        recorded[v] = [first]
    for version, (_, actor, action, _) in enumerate(steps, start=1):
        got = await sync_to_async(apply.act)(game.pk, users[actor], _duke_json(action), version - 1)
        assert got == version
        for v, ws in socks.items():
            while True:
                msg = await ws.receive_json_from(timeout=20)
                if msg["type"] == "state":
                    recorded[v].append(msg)
                    break
                if msg["type"] == "patch":
                    assert patch
                    patches_seen[0] += 1
                    recorded[v].append(patched(recorded[v][-1], msg))
                    break
    for ws in socks.values():
        await ws.disconnect()
    for v, got in recorded.items():
        assert [p["version"] for p in got] == list(range(len(steps) + 1))  # every version, in order
        for p in got:
            # the socket adds the seats' status (who is awaited, for how long, the clocks, the
            # table's votes and pause: public, the same for every viewer)
            assert set(p.pop("seats", {})) <= {"awaited_for", "away_after", "stand_ins", "time_control", "clocks", "deadline", "table"}
        for p in got[:: max(1, len(got) // 12)] + got[-1:]:  # the sockets send the payload function's text
            state = await sync_to_async(_state_at)(game.pk, p["version"])
            assert json.loads(render(game.ruleset, state, v, p["version"])) == {**p, "game": None}
        for p in got:
            p["game"] = None
    assert recorded[None][-1]["status"] == "finished"
    assert (patches_seen[0] > len(steps)) is patch  # with patches, (nearly) every push is one
    stats = check_sequence(model, steps, lambda version, v: recorded[v][version], WS_SEED)
    assert stats["divination"] > 0, stats
    for v, got in recorded.items():
        for prev, cur in zip(got, got[1:]):
            duke_bag_accounting(prev, cur)


def _duke_json(action):
    from game.rules.duke.actions import action_to_json

    return action_to_json(action)


# --------------------------------------------------------------------------- the checks' own test


class _NoTwins:
    """A model with its twins switched off: only the branches check."""

    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):
        return getattr(self.model, name)

    def twin(self, state, viewer, rnd):
        return state


def test_the_branches_alone_catch_leaks_no_single_payload_shows(monkeypatch):
    """Planted leaks of the kind an attacker looks for, each visible only by comparing consecutive
    payloads, are caught by the branches even with the twins off: the Duke view of before the
    fix (a Divination's drawn tiles taken out of the bag's kinds at the draw), and an AGoT view
    showing power already net of the face-down bids."""
    from game.rules.agot import RULESET as AGOT
    from game.rules.agot.selfplay import play_game as agot_game
    from game.rules.duke import RULESET as DUKE
    from game.rules.duke.selfplay import play_game as duke_game

    real_view = DUKE.view

    def old_duke_view(state, viewer):
        out = real_view(state, viewer)
        for seat, bag in out["bags"].items():
            bag["kinds"] = dict(sorted(Counter(state.bags[seat]).items()))
        return out

    monkeypatch.setattr(DUKE, "view", old_duke_view)
    seed, options = DUKE_GAMES[1]
    model = _NoTwins(DukeModel())
    steps, payload = pure_game(model, lambda on_state: duke_game(seed, ("random", "random"), options, on_state=on_state))
    with pytest.raises(AssertionError, match=r"another divination .* shows at payload\.view\.bags\.\w+\.kinds"):
        check_sequence(model, steps, payload, seed)

    real_shared = AGOT.shared_view

    def power_net_of_bids(state):
        out = real_shared(state)
        bids = dict(state.ctx.get("bids", ()))
        out["power"] = {h: n - bids.get(h, 0) for h, n in out["power"].items()}
        return out

    monkeypatch.setattr(AGOT, "shared_view", power_net_of_bids)
    model = _NoTwins(AgotModel())
    steps, payload = pure_game(model, lambda on_state: agot_game(3, 1030, "random", {}, on_state=on_state))
    with pytest.raises(AssertionError, match=r"another bid .* shows at payload\.view\.power\."):
        check_sequence(model, steps, payload, 1030)
