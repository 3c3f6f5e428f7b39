"""How the site presents a ruleset's lobby options (``Ruleset.default_options``).

The ruleset says which options exist and their defaults; this module gives each known option a
translated label and help text. An option missing here still works, labelled by its key.
Boolean options become checkboxes on the create form.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: option key -> (label, help text)
OPTION_TEXT = {
    "tides_of_battle": (
        _("Tides of Battle"),
        _("Optional rule: each combatant also draws a Tides of Battle card."),
    ),
    # The Duke
    "mountain": (_("Mountain"), _("Terrain: a Mountain tile on a random empty square blocks paths and strikes.")),
    "dragon": (_("Dragon"), _("Terrain: the Dragon takes its own turn between the players' turns.")),
    "duchess": (_("Duchess"), _("Enhanced tile in each bag: she can be summoned beside the Duke.")),
    "oracle": (_("Oracle"), _("Enhanced tile in each bag: Divination draws up to three tiles to choose from.")),
}


def option_label(key: str):
    return OPTION_TEXT.get(key, (key.replace("_", " ").capitalize(), ""))[0]


def option_help(key: str):
    return OPTION_TEXT.get(key, ("", ""))[1]


#: what a seat is called, by ruleset id: the lobby form's field label and "random" choice, and the
#: refusals that name a seat; rulesets not listed use ``SEAT_WORDS_DEFAULT`` (a "side")
_HOUSE_WORDS = {
    "field": _("Your house"),
    "random": _("Random house"),
    "taken": _("That house is already taken. Choose another one."),
    "not_in_play": _("That house is not in play in this game."),
    "not_at_count": _("That house is not in play with this many players."),
}
SEAT_WORDS = {"agot2": _HOUSE_WORDS, "agot1": _HOUSE_WORDS}
SEAT_WORDS_DEFAULT = {
    "field": _("Your side"),
    "random": _("Random side"),
    "taken": _("That side is already taken. Choose another one."),
    "not_in_play": _("That side is not in play in this game."),
    "not_at_count": _("That side is not in play with this many players."),
}


#: a short description of a ruleset for the lobby's game choice, by ruleset id (rulesets not listed
#: have none); a ruleset built partly from reconstructed facts says which parts
RULESET_DESCRIPTIONS = {
    "agot2": _("The 2011 edition for 3 to 6 players, with House Martell, ports, garrisons and the wildling cards."),
    "agot1": _(
        "The 2003 edition for 3 to 5 players (no Martell, no ports or garrisons), played from its "
        "rulebook. Some facts the rulebook does not print are reconstructed: the Westeros decks and "
        "their wildling icons, the wildling track, the starting supply, Renly's and Ser Davos's "
        "cards and a few borders of the board."
    ),
    "duke": _("A two-player duel of tiles that flip after each move, on a 6 x 6 board."),
}


def ruleset_description(ruleset_id: str):
    """The translated (lazy) description of ``ruleset_id`` for the lobby, or ``""``."""
    return RULESET_DESCRIPTIONS.get(ruleset_id, "")


def seat_words(ruleset_id: str) -> dict:
    """The translated (lazy) words for a seat of ``ruleset_id``: keys ``field``, ``random``,
    ``taken``, ``not_in_play``, ``not_at_count``."""
    return SEAT_WORDS.get(ruleset_id, SEAT_WORDS_DEFAULT)


# --- time control (issue 14): a site option, not a rules option (the engines keep no clock) -------
#: preset id -> (label, time control without ``max_timeouts``; see game.live.clocks.parse)
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
#: the presets offered per ruleset id, the first being the default; others use the AGoT list
TIME_CONTROL_CHOICES = {
    "agot2": ["live-60+20", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none"],
    "agot1": ["live-60+20", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none"],
    "duke": ["live-10+5", "live-5+3", "live-30+10", "deadline-12h", "deadline-24h", "deadline-48h", "none"],
}
MAX_TIMEOUTS_DEFAULT = 3
VACATION_DAYS_DEFAULT = 7


def time_control_choices(ruleset_id: str) -> list[tuple[str, object]]:
    """``[(preset id, label)]`` for ``ruleset_id``'s lobby form, the default first."""
    ids = TIME_CONTROL_CHOICES.get(ruleset_id, TIME_CONTROL_CHOICES["agot2"])
    return [(i, TIME_CONTROLS[i][0]) for i in ids]


def time_control_of(preset: str, max_timeouts: int = MAX_TIMEOUTS_DEFAULT, vacation_days: float = VACATION_DAYS_DEFAULT) -> dict:
    """The time control of a preset id with the lobby's time-out limit and vacation allowance
    (days; deadline presets only). KeyError for an unknown preset."""
    tc = dict(TIME_CONTROLS[preset][1])
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
    for label, preset in TIME_CONTROLS.values():
        if all(tc.get(k) == v for k, v in preset.items()):
            return str(label)
    if tc.get("kind") == "live":
        return gettext("Live clock: %(bank)s s + %(inc)s s per decision") % {"bank": tc.get("bank"), "inc": tc.get("increment")}
    return gettext("Correspondence: %(limit)s s per decision") % {"limit": tc.get("per_move")}
