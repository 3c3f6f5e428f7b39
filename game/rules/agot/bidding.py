"""Hidden simultaneous bids of power: 竞标势力条 / Bidding on influence tracks (列王的纷争 /
Clash of Kings) and the Night's Watch bid of 野人袭击 / Wildlings attack.

* Each house secretly chooses a number of its available power tokens; all bids are revealed at
  once when the last is in (a house with no available power bids 0 without being asked).
* Every bid is discarded to the Power Pool, whatever the result.
* Ties are ordered by the Iron Throne holder (铁王座 / Iron Throne token): during the Iron Throne
  bidding it is still the holder from before that bidding.
* Clash of Kings bids the three tracks in order (Iron Throne, Fiefdoms, King's Court); after each
  track its leader holds the matching dominance token (position 1 is the holder in this engine).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .flow import auto, decision, pop, push
from .state import State

TRACK_PURPOSES = ("iron_throne", "fiefdoms", "kings_court")


def bidders(state: State, purpose: str) -> tuple[str, ...]:
    excl = state.ctx.get("bid_exclude") if purpose == "wildlings" else None
    return tuple(h for h in state.turn_order() if h != excl)


def groups_of(bids: dict[str, int], order: tuple[str, ...]) -> list[list[str]]:
    """Houses grouped by equal bid, highest bid first (each group in turn order)."""
    amounts = sorted(set(bids.values()), reverse=True)
    return [[h for h in order if h in bids and bids[h] == a] for a in amounts]


@decision("bids", ("bid",))
class BidsTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        purpose = task[1]
        got = dict(state.ctx.get("bids", ()))
        out = []
        for h in bidders(state, purpose):
            if h in got:
                continue
            out.append(Decision(h, "bid", {"purpose": purpose, "max": state.power[h]}, simultaneous=True))
        return out

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        if action.amount < 0 or action.amount > state.power[actor]:
            raise IllegalAction("bid.out_of_range", f"Bid between 0 and your {state.power[actor]} available power.", max=state.power[actor], got=action.amount)
        got = dict(state.ctx.get("bids", ()))
        got[actor] = action.amount
        state.ctx["bids"] = tuple(sorted(got.items()))
        state.emit("bid_placed", house=actor, purpose=task[1])
        state.emit("bid_secret", to=actor, house=actor, amount=action.amount)
        if not BidsTask.decisions(state, task):
            pop(state)
            reveal(state, task[1])

    @staticmethod
    def withdraw(state: State, task: tuple, actor: str) -> bool:
        """Take ``actor``'s hidden bid back (:func:`.flow.withdraw`); a house with no available
        power made no choice (it bid 0 by itself) and has none to take back."""
        got = dict(state.ctx.get("bids", ()))
        if actor not in got or state.power[actor] == 0:
            return False
        del got[actor]
        state.ctx["bids"] = tuple(sorted(got.items()))
        state.emit("bid_withdrawn", house=actor, purpose=task[1])
        return True

    @staticmethod
    def answered(state: State, task: tuple) -> list[str]:
        """The houses whose bid is in, those with no power that bid 0 by themselves included
        (:func:`.flow.ready`)."""
        return [h for h, _ in state.ctx.get("bids", ())]


@auto("bids_open")
def bids_open(state: State, task: tuple) -> None:
    """Start a bidding: houses with no available power bid 0 at once."""
    purpose = task[1]
    state.ctx["bids"] = tuple(sorted((h, 0) for h in bidders(state, purpose) if state.power[h] == 0))
    state.emit("bidding_started", purpose=purpose)
    if len(state.ctx["bids"]) == len(bidders(state, purpose)):
        reveal(state, purpose)
    else:
        push(state, ("bids", purpose))


def reveal(state: State, purpose: str) -> None:
    bids = dict(state.ctx.pop("bids", ()))
    for h, n in bids.items():
        state.power[h] -= n
    state.ctx["revealed_bids"] = tuple(sorted(bids.items()))
    state.emit("bids_revealed", purpose=purpose, bids=dict(sorted(bids.items())))
    groups = groups_of(bids, state.turn_order())
    if purpose == "wildlings":
        from .wildlings import relevant_tie

        need_ties = relevant_tie(state, bids, groups)
    else:
        need_ties = any(len(g) > 1 for g in groups)
    if need_ties:
        push(state, ("order_ties", purpose), ("bids_done", purpose))
    else:
        state.ctx["bid_order"] = tuple(h for g in groups for h in g)
        push(state, ("bids_done", purpose))


@decision("order_ties", ("order_ties",))
class OrderTiesTask:
    """The Iron Throne holder orders houses with equal bids (best first)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        bids = dict(state.ctx["revealed_bids"])
        groups = groups_of(bids, state.turn_order())
        return [Decision(state.holder("iron_throne"), "order_ties", {"purpose": task[1], "bids": bids, "groups": groups})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        bids = dict(state.ctx["revealed_bids"])
        order = list(action.order)
        if sorted(order) != sorted(bids):
            raise IllegalAction("ties.bad_order", "List every bidding house exactly once.", houses=sorted(bids))
        for a, b in zip(order, order[1:]):
            if bids[a] < bids[b]:
                raise IllegalAction("ties.bad_order", "Only houses with equal bids may be reordered; higher bids come first.", houses=sorted(bids))
        state.ctx["bid_order"] = tuple(order)
        state.emit("ties_ordered", house=actor, purpose=task[1], order=order)
        pop(state)


@auto("bids_done")
def bids_done(state: State, task: tuple) -> None:
    purpose = task[1]
    if purpose in TRACK_PURPOSES:
        order = state.ctx.pop("bid_order")
        state.ctx.pop("revealed_bids", None)
        state.tracks[purpose] = tuple(order)
        state.emit("track_set", track=purpose, order=list(order))
    else:
        from .wildlings import outcome

        outcome(state)


def clash_of_kings(state: State) -> None:
    """列王的纷争 / Clash of Kings: bid for the three tracks in order."""
    push(state, *[("bids_open", t) for t in TRACK_PURPOSES])
