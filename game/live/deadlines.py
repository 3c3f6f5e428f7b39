"""When a seat must have decided: the hook between time controls and the pages and mails that
show or act on them.

Time controls (clocks, correspondence deadlines) are built elsewhere; until they are wired in,
:func:`deadline_of` knows no deadline and :func:`is_correspondence` says no game is played by
correspondence. Both read the game row only (no query), so callers may use them in lists.
"""

from __future__ import annotations

from datetime import datetime

from game.models import Game


def deadline_of(game: Game, seat: str) -> datetime | None:
    """The aware UTC time by which ``seat`` must answer its awaited decision in ``game``, or None
    when it has no clock or deadline (every game until time controls are wired in)."""
    return None


def is_correspondence(game: Game) -> bool:
    """Whether ``game`` is played by correspondence (moves hours or days apart), so that its
    players are mailed as soon as it awaits them instead of after ``NOTIFY_MAIL_AFTER`` seconds.
    False for every game until time controls are wired in."""
    return False
