"""Live play: the one place where an action is applied to a game, and what each viewer is sent.

:func:`act` (people) and :func:`bot_act` (bots) share :func:`_apply_locked`: inside one
transaction the game row is locked (``select_for_update``; on SQLite the ``IMMEDIATE``
transaction mode gives one writer at a time), the state is loaded (:mod:`game.snapshots`), the
ruleset applies the action, the action is appended to the log and the version bumped; after the
commit the game's group hears of the new version (:func:`game.notify.game_changed`). An
:class:`~game.rules.IllegalAction` leaves everything unchanged. Because the lock serialises
writers across every server process, the last of several simultaneous submissions is applied by
exactly one transaction, which is the one whose ``apply`` reveals them.

:func:`payload` is what one viewer (a seat, or None for a spectator) is sent: the ruleset's
``view`` for that viewer, the pending decisions (the viewer's own with their options, others'
without), the version and the latest log lines in the viewer's language. Never the raw state.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

from game.rules import IllegalAction, get_ruleset

from . import bots, gamelog, notify, snapshots
from .models import Action, ChatMessage, Game, Lobby, Seat, display_name

log = logging.getLogger(__name__)

#: an action's ``version`` may lag the game by at most this many versions (see :func:`act`)
STALE_WINDOW = 50
CHAT_LIMIT = 500  #: characters per chat line
CHAT_HISTORY = 100  #: lines of history sent on connect


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
    )
    transaction.on_commit(lambda: snapshots.CACHE.put(game.pk, 0, state))
    transaction.on_commit(lambda: schedule_bots(game.pk))
    return game


# --- who is who ------------------------------------------------------------------------------------
def seat_of(game: Game, user) -> str | None:
    """The seat (house) ``user`` plays in ``game``, or None (spectator). Bots' seats are no one's."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(lobby_id=game.lobby_id, user=user, bot="").values_list("house", flat=True).first()
    return seat or None


def bot_seats(game: Game) -> dict[str, str]:
    """``{seat: bot level}`` of the game's bot seats, and of the people's seats a stand-in bot
    plays for now (``game.stand_ins``)."""
    levels = dict(game.stand_ins or {})
    levels.update(Seat.objects.filter(lobby_id=game.lobby_id).exclude(bot="").values_list("house", "bot"))
    return levels


def seats_info(game: Game, lang: str) -> list[dict[str, Any]]:
    """``[{"seat", "name" (in lang), "player", "bot", "stand_in"}]`` in the ruleset's seat order."""
    names = game.rules.seat_names()
    key = gamelog.lang_key(lang)
    rows = {s.house: s for s in Seat.objects.filter(lobby_id=game.lobby_id).select_related("user__profile")}
    order = game.rules.seats(game.players, game.options)
    return [
        {
            "seat": h,
            "name": names.get(h, {}).get(key, h),
            "player": display_name(rows[h].user) if h in rows else "",
            "bot": rows[h].bot if h in rows else "",
            "stand_in": (game.stand_ins or {}).get(h, ""),
        }
        for h in order
    ]


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


def _insert_action() -> str:
    """``INSERT INTO`` the action log with its columns: game, number, actor, action, user, time."""
    q = connection.ops.quote_name
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


def _decisions_of(rules, state, actor: str) -> list[dict]:
    return [d.as_dict() for d in rules.pending(state) if d.actor == actor]


def _check_version(game: Game, rules, state, actor: str, version: int | None) -> None:
    """A client's ``version`` is stale when the decision it answered has changed since: its
    version is ahead of the game, too old, or the actor's pending decisions at that version differ
    from the current ones (so simultaneous submissions made at the same version all count)."""
    if version is None or version == game.version:
        return
    if not isinstance(version, int) or version > game.version or version < max(0, game.version - STALE_WINDOW):
        raise StaleVersion(version if isinstance(version, int) else -1, game.version)
    old = snapshots.state_at(game, version)
    if _decisions_of(rules, old, actor) != _decisions_of(rules, state, actor):
        raise StaleVersion(version, game.version)


