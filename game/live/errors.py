"""Errors sent to a player, translated by code.

The engines raise :class:`~game.rules.IllegalAction` with a stable dotted ``code`` and an English
``message`` (engine strings are not in the catalogue); live play adds its own codes. ``translate``
gives ``{"code", "message", "params"}`` with the message in the active language: the code's own
sentence when this table has one, else the sentence of its family (``"march.*"``), else a general
one. The engine's English message stays available under ``params["detail"]``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    # live play
    "version.stale": _("The game moved on while you were deciding. Here is the current position."),
    "act.spectator": _("Spectators cannot act in the game."),
    "act.not_a_player": _("You do not have a seat in this game."),
    "act.bot_seat": _("A bot plays this seat."),
    "message.malformed": _("That message could not be read."),
    "message.too_large": _("That message is too long."),
    "message.unknown_type": _("Unknown message type."),
    "server.error": _("The server could not handle that message. Please try again."),
    "rate_limited": _("Too many messages; slow down a little."),
    "chat.empty": _("Write something first."),
    "chat.too_long": _("Chat messages are limited to %(limit)s characters."),
    "chat.bad_channel": _("You cannot write to that chat."),
    "chat.muted": _("A moderator has muted you for %(minutes)s more minutes: you can still play, but not chat."),
    "chat.hide_login": _("Log in to hide a player's chat."),
    "chat.no_line": _("There is no such chat line."),
    "chat.hide_self": _("You cannot hide your own lines."),
    "chat.hide_limit": _("You already hide %(limit)s players."),
    "chat.not_hidden": _("You do not hide that player."),
    "game.not_found": _("This game does not exist."),
    "server.unavailable": _("The server cannot reach its database right now. Try again in a moment."),
    "stand_in.not_a_player": _("Only the players of this game can hand a seat to a bot."),
    "stand_in.bad_seat": _("There is no player's seat of that name in this game."),
    "stand_in.self": _("You cannot hand your own seat to a bot."),
    "stand_in.already": _("A bot already plays that seat."),
    "stand_in.not_away": _("That player has not been awaited long enough."),
    "stand_in.none": _("No bot plays your seat."),
    "stand_in.owed": _("Your time ran out: the bot makes that move first, then you can take your seat back."),
    "vacation.not_a_player": _("Only the players of this game can take a vacation."),
    "vacation.not_allowed": _("This game has no vacation allowance."),
    "vacation.bad_value": _("Say whether your vacation is on or off."),
    "vacation.none_left": _("Your vacation allowance is used up."),
    "vacation.too_soon": _("Your last vacation has just ended: you can start another in %(wait)s seconds."),
    "stand_in.paused": _("The game is paused: nobody's wait counts until it goes on."),
    "vacation.paused": _("The game is paused: change your vacation once it goes on."),
    "vote.bad_kind": _("There is no such vote."),
    "vote.not_a_player": _("Only the players of this game can vote."),
    "vote.open_already": _("Another vote is open: answer it first."),
    "vote.too_soon": _("Your last vote failed a moment ago: you can ask again in %(wait)s seconds."),
    "vote.untimed": _("This game has no clock to stop or extend."),
    "vote.paused_already": _("The game is paused already."),
    "vote.bad_minutes": _("A pause lasts from 1 to %(limit)s minutes."),
    "vote.extended_already": _("The clocks have been extended once already in this game."),
    "vote.not_offered": _("This game cannot be ended early."),
    "vote.bad_seat": _("There is no other player's seat of that name in this game."),
    "vote.not_now": _("Houses can no longer be swapped in this game."),
    "vote.bad_value": _("Answer yes or no."),
    "vote.gone": _("That vote is over."),
    "vote.not_voter": _("This vote is about your seat: it is not yours to answer."),
    "vote.already": _("You have voted already."),
    "vote.not_paused": _("The game is not paused."),
    "vote.not_yours": _("Only the player who asked for the pause can end it early."),
    "seat.login": _("Log in to take a seat."),
    "seat.not_open": _("That seat is not open."),
    "seat.seated": _("You play in this game already."),
    "seat.replaced": _("The table replaced you in this game: another player takes your seat."),
    "game.no_early_end": _("This game cannot be ended early."),
    "replay.no_version": _("This game has no such moment."),
    "replay.players_only": _("Only the players of this game can replay it while it is being played."),
    "export.not_finished": _("A game can be downloaded once it is over."),
    # rules engines (shared codes)
    "game.over": _("The game is over."),
    "action.malformed": _("That action is not well formed."),
    "action.not_your_turn": _("Nothing is waiting for your decision now."),
    "withdraw.too_late": _("Too late to change: the choices have been revealed."),
    "withdraw.nothing": _("You have nothing to take back: you have not chosen yet."),
    "turn.not_your_turn": _("It is not your turn."),
    "action.unexpected": _("That action does not answer the current decision."),
    "orders.missing": _("Place an order in every area with your units."),
    "orders.forbidden": _("That order is forbidden this round."),
    "orders.token_unavailable": _("You have no such order token left."),
    "orders.not_your_area": _("You can only give orders in areas with your units."),
    "bid.out_of_range": _("You cannot bid more power than you have."),
    "march.not_adjacent": _("Units can only march to an adjacent area."),
    "march.supply": _("That march would break your supply limit."),
    "march.no_power": _("You have no power token to leave behind."),
    "muster.supply": _("That mustering would break your supply limit."),
    "tile.frozen": _("That tile is frozen and cannot act."),
    "duke.exposed": _("You may not leave your Duke in Guard."),
}

FAMILIES = {
    "orders": _("Those orders are not allowed."),
    "raven": _("The Messenger Raven cannot do that."),
    "raid": _("That raid is not allowed."),
    "march": _("That march is not allowed."),
    "consolidate": _("That Consolidate Power order cannot be resolved like that."),
    "muster": _("That mustering is not allowed."),
    "supply": _("That does not fit your supply."),
    "bid": _("That bid is not allowed."),
    "ties": _("That order of tied houses is not allowed."),
    "select": _("That selection is not allowed."),
    "card": _("That card cannot be played now."),
    "choose": _("That choice is not available."),
    "tile": _("That tile cannot do that."),
    "draw": _("You cannot draw a tile now."),
    "divine": _("That Divination choice is not allowed."),
}

GENERAL = _("That move is not allowed.")


def translate(code: str, english: str = "", **params: Any) -> dict[str, Any]:
    """``{"code", "message" (active language), "params"}`` for an error ``code``."""
    text = MESSAGES.get(code) or FAMILIES.get(code.split(".")[0]) or GENERAL
    try:
        message = str(text) % params if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        message = str(text)
    out = {k: v for k, v in params.items()}
    if english:
        out["detail"] = english
    return {"code": code, "message": message, "params": out}


def from_illegal(exc) -> dict[str, Any]:
    """The translated form of an :class:`~game.rules.IllegalAction`."""
    return translate(exc.code, exc.message, **exc.params)
