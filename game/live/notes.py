"""The site's notes in a game's log: what happened at the table rather than in the game.

A time-out, a hand-over to a stand-in bot, a take-back, a vacation: none is a move of the rules,
yet the players must be told, and a reload, the replay and an export must still tell it. So each
one is an entry of the game's log like an action (a game is its log):
an :class:`~game.models.Action` row whose ``actor`` is :data:`game.rules.base.SITE` (empty) and
whose ``action`` is the note, ``{"type": kind, "seat": seat}``. It is written by the one apply
path (:func:`game.live.apply.note_locked`: under the game row's lock, with the change of seats or
clocks it records, the version bumped, the new ``state`` pushed), and folded by the pure engine's
:func:`game.rules.base.note`, which only adds it to the state's events (found again by
:func:`game.rules.base.note_of`), so the log panel tells it where it happened, to every viewer, in their language (:func:`text`).

The kinds (:data:`KINDS`):

* ``timeout``: the seat's clock or deadline ran out and the stand-in bot took it (the scheduler);
* ``stand_in``: another player handed the away seat to the stand-in bot;
* ``take_back``: the seat's player took it back from the stand-in;
* ``vacation_on`` / ``vacation_off``: the player paused their correspondence deadlines, or ended
  that; ``vacation_over``: the allowance was used up (the scheduler).

The table's votes (:mod:`game.live.votes`; ``vote`` is the vote's number, ``kind`` one of
:data:`game.live.table.KINDS`, ``target`` the seat it names, ``minutes`` a pause's length):

* ``vote_open`` (``seat``: who asks), ``vote_yes`` / ``vote_no`` (``seat``: whose ballot);
* ``vote_pass``: the vote passed and what it does is done in the same transaction (a pause
  starts, the clocks are extended, a seat opens for a new player, two houses are swapped; the
  end of the game carries ``"end": true``, which the engine folds into the game's end);
* ``vote_fail`` (``why``: ``refused``, with the ``seat`` that said no; ``expired``; ``not_now``:
  the game has moved past the point where it could be done);
* ``pause_end``: the pause is over (``seat``: who ended it early, absent when its time ran out);
* ``seat_filled``: a new person took the seat the table opened.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from game.rules import get_ruleset
from game.rules.base import lang_key

TIMEOUT, STAND_IN, TAKE_BACK = "timeout", "stand_in", "take_back"
VACATION_ON, VACATION_OFF, VACATION_OVER = "vacation_on", "vacation_off", "vacation_over"
VOTE_OPEN, VOTE_YES, VOTE_NO, VOTE_PASS, VOTE_FAIL = "vote_open", "vote_yes", "vote_no", "vote_pass", "vote_fail"
PAUSE_END, SEAT_FILLED = "pause_end", "seat_filled"
KINDS = (
    TIMEOUT, STAND_IN, TAKE_BACK, VACATION_ON, VACATION_OFF, VACATION_OVER,
    VOTE_OPEN, VOTE_YES, VOTE_NO, VOTE_PASS, VOTE_FAIL, PAUSE_END, SEAT_FILLED,
)


def entry(note_type: str, seat: str | None = None, /, **extra: Any) -> dict[str, Any]:
    """The note of ``note_type`` about ``seat``, as stored in the log: ``{"type": note_type,
    "seat": seat}`` and the ``extra`` members that are not None (a vote's number, kind, target...)."""
    if note_type not in KINDS:
        raise ValueError(f"unknown note {note_type!r}")
    out: dict[str, Any] = {"type": note_type}
    if seat is not None:
        out["seat"] = seat
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def _asked(kind: Any, minutes: Any, target: str) -> str:
    """What a vote of ``kind`` asks, in the active language ("to pause the game for 10 minutes")."""
    if kind == "pause":
        return gettext("to pause the game for %(minutes)s minutes") % {"minutes": minutes}
    if kind == "extend":
        return gettext("to extend every clock and deadline")
    if kind == "end":
        return gettext("to end the game now")
    if kind == "replace":
        return gettext("to replace the player of %(house)s") % {"house": target}
    if kind == "swap":
        return gettext("to swap houses with %(house)s") % {"house": target}
    return str(kind)


def _vote_text(kind: str, note: dict[str, Any], house: str, target: str) -> str | None:
    """The log line of a note of the table's votes (active language), or None for another note."""
    asked = _asked(note.get("kind"), note.get("minutes"), target)
    if kind == VOTE_OPEN:
        return gettext("Vote: %(house)s asks %(what)s.") % {"house": house, "what": asked}
    if kind == VOTE_YES:
        return gettext("%(house)s votes yes.") % {"house": house}
    if kind == VOTE_NO:
        return gettext("%(house)s votes no.") % {"house": house}
    if kind == VOTE_FAIL:
        why = note.get("why")
        if why == "refused":
            return gettext("The vote %(what)s failed: %(house)s voted no.") % {"what": asked, "house": house}
        if why == "not_now":
            return gettext("The vote %(what)s failed: it can no longer be done at this point of the game.") % {"what": asked}
        return gettext("The vote %(what)s expired.") % {"what": asked}
    if kind == VOTE_PASS:
        v = note.get("kind")
        if v == "pause":
            return gettext("The table agreed: the game is paused for %(minutes)s minutes; clocks and deadlines stop.") % {"minutes": note.get("minutes")}
        if v == "extend":
            return gettext("The table agreed: every clock and deadline is extended.")
        if v == "end":
            return gettext("The table agreed to end the game now.")
        if v == "replace":
            return gettext("The table agreed: the seat of %(house)s is open for a new player; a bot plays it meanwhile.") % {"house": target}
        if v == "swap":
            return gettext("The table agreed: %(house)s and %(other)s swap houses.") % {"house": house, "other": target}
        return gettext("The table agreed.")
    if kind == PAUSE_END:
        if note.get("seat"):
            return gettext("%(house)s ended the pause: clocks and deadlines run again.") % {"house": house}
        return gettext("The pause is over: clocks and deadlines run again.")
    if kind == SEAT_FILLED:
        return gettext("A new player takes the seat of %(house)s.") % {"house": house}
    return None


def text(ruleset: str, note: dict[str, Any], lang: str) -> str:
    """The log line of ``note`` in ``lang`` ("The stand-in plays for Stark: Stark's time ran out.").
    An unknown kind is told by its kind (a note written by a later version of the site)."""
    key = lang_key(lang)
    names = get_ruleset(ruleset).seat_names()
    seat = note.get("seat")
    house = names.get(seat, {}).get(key, str(seat))
    target = names.get(note.get("target"), {}).get(key, str(note.get("target")))
    with translation.override(key):
        kind = note.get("type")
        told = _vote_text(kind, note, house, target)
        if told is not None:
            return told
        if kind == STAND_IN:
            return gettext("A bot now plays for %(house)s.") % {"house": house}
        if kind == TIMEOUT:
            return gettext("The stand-in plays for %(house)s: %(house)s's time ran out.") % {"house": house}
        if kind == VACATION_ON:
            return gettext("%(house)s is on vacation: their deadlines are paused.") % {"house": house}
        if kind == VACATION_OFF:
            return gettext("%(house)s is back from vacation.") % {"house": house}
        if kind == VACATION_OVER:
            return gettext("%(house)s's vacation is used up: their deadline runs again.") % {"house": house}
        if kind == TAKE_BACK:
            return gettext("%(house)s is back: the bot no longer plays for them.") % {"house": house}
        return str(kind)
