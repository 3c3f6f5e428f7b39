"""The table's votes: a player asks (:func:`propose`), the others answer (:func:`ballot`), the
pause's asker may end it early (:func:`resume`), and the scheduler fires what falls due
(:func:`fire_due`: a vote's expiry, the pause's end).

Every operation locks the game row (:func:`game.live.apply.locked_game`), works out the new
``Game.table`` with the pure arithmetic of :mod:`game.live.table`, and writes what happened as
the site's notes of the game's log (:mod:`game.live.notes`) through the one apply path
(:func:`game.live.apply.note_locked`): versioned, pushed with the seat status (which carries the
open vote and the pause), told in both languages, replayed. What a passed vote does is done in
the same transaction as its note: a pause stops every clock (:func:`game.live.clocks.pause`), an
extension adds time to every clock, the end of the game is folded by the engine
(:func:`game.rules.base.end_early`, through the note's ``"end": true``), a replaced seat goes to
the stand-in bot and opens for a new person (:mod:`game.live.vacancies` fills it), two houses
swap players. A refusal raises :class:`~game.rules.IllegalAction` and writes nothing.

Two votes resolving at once (the last two ballots from two processes, a ballot and the
scheduler's expiry) are one after the other under the row's lock: the second finds the vote
closed (``vote.gone``) or its expiry already past.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from game.models import Game, Lobby, Seat
from game.rules import IllegalAction
from game.rules import base as contract

from . import bots, clocks, notes, notify, snapshots, table
from .apply import locked_game, note_locked
from .moves import as_datetime, rescue_after
from .seats import STAND_IN_LEVEL, seat_of, seat_status


def vote_time(tc: dict | None) -> float:
    """Seconds a vote stays open: ``GAME_VOTE_TIME`` (default 300), or in a game with
    correspondence deadlines one ``per_move`` (its players look in once a deadline, not once a
    minute)."""
    tc = tc or {}
    if tc.get("kind") == clocks.DEADLINE:
        return max(float(settings.GAME_VOTE_TIME), float(tc.get("per_move", 0)))
    return float(settings.GAME_VOTE_TIME)


def pause_max() -> float:
    """The longest pause in seconds (``GAME_PAUSE_MAX``, default 3600)."""
    return float(settings.GAME_PAUSE_MAX)


def _people(game: Game) -> dict[str, int]:
    """``{seat: user id}`` of the seats a person holds (bots' seats and open seats are nobody's)."""
    rows = Seat.objects.filter(lobby_id=game.lobby_id, bot="").exclude(house="").values_list("house", "user_id")
    return dict(rows)


def _table_of(game_id: int, user, code: str) -> tuple[Game, str]:
    """Inside a transaction: the running game, its row locked, and ``user``'s seat. Raises
    ``game.not_found``, ``game.over``, ``code`` (not a player)."""
    game = locked_game(game_id)
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    me = seat_of(game, user)
    if me is None:
        raise IllegalAction(code, "Only the game's players can vote.")
    return game, me


def _settle(game: Game, now: float) -> list[str]:
    """The clocks settled at ``now`` after a change of the table (a pause started, a stand-in
    took a seat) and the row's next deadline: the clocks' and the table's earliest. Returns the
    fields to write."""
    deadline = None
    fields = ["deadline"]
    if clocks.timed(game.time_control):
        awaited = (game.awaited_since or {}).keys()
        game.clocks = clocks.settle(
            game.time_control, game.clocks or {}, awaited=awaited, stand_ins=game.stand_ins or {}, now=now, paused=table.paused(game.table)
        )
        deadline = clocks.with_rescue(game.clocks, game.stand_ins or {}, awaited, now, rescue_after())
        fields.append("clocks")
    game.deadline = as_datetime(table.earliest(deadline, table.due_at(game.table)))
    return fields


# --- asking --------------------------------------------------------------------------------------
def _check_kind(game: Game, kind: str, me: str, target: Any, minutes: Any, people: dict[str, int]) -> tuple[str | None, int | None]:
    """The vote's ``(target, minutes)`` once its kind's own rules allow it now; raises the
    refusal otherwise."""
    rules = game.rules
    tc = game.time_control or {}
    if kind in (table.PAUSE, table.EXTEND) and not clocks.timed(tc):
        raise IllegalAction("vote.untimed", "This game has no clock.")
    if kind == table.PAUSE:
        if table.paused(game.table):
            raise IllegalAction("vote.paused_already", "The game is paused already.")
        most = max(1, int(pause_max() // 60))
        if minutes is None:
            minutes = min(10, most)
        if type(minutes) is not int or not 1 <= minutes <= most:
            raise IllegalAction("vote.bad_minutes", "A pause lasts a whole number of minutes.", limit=most)
        return None, minutes
    if kind == table.EXTEND and (game.table or {}).get("extended"):
        raise IllegalAction("vote.extended_already", "The clocks were extended once already.")
    if kind == table.END and not contract.can_end_early(rules):
        raise IllegalAction("vote.not_offered", "This game cannot be ended early.")
    if kind in table.TARGETED:
        if not isinstance(target, str) or target not in people or (kind == table.SWAP and target == me):
            raise IllegalAction("vote.bad_seat", "No other player's seat of that name.", seat=str(target)[:20])
        if kind == table.SWAP and not contract.seats_swappable(rules, snapshots.state_at(game)):
            raise IllegalAction("vote.not_now", "Houses can no longer be swapped in this game.")
        return target, None
    return None, None


def propose(game_id: int, user, kind: Any, seat: Any = None, minutes: Any = None) -> dict[str, Any]:
    """``user`` (a player) asks the table for a vote of ``kind`` (:data:`game.live.table.KINDS`;
    ``seat``: the player to replace, or the house to swap with; ``minutes``: a pause's length,
    default 10, at most ``GAME_PAUSE_MAX``); they vote yes themselves. Returns the new seat
    status. Written as the note ``vote_open`` (and, when nobody else need answer, the vote's
    outcome at once). Raises IllegalAction, writing nothing: ``vote.bad_kind``,
    ``game.not_found``, ``game.over``, ``vote.not_a_player``, ``vote.open_already`` (one vote at
    a time), ``vote.too_soon`` (the player's last vote failed less than ``GAME_VOTE_REST`` seconds
    ago; ``params.wait``), ``vote.untimed``, ``vote.paused_already``, ``vote.bad_minutes``,
    ``vote.extended_already``, ``vote.not_offered``, ``vote.bad_seat``, ``vote.not_now``."""
    if not isinstance(kind, str) or kind not in table.KINDS:
        raise IllegalAction("vote.bad_kind", "No such vote.", kind=str(kind)[:20])
    with transaction.atomic():
        game, me = _table_of(game_id, user, "vote.not_a_player")
        now = time.time()
        if table.vote(game.table) is not None:
            raise IllegalAction("vote.open_already", "Another vote is open.")
        wait = table.resting(game.table, me, now, float(settings.GAME_VOTE_REST))
        if wait > 0:
            raise IllegalAction("vote.too_soon", "Your last vote failed a moment ago.", wait=int(wait) + 1)
        people = _people(game)
        target, minutes = _check_kind(game, kind, me, seat, minutes, people)
        game.table = table.opened(game.table, kind, me, people, now=now, lasts=vote_time(game.time_control), target=target, minutes=minutes)
        v = table.vote(game.table)
        entries = [notes.entry(notes.VOTE_OPEN, me, vote=v["n"], kind=kind, target=target, minutes=minutes)]
        return _write(game, entries, user, now)


def ballot(game_id: int, user, n: Any, yes: Any) -> dict[str, Any]:
    """``user`` answers the open vote number ``n``: yes (``yes`` True) or no. Returns the new seat
    status. Written as the note ``vote_yes`` or ``vote_no``, followed by the vote's outcome when
    it is decided (:func:`game.live.table.outcome`). Raises IllegalAction, writing nothing:
    ``vote.bad_value`` (``yes`` not a boolean), ``game.not_found``, ``game.over``,
    ``vote.not_a_player``, ``vote.gone`` (no open vote of that number: it was decided, or
    another one is open), ``vote.not_voter`` (the player a vote would replace), ``vote.already``
    (one ballot per player and vote)."""
    if not isinstance(yes, bool):
        raise IllegalAction("vote.bad_value", "Answer yes or no.")
    with transaction.atomic():
        game, me = _table_of(game_id, user, "vote.not_a_player")
        v = table.vote(game.table)
        if v is None or type(n) is not int or v["n"] != n:
            raise IllegalAction("vote.gone", "That vote is over.")
        eligible, _ = table.voters(v, game.stand_ins or {})
        if me not in eligible:
            raise IllegalAction("vote.not_voter", "This vote is not yours to answer.")
        if me in v["yes"] or me in v["no"]:
            raise IllegalAction("vote.already", "You have voted already.")
        game.table = {**game.table, "vote": table.cast(v, me, yes)}
        entries = [notes.entry(notes.VOTE_YES if yes else notes.VOTE_NO, me, vote=v["n"], kind=v["kind"])]
        return _write(game, entries, user, time.time())


def resume(game_id: int, user) -> dict[str, Any]:
    """``user``, who asked for the pause in force, ends it early: clocks and deadlines run again.
    Returns the new seat status. Raises IllegalAction, writing nothing: ``game.not_found``,
    ``game.over``, ``vote.not_a_player``, ``vote.not_paused``, ``vote.not_yours`` (another
    player asked for the pause: it lasts the time the table agreed to)."""
    with transaction.atomic():
        game, me = _table_of(game_id, user, "vote.not_a_player")
        if not table.paused(game.table):
            raise IllegalAction("vote.not_paused", "The game is not paused.")
        if game.table["pause"].get("by") != me:
            raise IllegalAction("vote.not_yours", "Only the player who asked for the pause can end it early.")
        now = time.time()
        entries = [_end_pause(game, now, by=me)]
        return _write(game, entries, user, now, decide=False, fields=("awaited_since",))


# --- deciding --------------------------------------------------------------------------------------
def _write(game: Game, entries: list[dict], user, now: float, *, decide: bool = True, fields: tuple = ()) -> dict[str, Any]:
    """Decide the open vote if it is decided now (``decide``), then write ``entries`` and the
    row's changed fields (always ``table``, the clocks and the deadline). Returns the seat status."""
    changed = {"table", *fields}
    v = table.vote(game.table)
    if decide and v is not None:
        result = table.outcome(v, game.stand_ins or {})
        if result is not None:
            more, extra = _decided(game, v, result, now)
            entries, changed = entries + more, changed | set(extra)
    changed |= set(_settle(game, now)) if game.status == Game.Status.RUNNING else set()
    note_locked(game, entries, user, sorted(changed))
    return seat_status(game, now)


