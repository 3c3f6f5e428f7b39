"""How the site presents a ruleset's lobby: its options, the words for its seats, its description
and the time controls it offers, all read from the ruleset's :class:`~game.rules.base.Presentation`
(:func:`game.rules.base.presentation`) in the active language.

Boolean options become checkboxes on the create form; an option the ruleset gives no text for is
labelled by its key. The site holds the translated words for each kind of seat (a "house", a
"side"); a ruleset names its kind.
"""

from __future__ import annotations

import re

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from game.rules import REGISTRY, get_ruleset
from game.rules.base import lang_key, pick, presentation


def _presentation(ruleset_id: str):
    return presentation(get_ruleset(ruleset_id))


def option_label(ruleset_id: str, key: str) -> str:
    """The label of ``ruleset_id``'s lobby option ``key`` in the active language (its key,
    capitalised, when the ruleset gives none)."""
    texts = _presentation(ruleset_id).option_text.get(key)
    return pick(texts, lang_key(get_language()), ("", ""))[0] if texts else key.replace("_", " ").capitalize()


def option_help(ruleset_id: str, key: str) -> str:
    """The help text of ``ruleset_id``'s lobby option ``key`` in the active language, or ``""``."""
    texts = _presentation(ruleset_id).option_text.get(key)
    return pick(texts, lang_key(get_language()), ("", ""))[1] if texts else ""


#: what a seat is called, by :attr:`~game.rules.base.Presentation.seat_noun`: the lobby form's
#: field label and "random" choice, and the refusals that name a seat; another noun gets the side's
SEAT_WORDS = {
    "house": {
        "field": _("Your house"),
        "random": _("Random house"),
        "taken": _("That house is already taken. Choose another one."),
        "not_in_play": _("That house is not in play in this game."),
        "not_at_count": _("That house is not in play with this many players."),
    },
    "side": {
        "field": _("Your side"),
        "random": _("Random side"),
        "taken": _("That side is already taken. Choose another one."),
        "not_in_play": _("That side is not in play in this game."),
        "not_at_count": _("That side is not in play with this many players."),
    },
}


def game_choices(current: str | None = None) -> list[dict]:
    """Every registered game, in the registry's order, for the site's lists and choices, in the
    active language: ``[{"id", "name", "short_name", "min_players", "max_players", "caveat",
    "current"}]`` (``current``: its id is ``current``)."""
    lang = lang_key(get_language())
    out = []
    for gid in REGISTRY:
        rules = get_ruleset(gid)
        shown = presentation(rules)
        name = pick(rules.names, lang)
        out.append({
            "id": gid, "name": name, "short_name": pick(shown.short_names, lang, name),
            "min_players": rules.min_players, "max_players": rules.max_players,
            "caveat": pick(shown.caveat, lang), "current": gid == current,
        })
    return out


def ruleset_description(ruleset_id: str) -> str:
    """The description of ``ruleset_id`` for the lobby in the active language, or ``""``."""
    return pick(_presentation(ruleset_id).description, lang_key(get_language()))


def seat_words(ruleset_id: str) -> dict:
    """The translated (lazy) words for a seat of ``ruleset_id``: keys ``field``, ``random``,
    ``taken``, ``not_in_play``, ``not_at_count``."""
    return SEAT_WORDS.get(_presentation(ruleset_id).seat_noun, SEAT_WORDS["side"])


