"""Twenty-one, a toy game that lives only in the tests: the proof that a ruleset plugs into the
whole site through the contract (:mod:`game.rules.base`) and one registry line.

2 or 3 players (``north``, ``east``, ``south``). First every player bids 1, 2 or 3 face down, all
at once; the bids are shown together when the last one is in, and the highest bid starts (a tie:
the first seat of those). Then, in turn, each adds 1, 2 or 3 to a running total; whoever brings it
to 21 or more wins. Every decision lists its legal actions (``options["actions"]``), so the
site's generic screen and its fallback bot can play it as they are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from game.rules.base import Decision, IllegalAction, Presentation

SEATS = ("north", "east", "south")
TARGET = 21
STEPS = (1, 2, 3)


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    phase: str = "bid"  # "bid", "count", "over"
    bids: tuple[tuple[str, int], ...] = ()
    total: int = 0
    turn: int = 0  # additions made
    next: str | None = None
    winner: str | None = None
    events: tuple[dict, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Bid:
    n: int


@dataclass(frozen=True)
class Add:
    n: int


def to_json(action) -> dict:
    return {"type": "bid" if isinstance(action, Bid) else "add", "n": action.n}


class TwentyOne:
    id = "twentyone"
    min_players = 2
    max_players = 3
    names = {"en": "Twenty-one", "zh-hans": "二十一点接力"}
    default_options: Mapping[str, Any] = {"fast": False}
    presentation = Presentation(
        description={"en": "Bid face down, then count to 21 in turns.", "zh-hans": "先暗中出价，再轮流数到二十一。"},
        option_text={"fast": {"en": ("Fast", "Nothing changes: an option to show."), "zh-hans": ("快速", "没有变化：展示一个选项。")}},
        seat_noun="side",
        round_noun="turn",
        phase_names={"bid": {"en": "Bids", "zh-hans": "出价"}, "count": {"en": "Counting", "zh-hans": "计数"}},
        time_controls=("live-3+2", "deadline-6h", "none"),
    )

    def seat_names(self) -> dict[str, dict[str, str]]:
        return {"north": {"en": "North", "zh-hans": "北"}, "east": {"en": "East", "zh-hans": "东"}, "south": {"en": "South", "zh-hans": "南"}}

    def seats(self, players: int, options: Mapping[str, Any] | None = None) -> list[str]:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(players)
        return list(SEATS[:players])

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        return State(seats=tuple(self.seats(players)))

    def parse_action(self, data: Any):
        if not isinstance(data, dict) or data.get("type") not in ("bid", "add") or type(data.get("n")) is not int:
            raise IllegalAction("action.malformed", "An action is {type: bid|add, n: 1-3}.")
        if set(data) != {"type", "n"}:
            raise IllegalAction("action.malformed", "An action has only a type and n.")
        return (Bid if data["type"] == "bid" else Add)(data["n"])

    def apply(self, state: State, actor: str, action) -> State:
        if isinstance(action, dict):
            action = self.parse_action(action)
        if not any(d.actor == actor for d in self.pending(state)):
            raise IllegalAction("action.not_your_turn", "Not your turn.")
        if action.n not in STEPS:
            raise IllegalAction("twentyone.bad_number", "Choose 1, 2 or 3.", n=action.n)
        if state.phase == "bid":
            if not isinstance(action, Bid):
                raise IllegalAction("twentyone.bid_first", "Bid first.")
            bids = state.bids + ((actor, action.n),)
            events = state.events + ({"type": "bid_placed", "turn": 0, "seat": actor, "to": actor, "n": action.n},)
            if len(bids) < len(state.seats):
                return replace(state, bids=bids, events=events)
            high = max(n for _, n in bids)
            first = next(s for s in state.seats if dict(bids)[s] == high)
            events += ({"type": "bids_shown", "turn": 0, "bids": dict(bids), "first": first},)
            return replace(state, bids=bids, events=events, phase="count", next=first)
        if not isinstance(action, Add):
            raise IllegalAction("twentyone.count_now", "Add to the total now.")
        total = state.total + action.n
        events = state.events + ({"type": "add", "turn": state.turn + 1, "seat": actor, "n": action.n, "total": total},)
        if total >= TARGET:
            return replace(state, total=total, turn=state.turn + 1, events=events, phase="over", next=None, winner=actor)
        following = state.seats[(state.seats.index(actor) + 1) % len(state.seats)]
        return replace(state, total=total, turn=state.turn + 1, events=events, next=following)

    def pending(self, state: State) -> list[Decision]:
        if state.phase == "bid":
            placed = dict(state.bids)
            return [
                Decision(s, "bid", {"actions": [{"type": "bid", "n": n} for n in STEPS]}, simultaneous=True)
                for s in state.seats if s not in placed
            ]
        if state.phase == "count":
            return [Decision(state.next, "add", {"actions": [{"type": "add", "n": n} for n in STEPS]})]
        return []

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        shown = state.phase != "bid"
        return {
            "turn": state.turn,
            "phase": state.phase,
            "total": state.total,
            "next": state.next,
            "winner": state.winner,
            "bids": {s: n for s, n in state.bids if shown or s == viewer},
            "placed": sorted(s for s, _ in state.bids),
            "events": [self._seen(ev, viewer) for ev in state.events],
        }

    @staticmethod
    def _seen(ev: dict, viewer: str | None) -> dict:
        if ev.get("to") not in (None, viewer):  # another's face-down bid: that it was placed only
            return {"type": "bid_placed", "turn": ev["turn"], "seat": ev["seat"]}
        return ev

    def progress(self, state: State) -> dict[str, Any]:
        return {"round": state.turn, "phase": state.phase if state.phase != "over" else None}

    def result(self, state: State) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        return {"winner": state.winner, "reason": "twentyone", "total": state.total}

    def note(self, state: State, entry: dict[str, Any]) -> State:
        return replace(state, events=state.events + ({"type": "note", "turn": state.turn, "note": dict(entry)},))

    def describe(self, event: dict[str, Any], lang: str) -> str:
        zh = lang == "zh-hans"
        seat = self.seat_names().get(event.get("seat"), {}).get(lang, event.get("seat"))
        kind = event.get("type")
        if kind == "bid_placed":
            if "n" in event:
                return f"{seat}出价{event['n']}。" if zh else f"{seat} bids {event['n']}."
            return f"{seat}已出价。" if zh else f"{seat} has bid."
        if kind == "bids_shown":
            first = self.seat_names()[event["first"]][lang]
            return f"出价揭晓：{first}先行。" if zh else f"The bids are shown: {first} starts."
        if kind == "add":
            return f"{seat}加{event['n']}，共{event['total']}。" if zh else f"{seat} adds {event['n']}: {event['total']}."
        return str(kind)

    bot_levels = ("random", "basic", "strong")

    def bot_action(self, state: State, actor: str, level: str, seed: int, budget: float | None = None):
        """``basic`` and ``strong`` leave the total at 17 (then whatever the next one adds, the bot
        can reach 21) when they can; ``random`` and every bid: a random number. ``budget`` is
        ignored (the game is solved)."""
        rnd = random.Random(seed)
        if state.phase == "count" and level in ("basic", "strong"):
            for n in STEPS:
                if state.total + n >= TARGET or (TARGET - 4 - state.total - n) % 4 == 0:
                    return Add(n)
        return (Bid if state.phase == "bid" else Add)(rnd.choice(STEPS))


RULESET = TwentyOne()