def _decided(game: Game, v: dict, result: str, now: float, *, why: str = "refused") -> tuple[list[dict], list[str]]:
    """The notes and changed fields of the vote ``v`` decided as ``result`` (``"pass"`` or
    ``"fail"``) at ``now``: the vote is closed; a failed one (``why``: ``refused``, ``expired``)
    makes its asker rest; a passed one is done."""
    kind, n = v["kind"], v["n"]
    if result == "fail":
        refuser = next(iter(sorted(set(v["no"]))), None) if why == "refused" else None
        game.table = table.closed(game.table, failed_by=v["by"], now=now)
        return [notes.entry(notes.VOTE_FAIL, refuser, vote=n, kind=kind, why=why, target=v.get("target"), minutes=v.get("minutes"))], []
    if kind == table.SWAP and not contract.seats_swappable(game.rules, snapshots.state_at(game)):
        game.table = table.closed(game.table, failed_by=v["by"], now=now)
        return [notes.entry(notes.VOTE_FAIL, None, vote=n, kind=kind, why="not_now", target=v.get("target"))], []
    game.table = table.closed(game.table)
    passed = notes.entry(notes.VOTE_PASS, v["by"], vote=n, kind=kind, target=v.get("target"), minutes=v.get("minutes"))
    fields: list[str] = []
    if kind == table.PAUSE:
        game.table = {**game.table, "pause": {"by": v["by"], "since": now, "until": now + 60 * int(v["minutes"])}}
        game.clocks = clocks.pause(game.clocks or {}, now)
    elif kind == table.EXTEND:
        game.table = {**game.table, "extended": True}
        game.clocks = clocks.extend(game.clocks or {}, clocks.extension(game.time_control, settings.GAME_EXTEND_LIVE))
    elif kind == table.END:
        passed[contract.ENDS_GAME] = True
    elif kind == table.REPLACE:
        fields = _replace(game, v["target"])
    elif kind == table.SWAP:
        _swap(game, v["by"], v["target"])
    return [passed], fields


