"""Replays: any position of any game, for one viewer, rebuilt from the log.

A game is its log, so the position after any number of actions can be
rebuilt exactly. Stepping through a replay must be cheap (a 300-action game, every step under
50 ms of server time), so this module keeps, per process, a :class:`Book` per game it was asked
about (an LRU of :data:`BOOKS_MAX` games): the game's parsed action list (one query), the state
at every :data:`CHECKPOINT_EVERY`-th version, where each version stands (``progress``: round and
phase) and the state last served. A step is then the state last served plus one ``apply`` (the
usual case: stepping forward), or the nearest checkpoint plus at most
``CHECKPOINT_EVERY - 1`` applies. A running game's book grows when a later version is asked for
(only the new actions are read). The live play's state cache is left alone: replays do not push
live games' states out of it.

What a viewer is shown (:func:`step_text`):

* a **running game** (only its players may replay it, up to the present): exactly the payload
  live play sent that viewer at that version (:mod:`game.live.payloads`), so a replay can never
  show what the table did not;
* a **finished game**: every version through the ruleset's open view
  (:func:`game.rules.base.open_view`): all face-down orders, bids, cards and hands, as when the
  box is opened after the game; a ruleset without ``open_view`` shows each viewer what they saw.

A finished game's log never changes, so its row and seats are read at most once every
:data:`KEEP_FOR` seconds per process (:func:`game_row`, :func:`seat_of`; an LRU of
:data:`ROWS_MAX` games): a step of a finished game then costs no query of its own (the
request's session and user aside), only the rendering of a step not yet rendered.

Errors: :class:`ReplayError` with a stable ``code`` (``replay.no_version``), translated by
:mod:`game.live.errors`.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from cachetools import LRUCache

from game.models import Action, Game, Seat
from game.rules import get_ruleset
from game.rules.base import SITE, lang_key, note, open_view, progress

from . import jsontext, payloads

#: a checkpoint state is kept every this many versions (so a step applies at most 9 actions)
CHECKPOINT_EVERY = 10
#: games whose books this process keeps (least recently used first out)
BOOKS_MAX = 16
#: rendered steps of finished games kept, ``(game, version, viewer, lang) -> text``
TEXTS_MAX = 1024
#: finished games whose rows (with their lobby and seats) this process keeps
ROWS_MAX = 256
#: seconds a finished game's kept row and seats are used without reading them again (a
#: moderator may still make its lobby private or give a seat to someone else after the end)
KEEP_FOR = 60.0


class ReplayError(ValueError):
    """A replay request that cannot be served: ``code`` (``"replay.no_version"``), ``params``."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.params = code, message, params


