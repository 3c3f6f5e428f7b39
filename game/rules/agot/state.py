"""The game state of an AGoT game (either edition: ``edition``), and cheap copies of it.

A :class:`State` is a plain record of dicts whose *values are immutable* (ints, strings, tuples,
frozensets). :meth:`State.clone` therefore copies each dict shallowly (one level) and the copy
can be changed freely without touching the original: ``apply`` clones once, then edits the clone.

Shapes (area ids and house ids as in ``game/data/agot2``):

* ``units``: ``{area: ((house, unit_type, routed), ...)}`` (all units of an area belong to one
  house; areas without units are absent);
* ``power_tokens``: ``{land area: house}`` (power tokens establishing control);
* ``garrisons``: ``{home area: (house, strength)}``; ``neutral``: ``{area: strength}``;
  ``blocked``: areas no one may enter (3-player "~" tokens and their ports);
* ``power``: available power tokens per house; ``supply``: supply track position per house;
* ``tracks``: ``{track id: (house, ...)}``, position 1 first;
* ``orders``: revealed orders ``{area: (house, token id)}``; ``placed``: face-down orders being
  placed ``{house: {area: token id}}`` (hidden until all are in);
* ``hands`` / ``discards``: house card ids per house; ``decks``: Westeros decks I/II/III and
  ``"wildling"`` as tuples, top card first;
* ``tasks``: the queue of what happens next (see :mod:`.flow`), head first;
* ``ctx``: small phase-scoped context (cards revealed, bids, cursors), values immutable;
* ``log``: a persistent chain ``(event, previous chain)`` of events (see :func:`events`);
* ``edition``: ``"agot2"`` or ``"agot1"`` (:mod:`.edition`; the board is ``data.board(state)``).
"""

from __future__ import annotations

from typing import Any, Iterator

_DICT_FIELDS = (
    "units",
    "power_tokens",
    "garrisons",
    "neutral",
    "power",
    "supply",
    "tracks",
    "orders",
    "placed",
    "hands",
    "discards",
    "decks",
    "ctx",
    "flags",
)
_PLAIN_FIELDS = (
    "players",
    "houses",
    "options",
    "seed",
    "rng_n",
    "round",
    "phase",
    "threat",
    "blocked",
    "tasks",
    "log",
    "result",
    "version",
    "edition",
)


class State:
    """One position of a game. Treat as immutable outside ``apply`` (see module docstring)."""

    #: ``_events_seen``: not a field of the game but a memo of :func:`events`, ``(chain, tuple of
    #: its events)`` or None; ``_told_seen``: a memo of :func:`events_told`, ``{viewer: (how many
    #: of the events it covers, the last of them, the ones told to the viewer)}`` or None; both
    #: handed on to clones, left out of pickles and comparisons
    __slots__ = _DICT_FIELDS + _PLAIN_FIELDS + ("_events_seen", "_told_seen")

    def __init__(self, **kw: Any) -> None:
        for f in _DICT_FIELDS:
            setattr(self, f, kw.pop(f, {}))
        for f in _PLAIN_FIELDS:
            setattr(self, f, kw.pop(f, None))
        self._events_seen = None
        self._told_seen = None
        if self.edition is None:
            self.edition = "agot2"
        if kw:
            raise TypeError(f"unknown state fields {sorted(kw)}")

    def clone(self) -> "State":
        new = State.__new__(State)
        for f in _DICT_FIELDS:
            setattr(new, f, dict(getattr(self, f)))
        for f in _PLAIN_FIELDS:
            setattr(new, f, getattr(self, f))
        new._events_seen = self._events_seen  # still a prefix of the clone's chain
        new._told_seen = self._told_seen  # (each entry checked against the chain it is used on)
        return new

    def snapshot(self) -> dict[str, Any]:
        """A plain comparable value of the whole state (for tests: replay equality)."""
        out = {f: getattr(self, f) for f in _PLAIN_FIELDS if f != "log"}
        out.update({f: getattr(self, f) for f in _DICT_FIELDS})
        out["log"] = list(events(self))
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.snapshot() == other.snapshot()

    def __getstate__(self) -> dict[str, Any]:
        """The pickled form (live play's snapshots): every field, the event chain as a flat list,
        oldest first. Pickling the chain itself recurses once per event and failed with
        ``RecursionError`` past about 1,000 events (a long 6-player game)."""
        out = {f: getattr(self, f) for f in _DICT_FIELDS + _PLAIN_FIELDS}
        out["log"] = list(events(self))
        return out

    def __setstate__(self, fields: dict[str, Any]) -> None:
        fields = dict(fields)
        chain = None
        for ev in fields.pop("log"):
            chain = (ev, chain)
        self.log = chain
        self._events_seen = self._told_seen = None
        self.edition = "agot2"  # snapshots pickled before editions existed
        for f, value in fields.items():
            setattr(self, f, value)

    __hash__ = None  # type: ignore[assignment]

    # -- queries ---------------------------------------------------------------------------------
    def units_of(self, area: str) -> tuple:
        return self.units.get(area, ())

    def owner(self, area: str) -> str | None:
        """House of the units in ``area`` (None when empty)."""
        u = self.units.get(area)
        return u[0][0] if u else None

    def holder(self, track: str) -> str:
        """The house in position 1 of ``track`` (holder of its dominance token)."""
        return self.tracks[track][0]

    def turn_order(self) -> tuple[str, ...]:
        """Houses in Iron Throne track order (王权势力条 / Iron Throne track: 顺位)."""
        return self.tracks["iron_throne"]

    # -- edits (only on a clone) -------------------------------------------------------------------
    def add_unit(self, area: str, house: str, utype: str, routed: bool = False) -> None:
        self.units[area] = self.units.get(area, ()) + ((house, utype, routed),)

    def remove_unit(self, area: str, utype: str, prefer_routed: bool | None = None) -> tuple:
        """Remove one unit of ``utype`` from ``area`` and return it (routed ones last unless told)."""
        us = list(self.units.get(area, ()))
        idx = None
        for i, u in enumerate(us):
            if u[1] == utype and (prefer_routed is None or u[2] == prefer_routed):
                idx = i
                break
        if idx is None:
            for i, u in enumerate(us):
                if u[1] == utype:
                    idx = i
                    break
        if idx is None:
            raise KeyError((area, utype))
        unit = us.pop(idx)
        if us:
            self.units[area] = tuple(us)
        else:
            self.units.pop(area, None)
        return unit

    def emit(self, kind: str, to: str | None = None, **data: Any) -> None:
        """Append an event ``{"kind", "round", "to" (None = everyone), ...data}`` to the log."""
        ev = {"kind": kind, "round": self.round, "to": to}
        ev.update(data)
        self.log = (ev, self.log)

    def set_ctx(self, **kw: Any) -> None:
        self.ctx.update(kw)


