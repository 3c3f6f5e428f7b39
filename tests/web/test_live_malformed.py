"""No message can crash a socket or leak a consumer.

An ``act`` whose ``action`` was not a JSON object (a list nested 500 deep) was taken for a typed
action by the apply path and converted to JSON recursively: ``RecursionError``, the socket closed
with 1011, ~114 KiB of traceback logged, ``disconnect`` never ran and the dead consumer stayed in
the hub. Now a client's action must be a JSON object, at most ``ACTION_MAX_DEPTH`` deep, holding at
most ``ACTION_MAX_VALUES`` values, parsed by the ruleset (else ``action.malformed``, nothing
written); an unexpected exception in a consumer's handler (injected here with monkeypatch) is
answered ``server.error`` and logged in one line without a traceback, the socket stays open, and
the hub lets go of the consumer however it ends.
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import sync_to_async

from .live_helpers import ORIGIN, connect, legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _live(live_settings):
    return live_settings


@pytest.fixture
def game3(make_lobby):
    return start_game(make_lobby, 3)


def _stored(game_id):
    from game.models import Action, Game

    return Game.objects.get(pk=game_id).version, list(Action.objects.filter(game_id=game_id).values_list("number", "action"))


def _errors(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def _answer(ws, msg) -> dict:
    """Send ``msg`` (an object, or text as is); the first ``result``, ``error`` or ``pong``."""
    await ws.send_to(text_data=msg if isinstance(msg, str) else json.dumps(msg))
    while True:
        got = await ws.receive_json_from(timeout=10)
        if got["type"] in ("result", "error", "pong"):
            return got


async def _still_open(ws, tag="alive") -> None:
    assert (await _answer(ws, {"type": "ping", "id": tag})) == {"type": "pong", "id": tag}
    assert not ws.future.done()


def _nested(depth: int, inner=None, kind: str = "list"):
    value = inner
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


async def test_an_action_that_is_not_a_json_object_is_malformed_and_writes_nothing(application, game3, caplog):
    """The issue's message (a list nested 500 deep as the action) is nested deeper than any
    message may be (``message.malformed``); an action of every other JSON type, and objects past
    the action's bounds, are each a ``result`` with ``action.malformed``. Nothing is stored, no
    error logged, the socket stays open and in the hub until it closes."""
    from game.live import moves
    from game.live.hub import hub

    game, users = await sync_to_async(lambda: game3)()
    before = hub().member_count()
    ws, _ = await connect(application, game.pk, users["stark"])
    assert hub().member_count() == before + 1
    stored = await sync_to_async(_stored)(game.pk)
    legal = await sync_to_async(legal_json)(game.pk, "stark")
    # the message that once crashed a socket (a list nested 500 deep as the action), and any message nested past LIVE_MAX_DEPTH (32)
    for i, action in enumerate([_nested(500), _nested(32, kind="dict")]):
        got = await _answer(ws, {"type": "act", "id": i, "version": 0, "action": action})
        assert got["type"] == "error" and got["error"]["code"] == "message.malformed", got
    depth, values = moves.ACTION_MAX_DEPTH, moves.ACTION_MAX_VALUES
    actions = [  # (action, the bound it breaks)
        ([], None), ([legal], None), ("place_orders", None), ("", None), (0, None), (-1, None), (1.5, None),
        (10**4000, None), (True, None), (False, None), (None, None), (_nested(30), None), ({**legal, "unknown": 1}, None),
        (_nested(depth + 1, kind="dict"), depth),  # {"k": {"k": ...}} 17 deep
        ({**legal, "x": _nested(depth)}, depth),  # 17 deep through an unknown key
        ({**legal, "x": list(range(values))}, values),  # too many values
    ]
    for i, (action, limit) in enumerate(actions):
        got = await _answer(ws, {"type": "act", "id": i, "version": 0, "action": action})
        assert got["type"] == "result" and got["id"] == i and got["ok"] is False, (i, got)
        assert got["error"]["code"] == "action.malformed", (i, got)
        assert got["error"]["params"].get("limit") == limit, (i, got)
    assert (await _answer(ws, {"type": "act", "id": 0, "action": _nested(depth - 1, kind="dict")}))["error"]["params"] == {
        "detail": "Unknown action type None.", "got": "None"}  # 16 deep: read by the ruleset, which refuses it
    got = await _answer(ws, {"type": "act", "id": "no action", "version": 0})
    assert got["ok"] is False and got["error"]["code"] == "action.malformed"
    assert await sync_to_async(_stored)(game.pk) == stored
    await _still_open(ws)
    assert _errors(caplog) == []
    got = await _answer(ws, {"type": "act", "id": "legal", "version": 0, "action": legal})  # the game still moves
    assert got["ok"] is True and got["version"] == 1
    await ws.disconnect()
    assert hub().member_count() == before


def test_the_apply_path_takes_no_client_value_for_a_typed_action(game3):
    """``apply.act`` is given a client's JSON: a typed action (the ruleset's own dataclass),
    which the bots' path would have accepted, is refused like any value that is not an object;
    so are objects past the depth and size bounds, before the ruleset reads them."""
    from game.live import apply, moves
    from game.rules import IllegalAction
    from game.rules.agot.actions import parse_action

    game, users = game3
    stored = _stored(game.pk)
    legal = legal_json(game.pk, "stark")
    too_deep = {"type": "bid", "amount": _nested(moves.ACTION_MAX_DEPTH, kind="dict")}
    for data in (parse_action(legal), _nested(2000), too_deep, {"type": "x", "v": [0] * (moves.ACTION_MAX_VALUES + 1)}):
        with pytest.raises(IllegalAction) as refused:
            apply.act(game.pk, users["stark"], data, 0)
        assert refused.value.code == "action.malformed"
    assert _stored(game.pk) == stored
    assert apply.act(game.pk, users["stark"], legal, 0) == 1


async def test_a_failing_handler_is_answered_logged_once_and_the_socket_stays(application, game3, caplog, monkeypatch):
    """Faults injected into what the handlers call: an act (the apply path), a sync (the
    payload), a chat line, a group message (a push). Each failure of a request is answered
    (``result`` or ``error`` with ``server.error`` and the request's id), each is one ERROR line
    naming the exception's type and message, without a traceback; the socket stays open and
    leaves the hub when it closes."""
    from game.live import apply, chat, payloads
    from game.live.hub import hub

    game, users = await sync_to_async(lambda: game3)()
    before = hub().member_count()
    ws, _ = await connect(application, game.pk, users["stark"], lang="zh-hans")
    stored = await sync_to_async(_stored)(game.pk)

    def boom(*args, **kwargs):
        raise RuntimeError("injected fault\nsecond line")

    def deep(*args, **kwargs):
        def down(n):
            return down(n + 1)

        return down(0)

    cases = [
        (apply, "act", boom, {"type": "act", "id": 7, "version": 0, "action": {"type": "bid", "amount": 1}}, "result"),
        (apply, "act", deep, {"type": "act", "id": 8, "action": {"type": "bid", "amount": 1}}, "result"),
        (chat, "post_chat", boom, {"type": "chat", "id": "c", "channel": "public", "text": "hi"}, "result"),
        (payloads, "payload_text", boom, {"type": "sync", "id": "s"}, "error"),
    ]
    for module, name, fault, msg, kind in cases:
        caplog.clear()
        with monkeypatch.context() as m:
            m.setattr(module, name, fault)
            got = await _answer(ws, msg)
        assert got["type"] == kind and got["id"] == msg["id"], got
        err = got["error"]
        assert err["code"] == "server.error" and err["message"] == "服务器未能处理这条消息，请重试。", got
        if kind == "result":
            assert got["ok"] is False
        records = _errors(caplog)
        assert len(records) == 1, [r.getMessage() for r in records]
        line = records[0].getMessage()
        assert not records[0].exc_info and "\n" not in line and len(line) < 600, line
        expected = "RecursionError: maximum recursion depth exceeded" if fault is deep else "RuntimeError: injected fault\\nsecond line"
        assert expected in line and msg["type"] in line and f"/ws/game/{game.pk}/" in line, line
        await _still_open(ws, name)

    # a group message whose handler fails: logged once, nothing to answer, the socket stays
    caplog.clear()
    other, _ = await connect(application, game.pk, users["lannister"])
    with monkeypatch.context() as m:
        m.setattr(payloads, "cached_payload_text", boom)
        got = await _answer(other, {"type": "act", "id": 1, "version": 0, "action": await sync_to_async(legal_json)(game.pk, "lannister")})
        assert got["ok"] is True
        await _still_open(ws, "after push")
    failures = [r.getMessage() for r in _errors(caplog)]
    assert len(failures) == 2 and all("game.changed failed: RuntimeError" in f for f in failures), failures  # one per socket
    assert (await sync_to_async(_stored)(game.pk))[0] == stored[0] + 1
    await ws.disconnect()
    await other.disconnect()
    assert hub().member_count() == before


async def test_a_consumer_that_dies_anyway_leaves_the_hub(application, game3, caplog, monkeypatch):
    """Even a failure that escapes the guard (here: its logging breaks, injected) ends the
    consumer without leaving it in the hub: ``release`` runs in a ``finally``."""
    from game.live import apply, transport
    from game.live.hub import hub

    game, users = await sync_to_async(lambda: game3)()
    before = hub().member_count()
    ws, _ = await connect(application, game.pk, users["stark"])
    assert hub().member_count() == before + 1

    def broken(*args, **kwargs):
        raise RuntimeError("the guard itself fails")

    def boom(*args, **kwargs):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(apply, "act", boom)
    monkeypatch.setattr(transport, "log_failure", broken, raising=False)
    await ws.send_json_to({"type": "act", "id": 1, "action": {"type": "bid", "amount": 1}})
    await asyncio.wait([ws.future], timeout=10)  # answered, then the guard's logging fails: the consumer dies
    assert ws.future.done() and ws.future.exception() is not None
    assert hub().member_count() == before


async def test_the_lobby_sockets_survive_a_failing_handler(application, make_lobby, caplog, monkeypatch):
    """/ws/lobby/<id>/: a failing ``sync`` (the lobby's state, injected) is answered
    ``server.error`` and logged once, the socket stays open; after it closes, the hub no longer
    holds it; a socket whose leaving fails still ends, in one line."""
    from channels.testing import WebsocketCommunicator

    from game.live.hub import hub
    from game.site import lobby_consumer

    lobby = await sync_to_async(make_lobby)(players=3, seated=1)
    before = hub().member_count()
    ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=[ORIGIN])
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "lobby"
    assert hub().member_count() == before + 1

    async def boom(*args):
        raise RuntimeError("injected fault")

    with monkeypatch.context() as m:
        m.setattr(lobby_consumer, "_state", boom)
        await ws.send_json_to({"type": "sync"})
        got = await ws.receive_json_from(timeout=5)
    assert got["type"] == "error" and got["id"] is None and got["error"]["code"] == "server.error", got
    records = _errors(caplog)
    assert len(records) == 1 and not records[0].exc_info and "RuntimeError: injected fault" in records[0].getMessage()
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["lobby"]["id"] == lobby.pk
    await ws.disconnect()
    assert hub().member_count() == before

    # leaving that fails (the hub's leave, injected) still ends the consumer, in one line
    caplog.clear()
    list_ws = WebsocketCommunicator(application, "/ws/lobbies/", headers=[ORIGIN])
    assert (await list_ws.connect())[0]

    async def broken_leave(*args, **kwargs):
        raise RuntimeError("layer down")

    monkeypatch.setattr(hub(), "leave", broken_leave)
    await list_ws.disconnect()
    assert list_ws.future.done() and list_ws.future.exception() is None
    assert [r.getMessage().count("release failed: RuntimeError: layer down") for r in _errors(caplog)] == [1]


async def test_a_failing_connect_closes_with_4500_and_leaves_the_hub(application, game3, caplog, monkeypatch):
    """A fault while connecting (the viewer's lookup, before the socket is accepted; the chat
    history, after it joined the hub) closes the socket with code 4500, so the browser retries,
    in one log line; the consumer does not stay in the hub."""
    from channels.testing import WebsocketCommunicator

    from game.live import chat, consumer
    from game.live.hub import hub

    from .live_helpers import session_cookie

    game, users = await sync_to_async(lambda: game3)()
    before = hub().member_count()
    cookie = await sync_to_async(session_cookie)(users["stark"])

    async def refused(*args, **kwargs):
        raise RuntimeError("database down")

    def boom(*args, **kwargs):
        raise RuntimeError("injected fault")

    with monkeypatch.context() as m:
        m.setattr(consumer, "_admission", refused)
        ws = WebsocketCommunicator(application, f"/ws/game/{game.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
        assert await ws.connect() == (False, 4500)
        await ws.wait(timeout=5)
    with monkeypatch.context() as m:
        m.setattr(chat, "chat_history", boom)
        ws = WebsocketCommunicator(application, f"/ws/game/{game.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        assert (await ws.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4500}
        await ws.disconnect()
    lines = [r.getMessage() for r in _errors(caplog)]
    assert len(lines) == 2 and "websocket.connect failed: RuntimeError: database down" in lines[0], lines
    assert "websocket.connect failed: RuntimeError: injected fault" in lines[1], lines
    assert hub().member_count() == before