class Book:
    """One game's replay material in this process: its actions, checkpoints and marks.

    The log is read once (and only its new actions when a running game has moved on); states are
    built on demand from the nearest starting point: the state last served, a checkpoint, the
    newest state of the contiguous pass from the start (``tip``, which also records the marks and
    checkpoints), or the game's stored snapshot (:mod:`.snapshots`, read once, when it is nearer:
    so a finished game's replay opening at its end needs no replay of the whole log).

    Attributes:
        length: the number of actions read so far (the versions 0..length can be served).
        marks: ``[(version, round, phase)]``, the first version of each (round, phase) in order,
            as far as the contiguous pass has gone (:meth:`build`).
    """

    def __init__(self, game: Game) -> None:
        self.game_id = game.pk
        self.rules = get_ruleset(game.ruleset)
        self.lock = threading.Lock()
        state = self.rules.new_game(game.players, game.seed, game.options)
        self.actions: list[tuple[str, Any]] = []
        self.checkpoints: dict[int, Any] = {0: state}
        self.tip: tuple[int, Any] = (0, state)  # the newest state of the pass from the start
        self.last: tuple[int, Any] = (0, state)  # the state last served
        self.snapshot_version = game.snapshot_version  # the stored snapshot's version (-1: none)
        self.snapshot: tuple[int, Any] | None = None  # read once, when it is the nearest start
        p = progress(self.rules, state)
        self.marks: list[tuple[int, Any, Any]] = [(0, p.get("round"), p.get("phase"))]

    @property
    def length(self) -> int:
        return len(self.actions)

    def grow(self, upto: int) -> None:
        """Read the logged actions after :attr:`length`, up to version ``upto`` (one query)."""
        if upto <= self.length:
            return
        rows = Action.objects.filter(game_id=self.game_id, number__gt=self.length, number__lte=upto).order_by("number")
        parse = self.rules.parse_action  # a note of the site stays its JSON
        self.actions.extend((actor, data if actor == SITE else parse(data)) for actor, data in rows.values_list("actor", "action"))

    def build(self, upto: int) -> None:
        """Carry the pass from the start on to version ``upto`` (``<= length``), recording
        checkpoints and marks."""
        v, state = self.tip
        if upto <= v:
            return
        rules = self.rules
        for actor, action in self.actions[v:upto]:
            state = _apply(rules, state, actor, action)
            v += 1
            if v % CHECKPOINT_EVERY == 0:
                self.checkpoints[v] = state
            p = progress(rules, state)
            mark = (v, p.get("round"), p.get("phase"))
            if mark[1:] != self.marks[-1][1:]:
                self.marks.append(mark)
        self.tip = (v, state)

    def _snapshot(self) -> tuple[int, Any] | None:
        if self.snapshot is None and self.snapshot_version > 0:
            from .snapshots import load_snapshot

            row = Game.objects.only("ruleset", "snapshot", "snapshot_version", "snapshot_key").filter(pk=self.game_id).first()
            snap = load_snapshot(row) if row is not None else None
            self.snapshot = snap if snap is not None and snap[0] <= self.length else (-1, None)
            self.snapshot_version = self.snapshot[0]
        return self.snapshot if self.snapshot and self.snapshot[0] > 0 else None

    def state(self, version: int) -> Any:
        """The state after ``version`` actions (``0 <= version <= length``), from the nearest
        starting point at or before it."""
        last_v, last = self.last
        if version == last_v:
            return last
        tip_v = self.tip[0]
        if version < tip_v:
            start = version - version % CHECKPOINT_EVERY
            state = self.checkpoints[start]
        else:
            start, state = tip_v, None  # None: carry the pass from the start on
            if self.snapshot_version - tip_v >= CHECKPOINT_EVERY and self.snapshot_version <= version:
                snap = self._snapshot()
                if snap is not None and start < snap[0] <= version:
                    start, state = snap
        if start < last_v < version:  # stepping forward: from the last one served
            start, state = last_v, last
        if state is None:
            self.build(version)
            state = self.tip[1]
        else:
            rules = self.rules
            for actor, action in self.actions[start:version]:
                state = _apply(rules, state, actor, action)
        self.last = (version, state)
        return state


def _apply(rules, state: Any, actor: str, action: Any) -> Any:
    """One parsed entry of the log applied: a note of the site (:func:`game.rules.base.note`) or
    the ruleset's ``apply``."""
    return note(rules, state, action) if actor == SITE else rules.apply(state, actor, action)


_BOOKS: LRUCache = LRUCache(maxsize=BOOKS_MAX)
_BOOKS_LOCK = threading.Lock()
_TEXTS: LRUCache = LRUCache(maxsize=TEXTS_MAX)
_TEXTS_LOCK = threading.Lock()


def book(game: Game) -> Book:
    """This process's :class:`Book` of ``game``, grown to ``game.version``."""
    with _BOOKS_LOCK:
        b = _BOOKS.get(game.pk)
        if b is None:
            b = _BOOKS[game.pk] = Book(game)
    with b.lock:
        b.grow(game.version)
    return b


#: ``game id -> (when read, its row, its people's seats or None)``
_ROWS: LRUCache = LRUCache(maxsize=ROWS_MAX)
_ROWS_LOCK = threading.Lock()


