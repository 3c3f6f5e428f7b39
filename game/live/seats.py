"""Who plays which seat of a live game: people, bots, and the stand-in bots of players who walked
away (the seat status every browser is told).

Pure reads of the game row and its lobby's seats; the hand-over itself is
:mod:`game.live.stand_ins`.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from game.models import Game, Seat, display_name, is_guest
from game.rules.base import lang_key

from . import clocks, table


# --- who is who ------------------------------------------------------------------------------------
def seat_of(game: Game, user) -> str | None:
    """The seat (house) ``user`` plays in ``game``, or None (spectator). Bots' seats are no one's."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    seat = Seat.objects.filter(lobby_id=game.lobby_id, user=user, bot="").values_list("house", flat=True).first()
    return seat or None


def awaiting_count(user) -> int:
    """How many running games await ``user``'s decision now: games where the person's seat is
    awaited and no stand-in bot plays it (0 for an anonymous visitor). One query. The header's
    "My games" badge (pushed by the lobby-list socket and by the game socket, see
    ``docs/protocol.md``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    rows = (
        Seat.objects.filter(user=user, bot="", lobby__game__isnull=False, lobby__game__status=Game.Status.RUNNING)
        .exclude(house="")
        .values_list("house", "lobby__game__awaited_since", "lobby__game__stand_ins")
    )
    return sum(1 for house, since, stand_ins in rows if house in (since or {}) and house not in (stand_ins or {}))


def bot_seats(game: Game) -> dict[str, str]:
    """``{seat: bot level}`` of the game's bot seats, and of the people's seats a stand-in bot
    plays for now (``game.stand_ins``)."""
    levels = dict(game.stand_ins or {})
    levels.update(Seat.objects.filter(lobby_id=game.lobby_id).exclude(bot="").values_list("house", "bot"))
    return levels


def seats_info(game: Game, lang: str) -> list[dict[str, Any]]:
    """``[{"seat", "name" (in lang), "player", "guest", "bot", "stand_in"}]`` in the ruleset's seat
    order; ``guest`` is True for a player without an account (never for a bot)."""
    names = game.rules.seat_names()
    key = lang_key(lang)
    rows = {s.house: s for s in Seat.objects.filter(lobby_id=game.lobby_id).select_related("user__profile")}
    order = game.rules.seats(game.players, game.options)
    return [
        {
            "seat": h,
            "name": names.get(h, {}).get(key, h),
            "player": display_name(rows[h].user) if h in rows else "",
            "guest": is_guest(rows[h].user) if h in rows else False,
            "bot": rows[h].bot if h in rows else "",
            "stand_in": (game.stand_ins or {}).get(h, ""),
        }
        for h in order
    ]


# --- stand-in bots for players who walked away -------------------------------------------------------
STAND_IN_LEVEL = "basic"


def away_after() -> float:
    """Seconds a seat must have been awaited before another player may hand it to a bot
    (``settings.GAME_AWAY_AFTER``, default 180)."""
    return float(settings.GAME_AWAY_AFTER)


def seat_status(game: Game, now: float | None = None) -> dict[str, Any]:
    """``{"away_after", "stand_ins": {seat: level}, "awaited_for": {seat: seconds},
    "time_control", "clocks": {seat: clock}, "deadline": unix time | None, "table"}`` from the
    game row (no query): what the ``seats`` message tells browsers. ``table`` is the open vote,
    the pause and the seats open for a new player (:func:`game.live.table.public`). ``clocks`` is
    :func:`game.live.clocks.clock_view` at ``now`` (remaining seconds, running or not, time-outs,
    vacation); ``deadline`` the next moment the server acts by itself on this game."""
    now = time.time() if now is None else now
    since = game.awaited_since or {}
    running = game.status == Game.Status.RUNNING
    tc = game.time_control or {"kind": clocks.NONE}
    view = clocks.clock_view(tc, game.clocks or {}, now)
    if not running:
        for c in view.values():
            c["running"] = False
    return {
        "away_after": away_after(),
        "stand_ins": dict(game.stand_ins or {}),
        "awaited_for": {s: round(max(0.0, now - t), 1) for s, t in since.items()} if running else {},
        "time_control": dict(tc),
        "clocks": view,
        "deadline": game.deadline.timestamp() if running and game.deadline is not None else None,
        "table": table.public(game.table if running else {}, game.stand_ins or {}),
    }


def game_seat_status(game_id: int) -> dict[str, Any] | None:
    """:func:`seat_status` of a game read now, or None for a missing game."""
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    return None if game is None else seat_status(game)
