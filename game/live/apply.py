"""The locked write of a move: an action applied to a game under the row's lock, written, and told.

:func:`act` (people) and :func:`bot_act` (bots) share :func:`_apply_locked`; the site's notes (a
time-out, a hand-over to a stand-in bot, a take-back, a vacation: :mod:`game.live.notes`) are
written by :func:`note_locked` the same way, as entries of the log that the engine only records.
In each, inside one transaction the game row is locked (``select_for_update``; on SQLite the
``IMMEDIATE`` transaction mode gives one writer at a time), the state is loaded
(:mod:`game.live.snapshots`), the ruleset applies the action (or records the note), it is
appended to the log and the version bumped; after
the commit :func:`game.live.moves.committed` tells the game's group of the new version and the
site's followers (bots among them) of the commit. An
:class:`~game.rules.IllegalAction` leaves everything unchanged. What both writes of an act share
(this one and the optimistic one, :mod:`game.live.optimistic`) is :mod:`game.live.moves`. Because the lock serialises
writers across every server process, the last of several simultaneous submissions is applied by
exactly one transaction, which is the one whose ``apply`` reveals them.

What each viewer is then sent is :mod:`game.live.payloads`; seats and stand-ins are
:mod:`game.live.seats` and :mod:`game.live.stand_ins`; chat is :mod:`game.live.chat`.
"""

from __future__ import annotations

import secrets
import time
from functools import lru_cache
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from game.models import Action, Game, Lobby, Seat
from game.rules import IllegalAction
from game.rules.base import SITE, bot_levels
from game.rules.base import note as engine_note

from . import bot_choice, bot_pool, clocks, optimistic, rows, signals, snapshots
from .moves import (
    as_datetime,
    awaited_since,
    check_version,
    client_action,
    clock_hook,
    committed,
    decisions_since,
    insert_action,
    is_withdrawal,
    rescue_after,
    told,
)
from .seats import bot_seats

# --- creating games ------------------------------------------------------------------------------
def create_game(lobby: Lobby) -> Game:
    """The game of a lobby being started (call inside the start transaction): a server-drawn
    63-bit seed, version 0, and a snapshot of the initial state."""
    rules = lobby.rules
    seed = secrets.randbits(63)
    state = rules.new_game(lobby.players, seed, lobby.options)
    now = time.time()
    tc = clocks.parse(lobby.time_control)
    awaited = {d.actor for d in rules.pending(state)}
    people = Seat.objects.filter(lobby=lobby, bot="").exclude(house="").values_list("house", flat=True)
    started = clocks.start(tc, sorted(people), awaited=awaited, stand_ins={}, now=now)
    game = Game.objects.create(
        lobby=lobby,
        ruleset=lobby.ruleset,
        players=lobby.players,
        options=dict(lobby.options),
        seed=seed,
        snapshot=snapshots.dump(state),
        snapshot_version=0,
        snapshot_key=snapshots.code_key(lobby.ruleset),
        awaited_since={d.actor: now for d in rules.pending(state)},
        decisions_since={},
        time_control=tc,
        clocks=started,
        deadline=as_datetime(clocks.with_rescue(started, {}, awaited, now, rescue_after()) if clocks.timed(tc) else None),
    )
    transaction.on_commit(lambda: snapshots.CACHE.put(game.pk, 0, state))
    transaction.on_commit(lambda: told(game))  # its bots are scheduled by the signal's receiver
    return game


# --- applying actions ------------------------------------------------------------------------------
def locked_game(game_id: int) -> Game:
    """The game row, locked. The pickled snapshot stays in the database unless a replay needs it
    (a deferred field is loaded on first access): the state almost always comes from this
    process's cache."""
    game = Game.objects.select_for_update().defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise IllegalAction("game.not_found", "This game does not exist.", game=game_id)
    return game


