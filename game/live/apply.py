"""Live play's one apply path: an action applied to a game, written, and told.

:func:`act` (people) and :func:`bot_act` (bots) share :func:`_apply_locked`; the site's notes (a
time-out, a hand-over to a stand-in bot, a take-back, a vacation: :mod:`game.live.notes`) are
written by :func:`note_locked` the same way, as entries of the log that the engine only records.
In each, inside one transaction the game row is locked (``select_for_update``; on SQLite the
``IMMEDIATE`` transaction mode gives one writer at a time), the state is loaded
(:mod:`game.live.snapshots`), the ruleset applies the action (or records the note), it is
appended to the log and the version bumped; after
the commit the game's group hears of the new version (:func:`game.live.notify.game_changed`). An
:class:`~game.rules.IllegalAction` leaves everything unchanged. Because the lock serialises
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
from game.rules.base import SITE
from game.rules.base import note as engine_note

from . import bots, clocks, notify, optimistic, signals, snapshots
from .seats import bot_seats, seat_status

#: an action's ``version`` may lag the game by at most this many versions (see :func:`act`)
STALE_WINDOW = 50
#: a client's action is a JSON object nested at most this deep (``{"type": "bid"}`` is 1 deep,
#: ``{"moves": [{"units": ["knight"]}]}`` 4; the rulesets' deepest actions are 4)
ACTION_MAX_DEPTH = 16
#: ... holding at most this many values in all (each object member and list item counts once)
ACTION_MAX_VALUES = 2048


class StaleVersion(IllegalAction):
    """The client answered a decision that has changed since the version it names."""

    def __init__(self, version: int, current: int) -> None:
        super().__init__("version.stale", "The game has moved on; resync.", version=version, current=current)


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
        deadline=_when(clocks.with_rescue(started, {}, awaited, now, rescue_after()) if clocks.timed(tc) else None),
    )
    transaction.on_commit(lambda: snapshots.CACHE.put(game.pk, 0, state))
    transaction.on_commit(lambda: bots.schedule_bots(game.pk))
    transaction.on_commit(lambda: _told(game))
    return game


# --- applying actions ------------------------------------------------------------------------------
def _locked(game_id: int) -> Game:
    """The game row, locked. The pickled snapshot stays in the database unless a replay needs it
    (a deferred field is loaded on first access): the state almost always comes from this
    process's cache."""
    game = Game.objects.select_for_update().defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise IllegalAction("game.not_found", "This game does not exist.", game=game_id)
    return game