def _apply_locked(game: Game, actor: str, data: Any, user, version: int | None = None) -> int:
    """Apply ``data`` for ``actor`` to the locked ``game``; returns the new version."""
    rules = game.rules
    if game.status != Game.Status.RUNNING:
        raise IllegalAction("game.over", "The game is over.")
    state = snapshots.state_at(game)
    _check_version(game, rules, state, actor, version)
    if isinstance(data, dict):
        json_action = data
        action = rules.parse_action(data)
    else:
        action = data
        json_action = bots.action_to_json(rules, action)
    new = rules.apply(state, actor, action)
    game.version += 1
    game.awaited_since = _awaited_since(rules, new, actor, game.awaited_since)
    fields = ["version", "awaited_since"]
    result = rules.result(new)
    if result is not None:
        game.status, game.result = Game.Status.FINISHED, result
        fields += ["status", "result"]
        Lobby.objects.filter(pk=game.lobby_id).update(status=Lobby.Status.FINISHED)
    if game.version % snapshots.snapshot_every() == 0:
        game.snapshot, game.snapshot_version = snapshots.dump(new), game.version
        game.snapshot_key = snapshots.code_key(game.ruleset)
        fields += ["snapshot", "snapshot_version", "snapshot_key"]
    _write_action(game, actor, json_action, user, fields)
    transaction.on_commit(lambda: _committed(game, new))
    return game.version


def _awaited_since(rules, new: Any, actor: str, since: dict | None) -> dict[str, float]:
    """``{seat: time}`` of the seats ``new`` awaits: a seat awaited before and still awaited
    keeps its time; the actor's starts again."""
    now, since = time.time(), since or {}
    return {d.actor: (now if d.actor == actor else since.get(d.actor, now)) for d in rules.pending(new)}


def _committed(game: Game, new: Any) -> None:
    """After an action's commit: the new state cached, the row remembered for the next
    optimistic write, the game's group told (with the seat status), the bots scheduled (a game
    with stand-ins skips the "no bots" cache: it may predate the hand-over)."""
    snapshots.CACHE.put(game.pk, game.version, new)
    _remember(game)
    notify.game_changed(game.pk, game.version, seat_status(game))
    schedule_bots(game.pk, None if game.stand_ins else game.seed)


def act(game_id: int, user, data: Any, version: int | None = None) -> int:
    """``user`` takes the action ``data`` (its JSON object) in their seat; returns the new version.

    ``version`` is the game version the client decided at (None: no check). Raises
    IllegalAction: ``game.not_found``, ``act.not_a_player`` (spectators and strangers),
    ``version.stale`` (:class:`StaleVersion`), ``game.over``, ``action.malformed`` and every
    rule's own code. Nothing is written when it raises. On PostgreSQL an action whose game this
    process wrote last is written in one statement (:func:`_act_optimistic`); otherwise, and
    whenever that finds the row changed, under the row's lock.
    """
    v = _act_optimistic(game_id, user, data, version)
    if v is not None:
        return v
    with transaction.atomic():
        game, actor = _locked_seat(game_id, user)
        if actor is None:
            raise IllegalAction("act.not_a_player", "You do not have a seat in this game.")
        v = _apply_locked(game, actor, data, user, version)
        uid = user.pk
        transaction.on_commit(lambda: _remember_seat(game_id, uid, actor))
        return v


# --- the optimistic write -----------------------------------------------------------------------------
#: ``game id -> the fields of its row`` as this process last committed them (:func:`_remember`)
_LAST_ROW: dict[int, dict[str, Any]] = {}
#: ``(game id, user id) -> seat``, learnt by a locked act: seats never change once a game has
#: started (:mod:`game.lobbies` changes them only while the lobby is open)
_SEAT_OF: dict[tuple[int, int], str] = {}
_ROW_FIELDS = ("id", "lobby_id", "ruleset", "players", "options", "seed", "version", "status", "awaited_since", "stand_ins")
_REMEMBER_MAX = 4096  # entries of each; past it they are forgotten at once (a locked act refills)


