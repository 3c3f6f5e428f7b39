"""The live lobby over websockets, through the real ASGI application (origin check, auth
middleware, routing), on the in-memory channel layer and on a real Redis server."""

from __future__ import annotations

import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from game.site import lobbies

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.fixture(params=["memory", "redis"])
def channel_layer(request, settings):
    """Each test runs once per channel-layer backend."""
    if request.param == "memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    else:
        url = request.getfixturevalue("redis_url")
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [url], "prefix": f"gotweb-test-{uuid.uuid4().hex[:8]}"},
            }
        }
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    assert type(layer).__name__ == {"memory": "InMemoryChannelLayer", "redis": "RedisChannelLayer"}[request.param]
    yield request.param


async def _connect(application, path):
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_seats_fill_and_empty_live(channel_layer, application, make_user, make_lobby):
    lobby = await sync_to_async(make_lobby)(players=3, house="stark")
    arya = await sync_to_async(make_user)("Arya", True)
    watcher = await _connect(application, f"/ws/lobby/{lobby.pk}/")
    first = await watcher.receive_json_from(timeout=5)
    assert first["type"] == "lobby"
    assert first["lobby"]["filled"] == 1 and first["lobby"]["version"] == 1

    await sync_to_async(lobbies.join_lobby)(lobby.pk, arya, house="lannister")
    pushed = await watcher.receive_json_from(timeout=5)
    assert pushed["lobby"]["filled"] == 2 and pushed["lobby"]["version"] == 2
    assert [s["player"] for s in pushed["lobby"]["seats"]] == ["host1", "Arya"]
    assert pushed["lobby"]["seats"][1]["house"] == "lannister"

    await sync_to_async(lobbies.leave_lobby)(lobby.pk, arya)
    pushed = await watcher.receive_json_from(timeout=5)
    assert pushed["lobby"]["filled"] == 1 and pushed["lobby"]["version"] == 3
    await watcher.disconnect()


async def test_start_is_pushed_to_every_watcher(channel_layer, application, make_lobby):
    lobby = await sync_to_async(make_lobby)(players=3, seated=3)
    watchers = [await _connect(application, f"/ws/lobby/{lobby.pk}/") for _ in range(3)]
    for w in watchers:
        await w.receive_json_from(timeout=5)
    await sync_to_async(lobbies.start_lobby)(lobby.pk, lobby.creator)
    for w in watchers:
        state = (await w.receive_json_from(timeout=5))["lobby"]
        assert state["status"] == "started"
        assert sorted(s["house"] for s in state["seats"]) == ["baratheon", "lannister", "stark"]
        await w.disconnect()


async def test_lobby_list_hears_about_changes(channel_layer, application, make_lobby, make_user):
    lobby = await sync_to_async(make_lobby)(players=3)
    listener = await _connect(application, "/ws/lobbies/")
    await sync_to_async(lobbies.join_lobby)(lobby.pk, await sync_to_async(make_user)("Bran"))
    assert await listener.receive_json_from(timeout=5) == {"type": "lobbies.changed"}
    await listener.disconnect()


async def test_sync_request_and_garbage(application, make_lobby):
    lobby = await sync_to_async(make_lobby)(players=3)
    ws = await _connect(application, f"/ws/lobby/{lobby.pk}/")
    await ws.receive_json_from(timeout=5)
    await ws.send_to(text_data="not json")
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["lobby"]["id"] == lobby.pk
    await ws.disconnect()


async def test_unknown_lobby_is_closed(application):
    from .live_helpers import refusal

    assert await refusal(application, "/ws/lobby/987654/") == 4404


async def test_foreign_origin_is_refused(application, make_lobby):
    lobby = await sync_to_async(make_lobby)(players=3)
    ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=[(b"origin", b"https://evil.example")])
    connected, _ = await ws.connect()
    assert not connected


def test_a_channel_layer_that_is_down_does_not_fail_the_request(settings, client_for, make_user, make_lobby):
    """The join is committed and answered normally; the push is only a hint."""
    import socket

    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]
    lobby = make_lobby(players=3)
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [f"redis://127.0.0.1:{dead_port}/0"]}}
    }
    user = make_user("arya")
    r = client_for(user).post(f"/lobby/{lobby.pk}/join/", {"house": ""})
    assert r.status_code == 302
    assert lobby.seats.filter(user=user).exists()