def _locked_seat(game_id: int, user) -> tuple[Game, str | None]:
    """The game row locked (as :func:`_locked`) and the seat ``user`` plays in it (as
    :func:`seat_of`; None for a spectator or a stranger), read by one query: an act's first
    step, on the hot path of live play (an ORM query costs about 1 ms of Python on 2 slow cores,
    a round trip to PostgreSQL on loopback about 0.2 ms). Raises IllegalAction ``game.not_found``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return _locked(game_id), None
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


def _insert_action(db=connection) -> str:
    """``INSERT INTO`` the action log with its columns: game, number, actor, action, user, time
    (names quoted by ``db``, Django's connection object of this thread by default)."""
    q = db.ops.quote_name
    cols = ", ".join(q(c) for c in ("game_id", "number", "actor", "action", "user_id", "created_at"))
    return f"INSERT INTO {q(Action._meta.db_table)} ({cols})"


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
    insert = f"{_insert_action()} VALUES (%s, %s, %s, %s, %s, %s)"
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


def _check_version(game: Game, rules, state, actor: str, version: int | None) -> None:
    """Refuse (:class:`StaleVersion`) an action answering a decision that has changed since the
    client's ``version``: a version ahead of the game, negative, more than :data:`STALE_WINDOW`
    behind, or behind while the actor's pending decisions have changed since it
    (``version < game.decisions_since[actor]``, see :func:`_decisions_since`). A decision left
    unchanged keeps its answers valid, so simultaneous submissions made at the same version all
    count. O(1) in the game's length: no state is rebuilt (this runs under the game row's lock).
    ``rules`` and ``state`` (the current ones) are not needed for it."""
    if version is None:
        return
    if type(version) is not int or not max(0, game.version - STALE_WINDOW) <= version <= game.version:  # bool too
        raise StaleVersion(version if type(version) is int else -1, game.version)
    if version == game.version:
        return
    since = game.decisions_since
    if since is None or version < since.get(actor, 0):  # None: a game older than the record
        raise StaleVersion(version, game.version)


def _decisions_since(rules, state: Any, new: Any, version: int, since: dict | None) -> dict[str, int]:
    """``Game.decisions_since`` after the action that made version ``version`` (``new``) from
    ``state``: ``{seat: the version since which the seat's pending decisions have been what they
    are now}``; a seat not listed has had the same decisions (none, or the first ones) since
    version 0. Each seat whose pending decisions (kind, options, simultaneity) differ between the
    two states gets ``version``. ``since`` None (a game that started before the record was kept):
    every seat with pending decisions before or after gets ``version``. Costs two ``pending``
    calls (about 0.01 ms each for AGoT)."""
    before, after = _by_actor(rules.pending(state)), _by_actor(rules.pending(new))
    out = {} if since is None else dict(since)
    for actor in before.keys() | after.keys():
        if since is None or before.get(actor) != after.get(actor):
            out[actor] = version
    return out


def _by_actor(decisions) -> dict[str, list]:
    out: dict[str, list] = {}
    for d in decisions:
        out.setdefault(d.actor, []).append(d)
    return out


def client_action(rules, data: Any) -> Any:
    """The typed action of a client's ``action`` (a value decoded from JSON), parsed by the
    ruleset's ``parse_action``. ``data`` must be a JSON object at most :data:`ACTION_MAX_DEPTH`
    deep holding at most :data:`ACTION_MAX_VALUES` values: a client's value is never taken for
    a typed action, and nothing deeper than that is walked (the check itself is a loop, not a
    recursion). Raises IllegalAction ``action.malformed`` (``params.limit`` names the bound a
    too deep or too large action broke) and the ruleset's own ``parse_action`` refusals."""
    if not isinstance(data, dict):
        raise IllegalAction("action.malformed", "An action must be a JSON object.")
    values, todo = 0, [(data, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > ACTION_MAX_DEPTH:
            raise IllegalAction("action.malformed", "The action is nested too deeply.", limit=ACTION_MAX_DEPTH)
        values += len(node)
        if values > ACTION_MAX_VALUES:
            raise IllegalAction("action.malformed", "The action holds too many values.", limit=ACTION_MAX_VALUES)
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, (dict, list, tuple)):
                todo.append((child, depth + 1))
    return rules.parse_action(data)


def _apply_locked(game: Game, actor: str, data: Any, user, version: int | None = None, *, by_bot: bool = False) -> int:
    """Apply ``data`` for ``actor`` to the locked ``game``; returns the new version. ``data`` is a
    client's JSON action (checked by :func:`client_action`), or with ``by_bot`` a bot's choice
    (a typed action or its JSON object)."""
    rules = game.rules
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    state = snapshots.state_at(game)
    _check_version(game, rules, state, actor, version)
    if not by_bot:
        action, json_action = client_action(rules, data), data
    elif isinstance(data, dict):
        action, json_action = rules.parse_action(data), data
    else:
        action, json_action = data, bots.action_to_json(rules, data)
    new = rules.apply(state, actor, action)
    game.version += 1
    before = game.awaited_since or {}
    game.awaited_since = _awaited_since(rules, new, actor, before)
    game.decisions_since = _decisions_since(rules, state, new, game.version, game.decisions_since)
    fields = ["version", "awaited_since", "decisions_since"]
    if clocks.timed(game.time_control):
        fields += _clock_hook(game, before, actor, user is not None)
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
    transaction.on_commit(lambda: _committed(game, new))
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
    action's (:func:`_committed`: its ``state`` with the seat status, the bots scheduled, the
    badges and mails told). The row's unique ``(game, number)`` and the lock make each note
    happen once: a second writer of the same version fails, and one that waited for the lock
    finds the clocks or seats already changed. Raises IllegalAction ``game.over``."""
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    if not entries:
        raise ValueError("no note to write")
    rules = game.rules
    new = snapshots.state_at(game)
    for i, entry in enumerate(entries):
        new = engine_note(rules, new, entry)
        game.version += 1
        write = ["version"]
        if game.version % snapshots.snapshot_every() == 0:
            game.snapshot, game.snapshot_version = snapshots.dump(new), game.version
            game.snapshot_key = snapshots.code_key(game.ruleset)
            write += ["snapshot", "snapshot_version", "snapshot_key"]
        if i == len(entries) - 1:
            write += [f for f in fields if f not in write]
        _write_action(game, SITE, entry, user, write)
    transaction.on_commit(lambda: _committed(game, new))
    return game.version


def rescue_after() -> float:
    """Seconds after which the scheduler makes an awaited bot's or stand-in's move of a timed game
    itself (``settings.GAME_BOT_RESCUE``, default 15): a bot move scheduled by a process that
    stopped is not lost."""
    from django.conf import settings

    return float(getattr(settings, "GAME_BOT_RESCUE", 15))


def _when(ts: float | None):
    """A unix time as an aware datetime (None stays None)."""
    import datetime

    return None if ts is None else datetime.datetime.fromtimestamp(ts, tz=datetime.timezone.utc)


def _clock_hook(game: Game, before: dict, actor: str, person: bool) -> list[str]:
    """The clocks after an action (:func:`game.live.clocks.after_action`): charged, the
    increment or a new deadline, an automatic stand-in handed back; sets ``game.clocks``,
    ``game.stand_ins``, ``game.deadline`` and returns the fields to write."""
    now = time.time()
    game.clocks, stand_ins, deadline = clocks.after_action(
        game.time_control, game.clocks or {}, game.stand_ins or {},
        before=before.keys(), after=game.awaited_since.keys(), actor=actor, person=person, now=now, rescue=rescue_after(),
    )
    game.deadline = _when(deadline)
    fields = ["clocks", "deadline"]
    if stand_ins != (game.stand_ins or {}):
        game.stand_ins = stand_ins
        fields.append("stand_ins")
    return fields


def _awaited_since(rules, new: Any, actor: str, since: dict | None) -> dict[str, float]:
    """``{seat: time}`` of the seats ``new`` awaits: a seat awaited before and still awaited
    keeps its time; the actor's starts again."""
    now, since = time.time(), since or {}
    return {d.actor: (now if d.actor == actor else since.get(d.actor, now)) for d in rules.pending(new)}


def _committed(game: Game, new: Any) -> None:
    """After an action's commit: the new state cached, the row remembered for the next
    optimistic write (:mod:`game.live.optimistic`), the game's group told (with the seat
    status), the bots scheduled (a game with stand-ins skips the "no bots" cache: it may predate
    the hand-over)."""
    snapshots.CACHE.put(game.pk, game.version, new)
    optimistic.remember(game)
    notify.game_changed(game.pk, game.version, seat_status(game))
    bots.schedule_bots(game.pk, None if game.stand_ins else game.seed)
    _told(game)


def _told(game: Game) -> None:
    """After a commit: the site's followers of games hear of it (:data:`signals.game_committed`:
    the players' "My games" badges, turn and end-of-game mails). Never raises."""
    try:
        signals.game_committed.send(sender=Game, game=game)
    except Exception:  # a follower's failure never breaks play
        import logging

        logging.getLogger(__name__).exception("game_committed receiver failed for game %s", game.pk)


def act(game_id: int, user, data: Any, version: int | None = None, *, optimistic_first: bool = True) -> int:
    """``user`` takes the action ``data`` (its JSON object) in their seat; returns the new version.

    ``version`` is the game version the client decided at (None: no check). Raises
    IllegalAction: ``game.not_found``, ``act.not_a_player`` (spectators and strangers),
    ``version.stale`` (:class:`StaleVersion`), ``game.over``, ``action.malformed`` (``data`` is
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
        transaction.on_commit(lambda: optimistic.remember_seat(game_id, uid, actor))
        return v


def bot_act(game_id: int) -> int | None:
    """One action by a bot whose decision the game awaits (the first in pending order); returns
    the new version, or None when no bot is awaited."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    if not bot_seats(game):  # the common case of a game of people: no lock taken
        bots.remember_botless(game.pk, game.seed)  # (no stand-in either: bot_seats counts them)
        return None
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING:
            return None
        levels = bot_seats(game)
        if not levels:
            return None
        rules = game.rules
        state = snapshots.state_at(game)
        actor = next((d.actor for d in rules.pending(state) if d.actor in levels), None)
        if actor is None:
            return None
        action = bots.choose(rules, state, actor, levels[actor], (game.seed + game.version) % (2**63))
        return _apply_locked(game, actor, action, None, by_bot=True)
