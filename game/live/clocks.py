"""Time control: the players' clocks and deadlines, as pure arithmetic on stored times.

No Django, no I/O and no clock of its own: every function takes ``now`` (unix seconds, float) and
returns new values. The live layer stores the result on the game row (``Game.time_control``,
``Game.clocks``, ``Game.deadline``) and calls these functions when an action is applied
(:mod:`game.live.apply`), when a seat is handed to a stand-in or taken back, when a player turns
vacation on or off (:mod:`game.live.stand_ins`) and when a deadline fires
(:mod:`game.live.scheduler`). The browser is never trusted with time: it is only told
``remaining`` seconds at sending time and whether the clock runs (:func:`clock_view`).

A **time control** (``Game.time_control``, chosen in the lobby, :func:`parse`) is one of

* ``{"kind": "none"}``: nobody's time is counted (friends' games);
* ``{"kind": "live", "bank": seconds, "increment": seconds, "max_timeouts": n}``: a chess clock
  per seat. A seat's bank runs only while the game awaits that seat (in a simultaneous step every
  awaited seat's bank runs at once) and no stand-in plays it; each decision the player takes adds
  ``increment``. A bank that ran out gives its seat only ``increment`` for each later decision;
* ``{"kind": "deadline", "per_move": seconds, "vacation": seconds, "max_timeouts": n}``:
  correspondence play. Each decision must be taken within ``per_move`` of the moment it became
  the seat's; ``vacation`` is each player's allowance of days off: while a player's vacation is
  on, their deadlines are paused and the allowance is spent (in calendar time) until it is used
  up or the player turns it off.

**Clocks** (``Game.clocks``): ``{seat: {"left": seconds, "since": unix time | None, "timeouts":
int, "vacation": seconds, "away": unix time | None, "auto": bool}}`` for the people's seats (bots
have no clock). ``left`` is the time the seat had at ``since`` (None: the clock is stopped);
``away`` is when its vacation was turned on (None: off), ``vacation`` the allowance left at that
moment, ``back`` (once a vacation ended) when the last one ended. ``timeouts`` counts the seat's
time-outs; ``auto`` marks a stand-in that took the seat because its time ran out and gives it back
after one move (until ``max_timeouts``). ``owed`` (from a time-out until a move is made in the
seat) says the stand-in owes the decision that timed out: the seat cannot be taken back before
(:func:`taken_back`), so a time-out always costs the seat that decision. ``renew`` says a stand-in
moved in the seat since its clock last ran: the seat's decision is a new one.

**A pause** (the table's vote, :mod:`game.live.votes`) stops every clock and deadline at once
(:func:`pause`): running clocks are charged and stopped, a vacation in progress is charged and
``held`` (still on, but not spent); while it lasts :func:`settle` starts no clock (``paused``),
and a new decision of a correspondence seat gets its fresh ``per_move`` without it starting.
:func:`resume` ends it: held vacations go on, awaited seats' clocks start. :func:`extend` adds
the same time to every seat's clock (the table's vote to extend).

>>> tc = parse({"kind": "live", "bank": 60, "increment": 5})
>>> c = start(tc, ["a", "b"], awaited={"a", "b"}, stand_ins={}, now=0.0)
>>> c = settle(tc, c, awaited={"b"}, stand_ins={}, now=10.0, actor="a")
>>> remaining(c, "a", 20.0), remaining(c, "b", 20.0)
(55.0, 40.0)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any

NONE, LIVE, DEADLINE = "none", "live", "deadline"
MAX_TIMEOUTS = 3  #: default number of time-outs after which the stand-in keeps the seat
#: bounds checked by :func:`parse` (seconds): a bank or a deadline of 1 s to 30 days, an
#: increment up to 10 minutes, a vacation allowance up to 60 days, 1 to 99 time-outs
BOUNDS = {"bank": (1, 30 * 86400), "increment": (0, 600), "per_move": (1, 30 * 86400), "vacation": (0, 60 * 86400), "max_timeouts": (1, 99)}


class BadTimeControl(ValueError):
    """A time control that is not one of the shapes above (``field``: the key at fault)."""

    def __init__(self, message: str, field: str = "kind") -> None:
        super().__init__(message)
        self.field = field


def _number(tc: Mapping[str, Any], key: str, default: float) -> float:
    value = tc.get(key, default)
    if type(value) not in (int, float) or not math.isfinite(value):  # bool is not a number here
        raise BadTimeControl(f"{key} must be a number", key)
    lo, hi = BOUNDS[key]
    if not lo <= value <= hi:
        raise BadTimeControl(f"{key} must be between {lo} and {hi}", key)
    return value


def parse(tc: Any) -> dict[str, Any]:
    """The normalised time control of ``tc`` (None or ``{}``: ``none``); raises
    :class:`BadTimeControl` for any other shape, an unknown key or a value out of :data:`BOUNDS`."""
    if tc is None or tc == {}:
        return {"kind": NONE}
    if not isinstance(tc, Mapping):
        raise BadTimeControl("a time control is an object")
    kind = tc.get("kind")
    keys = {NONE: {"kind"}, LIVE: {"kind", "bank", "increment", "max_timeouts"}, DEADLINE: {"kind", "per_move", "vacation", "max_timeouts"}}
    if kind not in keys:
        raise BadTimeControl("unknown kind of time control")
    extra = set(tc) - keys[kind]
    if extra:
        raise BadTimeControl("unknown key", sorted(map(str, extra))[0][:20])
    if kind == NONE:
        return {"kind": NONE}
    n = int(_number(tc, "max_timeouts", MAX_TIMEOUTS))
    if n != tc.get("max_timeouts", n):
        raise BadTimeControl("max_timeouts must be a whole number", "max_timeouts")
    if kind == LIVE:
        return {"kind": LIVE, "bank": _number(tc, "bank", 1800), "increment": _number(tc, "increment", 0), "max_timeouts": n}
    return {"kind": DEADLINE, "per_move": _number(tc, "per_move", 86400), "vacation": _number(tc, "vacation", 0), "max_timeouts": n}


def timed(tc: Mapping[str, Any] | None) -> bool:
    """Whether ``tc`` counts anyone's time."""
    return bool(tc) and tc.get("kind") in (LIVE, DEADLINE)