def _locked_seat(game_id: int, user) -> tuple[Game, str | None]:
    """The game row locked (as :func:`locked_game`) and the seat ``user`` plays in it (as
    :func:`seat_of`; None for a spectator or a stranger), read by one query: an act's first
    step, on the hot path of live play (an ORM query costs about 1 ms of Python on 2 slow cores,
    a round trip to PostgreSQL on loopback about 0.2 ms). Raises IllegalAction ``game.not_found``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return locked_game(game_id), None
    rows = list(Game.objects.raw(_lock_seat_sql(connection.vendor), [user.pk, game_id]))
    if not rows:
        raise IllegalAction("game.not_found", "This game does not exist.", game=game_id)
    return rows[0], rows[0].seat_house or None


@lru_cache(maxsize=None)
def _lock_seat_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    cols = ", ".join(f"g.{q(f.column)}" for f in Game._meta.concrete_fields if f.attname != "snapshot")
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""  # SQLite: IMMEDIATE transactions
    return (
        f"SELECT {cols}, (SELECT s.{q('house')} FROM {q(Seat._meta.db_table)} s WHERE s.{q('lobby_id')} = g.{q('lobby_id')}"
        f" AND s.{q('user_id')} = %s AND s.{q('bot')} = '' LIMIT 1) AS seat_house"
        f" FROM {q(Game._meta.db_table)} g WHERE g.{q('id')} = %s{lock}"
    )


def _write_action(game: Game, actor: str, json_action: Any, user, fields: list[str]) -> None:
    """Append action number ``game.version`` to the log and store ``fields`` of ``game`` (and
    ``updated_at``): plain SQL, the hot path's writes (the ORM's ``create`` and ``save`` would
    add about 1 ms of Python each), one statement on PostgreSQL. Values are prepared by their
    model fields."""
    q = connection.ops.quote_name
    now = Game._meta.get_field("updated_at").get_db_prep_save(timezone.now(), connection)
    action = Action._meta.get_field("action").get_db_prep_save(json_action, connection)
    columns = [Game._meta.get_field(f).column for f in fields]
    values = [Game._meta.get_field(f).get_db_prep_save(getattr(game, f), connection) for f in fields]
    insert = f"{insert_action()} VALUES (%s, %s, %s, %s, %s, %s)"
    insert_params = [game.pk, game.version, actor, action, getattr(user, "pk", None), now]
    sets = ", ".join(f"{q(col)} = %s" for col in [*columns, "updated_at"])
    update = f"UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q('id')} = %s"
    update_params = [*values, now, game.pk]
    with connection.cursor() as c:
        if connection.vendor == "postgresql":  # one round trip: a data-modifying WITH
            c.execute(f"WITH appended AS ({insert}) {update}", insert_params + update_params)
        else:
            c.execute(insert, insert_params)
            c.execute(update, update_params)


def _apply_locked(game: Game, actor: str, data: Any, user, version: int | None = None, *, by_bot: bool = False) -> int:
    """Apply ``data`` for ``actor`` to the locked ``game``; returns the new version. ``data`` is a
    client's JSON action (checked by :func:`client_action`), or with ``by_bot`` a bot's choice
    (a typed action or its JSON object)."""
    rules = game.rules
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    state = snapshots.state_at(game)
    check_version(game, rules, state, actor, version)
    if not by_bot:
        action, json_action = client_action(rules, data), data
    elif isinstance(data, dict):
        action, json_action = rules.parse_action(data), data
    else:
        action, json_action = data, bot_choice.action_to_json(rules, data)
    new = rules.apply(state, actor, action)
    game.version += 1
    before = game.awaited_since or {}
    game.awaited_since = awaited_since(rules, new, actor, before)
    game.decisions_since = decisions_since(rules, state, new, game.version, game.decisions_since)
    fields = ["version", "awaited_since", "decisions_since"]
    if clocks.timed(game.time_control):
        fields += clock_hook(game, before, actor, user is not None, withdrawal=not by_bot and is_withdrawal(data))
    result = rules.result(new)
    if result is not None:
        game.status, game.result, game.finished_at = Game.Status.FINISHED, result, timezone.now()
        fields += ["status", "result", "finished_at"]
        Lobby.objects.filter(pk=game.lobby_id).update(status=Lobby.Status.FINISHED)
    if game.version % snapshots.snapshot_every() == 0:
        game.snapshot, game.snapshot_version = snapshots.dump(new), game.version
        game.snapshot_key = snapshots.code_key(game.ruleset)
        fields += ["snapshot", "snapshot_version", "snapshot_key"]
    _write_action(game, actor, json_action, user, fields)
    if result is not None:  # ratings and the like, in this transaction (game.live.signals)
        signals.game_finished.send(sender=Game, game=game)
    transaction.on_commit(lambda: committed(game, new))
    return game.version


def note_locked(game: Game, entries: list[dict[str, Any]], user=None, fields: list[str] | tuple = ()) -> int:
    """Append the site's notes ``entries`` (:func:`game.live.notes.entry`) to the locked, running
    ``game``'s log, one version each, and write ``fields`` of ``game`` with the last (the change
    of seats or clocks the notes record, which the caller has made on ``game``); call inside the
    transaction that locked the row. Returns the new version.

    Each note is an :class:`~game.models.Action` row of actor :data:`~game.rules.base.SITE`
    (``user``: the person whose request made it, None for the scheduler), folded by the engine's
    :func:`~game.rules.base.note`: the state gains one event, nothing else, so the pending
    decisions, ``awaited_since`` and ``decisions_since`` stay as they are (an act answered at
    the version before a note still counts). After the commit the new version is pushed like an
    action's (:func:`game.live.moves.committed`: its ``state`` with the seat status, the bots scheduled, the
    badges and mails told). The row's unique ``(game, number)`` and the lock make each note
    happen once: a second writer of the same version fails, and one that waited for the lock
    finds the clocks or seats already changed. A note that ends the game (the table's vote,
    :data:`game.rules.base.ENDS_GAME`) finishes it as a last action does: the row's status,
    result and finish time, the lobby's status, :data:`game.live.signals.game_finished`; it must
    be the last of ``entries``. Raises IllegalAction ``game.over``."""
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    if not entries:
        raise ValueError("no note to write")
    rules = game.rules
    new = snapshots.state_at(game)
    ended = None
    for i, entry in enumerate(entries):
        if ended is not None:
            raise ValueError("a note after the one that ended the game")
        new = engine_note(rules, new, entry)
        game.version += 1
        write = ["version"]
        ended = rules.result(new)
        if ended is not None:  # the table's vote to end the game (game.rules.base.ENDS_GAME)
            game.status, game.result, game.finished_at = Game.Status.FINISHED, ended, timezone.now()
            game.deadline = None
            write += ["status", "result", "finished_at", "deadline"]
            Lobby.objects.filter(pk=game.lobby_id).update(status=Lobby.Status.FINISHED)
        if game.version % snapshots.snapshot_every() == 0:
            game.snapshot, game.snapshot_version = snapshots.dump(new), game.version
            game.snapshot_key = snapshots.code_key(game.ruleset)
            write += ["snapshot", "snapshot_version", "snapshot_key"]
        if i == len(entries) - 1:
            write += [f for f in fields if f not in write]
        _write_action(game, SITE, entry, user, write)
    if ended is not None:  # ratings and the like, in this transaction (game.live.signals)
        signals.game_finished.send(sender=Game, game=game)
    transaction.on_commit(lambda: committed(game, new))
    return game.version


def act(game_id: int, user, data: Any, version: int | None = None, *, optimistic_first: bool = True) -> int:
    """``user`` takes the action ``data`` (its JSON object) in their seat; returns the new version.

    ``version`` is the game version the client decided at (None: no check). Raises
    IllegalAction: ``game.not_found``, ``act.not_a_player`` (spectators and strangers),
    ``version.stale`` (:class:`~game.live.moves.StaleVersion`), ``game.over``, ``action.malformed`` (``data`` is
    not a JSON object, or too deep or large: :func:`client_action`) and every rule's own code.
    Nothing is written when it raises. On PostgreSQL an action whose game this process wrote
    last is written in one statement (:func:`game.live.optimistic.act`); otherwise, and whenever
    that finds the row changed, under the row's lock (``optimistic_first`` False: under the lock
    at once, for an act whose optimistic write was already tried, :mod:`game.live.loopwrite`).
    """
    if optimistic_first:
        v = optimistic.act(game_id, user, data, version)
        if v is not None:
            return v
    with transaction.atomic():
        game, actor = _locked_seat(game_id, user)
        if actor is None:
            raise IllegalAction("act.not_a_player", "You do not have a seat in this game.")
        v = _apply_locked(game, actor, data, user, version)
        uid = user.pk
        transaction.on_commit(lambda: rows.remember_seat(game_id, uid, actor))
        return v


def bot_act(game_id: int, rescue: bool = False) -> int | None:
    """One action by a bot whose decision the game awaits (the first in pending order), or by a
    stand-in; returns the new version, or None when no bot is awaited, the game is over, or
    another write came first.

    The bot thinks without the game's lock (a strong bot for seconds, in a worker process:
    :func:`game.live.bot_pool.think`) on the state at the version it read; then the row is locked
    and its action applied only if the game is still at that version. Otherwise nothing is
    written: the write that came first scheduled the bots again (and the scheduler's rescue
    retries an overdue bot). A stand-in plays ``strong`` when the game's budget allows
    (:func:`game.live.bot_pool.stand_in_level`).

    ``rescue`` (the scheduler's, for a bot move overdue by ``GAME_BOT_RESCUE``) answers at once:
    a search of that move under way in this process is left to play it (None), else a pooled
    level plays ``basic``, so the scheduler's other deadlines never wait for a search."""
    planned = _bot_plan(game_id, rescue)
    if planned is None:
        return None
    version, actor, action = planned
    with transaction.atomic():
        try:
            game = locked_game(game_id)
        except IllegalAction:
            return None
        if game.status != Game.Status.RUNNING or game.version != version:
            return None
        return _apply_locked(game, actor, action, None, by_bot=True)


def _bot_plan(game_id: int, rescue: bool = False) -> tuple[int, str, Any] | None:
    """``(version, seat, action)``: what the awaited bot of ``game_id`` plays at the game's
    current version (thought without the lock), or None when no bot is awaited."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    levels = bot_seats(game)
    if not levels:
        return None
    rules = game.rules
    state = snapshots.state_at(game)
    actor = next((d.actor for d in rules.pending(state) if d.actor in levels), None)
    if actor is None:
        return None
    budget = bot_pool.budget_for(game, actor)
    level = levels[actor]
    if actor in (game.stand_ins or {}):
        level = bot_pool.stand_in_level(bot_levels(rules), budget)
    key = (game_id, game.version)
    if rescue and level in bot_pool.POOLED:
        if bot_pool.in_flight(key):
            return None
        level = "basic"
    action = bot_pool.think(rules, state, actor, level, (game.seed + game.version) % (2**63), budget, key=key)
    return game.version, actor, action
