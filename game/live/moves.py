"""What a move does to a game's row, whichever way it is written: the checks of a client's action
and of the version it answers, the row's new waiting times, decisions and clocks, the log's
``INSERT``, and what follows a commit. Both writes of an act use it: under the row's lock
(:mod:`game.live.apply`) and optimistically, by one compare-and-swap (:mod:`game.live.optimistic`).

After a commit (:func:`committed`) the new state is cached, the row remembered for the next
optimistic write (:mod:`game.live.rows`), the game's group told of the new version with the seat
status (:func:`game.live.notify.game_changed`), and the site's followers told
(:data:`game.live.signals.game_committed`: bots, badges, mails). Nothing here calls back into
either write.
"""

from __future__ import annotations

import datetime
import logging
import time
from typing import Any

from django.conf import settings
from django.db import connection

from game.models import Action, Game
from game.rules import IllegalAction
from game.rules.base import WITHDRAW

from . import clocks, notify, rows, signals, snapshots, table
from .seats import seat_status

log = logging.getLogger(__name__)

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


def insert_action(db=connection) -> str:
    """``INSERT INTO`` the action log with its columns: game, number, actor, action, user, time
    (names quoted by ``db``, Django's connection object of this thread by default)."""
    q = db.ops.quote_name
    cols = ", ".join(q(c) for c in ("game_id", "number", "actor", "action", "user_id", "created_at"))
    return f"INSERT INTO {q(Action._meta.db_table)} ({cols})"


def check_version(game: Game, rules, state, actor: str, version: int | None) -> None:
    """Refuse (:class:`StaleVersion`) an action answering a decision that has changed since the
    client's ``version``: a version ahead of the game, negative, more than :data:`STALE_WINDOW`
    behind, or behind while the actor's pending decisions have changed since it
    (``version < game.decisions_since[actor]``, see :func:`decisions_since`). A decision left
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


def decisions_since(rules, state: Any, new: Any, version: int, since: dict | None) -> dict[str, int]:
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


def is_withdrawal(data: Any) -> bool:
    """Whether a client's action takes back its face-down answer (:data:`game.rules.base.WITHDRAW`)."""
    return isinstance(data, dict) and data.get("type") == WITHDRAW


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


def awaited_since(rules, new: Any, actor: str, since: dict | None) -> dict[str, float]:
    """``{seat: time}`` of the seats ``new`` awaits: a seat awaited before and still awaited
    keeps its time; the actor's starts again."""
    now, since = time.time(), since or {}
    return {d.actor: (now if d.actor == actor else since.get(d.actor, now)) for d in rules.pending(new)}


def rescue_after() -> float:
    """Seconds after which the scheduler makes an awaited bot's or stand-in's move of a timed game
    itself (``settings.GAME_BOT_RESCUE``, default 15): a bot move scheduled by a process that
    stopped is not lost."""
    return float(settings.GAME_BOT_RESCUE)


def as_datetime(ts: float | None):
    """A unix time as an aware datetime (None stays None)."""
    return None if ts is None else datetime.datetime.fromtimestamp(ts, tz=datetime.timezone.utc)


def clock_hook(game: Game, before: dict, actor: str, person: bool, withdrawal: bool = False) -> list[str]:
    """The clocks after an action (:func:`game.live.clocks.after_action`): charged, the
    increment or a new deadline, an automatic stand-in handed back (no clock starts while the
    table's pause lasts, whose end and open vote keep their place in the deadline); a ``withdrawal``
    (:func:`is_withdrawal`) gives back what the answer it takes back had credited. Sets
    ``game.clocks``, ``game.stand_ins``, ``game.deadline`` and returns the fields to write."""
    now = time.time()
    game.clocks, stand_ins, deadline = clocks.after_action(
        game.time_control, game.clocks or {}, game.stand_ins or {},
        before=before.keys(), after=game.awaited_since.keys(), actor=actor, person=person, now=now, rescue=rescue_after(),
        withdrawal=withdrawal, paused=table.paused(game.table),
    )
    game.deadline = as_datetime(table.earliest(deadline, table.due_at(game.table)))
    fields = ["clocks", "deadline"]
    if stand_ins != (game.stand_ins or {}):
        game.stand_ins = stand_ins
        fields.append("stand_ins")
    return fields


def committed(game: Game, new: Any) -> None:
    """After a move's commit (an act, a bot's, the site's notes): the new state cached, the row
    remembered for the next optimistic write, the game's group told of the new version with the
    seat status, and the site's followers told (:func:`told`). Runs in the committing thread,
    outside any transaction, or on the event loop after an act written there; touches no
    database connection."""
    snapshots.CACHE.put(game.pk, game.version, new)
    rows.remember(game)
    notify.game_changed(game.pk, game.version, seat_status(game))
    told(game)


def told(game: Game) -> None:
    """After a commit: the followers of games hear of it (:data:`signals.game_committed`: bots,
    the players' "My games" badges, turn and end-of-game mails), each whatever another's does.
    Never raises: a follower's failure is logged and never breaks play."""
    for receiver, outcome in signals.game_committed.send_robust(sender=Game, game=game):
        if isinstance(outcome, Exception):
            log.error("game_committed receiver %s failed for game %s", getattr(receiver, "__qualname__", receiver), game.pk,
                      exc_info=outcome)