def _fresh(tc: Mapping[str, Any]) -> float:
    """The time a seat has for a new decision when its time is reset (deadline) or first set."""
    return float(tc["bank"] if tc["kind"] == LIVE else tc["per_move"])


def start(tc: Mapping[str, Any], seats: Iterable[str], *, awaited: Collection[str], stand_ins: Mapping[str, Any], now: float) -> dict[str, dict]:
    """The clocks of a new game: each of ``seats`` (the people's) with a full bank or deadline,
    running for the ``awaited`` ones. ``{}`` when ``tc`` counts no time."""
    if not timed(tc):
        return {}
    clocks = {s: {"left": _fresh(tc), "since": None, "timeouts": 0, "vacation": float(tc.get("vacation", 0)), "away": None, "auto": False} for s in seats}
    return settle(tc, clocks, awaited=awaited, stand_ins=stand_ins, now=now)


def runs(clock: Mapping[str, Any], seat: str, awaited: Collection[str], stand_ins: Mapping[str, Any]) -> bool:
    """Whether a seat's clock should run: awaited, no stand-in plays it, not on vacation."""
    return seat in awaited and seat not in stand_ins and clock.get("away") is None


def settle(
    tc: Mapping[str, Any],
    clocks: Mapping[str, Mapping[str, Any]],
    *,
    awaited: Collection[str],
    stand_ins: Mapping[str, Any],
    now: float,
    actor: str | None = None,
    fresh: Collection[str] = (),
    paused: bool = False,
) -> dict[str, dict]:
    """The clocks at ``now`` after a change: each running clock is charged the time since it
    started (never below 0), vacations are charged likewise; then the ``actor``'s decision counts
    (live: ``+ increment``; deadline: a fresh ``per_move``), and the clocks of the seats that
    should run now (:func:`runs` with the new ``awaited`` seats and ``stand_ins``) start at
    ``now``. A deadline seat in ``fresh`` (a seat with a new decision: newly awaited, or taken
    back) gets a fresh ``per_move``, any other one resumes its time (a pause, such as a vacation,
    keeps it); a live seat that starts running with an empty bank gets ``increment``. ``actor`` None: no decision was taken (a hand-over, a take-back,
    a vacation). ``paused`` (the table's pause): no clock starts; a deadline seat in ``fresh``
    gets its fresh ``per_move``, stopped. Pure: returns new dictionaries."""
    if not timed(tc):
        return {}
    out: dict[str, dict] = {}
    for seat, old in clocks.items():
        c = dict(old)
        was_running = c.get("since") is not None
        if was_running:
            c["left"] = max(0.0, c["left"] - max(0.0, now - c["since"]))
            c["since"] = None
        if c.get("away") is not None:
            c["vacation"] = max(0.0, c["vacation"] - max(0.0, now - c["away"]))
            c["away"] = now
        if seat == actor:
            c["answered"] = c["left"]  # what it had before this decision's credit (a withdrawal gives it back)
            c["left"] = c["left"] + tc["increment"] if tc["kind"] == LIVE else _fresh(tc)
        if paused:
            if tc["kind"] == DEADLINE and seat in fresh and runs(c, seat, awaited, stand_ins):
                c["left"] = _fresh(tc)
        elif runs(c, seat, awaited, stand_ins):
            if tc["kind"] == DEADLINE and seat in fresh:
                c["left"] = _fresh(tc)
            elif tc["kind"] == LIVE and c["left"] <= 0:
                c["left"] = float(tc["increment"])
            c["since"] = now
        out[seat] = c
    return out