# --- time control: a site option, not a rules option (the engines keep no clock) ----------------
#: the presets with a label of their own: preset id -> (label, time control without
#: ``max_timeouts``; see game.live.clocks.parse). Any other id of the presets' form
#: (:attr:`game.rules.base.Presentation.time_controls`) is read by :func:`preset`.
TIME_CONTROLS = {
    "none": (_("None (no clock)"), {"kind": "none"}),
    "live-5+3": (_("Live clock: 5 minutes + 3 seconds per decision"), {"kind": "live", "bank": 300, "increment": 3}),
    "live-10+5": (_("Live clock: 10 minutes + 5 seconds per decision"), {"kind": "live", "bank": 600, "increment": 5}),
    "live-30+10": (_("Live clock: 30 minutes + 10 seconds per decision"), {"kind": "live", "bank": 1800, "increment": 10}),
    "live-60+20": (_("Live clock: 60 minutes + 20 seconds per decision"), {"kind": "live", "bank": 3600, "increment": 20}),
    "deadline-12h": (_("Correspondence: 12 hours per decision"), {"kind": "deadline", "per_move": 12 * 3600}),
    "deadline-24h": (_("Correspondence: 24 hours per decision"), {"kind": "deadline", "per_move": 24 * 3600}),
    "deadline-48h": (_("Correspondence: 48 hours per decision"), {"kind": "deadline", "per_move": 48 * 3600}),
}
MAX_TIMEOUTS_DEFAULT = 3
VACATION_DAYS_DEFAULT = 7


_LIVE = re.compile(r"live-([1-9][0-9]{0,3})\+([0-9]{1,3})")
_DEADLINE = re.compile(r"deadline-([1-9][0-9]{0,2})h")


def preset(preset_id: str) -> tuple[object, dict]:
    """``(label, time control without max_timeouts)`` of a preset id: ``"live-<minutes>+<seconds>"``,
    ``"deadline-<hours>h"`` or ``"none"``. KeyError for an id of another form."""
    if preset_id in TIME_CONTROLS:
        return TIME_CONTROLS[preset_id]
    if m := _LIVE.fullmatch(preset_id):
        tc = {"kind": "live", "bank": int(m.group(1)) * 60, "increment": int(m.group(2))}
    elif m := _DEADLINE.fullmatch(preset_id):
        tc = {"kind": "deadline", "per_move": int(m.group(1)) * 3600}
    else:
        raise KeyError(preset_id)
    return time_control_label(tc), tc


def time_control_choices(ruleset_id: str) -> list[tuple[str, object]]:
    """``[(preset id, label)]`` for ``ruleset_id``'s lobby form, the default first: the ruleset's
    :attr:`~game.rules.base.Presentation.time_controls` (those of a form :func:`preset` cannot
    read are left out)."""
    out = []
    for i in _presentation(ruleset_id).time_controls:
        try:
            out.append((i, preset(i)[0]))
        except KeyError:
            continue
    return out


def time_control_of(preset_id: str, max_timeouts: int = MAX_TIMEOUTS_DEFAULT, vacation_days: float = VACATION_DAYS_DEFAULT) -> dict:
    """The time control of a preset id (:func:`preset`) with the lobby's time-out limit and
    vacation allowance (days; deadline presets only). KeyError for an unknown preset."""
    tc = dict(preset(preset_id)[1])
    if tc["kind"] != "none":
        tc["max_timeouts"] = max_timeouts
    if tc["kind"] == "deadline":
        tc["vacation"] = vacation_days * 86400
    return tc


def time_control_label(tc: dict | None) -> str:
    """A short translated description of a stored time control, e.g. "Live clock: 10 minutes + 5
    seconds per decision"; empty for none."""
    from django.utils.translation import gettext

    if not tc or tc.get("kind") in (None, "none"):
        return ""
    for label, spec in TIME_CONTROLS.values():
        if all(tc.get(k) == v for k, v in spec.items()):
            return str(label)
    if tc.get("kind") == "live":
        bank, inc = tc.get("bank"), tc.get("increment")
        if isinstance(bank, int) and bank % 60 == 0:
            return gettext("Live clock: %(minutes)s minutes + %(seconds)s seconds per decision") % {"minutes": bank // 60, "seconds": inc}
        return gettext("Live clock: %(bank)s s + %(inc)s s per decision") % {"bank": bank, "inc": inc}
    limit = tc.get("per_move")
    if isinstance(limit, int) and limit % 3600 == 0:
        return gettext("Correspondence: %(hours)s hours per decision") % {"hours": limit // 3600}
    return gettext("Correspondence: %(limit)s s per decision") % {"limit": limit}