def events(state: State) -> Iterator[dict[str, Any]]:
    """The state's events, oldest first.

    The chain is walked once per state: the events found are kept on the state (as a tuple,
    with the chain they end) and handed on to its clones, so that a later call, on this state or
    on a state cloned from it, walks only the events added since (live play asks once per
    viewer of every version: seven times for a 6-player game, over a chain of about a thousand
    events by the middle of a game). A chain that does not continue the kept one is walked
    whole."""
    seen = getattr(state, "_events_seen", None)
    head = state.log
    if seen is not None and seen[0] is head:
        return iter(seen[1])
    stop = seen[0] if seen is not None else None
    newer = []
    node = head
    while node is not None and node is not stop:
        newer.append(node[0])
        node = node[1]
    newer.reverse()
    out = seen[1] + tuple(newer) if seen is not None and node is stop else tuple(newer)
    state._events_seen = (head, out)
    return iter(out)


def events_told(state: State, viewer: str | None) -> list[dict[str, Any]]:
    """The state's events told to ``viewer`` (a house, or None for a spectator): those to
    everyone (``"to": None``) and those to ``viewer``, oldest first (a new list).

    Live play asks for every viewer of every version, and the list grows all game long; so the
    events told to each viewer are kept on the state and handed on to its clones
    (``State._told_seen``), and a later call filters only the events added since. A kept list is
    used only where it fits: the event it ends with must be, as the same object, at the same
    place in this state's events (events are made once by :meth:`State.emit` and chains only
    grow, so the events before it are then the same; code that sets a state's chain otherwise,
    as the strong bot's search does, drops both memos); otherwise the events are filtered whole."""
    everything = _all_events(state)
    memo = state._told_seen
    if memo is None:
        memo = state._told_seen = {}
    kept = memo.get(viewer)
    n = len(everything)
    if kept is not None and kept[0] <= n and everything[kept[0] - 1] is kept[1]:
        start, told = kept[0], kept[2]
    else:
        start, told = 0, ()
    if start < n:
        told = told + tuple(e for e in everything[start:] if e["to"] is None or e["to"] == viewer)
        if kept is None or kept[0] <= n:
            memo[viewer] = (n, everything[-1], told)
    return list(told)


def _all_events(state: State) -> tuple:
    """:func:`events` of ``state`` as the tuple it keeps."""
    events(state)
    return state._events_seen[1]
