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
SEAT_WORDS = {
    "agot2": {
        "field": _("Your house"),
        "random": _("Random house"),
        "taken": _("That house is already taken. Choose another one."),
        "not_in_play": _("That house is not in play in this game."),
        "not_at_count": _("That house is not in play with this many players."),
    },
}
SEAT_WORDS_DEFAULT = {
    "field": _("Your side"),
    "random": _("Random side"),
    "taken": _("That side is already taken. Choose another one."),
    "not_in_play": _("That side is not in play in this game."),
    "not_at_count": _("That side is not in play with this many players."),
}


def seat_words(ruleset_id: str) -> dict:
    """The translated (lazy) words for a seat of ``ruleset_id``: keys ``field``, ``random``,
    ``taken``, ``not_in_play``, ``not_at_count``."""
    return SEAT_WORDS.get(ruleset_id, SEAT_WORDS_DEFAULT)