def game_row(game_id: int) -> Game | None:
    """The row of game ``game_id`` (its lobby selected, its snapshot left out), or None when there
    is no such game. A finished game's row comes from this process's cache when read less than
    :data:`KEEP_FOR` seconds ago (a finished game's version, status and log never change; its
    lobby's privacy and seats only by a moderator's hand); a running game's is read every time."""
    now = time.monotonic()
    with _ROWS_LOCK:
        hit = _ROWS.get(game_id)
        if hit is not None and now - hit[0] <= KEEP_FOR:
            return hit[1]
    game = Game.objects.defer("snapshot").select_related("lobby").filter(pk=game_id).first()
    with _ROWS_LOCK:
        if game is not None and is_open(game):
            _ROWS[game_id] = (now, game, None)
        else:
            _ROWS.pop(game_id, None)
    return game


def seat_of(game: Game, user) -> str | None:
    """The seat ``user`` plays in ``game`` (:func:`game.live.seats.seat_of`); for a finished game
    kept by :func:`game_row`, from its seats read once with it (one query for every user)."""
    from .seats import seat_of as read_seat

    if user is None or not getattr(user, "is_authenticated", False):
        return None
    with _ROWS_LOCK:
        hit = _ROWS.get(game.pk)
    if hit is None or hit[1] is not game:
        return read_seat(game, user)
    seats = hit[2]
    if seats is None:
        seats = dict(Seat.objects.filter(lobby_id=game.lobby_id, bot="").exclude(user=None).values_list("user_id", "house"))
        with _ROWS_LOCK:
            if _ROWS.get(game.pk, (None, None))[1] is game:
                _ROWS[game.pk] = (hit[0], game, seats)
    return seats.get(user.pk) or None


def forget(game_id: int | None = None) -> None:
    """Drop the books, rendered steps and kept rows of ``game_id`` (None: of every game)."""
    with _ROWS_LOCK:
        if game_id is None:
            _ROWS.clear()
        else:
            _ROWS.pop(game_id, None)
    with _BOOKS_LOCK:
        if game_id is None:
            _BOOKS.clear()
        else:
            _BOOKS.pop(game_id, None)
    with _TEXTS_LOCK:
        for key in [k for k in _TEXTS if game_id is None or k[0] == game_id]:
            del _TEXTS[key]


def is_open(game: Game) -> bool:
    """True when ``game``'s replay shows everything (it is over)."""
    return game.status == Game.Status.FINISHED


def step_text(game: Game, viewer: str | None, lang: str, version: int) -> str:
    """The JSON text of the ``state`` payload (the shape of ``docs/protocol.md``'s ``state``
    message) that ``viewer`` (a seat, or None) is shown at ``version`` of ``game``: for a
    running game, byte for byte the payload live play sent that viewer then; for a finished
    one, the open view (everything shown, ``view.open`` true). Raises :class:`ReplayError`
    ``replay.no_version`` for a version the log does not reach (below 0 or past ``game.version``)."""
    if not isinstance(version, int) or version < 0 or version > game.version:
        raise ReplayError("replay.no_version", "This game has no such moment.", version=version, latest=game.version)
    key = lang_key(lang)
    opened = is_open(game)
    cache_key = (game.pk, version, viewer, key, opened)
    if opened:
        with _TEXTS_LOCK:
            hit = _TEXTS.get(cache_key)
        if hit is not None:
            return hit
    b = book(game)
    with b.lock:
        state = b.state(version)
    if not opened:
        return payloads._payload_text(game.pk, game.ruleset, state, version, viewer, key)
    rules = b.rules
    view = open_view(rules, state, viewer)
    head, tail = payloads._head_and_tail(game.pk, game.ruleset, rules, state, version, viewer, key, view)
    text = jsontext.dumps({**head, "view": payloads.windowed_view(view), **tail})
    with _TEXTS_LOCK:
        _TEXTS[cache_key] = text
    return text


def marks(game: Game) -> list[dict[str, Any]]:
    """``[{"version": int, "round": int | None, "phase": str | None}]``: the first version of
    each round and phase of ``game`` up to its current version, in order (for "jump to")."""
    b = book(game)
    with b.lock:
        b.build(game.version)
        return [{"version": v, "round": r, "phase": p} for v, r, p in b.marks if v <= game.version]