def _remember(game: Game) -> None:
    """Keep the committed row of ``game`` for the next :func:`_act_optimistic`."""
    if len(_LAST_ROW) >= _REMEMBER_MAX:
        _LAST_ROW.clear()
    _LAST_ROW[game.pk] = {f: getattr(game, f) for f in _ROW_FIELDS}


def _remember_seat(game_id: int, user_id: int, seat: str) -> None:
    if len(_SEAT_OF) >= _REMEMBER_MAX:
        _SEAT_OF.clear()
    _SEAT_OF[(game_id, user_id)] = seat


def _act_optimistic(game_id: int, user, data: Any, version: int | None) -> int | None:
    """The action applied to this process's copy of the game, written by one compare-and-swap
    statement: the row's ``UPDATE`` only where version, status, stand-ins and waiting times are
    still those of the copy, with the action's ``INSERT`` on the same row (a data-modifying
    ``WITH``), committed alone. Returns the new version, or None to take the locked path: not
    on PostgreSQL, no copy or no known seat yet, a refusal (answered there, against the row as
    it is), the end of a game or a snapshot due (the rarer writes), or a row that changed
    meanwhile (another process's action, a stand-in handed over). Simultaneous submissions stay
    one at a time: the second ``UPDATE`` waits for the first's commit, then finds the version
    changed and writes nothing."""
    if connection.vendor != "postgresql" or connection.in_atomic_block or not isinstance(data, dict):
        return None
    row = _LAST_ROW.get(game_id)
    actor = _SEAT_OF.get((game_id, getattr(user, "pk", None)))
    if row is None or actor is None or row["status"] != Game.Status.RUNNING:
        return None
    game = Game(**row)
    state = snapshots.CACHE.get(game_id, game.version)
    if state is None:
        return None
    rules = game.rules
    try:
        _check_version(game, rules, state, actor, version)
        new = rules.apply(state, actor, rules.parse_action(data))
    except IllegalAction:
        return None
    v = game.version + 1
    if rules.result(new) is not None or v % snapshots.snapshot_every() == 0:
        return None
    awaited = _awaited_since(rules, new, actor, game.awaited_since)
    q, field = connection.ops.quote_name, Game._meta.get_field
    prep = lambda f, value: field(f).get_db_prep_save(value, connection)  # noqa: E731
    stamp = prep("updated_at", timezone.now())
    sql = (
        f"WITH g AS (UPDATE {q(Game._meta.db_table)} SET {q('version')} = %s, {q('awaited_since')} = %s, {q('updated_at')} = %s"
        f" WHERE {q('id')} = %s AND {q('version')} = %s AND {q('status')} = %s AND {q('stand_ins')} = %s AND {q('awaited_since')} = %s"
        f" RETURNING {q('id')})"
        f" {_insert_action()} SELECT {q('id')}, %s, %s, %s, %s, %s FROM g"
    )
    params = [
        v, prep("awaited_since", awaited), stamp,
        game_id, game.version, Game.Status.RUNNING, prep("stand_ins", game.stand_ins), prep("awaited_since", game.awaited_since),
        v, actor, Action._meta.get_field("action").get_db_prep_save(data, connection), user.pk, stamp,
    ]
    with connection.cursor() as c:
        c.execute(sql, params)
        written = c.rowcount == 1
    if not written:
        _LAST_ROW.pop(game_id, None)
        return None
    game.version, game.awaited_since = v, awaited
    _committed(game, new)  # committed already: no transaction is open
    return v


