"""The contract between the site and a game's rules engine.

Every ruleset (AGoT 2nd edition in :mod:`game.rules.agot`, The Duke later) is a pure-Python
module: no Django, no I/O, no clock, no global random.
The site only ever talks to a ruleset through :class:`Ruleset`:

* a game is ``(ruleset id, options, seed)`` plus the ordered list of accepted ``(actor, action)``
  pairs; its state is a fold of :meth:`Ruleset.apply` over that log, starting from
  :meth:`Ruleset.new_game` (:func:`step` folds one entry). The log may also hold the site's
  **notes** (actor :data:`SITE`): things that happened to the table rather than in the game, such
  as a player's time running out and a stand-in bot taking the seat. The rules never read a note:
  :func:`note` only adds it to the state's events, so it is told in the log, versioned and
  replayed like an action, and every other part of the state stays as it was; the one exception
  is a note that records the players' vote to end the game (:data:`ENDS_GAME`), after which the
  ruleset ends it by its own reading of an early end (:func:`end_early`);
* :meth:`Ruleset.pending` says who must decide what now;
* :meth:`Ruleset.view` is the only way anything about a state reaches a browser;
* everything else the site shows of a game comes from the ruleset too, so that a new game is a new
  package plus one line of the registry (:mod:`game.rules`): the log's sentences
  (:func:`describe`, :func:`log_areas`), the bot's move (:meth:`Ruleset.bot_action`), and the
  words, time controls, board, client module and replay chapters of :class:`Presentation`
  (:func:`presentation`). The site never imports a ruleset package nor compares a ruleset id
  (``tests/test_layout.py``).

Actors are seat ids chosen by the ruleset (house ids such as ``"stark"`` for AGoT).
Actions travel as JSON objects ``{"type": "...", ...}``; :meth:`Ruleset.parse_action` turns one
into the ruleset's typed action value (a frozen dataclass) or raises :class:`IllegalAction`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, runtime_checkable

__all__ = [
    "IllegalAction", "Decision", "Ruleset", "Presentation", "presentation", "open_view", "progress", "SITE", "note",
    "note_of", "step", "describe", "log_areas", "LANGS", "lang_key", "pick", "WITHDRAW", "ENDS_GAME", "AGREED_END",
    "can_end_early", "end_early", "early_result", "seats_swappable", "swaps_seats", "BOT_LEVELS", "bot_levels",
]

#: the bot levels a ruleset may have, weakest first: ``"random"`` (any legal action), ``"basic"``
#: (quick rules of thumb, a fraction of a second), ``"strong"`` (a search within a time budget)
BOT_LEVELS = ("random", "basic", "strong")

#: the actor of the site's notes in a game's log (no ruleset has a seat of that name)
SITE = ""
#: the ``type`` of the action that takes back the actor's face-down answer to a simultaneous
#: decision while another actor of it has not answered (see :class:`Ruleset`)
WITHDRAW = "withdraw"
#: the languages a ruleset's texts are given in (``names``, :class:`Presentation`, :func:`describe`)
LANGS = ("en", "zh-hans")
#: a note holds at most this many members, each value a string (at most 40 characters), an int or a bool
NOTE_MAX_KEYS = 8
#: the member of a note of the site that, when ``True``, also ends the game by its players'
#: agreement (:func:`note`, :func:`end_early`)
ENDS_GAME = "end"
#: the ``reason`` of the result of a game its players agreed to end early (:func:`end_early`)
AGREED_END = "agreed_end"


class IllegalAction(ValueError):
    """An action the rules refuse; the state it was applied to is left unchanged.

    Attributes:
        code: a stable dotted identifier, e.g. ``"march.not_adjacent"`` or ``"action.malformed"``;
            the site translates by code, so a code never changes meaning once published.
        message: a plain English sentence for logs and for clients without a translation.
        params: JSON-able values the message refers to (area ids, numbers), used to build the
            translated message.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params = params

    def as_dict(self) -> dict[str, Any]:
        """``{"code": str, "message": str, "params": dict}``: the shape sent to a client."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


@dataclass(frozen=True)
class Decision:
    """One decision the game waits for.

    Attributes:
        actor: the seat (house id) that must decide.
        kind: what is to be decided, e.g. ``"place_orders"``, ``"bid"``, ``"choose_house_card"``;
            each ruleset documents its kinds (AGoT: ``docs/scenarios.md``).
        options: JSON-able hints for the actor's UI (legal choices, limits). It is part of that
            actor's view only, so it may describe the actor's own hidden items, never another's.
        simultaneous: True when several actors decide face-down at once (orders, bids, house
            cards); the ruleset reveals the choices only when the last one arrives.
    """

    actor: str
    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)
    simultaneous: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "kind": self.kind,
            "options": dict(self.options),
            "simultaneous": self.simultaneous,
        }


#: the time controls a lobby offers when a ruleset names none (see :attr:`Presentation.time_controls`)
DEFAULT_TIME_CONTROLS = ("live-60+20", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none")


@dataclass(frozen=True)
class Presentation:
    """How the site presents a ruleset: words, lobby choices, the client's files, replay chapters.
    Pure data; a ruleset offers it as its ``presentation`` attribute (:func:`presentation` gives
    these defaults to one that has none). Texts are given per language of :data:`LANGS`
    (``{"en": ..., "zh-hans": ...}``); a missing language falls back to English.

    Attributes:
        short_names: a shorter display name per language, for buttons ("Create a game: ...");
            default: the ruleset's ``names``.
        description: a paragraph per language for the lobby's game choice (default: none); a
            ruleset built partly from reconstructed facts says which parts.
        caveat: a few words per language shown beside the game's name in the site's list of
            games (e.g. that some facts are reconstructed); default: none.
        option_text: ``{option key: {lang: (label, help text)}}`` for the lobby's options
            (``default_options``); an option missing here is labelled by its key.
        seat_noun: what a seat is called, ``"house"`` or ``"side"`` (the site holds the translated
            words for each: "Your house", "Random side", ...); another noun gets the side's.
        round_noun: what one pass of play is called, ``"round"`` or ``"turn"`` (the replay's
            chapters: "Round 3", "Turn 12").
        phase_names: ``{phase: {lang: name}}`` of the phases :func:`progress` reports. With
            names, the replay has a chapter per round and phase ("Round 3 · Action"); without,
            one per round.
        time_controls: the time-control presets a lobby offers, the first the default; each
            ``"live-<minutes>+<seconds>"`` (a bank and an increment per decision),
            ``"deadline-<hours>h"`` (correspondence) or ``"none"``.
        renderer: the static path of the ES module that draws the game (exports
            ``mount(root, client)``, ``docs/ui.md``); empty: the site's generic screen, which
            lists each decision's ``options["actions"]`` as buttons.
        stylesheet: the static path of the game screen's stylesheet (empty: none).
        board: the id of a board that :mod:`game.boards` draws (its SVG and data are the
            screen's first fetches), or None.
    """

    short_names: Mapping[str, str] = field(default_factory=dict)
    description: Mapping[str, str] = field(default_factory=dict)
    caveat: Mapping[str, str] = field(default_factory=dict)
    option_text: Mapping[str, Mapping[str, tuple[str, str]]] = field(default_factory=dict)
    seat_noun: str = "side"
    round_noun: str = "round"
    phase_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    time_controls: tuple[str, ...] = DEFAULT_TIME_CONTROLS
    renderer: str = ""
    stylesheet: str = ""
    board: str | None = None


def lang_key(lang: str | None) -> str:
    """The language of :data:`LANGS` that texts for the language code ``lang`` are given in:
    ``"zh-hans"`` for any Chinese code, else ``"en"``."""
    return "zh-hans" if (lang or "").lower().startswith("zh") else "en"


def pick(texts: Mapping[str, Any], lang: str, default: Any = "") -> Any:
    """``texts[lang]``, else the English text, else ``default`` (``texts`` per :data:`LANGS`)."""
    if lang in texts:
        return texts[lang]
    return texts.get("en", default)


@runtime_checkable
class Ruleset(Protocol):
    """What a ruleset module offers the site. ``State`` and ``Action`` are the ruleset's own types.

    Errors: every method that takes a client's input raises :class:`IllegalAction`, never another
    exception, for anything the rules or the action format refuse.

    Optional: ``shared_view(state) -> dict`` and ``own_view(state, viewer, pending=None) -> dict``,
    ``view`` split into the part every viewer of a state sees alike and the viewer's own part
    (``view(state, v) == {**shared_view(state), **own_view(state, v)}``, keys disjoint), so the
    server renders the shared part once per state (:mod:`game.live.apply`). ``own_view``'s
    ``pending`` is the list :meth:`pending` gave for the same state, when the caller has it (the
    same for every viewer: the ruleset need not work the decisions out again for each). Without
    them, the whole view is rendered per viewer.

    Optional, for the replay of finished games (use the module functions :func:`open_view` and
    :func:`progress`, which supply the defaults):

    * ``open_view(state, viewer) -> dict``: :meth:`view` with every hidden item shown (all
      face-down orders, bids, chosen cards, hands, private events), as at a table whose box has
      been opened. Used only once a game is over. Default: ``view(state, viewer)``.
    * ``progress(state) -> {"round": int | None, "phase": str | None}``: where a state stands in
      the game, for jumping to a round or phase in a replay. Default: read from
      ``view(state, None)`` (its ``round`` or ``turn``, and ``phase``).

    Optional, for the site's notes in the log (use the module function :func:`note`):

    * ``note(state, entry) -> State``: ``state`` with one more event, told to every viewer, that
      carries ``entry`` (a checked flat JSON object, see :func:`note`) under the key ``"note"``;
      nothing else changes: not the pending decisions, the result, the random generator nor the
      ruleset's own count of actions. AGoT's event is ``{"kind": "note", "round", "to": None,
      "note": entry}``, The Duke's ``{"type": "note", "turn", "note": entry}``. Default: the
      state unchanged (the note is then in the log but not in the state's events). The event
      is either kind, so :func:`note_of` finds the note in any ruleset's events.

    Optional, for the game log (use the module functions :func:`describe` and :func:`log_areas`):

    * ``describe(event, lang) -> str``: the sentence of one of a view's ``events`` in ``lang``
      (:data:`LANGS`). Default: the event's ``kind`` or ``type``.
    * ``log_areas(event) -> [str]``: the ids of the board areas the event names (the page
      highlights them while its line is hovered). Default: none.

    Optional: ``presentation``, a :class:`Presentation` (see :func:`presentation`).

    Optional, for the table's votes (use the module functions :func:`end_early`,
    :func:`early_result`, :func:`can_end_early` and :func:`seats_swappable`):

    * ``end_early(state) -> State``: the game ended now because its players agreed to stop,
      scored by the rules' own reading of an early end (AGoT: the end of the game's castle count
      and tie-breaks). ``result(new)`` is that result, with ``"reason"`` :data:`AGREED_END`;
      ``pending(new)`` is empty; ``state`` is untouched. Without it a game cannot be ended early.
    * ``seats_swappable(state) -> bool``: whether two players may still swap their seats (their
      houses) at this point of the game without either learning what the other's seat hid.
      Default: False.

    Change of mind: a ruleset with simultaneous (face-down) decisions accepts the action
    ``{"type": "withdraw"}`` (:data:`WITHDRAW`) from an actor that has answered one while another
    actor of it has not: the answer is taken back, told to others only as that actor being no
    longer ready, and the actor decides again. The site treats it as no decision for the clocks
    (the answer's credit is given back). Once the last answer is in, a withdrawal is refused.
    Bots never withdraw. The view tells who is ready (``view(...)["ready"]``, see :meth:`view`).
    """

    id: str  #: registry id, e.g. ``"agot2"``
    min_players: int
    max_players: int
    names: Mapping[str, str]  #: display name by language code (``"en"``, ``"zh-hans"``)
    default_options: Mapping[str, Any]  #: the options a lobby may set, with their defaults

    def seat_names(self) -> dict[str, dict[str, str]]:
        """``{seat id: {"en": name, "zh-hans": name}}`` for every seat the ruleset knows."""

    def seats(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """The seat (actor) ids in play for ``players`` players, in the lobby's display order."""

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> Any:
        """The initial state for ``players`` players, deterministic in ``seed`` and ``options``."""

    def parse_action(self, data: Any) -> Any:
        """A typed action from its JSON form; raises ``IllegalAction("action.malformed", ...)``."""

    def apply(self, state: Any, actor: str, action: Any) -> Any:
        """The state after ``actor`` takes ``action``; ``state`` itself is never modified."""

    def pending(self, state: Any) -> list[Decision]:
        """Who must decide what now; empty exactly when the game is over."""

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """Everything ``viewer`` (a seat id, or None for a spectator) may know, JSON-able. The
        site reads one key of it: ``ready`` (optional, a list of seat ids), the seats that have
        answered a simultaneous decision still awaiting others (the seat list marks them)."""

    def result(self, state: Any) -> dict[str, Any] | None:
        """None while the game runs; then ``{"winner": seat, "reason": str, ...}``."""

    def bot_action(self, state: Any, actor: str, level: str, seed: int, budget: float | None = None) -> Any:
        """A legal action for ``actor`` chosen by the bot ``level`` (one of :data:`BOT_LEVELS`
        that the ruleset has, :func:`bot_levels`).

        ``seed`` (an int below 2**63) is the bot's only randomness: the same state, actor, level,
        seed and budget give the same action (a ``strong`` bot cut short by its budget may differ).
        ``budget`` is the CPU time in seconds the bot may think for this decision (None: the
        level's own default; ``random`` and ``basic`` ignore it); a ``strong`` bot returns within
        about that time, plus the cost of one step of its search. Raises
        ``IllegalAction`` when ``actor`` has nothing to decide, or ``bot.level`` for a level the
        ruleset does not have (a ruleset may answer it with a lower level instead).

        A bot decides from ``view(state, actor)`` and ``pending(state)`` only: it knows what a
        player in that seat knows, nothing more. Each level answers every decision the ruleset
        makes: the site applies what it returns and, should that be refused, picks one of the
        decision's ``options["actions"]`` when it lists them, else the game waits.
        """


def open_view(rules: Any, state: Any, viewer: str | None) -> dict[str, Any]:
    """``rules.open_view(state, viewer)`` when the ruleset has it (everything shown, for a game
    that is over), else ``rules.view(state, viewer)``: a ruleset without it shows a finished
    game's replay exactly as each viewer saw it live, never more."""
    fn = getattr(rules, "open_view", None)
    return fn(state, viewer) if fn is not None else rules.view(state, viewer)


def progress(rules: Any, state: Any) -> dict[str, Any]:
    """``{"round": int | None, "phase": str | None}`` of ``state``: ``rules.progress(state)``
    when the ruleset has it, else read from the spectator's view (``round`` or ``turn``, and
    ``phase``)."""
    fn = getattr(rules, "progress", None)
    if fn is not None:
        return fn(state)
    v = rules.view(state, None)
    r = v.get("round", v.get("turn"))
    return {"round": r if isinstance(r, int) else None, "phase": v.get("phase") if isinstance(v.get("phase"), str) else None}


def note(rules: Any, state: Any, entry: Any) -> Any:
    """``state`` with the site's note ``entry`` among its events (``rules.note`` when the ruleset
    has it, else ``state`` unchanged); ``state`` itself is not modified.

    ``entry`` must be a JSON object of at most :data:`NOTE_MAX_KEYS` members with a string
    ``"type"``, each value a string of at most 40 characters, an int or a bool (a note names a
    seat and what happened to it, ``{"type": "timeout", "seat": "stark"}``: never free text).
    Raises ``IllegalAction("note.malformed")`` otherwise. A note whose member :data:`ENDS_GAME`
    is ``True`` (the players voted to end the game) also ends it: :func:`end_early` of the state
    with the note among its events, so the log tells the vote before the end.

    >>> from game.rules import get_ruleset
    >>> rules = get_ruleset("duke")
    >>> s = rules.new_game(2, 1, {})
    >>> t = note(rules, s, {"type": "timeout", "seat": "light"})
    >>> t.events[-1]["note"], rules.pending(t) == rules.pending(s)
    ({'type': 'timeout', 'seat': 'light'}, True)
    """
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("type"), str)
        or len(entry) > NOTE_MAX_KEYS
        or not all(isinstance(k, str) and len(k) <= 40 for k in entry)
        or not all(type(v) in (int, bool) or (type(v) is str and len(v) <= 40) for v in entry.values())
    ):
        raise IllegalAction("note.malformed", "A note is a small flat object with a string type.")
    fn = getattr(rules, "note", None)
    new = fn(state, dict(entry)) if fn is not None else state
    if entry.get(ENDS_GAME) is True:
        new = end_early(rules, new)
    return new


