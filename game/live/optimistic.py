"""The optimistic write of an act on PostgreSQL: when this process committed a game's last
version (or read it when a socket was admitted), its next act is applied to the cached state and
written by one compare-and-swap statement in autocommit (:func:`act`), with no lock and one round
trip; any doubt sends it to the locked path (:func:`game.live.apply.act`). What it remembers of
rows and seats is :mod:`game.live.rows`; what it shares with the locked path is
:mod:`game.live.moves`.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils import timezone

from game.models import Action, Game, Seat
from game.rules import IllegalAction

from . import clocks, moves, rows, snapshots

class Plan:
    """An act made ready for its compare-and-swap statement (:func:`plan`): ``sql`` and ``params``
    for one execution in autocommit (any driver's cursor with ``%s`` placeholders: Django's in a
    writer thread, :mod:`game.live.loopwrite` on the event loop), then :meth:`written` with what
    the statement's row count said."""

    __slots__ = ("game", "new", "user_id", "sql", "params")

    def __init__(self, game: Game, new: Any, user_id: int, sql: str, params: list) -> None:
        self.game, self.new, self.user_id, self.sql, self.params = game, new, user_id, sql, params

    def written(self, ok: bool) -> int | None:
        """After the statement: with ``ok`` (one row) the commit's follow-up
        (:func:`game.live.moves.committed`: state cached, row remembered, group and followers
        told) and the new version; else the row and seat are forgotten and None sends the act to
        the locked path."""
        game = self.game
        if not ok:
            rows.doubt(game.pk, self.user_id)
            return None
        moves.committed(game, self.new)  # committed already: no transaction is open
        return game.version


def act(game_id: int, user, data: Any, version: int | None) -> int | None:
    """:func:`plan` written by Django's connection in this thread: the new version, or None to
    take the locked path (as :meth:`Plan.written`)."""
    ready = plan(game_id, user, data, version)
    if ready is None:
        return None
    with connection.cursor() as c:
        c.execute(ready.sql, ready.params)
        ok = c.rowcount == 1
    return ready.written(ok)


def plan(game_id: int, user, data: Any, version: int | None, db=connection) -> Plan | None:
    """The action applied to this process's copy of the game, to be written by one compare-and-swap
    statement (a :class:`Plan`; no I/O here): the row's ``UPDATE`` only where version, status, stand-ins and waiting times are
    still those of the copy and the user still plays the remembered seat (a moderator may have
    given it to someone else, in any process), with the action's ``INSERT`` on the same row (a
    data-modifying ``WITH``), committed alone. ``db`` (Django's connection object of this thread
    by default) only quotes names and prepares values. Returns the plan, or None to take the locked
    path: not on PostgreSQL, no copy or no known seat yet, a refusal (answered there, against the
    row as it is), the end of a game (the rarer write: ratings and mails in its transaction), or a row or seat that
    changed meanwhile (another process's action, a stand-in handed over, a seat given to someone
    else: the seat is then forgotten and read again under the lock). Simultaneous submissions stay
    one at a time: the second ``UPDATE`` waits for the first's commit, then finds the version
    changed and writes nothing."""
    if db.vendor != "postgresql" or db.in_atomic_block or not isinstance(data, dict):
        return None
    row = rows.row(game_id)
    actor = rows.seat(game_id, getattr(user, "pk", None))
    if row is None or actor is None or row["status"] != Game.Status.RUNNING:
        return None
    game = Game(**row)
    state = snapshots.CACHE.get(game_id, game.version)
    if state is None:
        return None
    rules = game.rules
    try:
        moves.check_version(game, rules, state, actor, version)
        new = rules.apply(state, actor, moves.client_action(rules, data))
    except IllegalAction:
        return None
    v = game.version + 1
    if rules.result(new) is not None:
        return None
    awaited = moves.awaited_since(rules, new, actor, game.awaited_since)
    decided = moves.decisions_since(rules, state, new, v, game.decisions_since)
    old_clocks, old_stand_ins = game.clocks, game.stand_ins
    if clocks.timed(game.time_control):
        game.awaited_since, before = awaited, game.awaited_since or {}
        if moves.clock_hook(game, before, actor, True, withdrawal=moves.is_withdrawal(data)) != ["clocks", "deadline"]:
            return None  # a stand-in handed back: the locked path
        game.awaited_since = before
    q, field = db.ops.quote_name, Game._meta.get_field
    prep = lambda f, value: field(f).get_db_prep_save(value, db)  # noqa: E731
    stamp = prep("updated_at", timezone.now())
    games, seats = q(Game._meta.db_table), q(Seat._meta.db_table)
    # a snapshot due is written by the same statement (pickling a late 6-player state: about
    # 0.4 ms and 44 KB), not by the locked path, whose thread hop and transaction made every
    # GAME_SNAPSHOT_EVERY-th act the slowest of live play (docs/capacity.md, "Sixteenth round")
    snap = v % snapshots.snapshot_every() == 0
    snap_sql = f" {q('snapshot')} = %s, {q('snapshot_version')} = %s, {q('snapshot_key')} = %s," if snap else ""
    snap_params = [prep("snapshot", snapshots.dump(new)), v, snapshots.code_key(game.ruleset)] if snap else []
    sql = (
        f"WITH g AS (UPDATE {games} SET {q('version')} = %s, {q('awaited_since')} = %s, {q('decisions_since')} = %s,"
        f" {q('clocks')} = %s, {q('deadline')} = %s,{snap_sql}"
        f" {q('updated_at')} = %s WHERE {q('id')} = %s AND {q('version')} = %s AND {q('status')} = %s AND {q('stand_ins')} = %s"
        f" AND {q('awaited_since')} = %s AND {q('clocks')} = %s"
        f" AND EXISTS (SELECT 1 FROM {seats} s WHERE s.{q('lobby_id')} = {games}.{q('lobby_id')}"
        f" AND s.{q('user_id')} = %s AND s.{q('house')} = %s AND s.{q('bot')} = '')"
        f" RETURNING {q('id')})"
        f" {moves.insert_action(db)} SELECT {q('id')}, %s, %s, %s, %s, %s FROM g"
    )
    params = [
        v, prep("awaited_since", awaited), prep("decisions_since", decided),
        prep("clocks", game.clocks), prep("deadline", game.deadline), *snap_params, stamp,
        game_id, game.version, Game.Status.RUNNING, prep("stand_ins", old_stand_ins), prep("awaited_since", game.awaited_since),
        prep("clocks", old_clocks),
        user.pk, actor,
        v, actor, Action._meta.get_field("action").get_db_prep_save(data, db), user.pk, stamp,
    ]
    game.version, game.awaited_since, game.decisions_since = v, awaited, decided
    return Plan(game, new, user.pk, sql, params)