def remaining(clocks: Mapping[str, Mapping[str, Any]], seat: str, now: float) -> float | None:
    """Seconds left on ``seat``'s clock at ``now`` (never below 0); None for a seat without one."""
    c = clocks.get(seat)
    if c is None:
        return None
    if c.get("since") is None:
        return max(0.0, c["left"])
    return max(0.0, c["left"] - max(0.0, now - c["since"]))


def vacation_left(clocks: Mapping[str, Mapping[str, Any]], seat: str, now: float) -> float:
    """Seconds of vacation allowance ``seat`` has left at ``now``."""
    c = clocks.get(seat) or {}
    left = float(c.get("vacation", 0.0))
    if c.get("away") is not None:
        left -= max(0.0, now - c["away"])
    return max(0.0, left)


def next_deadline(clocks: Mapping[str, Mapping[str, Any]]) -> float | None:
    """The earliest moment (unix time) something must happen to these clocks without anyone
    acting: a running clock reaching 0 or a vacation allowance used up; None when nothing is
    due."""
    times = []
    for c in clocks.values():
        if c.get("since") is not None:
            times.append(c["since"] + max(0.0, c["left"]))
        if c.get("away") is not None:
            times.append(c["away"] + max(0.0, c["vacation"]))
    return min(times) if times else None


def due(clocks: Mapping[str, Mapping[str, Any]], now: float) -> list[tuple[str, str]]:
    """``[(seat, "vacation_over" | "timeout")]`` of what is due at ``now``, vacations first (a
    vacation used up restarts the seat's clock, which may then be due itself), in seat order."""
    out = [(s, "vacation_over") for s, c in clocks.items() if c.get("away") is not None and vacation_left(clocks, s, now) <= 0]
    out += [(s, "timeout") for s, c in clocks.items() if c.get("since") is not None and remaining(clocks, s, now) <= 0]
    return out


def set_vacation(clocks: Mapping[str, Mapping[str, Any]], seat: str, on: bool, now: float) -> dict[str, dict]:
    """The clocks with ``seat``'s vacation turned on or off at ``now`` (call :func:`settle` after
    it). Turning it on needs allowance left; raises ValueError otherwise or for a seat without a
    clock."""
    if seat not in clocks:
        raise ValueError("no clock")
    out = {s: dict(c) for s, c in clocks.items()}
    c = out[seat]
    if on and c.get("away") is None:
        if c.get("vacation", 0) <= 0:
            raise ValueError("no vacation left")
        if c.get("since") is not None:  # stop the running clock first: the time until now counts
            c["left"] = max(0.0, c["left"] - max(0.0, now - c["since"]))
            c["since"] = None
        c["away"] = now
    elif not on and c.get("away") is not None:
        c["vacation"] = vacation_left(clocks, seat, now)
        c["away"] = None
        c["back"] = now
    return out