def bot_act(game_id: int) -> int | None:
    """One action by a bot whose decision the game awaits (the first in pending order); returns
    the new version, or None when no bot is awaited."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    if not bot_seats(game):  # the common case of a game of people: no lock taken
        _remember_botless(game)  # (no stand-in either: bot_seats counts them)
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
        return _apply_locked(game, actor, action, None)


# --- stand-in bots for players who walked away -------------------------------------------------------
STAND_IN_LEVEL = "basic"


def away_after() -> float:
    """Seconds a seat must have been awaited before another player may hand it to a bot
    (``settings.GAME_AWAY_AFTER``, default 180)."""
    return float(getattr(settings, "GAME_AWAY_AFTER", 180))


def seat_status(game: Game, now: float | None = None) -> dict[str, Any]:
    """``{"away_after", "stand_ins": {seat: level}, "awaited_for": {seat: seconds}}`` from the
    game row (no query): what the ``seats`` message tells browsers."""
    now = time.time() if now is None else now
    since = game.awaited_since or {}
    return {
        "away_after": away_after(),
        "stand_ins": dict(game.stand_ins or {}),
        "awaited_for": {s: round(max(0.0, now - t), 1) for s, t in since.items()} if game.status == Game.Status.RUNNING else {},
    }


def hand_to_bot(game_id: int, user, seat: Any) -> dict[str, Any]:
    """``user`` (a player of the game) hands ``seat``, another player's seat awaited for at least
    :func:`away_after` seconds, to a stand-in bot; returns the new :func:`seat_status`.

    The seat keeps its user; the bot acts for it through :func:`bot_act` until :func:`take_back`.
    Raises IllegalAction, writing nothing: ``game.not_found``, ``game.over``,
    ``stand_in.not_a_player`` (spectators, strangers), ``stand_in.bad_seat`` (not a seat of the
    game, or a bot's), ``stand_in.self``, ``stand_in.already``, ``stand_in.not_away`` (not awaited,
    or not for long enough; ``params.wait``: seconds left, or null when not awaited).
    """
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.RUNNING:
            raise IllegalAction("game.over", "The game is over.")
        me = seat_of(game, user)
        if me is None:
            raise IllegalAction("stand_in.not_a_player", "Only the game's players can hand a seat to a bot.")
        seats = game.rules.seats(game.players, game.options)
        if not isinstance(seat, str) or seat not in seats or Seat.objects.filter(lobby_id=game.lobby_id, house=seat).exclude(bot="").exists():
            raise IllegalAction("stand_in.bad_seat", "No player's seat of that name.", seat=str(seat)[:20])
        if seat == me:
            raise IllegalAction("stand_in.self", "You cannot hand your own seat to a bot.")
        if seat in (game.stand_ins or {}):
            raise IllegalAction("stand_in.already", "A bot already plays that seat.", seat=seat)
        since = (game.awaited_since or {}).get(seat)
        if since is None:
            raise IllegalAction("stand_in.not_away", "That seat is not awaited.", seat=seat, wait=None)
        left = since + away_after() - time.time()
        if left > 0:
            raise IllegalAction("stand_in.not_away", "That seat has not been awaited long enough.", seat=seat, wait=int(left) + 1)
        game.stand_ins = {**(game.stand_ins or {}), seat: STAND_IN_LEVEL}
        game.save(update_fields=["stand_ins"])
        status = seat_status(game)
        gid = game.pk
        notify.seats_changed(gid, status, {"kind": "stand_in", "seat": seat})
        transaction.on_commit(lambda: _forget_botless(gid))
        transaction.on_commit(lambda: schedule_bots(gid))
        return status


def take_back(game_id: int, user) -> dict[str, Any]:
    """``user`` takes their seat back from its stand-in bot, which stops at once (the bot acts only
    under the game's lock, after reading ``stand_ins``); returns the new :func:`seat_status`.
    Their wait starts again. Raises IllegalAction, writing nothing: ``game.not_found``,
    ``stand_in.not_a_player``, ``stand_in.none`` (no bot plays the user's seat)."""
    with transaction.atomic():
        game = _locked(game_id)
        me = seat_of(game, user)
        if me is None:
            raise IllegalAction("stand_in.not_a_player", "You do not have a seat in this game.")
        if me not in (game.stand_ins or {}):
            raise IllegalAction("stand_in.none", "No bot plays your seat.")
        game.stand_ins = {s: lv for s, lv in game.stand_ins.items() if s != me}
        fields = ["stand_ins"]
        if me in (game.awaited_since or {}):
            game.awaited_since = {**game.awaited_since, me: time.time()}
            fields.append("awaited_since")
        game.save(update_fields=fields)
        status = seat_status(game)
        notify.seats_changed(game.pk, status, {"kind": "take_back", "seat": me})
        return status


def stand_in_notice(ruleset: str, event: dict[str, Any], lang: str) -> str:
    """The log line of a hand-over or take-back in ``lang``: "A bot now plays for Stark." """
    from django.utils import translation

    key = gamelog.lang_key(lang)
    house = get_ruleset(ruleset).seat_names().get(event.get("seat"), {}).get(key, event.get("seat"))
    with translation.override(key):
        if event.get("kind") == "stand_in":
            return gettext("A bot now plays for %(house)s.") % {"house": house}
        return gettext("%(house)s is back: the bot no longer plays for them.") % {"house": house}


def game_seat_status(game_id: int) -> dict[str, Any] | None:
    """:func:`seat_status` of a game read now, or None for a missing game."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    return None if game is None else seat_status(game)


# --- bots in the background ------------------------------------------------------------------------
_scheduled: set[int] = set()
_threads: list[threading.Thread] = []
_sched_lock = threading.Lock()
#: ``(game id, seed) -> monotonic time`` when a game was found to have no bot seat; trusted for
#: :data:`BOTLESS_FOR` seconds (the 63-bit seed tells a game from an earlier one with the same id)
_botless: dict[tuple[int, int], float] = {}
BOTLESS_FOR = 10.0


def _remember_botless(game: Game) -> None:
    with _sched_lock:
        if len(_botless) > 10_000:
            _botless.clear()
        _botless[(game.pk, game.seed)] = time.monotonic()


def _forget_botless(game_id: int) -> None:
    with _sched_lock:
        for key in [k for k in _botless if k[0] == game_id]:
            del _botless[key]


def schedule_bots(game_id: int, seed: int | None = None) -> None:
    """Let an awaited bot act after ``settings.GAME_BOT_DELAY`` seconds, in a thread of this
    process (at most one waiting per game per process; ``None`` disables it). Idempotent and
    harmless when no bot is awaited: :func:`bot_act` decides under the game's lock. With the
    game's ``seed``, a game this process found without bots in the last :data:`BOTLESS_FOR`
    seconds costs nothing (no thread and no query after every action of a game of people)."""
    delay = getattr(settings, "GAME_BOT_DELAY", 0.8)
    if delay is None:
        return
    if seed is not None and time.monotonic() - _botless.get((game_id, seed), -BOTLESS_FOR) < BOTLESS_FOR:
        return
    with _sched_lock:
        if game_id in _scheduled:
            return
        _scheduled.add(game_id)

    def run() -> None:
        try:
            threading.Event().wait(delay)
            with _sched_lock:
                _scheduled.discard(game_id)
            bot_act(game_id)
        except Exception:
            log.exception("bot move failed in game %s", game_id)
        finally:
            with _sched_lock:
                _scheduled.discard(game_id)
            connections.close_all()  # this thread ends: its connections too, even kept-alive ones

    t = threading.Thread(target=run, name=f"bot-{game_id}", daemon=True)
    with _sched_lock:
        _threads[:] = [x for x in _threads if x.is_alive()]
        _threads.append(t)
    t.start()


def wait_for_bots(timeout: float = 10.0) -> None:
    """Join the bot threads of this process (tests)."""
    while True:
        with _sched_lock:
            alive = [t for t in _threads if t.is_alive()]
        if not alive:
            return
        for t in alive:
            t.join(timeout)


# --- what a viewer is sent ---------------------------------------------------------------------------
def pending_for(rules, state, viewer: str | None) -> list[dict[str, Any]]:
    """The viewer's own decisions with their options; others' as ``{actor, kind, simultaneous}``."""
    out = []
    for d in rules.pending(state):
        if viewer is not None and d.actor == viewer:
            out.append(d.as_dict())
        else:
            out.append({"actor": d.actor, "kind": d.kind, "simultaneous": d.simultaneous})
    return out


class _PayloadCache:
    def __init__(self, size: int = 256) -> None:
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self.lock:
            return self.items.get(key)

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


PAYLOADS = _PayloadCache()


def payload(game: Game, viewer: str | None, lang: str, version: int | None = None) -> dict[str, Any]:
    """``{"type": "state", "game", "version", "viewer", "status", "result", "view", "pending",
    "log"}`` for ``viewer`` at ``version`` (default the game's)."""
    v = game.version if version is None else version
    head, view, tail = _payload_parts(game.pk, game.ruleset, snapshots.state_at(game, v), v, viewer, lang)
    return {**head, "view": view, **tail}


def _payload_parts(game_id: int, ruleset: str, state: Any, version: int, viewer: str | None, lang: str):
    """The payload as ``(head, view, tail)``: the keys before ``view``, the view, the keys after."""
    rules = get_ruleset(ruleset)
    view = rules.view(state, viewer)
    head, tail = _head_and_tail(game_id, ruleset, rules, state, version, viewer, lang, view)
    return head, windowed_view(view), tail


def windowed_view(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as a payload carries it: of its ``events``, only the latest
    :data:`~game.gamelog.LOG_WINDOW` (the ones the ``log`` tells), and ``events_from``, the index
    of the first of them in the viewer's whole list. The whole list grows all game long (about
    50 KB by the end of round 5) and every push would repeat it."""
    evs = view.get("events")
    if not isinstance(evs, list):
        return view
    first = max(0, len(evs) - gamelog.LOG_WINDOW)
    out = {k: v for k, v in view.items() if k != "events"}
    out["events_from"] = first
    out["events"] = evs[first:]
    return out


def _head_and_tail(game_id: int, ruleset: str, rules, state: Any, version: int, viewer: str | None, lang: str, told: dict):
    """The payload's keys before ``view`` and after it. ``told``: the view, or the part of it,
    that holds the viewer's events (the ``log`` tells the latest of them)."""
    result = rules.result(state)
    status = "finished" if result is not None else "running"
    head = {"type": "state", "game": game_id, "version": version, "viewer": viewer, "status": status, "result": result}
    return head, {"pending": pending_for(rules, state, viewer), "log": gamelog.lines(ruleset, told, lang)}


def _payload_text(game_id: int, ruleset: str, state: Any, version: int, viewer: str | None, lang: str) -> str:
    """The compact JSON text of the payload, the same text as ``json.dumps`` of :func:`payload`,
    made cheaply for the many viewers of one version. Two parts of it are shared and encoded
    once: a ruleset's ``shared_view`` (the part of the view every viewer sees alike, see
    :class:`game.rules.Ruleset`), once per game version; and the view's ``events``, the game's
    event log that every viewer and every later version shares, each event encoded once (kept by
    identity, as events are never changed once made) and the list spliced in."""
    rules = get_ruleset(ruleset)
    if not hasattr(rules, "shared_view"):
        head, view, tail = _payload_parts(game_id, ruleset, state, version, viewer, lang)
        return _dumps({**head, "view": view, **tail})
    shared_text = _shared_text(game_id, version, rules, state)
    own = rules.own_view(state, viewer)
    head, tail = _head_and_tail(game_id, ruleset, rules, state, version, viewer, lang, own)
    own = windowed_view(own)
    own_text = _dumps(own, events_of=own)
    if shared_text == "{}":
        view_text = own_text
    elif own_text == "{}":
        view_text = shared_text
    else:
        view_text = shared_text[:-1] + "," + own_text[1:]
    return _dumps(head)[:-1] + ',"view":' + view_text + "," + _dumps(tail)[1:]


#: ``(game id, version) -> JSON text of the ruleset's shared_view`` (a version names one state)
_SHARED_TEXT: OrderedDict[tuple[int, int], str] = OrderedDict()
_SHARED_TEXT_MAX = 64
_SHARED_LOCK = threading.Lock()


def _shared_text(game_id: int, version: int, rules, state: Any) -> str:
    key = (game_id, version)
    with _SHARED_LOCK:
        hit = _SHARED_TEXT.get(key)
    if hit is not None:
        return hit
    text = _dumps(rules.shared_view(state))
    with _SHARED_LOCK:
        _SHARED_TEXT[key] = text
        while len(_SHARED_TEXT) > _SHARED_TEXT_MAX:
            _SHARED_TEXT.popitem(last=False)
    return text


def _dumps(data: dict[str, Any], events_of: dict[str, Any] | None = None) -> str:
    """``data`` as compact JSON. The ``events`` list of ``events_of`` (default ``data["view"]``),
    when there is one, is spliced in from each event's JSON text, made once per event (events
    are never changed once made): the same text as encoding it whole, at a fraction of the cost."""
    holder = events_of if events_of is not None else data.get("view")
    evs = holder.get("events") if isinstance(holder, dict) else None
    if not isinstance(evs, list) or not evs:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    marked = {**holder, "events": _EVENTS_MARK}
    data = marked if holder is data else {**data, "view": marked}
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    mark = json.dumps(_EVENTS_MARK)
    return text.replace(mark, _events_text(evs), 1)


_EVENTS_MARK = "\x00events-" + secrets.token_hex(8)  # a string no event or view holds
_EVENT_JSON: dict[int, tuple[Any, str]] = {}
_EVENT_JSON_MAX = 50_000


def _events_text(evs: list) -> str:
    return "[" + ",".join(map(_event_json, evs)) + "]"


def _event_json(ev: Any) -> str:
    hit = _EVENT_JSON.get(id(ev))
    if hit is not None and hit[0] is ev:
        return hit[1]
    text = json.dumps(ev, separators=(",", ":"), ensure_ascii=False)
    if len(_EVENT_JSON) >= _EVENT_JSON_MAX:
        _EVENT_JSON.clear()
    _EVENT_JSON[id(ev)] = (ev, text)  # the event is kept with its text: its id is not reused
    return text


def cached_payload_text(game_id: int, ruleset: str, viewer: str | None, lang: str, version: int) -> str | None:
    """The JSON text of :func:`payload` at ``version`` without touching the database (so it may
    run on the event loop): from the payload cache, else built from the state cache of this
    process (which holds every version this process committed); None when neither has it
    (then :func:`payload_text` reads the database). ``ruleset`` is the game's (a game never
    changes its ruleset)."""
    key = gamelog.lang_key(lang)
    hit = PAYLOADS.get((game_id, version, viewer, key))
    if hit is not None:
        return hit
    state = snapshots.CACHE.get(game_id, version)
    if state is None:
        return None
    text = _payload_text(game_id, ruleset, state, version, viewer, key)
    PAYLOADS.put((game_id, version, viewer, key), text)
    return text


def payload_text(game_id: int, viewer: str | None, lang: str, version: int | None = None) -> tuple[int, str] | None:
    """``(version, JSON text of :func:`payload`)``, shared by every viewer of one seat, language
    and version; None for a missing game. ``version`` None (or past the game's) means the latest."""
    key = gamelog.lang_key(lang)
    if version is not None:
        hit = PAYLOADS.get((game_id, version, viewer, key))
        if hit is not None:
            return version, hit
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        return None
    if version is None or version > game.version:
        version = game.version
    hit = PAYLOADS.get((game_id, version, viewer, key))
    if hit is not None:
        return version, hit
    if game.snapshot_version >= 0 and snapshots.CACHE.get(game_id, version) is None:
        game = Game.objects.get(pk=game_id)  # the snapshot may spare a long replay
    text = _payload_text(game_id, game.ruleset, snapshots.state_at(game, version), version, viewer, key)
    PAYLOADS.put((game_id, version, viewer, key), text)
    return version, text


# --- chat -------------------------------------------------------------------------------------------
def private_channel(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"private:{x}:{y}"


def readable_channels(viewer: str | None) -> tuple[str, ...] | None:
    """Channels a viewer reads, besides private ones with its seat: players read ``public``;
    spectators read ``public`` and ``spectators``."""
    return ("public",) if viewer is not None else ("public", "spectators")


def can_read(channel: str, viewer: str | None) -> bool:
    if channel.startswith("private:"):
        return viewer is not None and viewer in channel.split(":")[1:]
    return channel in readable_channels(viewer)


def chat_dict(m: ChatMessage) -> dict[str, Any]:
    return {
        "id": m.pk,
        "channel": m.channel,
        "seat": m.seat or None,
        "author": display_name(m.author),
        "text": m.text,
        "time": m.created_at.isoformat(),
    }


def post_chat(game_id: int, user, channel: str, text: Any, to: str | None = None) -> dict[str, Any]:
    """Store a chat line and hand it to the game's consumers; returns it as sent.

    ``channel``: ``"public"`` (players), ``"spectators"`` (spectators), ``"private"`` with ``to``
    (another seat; players only). Raises IllegalAction ``chat.empty``, ``chat.too_long``,
    ``chat.bad_channel``, ``game.not_found``.
    """
    if isinstance(text, str):  # control characters removed first: a line of only those is empty
        text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc").strip()
    if not isinstance(text, str) or not text:
        raise IllegalAction("chat.empty", "Empty chat message.")
    if len(text) > CHAT_LIMIT:
        raise IllegalAction("chat.too_long", "Chat message too long.", limit=CHAT_LIMIT)
    if user is None or not getattr(user, "is_authenticated", False):
        raise IllegalAction("chat.bad_channel", "Log in to chat.")
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise IllegalAction("game.not_found", "This game does not exist.")
    seat = seat_of(game, user)
    if channel == "public" and seat is not None:
        name = "public"
    elif channel == "spectators" and seat is None:
        name = "spectators"
    elif channel == "private" and seat is not None and isinstance(to, str) and to != seat and to in game.rules.seats(
        game.players, game.options
    ):
        name = private_channel(seat, to)
    else:
        raise IllegalAction("chat.bad_channel", "You cannot write to that chat.")
    with transaction.atomic():
        m = ChatMessage.objects.create(game=game, channel=name, author=user, seat=seat or "", text=text)
        data = chat_dict(m)
        notify.chat_posted(game.pk, data)
    return data


def chat_history(game_id: int, viewer: str | None) -> list[dict[str, Any]]:
    """The latest :data:`CHAT_HISTORY` lines ``viewer`` may read, oldest first."""
    from django.db.models import Q

    q = Q(channel__in=readable_channels(viewer))
    if viewer is not None:
        q |= Q(channel__startswith="private:", channel__contains=f":{viewer}")
    rows = ChatMessage.objects.filter(q, game_id=game_id).select_related("author__profile").order_by("-created_at", "-pk")
    out = [chat_dict(m) for m in rows[: CHAT_HISTORY * 2] if can_read(m.channel, viewer)][:CHAT_HISTORY]
    return out[::-1]