def step(rules: Any, state: Any, actor: str, data: Any) -> Any:
    """The state after one entry of a game's log: ``(actor, data)`` as stored (``data`` the
    action's JSON object), a note of the site when ``actor`` is :data:`SITE` (:func:`note`), else
    ``rules.apply(state, actor, rules.parse_action(data))``. Replays, snapshots and exports all
    fold a log with it. Raises :class:`IllegalAction` as those do."""
    if actor == SITE:
        return note(rules, state, data)
    return rules.apply(state, actor, rules.parse_action(data))


def note_of(event: Any) -> dict[str, Any] | None:
    """The site's note an event of a view carries (see :meth:`Ruleset.note`: an event whose
    ``kind``, or else ``type``, is ``"note"``, holding the note under ``"note"``), or None for
    any other event.

    >>> note_of({"kind": "note", "round": 2, "note": {"type": "timeout", "seat": "stark"}})
    {'type': 'timeout', 'seat': 'stark'}
    >>> note_of({"type": "move", "turn": 3}) is None
    True
    """
    if not isinstance(event, dict):
        return None
    marker = event.get("kind", event.get("type"))
    note = event.get("note")
    return note if marker == "note" and isinstance(note, dict) else None


def describe(rules: Any, event: dict[str, Any], lang: str) -> str:
    """The sentence of ``event`` (one of a view's ``events``) in ``lang``: ``rules.describe``
    when the ruleset has it, else the event's ``kind`` or ``type``. A note of the site is the
    site's to tell (:func:`note_of`); this tells the game's own events."""
    fn = getattr(rules, "describe", None)
    if fn is not None:
        return fn(event, lang)
    return str(event.get("kind") or event.get("type") or "?")


