"""Who may see a lobby and its game: the one decision of the lobby pages, the game page, the
lobby socket and the game socket.

A public lobby (and its game) is visible to everyone, anonymous visitors included. A private one
only to its seated players, to staff, and to the visitors who hold its invitation: those whose
session remembers it (:data:`INVITED`), which the invite link does (``/invite/<token>/``) and a
correct password typed into the lobby's join form does. Everyone else gets a 404 page, or a
socket closed with code 4403 (``docs/protocol.md``).

The HTTP views pass ``request.session``; the sockets pass ``scope["session"]`` (Channels'
``AuthMiddlewareStack``), the same session read from the same cookie.
"""

from __future__ import annotations

from typing import Any

from game.models import Lobby, Seat

#: session key: ids of the private lobbies whose invitation this session holds
INVITED = "invited_lobbies"


def invited(session: Any, lobby_id: int) -> bool:
    """Whether ``session`` (a Django session, or None for none) holds the invitation of lobby
    ``lobby_id``. A session that cannot be read counts as no invitation."""
    if session is None:
        return False
    try:
        ids = session.get(INVITED, [])
    except Exception:  # a broken or unreadable session store: no invitation
        return False
    return isinstance(ids, list) and lobby_id in ids


def remember_invitation(session: Any, lobby_id: int) -> None:
    """Remember in ``session`` that it holds the invitation of lobby ``lobby_id``."""
    ids = session.get(INVITED, [])
    if not isinstance(ids, list):
        ids = []
    if lobby_id not in ids:
        session[INVITED] = [*ids, lobby_id]


def may_see(lobby: Lobby, user: Any, session: Any) -> bool:
    """Whether ``user`` (None or anonymous: a visitor) with ``session`` may see ``lobby``, its seats
    and its game: always for a public lobby; for a private one, staff, a seated player (one query)
    or a holder of its invitation (:func:`invited`)."""
    if not lobby.is_private:
        return True
    if user is not None and getattr(user, "is_authenticated", False):
        if user.is_staff:
            return True
        if Seat.objects.filter(lobby_id=lobby.pk, user_id=user.pk).exists():
            return True
    return invited(session, lobby.pk)
