"""Helpers for the live-play tests: started games, logged-in websocket connections, legal actions."""

from __future__ import annotations

import random

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def start_game(make_lobby, players: int = 3, **kwargs):
    """A started lobby's game with ``players`` people; returns ``(game, {house: user})``."""
    from game.site import lobbies

    lobby = make_lobby(players=players, seated=players, **kwargs)
    lobbies.start_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    users = {s.house: s.user for s in lobby.seats.select_related("user")}
    return lobby.game, users


def session_cookie(user) -> bytes:
    """A ``cookie`` header value with a fresh logged-in session for ``user``."""
    from django.conf import settings
    from django.test import Client

    c = Client()
    c.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={c.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def connect(application, game_id: int, user=None, lang: str = "en", first: bool = True, patch: bool = False):
    """A connected communicator for ``user`` (None: anonymous); returns ``(ws, first state)``
    after reading the initial state, chat history and seat status. ``patch``: the socket asks
    for ``patch`` messages, as the site's client does."""
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    ws = WebsocketCommunicator(application, f"/ws/game/{game_id}/?lang={lang}{'&patch=1' if patch else ''}", headers=headers)
    ok, code = await ws.connect()
    assert ok, code
    if not first:
        return ws, None
    state = await ws.receive_json_from(timeout=5)
    assert state["type"] == "state"
    chat = await ws.receive_json_from(timeout=5)
    assert chat["type"] == "chat" and chat["history"] is True
    seats = await ws.receive_json_from(timeout=5)
    assert seats["type"] == "seats" and "notice" not in seats
    return ws, state


def legal_json(game_id: int, actor: str, seed: int = 1) -> dict:
    """A legal JSON action for ``actor``'s pending decision in the game's current state."""
    from game.live import bot_choice, snapshots
    from game.models import Game
    from game.rules.agot.legal import random_action

    game = Game.objects.get(pk=game_id)
    rules = game.rules
    state = snapshots.state_at(game)
    decision = next(d for d in rules.pending(state) if d.actor == actor)
    return bot_choice.action_to_json(rules, random_action(state, decision, random.Random(seed)))


async def drain(ws, timeout: float = 0.3) -> list[dict]:
    """Every message waiting on ``ws`` (stops after ``timeout`` seconds of silence)."""
    out = []
    while not await ws.receive_nothing(timeout=timeout):
        out.append(await ws.receive_json_from(timeout=5))
    return out


async def refusal(application, path: str, headers=None) -> int | None:
    """The close code of a socket on ``path`` that the server accepts and closes at once, so that a
    browser sees the code (a refusal before accepting would be an HTTP 403 without it); None when
    the socket stays open (it is then closed here)."""
    ws = WebsocketCommunicator(application, path, headers=headers or [ORIGIN])
    ok, code = await ws.connect(timeout=10)
    assert ok, f"handshake refused ({code}): the browser would not see the code"
    out = await ws.receive_output(timeout=10)
    if out["type"] == "websocket.close":
        return out.get("code")
    await ws.disconnect()
    return None


def patched(before: dict, message: dict) -> dict:
    """The ``state`` a ``patch`` message makes of ``before`` (the state the socket held), applied
    by the maintained ``jsonpatch`` library; asserts that the patch starts from ``before`` and
    that every value it adds or replaces is in the state it makes (a patch shows nothing of its
    own)."""
    import jsonpatch

    assert message["type"] == "patch" and message["from"] == before["version"], (message.get("from"), before["version"])
    base = {k: v for k, v in before.items() if k not in ("type", "version", "seats")}
    after = jsonpatch.apply_patch(base, message["ops"])
    for op in message["ops"]:
        if op["op"] in ("add", "replace"):
            assert _holds(after, op["value"]), op
    return {"type": "state", "version": message["version"], **after, **({"seats": message["seats"]} if "seats" in message else {})}


def _holds(doc, value) -> bool:
    """Whether ``value`` is ``doc`` or one of its parts."""
    if doc == value:
        return True
    if isinstance(doc, dict):
        return any(_holds(v, value) for v in doc.values())
    if isinstance(doc, list):
        return any(_holds(v, value) for v in doc)
    return False