def _replace(game: Game, seat: str) -> list[str]:
    """The table replaced ``seat``'s player: the stand-in bot plays it from now on, its person
    loses it (their sockets are told and reconnect as spectators), and it opens for a new person
    (:func:`game.live.vacancies.fill_seat`). The game is unrated from now on."""
    row = Seat.objects.filter(lobby_id=game.lobby_id, house=seat, bot="").first()
    t = dict(game.table)
    if row is not None:
        t["out"] = sorted({*t.get("out", ()), row.user_id})
        row.delete()
    t["vacant"] = sorted({*t.get("vacant", ()), seat})
    t["replaced"] = sorted({*t.get("replaced", ()), seat})
    game.table = t
    game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
    gid = game.pk
    transaction.on_commit(lambda: bots.forget_botless(gid))
    notify.viewers_changed(gid)
    lobby_seats_changed(game.lobby_id)  # the lists of seats to take
    return ["stand_ins"]


def lobby_seats_changed(lobby_id: int) -> None:
    """The lobby's seats changed while its game runs: its version moves on and its pages and the
    lists are told after the commit."""
    Lobby.objects.filter(pk=lobby_id).update(version=F("version") + 1)
    notify.lobby_changed(lobby_id, Lobby.objects.filter(pk=lobby_id).values_list("version", flat=True).first() or 0)


