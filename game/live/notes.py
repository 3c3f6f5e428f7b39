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
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from game.rules import get_ruleset
from game.rules.base import lang_key

TIMEOUT, STAND_IN, TAKE_BACK = "timeout", "stand_in", "take_back"
VACATION_ON, VACATION_OFF, VACATION_OVER = "vacation_on", "vacation_off", "vacation_over"
KINDS = (TIMEOUT, STAND_IN, TAKE_BACK, VACATION_ON, VACATION_OFF, VACATION_OVER)


def entry(kind: str, seat: str) -> dict[str, str]:
    """The note of ``kind`` about ``seat``, as stored in the log: ``{"type": kind, "seat": seat}``."""
    if kind not in KINDS:
        raise ValueError(f"unknown note {kind!r}")
    return {"type": kind, "seat": seat}


def text(ruleset: str, note: dict[str, Any], lang: str) -> str:
    """The log line of ``note`` in ``lang`` ("The stand-in plays for Stark: Stark's time ran out.").
    An unknown kind is told by its kind (a note written by a later version of the site)."""
    key = lang_key(lang)
    seat = note.get("seat")
    house = get_ruleset(ruleset).seat_names().get(seat, {}).get(key, str(seat))
    with translation.override(key):
        kind = note.get("type")
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