def timed_out(tc: Mapping[str, Any], clocks: Mapping[str, Mapping[str, Any]], seat: str) -> dict[str, dict]:
    """The clocks after ``seat``'s time ran out and its stand-in took it (call :func:`settle`
    after it): the clock stopped at 0, one more time-out counted, ``owed`` set (the stand-in owes
    the decision that timed out), ``auto`` while the time-outs are below ``max_timeouts`` (the
    stand-in gives the seat back after that move)."""
    out = {s: dict(c) for s, c in clocks.items()}
    c = out[seat]
    c.update(left=0.0, since=None, timeouts=int(c.get("timeouts", 0)) + 1, owed=True)
    c["auto"] = c["timeouts"] < int(tc.get("max_timeouts", MAX_TIMEOUTS))
    return out


class Owed(ValueError):
    """The seat's time ran out and its stand-in has not yet made the move it owes."""


def taken_back(clocks: Mapping[str, Mapping[str, Any]], seat: str) -> tuple[dict[str, dict], bool]:
    """``(clocks, renew)`` when ``seat``'s player takes it back from its stand-in (call
    :func:`settle` after it, with ``fresh={seat}`` when ``renew``): no ``auto`` hand-back any
    more, and ``renew`` whether the stand-in moved in the seat since its clock last ran (its
    decision is then a new one, with a new decision's time; else the clock resumes where it
    stopped: taking a seat back never buys time). Raises :class:`Owed` while the stand-in owes the
    move of a time-out (:func:`timed_out`): the seat is taken back after that move, so a time-out
    cannot be turned into a fresh clock however often the player comes back."""
    c = clocks.get(seat)
    if c is None:
        return {s: dict(x) for s, x in clocks.items()}, False
    if c.get("owed"):
        raise Owed(seat)
    out = {s: dict(x) for s, x in clocks.items()}
    renew = bool(out[seat].pop("renew", False))
    out[seat]["auto"] = False
    return out, renew


def clock_view(tc: Mapping[str, Any], clocks: Mapping[str, Mapping[str, Any]], now: float) -> dict[str, dict]:
    """What every viewer is told of the clocks: ``{seat: {"remaining": seconds at now (one
    decimal), "running": bool, "timeouts": int, "vacation": seconds of allowance left,
    "on_vacation": bool}}``."""
    if not timed(tc):
        return {}
    return {
        s: {
            "remaining": round(remaining(clocks, s, now) or 0.0, 1),
            "running": c.get("since") is not None,
            "timeouts": int(c.get("timeouts", 0)),
            "vacation": round(vacation_left(clocks, s, now), 1),
            "on_vacation": c.get("away") is not None or bool(c.get("held")),
        }
        for s, c in clocks.items()
    }