def log_areas(rules: Any, event: dict[str, Any]) -> list[str]:
    """The ids of the board areas ``event`` names: ``rules.log_areas`` when the ruleset has it,
    else ``[]`` (a game without areas)."""
    fn = getattr(rules, "log_areas", None)
    return list(fn(event)) if fn is not None else []


def can_end_early(rules: Any) -> bool:
    """Whether a game of ``rules`` can be ended early by its players (the ruleset has
    ``end_early``)."""
    return callable(getattr(rules, "end_early", None))


def end_early(rules: Any, state: Any) -> Any:
    """``rules.end_early(state)``: the game ended now by its players' agreement, scored by its
    rules (``result(new)["reason"]`` is :data:`AGREED_END`, nothing pending). Raises
    ``IllegalAction("game.no_early_end")`` for a ruleset that cannot end early, ``game.over``
    for a game already over."""
    fn = getattr(rules, "end_early", None)
    if not callable(fn):
        raise IllegalAction("game.no_early_end", "This game cannot be ended early.")
    if rules.result(state) is not None:
        raise IllegalAction("game.over", "The game is over.")
    new = fn(state)
    result = rules.result(new)
    if not isinstance(result, dict) or result.get("reason") != AGREED_END or rules.pending(new):
        raise ValueError("end_early must end the game with the reason AGREED_END")
    return new


