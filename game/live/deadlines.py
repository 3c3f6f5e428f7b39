"""When a seat must have decided: the bridge between the time controls (:mod:`game.live.clocks`,
stored on the game row) and the pages and mails that show or act on them ("My games", turn mails).

Both functions read the game row only (no query), so callers may use them in lists.
"""

from __future__ import annotations

from datetime import datetime, timezone

from game.models import Game

from . import clocks


def deadline_of(game: Game, seat: str) -> datetime | None:
    """The aware UTC time at which ``seat``'s clock or deadline in ``game`` runs out if it keeps
    running, or None: no time control, the clock stopped (not awaited, a stand-in plays the seat)
    or the player on vacation (deadlines paused)."""
    clock = (game.clocks or {}).get(seat)
    if not clock or clock.get("since") is None or clock.get("away") is not None:
        return None
    return datetime.fromtimestamp(clock["since"] + max(0.0, float(clock["left"])), tz=timezone.utc)


def is_correspondence(game: Game) -> bool:
    """Whether ``game`` is played by correspondence (moves hours or days apart), so that its
    players are mailed as soon as it awaits them instead of after ``NOTIFY_MAIL_AFTER`` seconds."""
    return (game.time_control or {}).get("kind") == clocks.DEADLINE