def _swap(game: Game, a: str, b: str) -> None:
    """The players of houses ``a`` and ``b`` swap them (each house keeps its clock and its
    place in the game); both players' sockets are told and reconnect as their new viewer."""
    rows = {s.house: s for s in Seat.objects.filter(lobby_id=game.lobby_id, house__in=[a, b], bot="")}
    if set(rows) != {a, b}:
        return
    Seat.objects.filter(pk=rows[a].pk).update(house="")  # the lobby's one house per seat, meanwhile
    Seat.objects.filter(pk=rows[b].pk).update(house=a, random_house=rows[a].random_house)
    Seat.objects.filter(pk=rows[a].pk).update(house=b, random_house=rows[b].random_house)
    notify.viewers_changed(game.pk)


def _end_pause(game: Game, now: float, by: str | None = None) -> dict[str, Any]:
    """End the table's pause at ``now``: the clocks resume where they stopped, and the time it
    lasted counts for nobody's wait (each awaited seat's ``awaited_since`` moves on by it).
    Returns its note; the caller writes ``table``, ``clocks``, ``awaited_since``."""
    pause = game.table["pause"]
    lasted = max(0.0, now - float(pause["since"]))
    game.table = {k: v for k, v in game.table.items() if k != "pause"}
    game.awaited_since = {s: t + lasted for s, t in (game.awaited_since or {}).items()}
    if clocks.timed(game.time_control):
        game.clocks = clocks.resume(game.time_control, game.clocks or {}, awaited=game.awaited_since.keys(), stand_ins=game.stand_ins or {}, now=now)
    return notes.entry(notes.PAUSE_END, by)


def fire_due(game: Game, now: float) -> list[tuple[str, str]]:
    """What of the table is due on the locked, running ``game`` at ``now``, done and written (the
    scheduler calls it under the row's lock, before the clocks): an open vote past its time is
    decided (it passes if every vote it needs is in, else it expires) and a pause past its end
    ends. Returns ``[("", "vote_expired" | "vote_pass" | "pause_end")]`` fired, ``[]`` when
    nothing was due (a second process finds it so)."""
    entries: list[dict] = []
    fields: set[str] = set()
    fired: list[tuple[str, str]] = []
    v = table.vote(game.table)
    if v is not None and float(v["until"]) <= now:
        result = table.outcome(v, game.stand_ins or {}) or "fail"
        more, extra = _decided(game, v, result, now, why="expired")
        entries += more
        fields |= set(extra)
        fired.append(("", "vote_pass" if result == "pass" else "vote_expired"))
    ended = any(e.get(contract.ENDS_GAME) for e in entries)
    if not ended and table.paused(game.table) and float(game.table["pause"]["until"]) <= now:
        entries.append(_end_pause(game, now))
        fields.add("awaited_since")
        fired.append(("", "pause_end"))
    if not entries:
        return []
    if not ended:
        fields |= set(_settle(game, now))
    note_locked(game, entries, None, sorted({"table", *fields}))
    return fired