def early_result(rules: Any, state: Any) -> dict[str, Any] | None:
    """The result ``state``'s game would have if its players ended it now (:func:`end_early`),
    or None when the ruleset cannot end early or the game is over. ``state`` is untouched."""
    if not can_end_early(rules) or rules.result(state) is not None:
        return None
    return rules.result(end_early(rules, state))


def swaps_seats(rules: Any) -> bool:
    """Whether ``rules`` ever lets players swap seats (it has ``seats_swappable``)."""
    return callable(getattr(rules, "seats_swappable", None))


def seats_swappable(rules: Any, state: Any) -> bool:
    """``rules.seats_swappable(state)`` when the ruleset has it, else False: by default players
    never swap seats, since a seat may hide what its player knows."""
    fn = getattr(rules, "seats_swappable", None)
    return bool(fn(state)) if callable(fn) and rules.result(state) is None else False


_DEFAULT_PRESENTATION = Presentation()


def bot_levels(rules: Any) -> tuple[str, ...]:
    """The bot levels ``rules`` plays, in :data:`BOT_LEVELS` order: its ``bot_levels`` attribute
    (a collection of level names) when it has one, else ``("random", "basic")``."""
    levels = getattr(rules, "bot_levels", None) or ("random", "basic")
    return tuple(x for x in BOT_LEVELS if x in levels)


def presentation(rules: Any) -> Presentation:
    """``rules.presentation`` when the ruleset has one, else the defaults of :class:`Presentation`."""
    p = getattr(rules, "presentation", None)
    return p if isinstance(p, Presentation) else _DEFAULT_PRESENTATION
