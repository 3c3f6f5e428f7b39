"""A game against bots in one click (the home page's "Play against bots").

A private lobby without a password (so not listed), no clock, the player on a random seat and
bots of the chosen level on every other seat, started at once: the player lands on the table.
Which games are offered, and at how many players, is ``settings.GAME_AGAINST_BOTS`` (by default
AGoT 2nd edition at three players first, the shortest table of the main game, then The Duke).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game.models import BOT_LEVELS, Lobby
from game.rules import REGISTRY, get_ruleset

from . import lobbies


def choices() -> list[tuple[str, int]]:
    """``[(ruleset id, players)]`` a game against bots may be, the default first: those of
    ``settings.GAME_AGAINST_BOTS`` whose ruleset is registered and plays at that count."""
    out = []
    for ruleset, players in settings.GAME_AGAINST_BOTS:
        if ruleset in REGISTRY and get_ruleset(ruleset).min_players <= players <= get_ruleset(ruleset).max_players:
            out.append((ruleset, players))
    return out


def level_for(ruleset: str, level: str) -> str:
    """``level`` when ``ruleset`` has it, else the strongest level it has below it (``strong``
    falls back to ``basic``)."""
    have = lobbies.bot_levels(ruleset)
    if level in have:
        return level
    order = ("random", "basic", "strong")
    lower = [x for x in order[: order.index(level)] if x in have] if level in order else []
    return lower[-1] if lower else have[0]


def start_against_bots(user, ruleset: str, level: str, name: str) -> tuple[Lobby, str]:
    """Create, fill with bots and start a game of ``ruleset`` for ``user`` (see the module);
    returns the started lobby and the level the bots play (:func:`level_for`). Raises
    :class:`game.site.lobbies.LobbyError` for a game not offered or an unknown level, or what
    creating the lobby raises (the cap of open lobbies); nothing is written then."""
    players = dict(choices()).get(ruleset)
    if players is None:
        raise lobbies.LobbyError(_("Unknown game."), "ruleset")
    if level not in BOT_LEVELS:
        raise lobbies.LobbyError(_("Unknown bot level."), "level")
    played = level_for(ruleset, level)
    with transaction.atomic():
        lobby = lobbies.create_lobby(user, name=name, players=players, ruleset=ruleset, is_private=True)
        for _seat in range(players - 1):
            lobbies.add_bot(lobby.pk, user, level=played)
        lobby = lobbies.start_lobby(lobby.pk, user)
    return lobby, played
