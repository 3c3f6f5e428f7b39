"""The table's votes and pause, as pure arithmetic on the game row's ``Game.table``.

No Django, no I/O and no clock: every function takes what it needs (``now`` in unix seconds) and
returns new values; :mod:`game.live.votes` locks the row, calls these and writes the notes.

``Game.table`` (``{}`` for a game that never voted) holds

* ``vote``: the open vote, at most one: ``{"n": its number, "kind", "by": the seat that asked,
  "target": a seat (replace: whose player; swap: the other house) or absent, "minutes": a pause's
  length or absent, "people": [the seats a person held when it was asked: its electorate],
  "yes": [seats], "no": [seats], "until": unix time it expires}``;
* ``pause``: the pause in force, ``{"by": seat, "since": t, "until": t}``;
* ``n``: the number of the last vote; ``extended``: the clocks were extended (once a game);
* ``rest``: ``{seat: unix time}`` of each seat's last proposal that failed (a seat may not ask
  again within ``GAME_VOTE_REST`` seconds of that: votes cannot fill the log);
* ``vacant``: seats whose player the table replaced, open for a new person; ``replaced``: every
  seat ever replaced (the game is then unrated); ``out``: the user ids replaced (they do not come
  back into the seat they lost).

**Who votes** (:func:`voters`). Only people: bots' seats never vote; a seat a stand-in bot plays
for now need not vote (its bot abstains), yet its person may still vote, and a "no" counts. A
vote to replace a player is not that player's to vote on. So ``required`` is every person's seat
but the replaced one, less the stand-ins' that have not voted; both houses of a swap must agree
themselves, stand-in or not.

**When a vote passes** (:func:`outcome`): every vote is unanimous among those who vote. Each kind
changes something for every seat at the table, not only for the one who asks: a pause or an
extension moves time, which is a resource of the game (a player ahead on the clock loses that
lead); the end of the game is everyone's result; a swap changes who faces whom; and a
replacement, decided without its player, must not be a majority's way to push someone out. A
vote fails at the first "no" of a voter and changes nothing then; it expires, unchanged too, at
``until`` unless it has passed by then.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

PAUSE, EXTEND, END, REPLACE, SWAP = "pause", "extend", "end", "replace", "swap"
KINDS = (PAUSE, EXTEND, END, REPLACE, SWAP)
#: the kinds that name a seat (``target``)
TARGETED = (REPLACE, SWAP)


def vote(table: Mapping[str, Any]) -> dict[str, Any] | None:
    """The open vote, or None."""
    v = (table or {}).get("vote")
    return v if isinstance(v, dict) else None


def paused(table: Mapping[str, Any] | None) -> bool:
    """Whether the table's pause is in force."""
    return isinstance((table or {}).get("pause"), dict)


def due_at(table: Mapping[str, Any] | None) -> float | None:
    """The earliest moment something of the table falls due without anyone acting: the open vote
    expires, the pause ends; None when nothing is due."""
    times = []
    v = vote(table or {})
    if v is not None:
        times.append(float(v["until"]))
    if paused(table):
        times.append(float(table["pause"]["until"]))
    return min(times) if times else None


def earliest(*times: float | None) -> float | None:
    """The earliest of ``times`` that are not None (None if all are)."""
    known = [t for t in times if t is not None]
    return min(known) if known else None


def opened(
    table: Mapping[str, Any], kind: str, by: str, people: Collection[str], *, now: float, lasts: float, target: str | None = None, minutes: int | None = None
) -> dict[str, Any]:
    """``table`` with a new vote of ``kind`` asked by the seat ``by`` at ``now``, expiring
    ``lasts`` seconds later, among ``people`` (the seats a person holds now); the asker votes yes
    (unless it is the seat to replace, which does not vote)."""
    out = dict(table or {})
    n = int(out.get("n", 0)) + 1
    v: dict[str, Any] = {
        "n": n, "kind": kind, "by": by, "people": sorted(people),
        "yes": [] if kind == REPLACE and target == by else [by], "no": [], "until": now + lasts,
    }
    if target is not None:
        v["target"] = target
    if minutes is not None:
        v["minutes"] = int(minutes)
    out["n"], out["vote"] = n, v
    return out


def voters(v: Mapping[str, Any], stand_ins: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    """``(eligible, required)`` of the vote ``v``: the seats that may vote (its ``people``, the
    seats a person held when it was asked; less the seat to replace), and those whose yes it needs
    now (the eligible less the seats a stand-in plays that have not voted; both houses of a swap
    always)."""
    eligible = set(v.get("people", ()))
    if v["kind"] == REPLACE:
        eligible.discard(v.get("target"))
    voted = set(v.get("yes", ())) | set(v.get("no", ()))
    required = {s for s in eligible if s not in stand_ins or s in voted}
    if v["kind"] == SWAP:
        required |= {v["by"], v.get("target")} & eligible
    return eligible, required


def outcome(v: Mapping[str, Any], stand_ins: Mapping[str, Any]) -> str | None:
    """``"fail"`` once a voter said no, ``"pass"`` once every required voter said yes, else None
    (still open)."""
    eligible, required = voters(v, stand_ins)
    if set(v.get("no", ())) & eligible:
        return "fail"
    if required <= set(v.get("yes", ())):
        return "pass"
    return None


def cast(v: Mapping[str, Any], seat: str, yes: bool) -> dict[str, Any]:
    """The vote ``v`` with ``seat``'s ballot."""
    out = dict(v)
    key = "yes" if yes else "no"
    out[key] = sorted({*v.get(key, ()), seat})
    return out


def closed(table: Mapping[str, Any], *, failed_by: str | None = None, now: float | None = None) -> dict[str, Any]:
    """``table`` without its open vote; ``failed_by`` (the asker of a vote that failed or
    expired) rests from asking from ``now`` on."""
    out = {k: v for k, v in (table or {}).items() if k != "vote"}
    if failed_by is not None and now is not None:
        out["rest"] = {**out.get("rest", {}), failed_by: now}
    return out


def resting(table: Mapping[str, Any], seat: str, now: float, rest: float) -> float:
    """Seconds ``seat`` must still wait before asking for a vote again (0: it may ask)."""
    last = (table or {}).get("rest", {}).get(seat)
    return 0.0 if last is None else max(0.0, last + rest - now)


def public(table: Mapping[str, Any] | None, stand_ins: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What every viewer is told of the table (the seat status's ``table``): the open vote (with
    who may vote, who said yes and no, whose yes it still needs, when it expires), the pause,
    whether the clocks were extended, the seats open for a new player."""
    table = table or {}
    out: dict[str, Any] = {"vote": None, "pause": None, "extended": bool(table.get("extended")), "vacant": list(table.get("vacant", ()))}
    v = vote(table)
    if v is not None:
        shown = {k: v[k] for k in ("n", "kind", "by", "target", "minutes", "yes", "no", "until") if k in v}
        eligible, required = voters(v, stand_ins or {})
        shown["voters"] = sorted(eligible)
        shown["awaiting"] = sorted(required - set(v.get("yes", ())))
        out["vote"] = shown
    if paused(table):
        out["pause"] = dict(table["pause"])
    return out