def after_action(
    tc: Mapping[str, Any],
    clocks: Mapping[str, Mapping[str, Any]],
    stand_ins: Mapping[str, Any],
    *,
    before: Collection[str],
    after: Collection[str],
    actor: str,
    person: bool,
    now: float,
    rescue: float | None = None,
    withdrawal: bool = False,
    paused: bool = False,
) -> tuple[dict[str, dict], dict[str, Any], float | None]:
    """``(clocks, stand_ins, deadline)`` after ``actor`` took a decision at ``now``: ``before``
    and ``after`` are the awaited seats before and after it, ``person`` whether a person took it
    (else a bot or a stand-in: no increment, no reset). A stand-in that took the seat because its
    time ran out (``auto``) gives it back after its move, and so it does when the player acts
    meanwhile; the seat then has a new decision. Any move in the seat settles what a time-out
    owed (``owed``). A ``withdrawal`` (the actor took back a face-down answer, so it must answer
    again) is no decision: the seat gets back the time it had before that answer's credit (no
    increment, no fresh deadline) and its clock runs again from ``now``. ``deadline``: :func:`next_deadline`, or, with
    ``rescue`` seconds, at the latest ``now + rescue`` while a seat without a running clock
    (a bot's, a stand-in's) is awaited (the scheduler then makes that overdue move, so a bot move
    lost with a stopped process is made anyway). ``paused``: the table's pause is on (no clock
    starts, :func:`settle`). Untimed ``tc``: ``({}, stand_ins, None)``."""
    if not timed(tc):
        return {}, dict(stand_ins), None
    clocks = {s: dict(c) for s, c in clocks.items()}
    stand_ins = dict(stand_ins)
    fresh = set(after) - set(before)
    c = clocks.get(actor)
    if withdrawal:
        if c is not None and "answered" in c:
            c["left"] = c.pop("answered")
        fresh.discard(actor)
        new = settle(tc, clocks, awaited=after, stand_ins=stand_ins, now=now, fresh=fresh, paused=paused)
        return new, stand_ins, with_rescue(new, stand_ins, after, now, rescue)
    if c is not None:
        c.pop("owed", None)  # the decision that timed out is taken
        if c.get("auto") and actor in stand_ins:
            del stand_ins[actor]
            c["auto"] = False
            fresh.add(actor)
        if actor in stand_ins:
            c["renew"] = True  # a stand-in keeps the seat: its next decision is a new one
    new = settle(tc, clocks, awaited=after, stand_ins=stand_ins, now=now, actor=actor if person else None, fresh=fresh, paused=paused)
    return new, stand_ins, with_rescue(new, stand_ins, after, now, rescue)


def with_rescue(clocks: Mapping[str, Mapping[str, Any]], stand_ins: Mapping[str, Any], awaited: Collection[str], now: float, rescue: float | None) -> float | None:
    """:func:`next_deadline`, brought forward to ``now + rescue`` when an awaited seat is played
    by a bot (no clock) or a stand-in (``rescue`` None: not brought forward)."""
    deadline = next_deadline(clocks)
    if rescue is not None and any(s not in clocks or s in stand_ins for s in awaited):
        deadline = now + rescue if deadline is None else min(deadline, now + rescue)
    return deadline


def pause(clocks: Mapping[str, Mapping[str, Any]], now: float) -> dict[str, dict]:
    """The clocks when the table's pause starts at ``now``: every running clock charged and
    stopped, every vacation in progress charged and ``held`` (it stays on, unspent, until
    :func:`resume`). Call :func:`settle` with ``paused`` while the pause lasts."""
    out = {}
    for seat, old in clocks.items():
        c = dict(old)
        if c.get("since") is not None:
            c["left"] = max(0.0, c["left"] - max(0.0, now - c["since"]))
            c["since"] = None
        if c.get("away") is not None:
            c["vacation"] = max(0.0, c["vacation"] - max(0.0, now - c["away"]))
            c["away"], c["held"] = None, True
        out[seat] = c
    return out


def resume(
    tc: Mapping[str, Any], clocks: Mapping[str, Mapping[str, Any]], *, awaited: Collection[str], stand_ins: Mapping[str, Any], now: float
) -> dict[str, dict]:
    """The clocks when the table's pause ends at ``now``: held vacations go on from ``now``, and
    the clocks that should run (:func:`runs`) start where they stopped. The pause cost nobody
    any time."""
    if not timed(tc):
        return {}
    out = {}
    for seat, old in clocks.items():
        c = dict(old)
        if c.pop("held", False):
            c["away"] = now
        out[seat] = c
    return settle(tc, out, awaited=awaited, stand_ins=stand_ins, now=now)


def extension(tc: Mapping[str, Any], live_seconds: float) -> float:
    """The time the table's vote to extend adds to every clock: ``live_seconds`` to a live clock,
    one ``per_move`` to a correspondence deadline; 0 without time control."""
    if not timed(tc):
        return 0.0
    return float(live_seconds) if tc["kind"] == LIVE else float(tc["per_move"])


def extend(clocks: Mapping[str, Mapping[str, Any]], seconds: float) -> dict[str, dict]:
    """Every seat's clock with ``seconds`` more (a running clock keeps running; a clock at 0 that
    a stand-in plays gets the time for when it is taken back)."""
    return {s: {**c, "left": float(c["left"]) + seconds} for s, c in clocks.items()}
