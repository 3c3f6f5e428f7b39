"""The hub (game/live/hub.py): one relay channel per process and group, local fan-out to its members,
a publishing process's own members served at once and exactly once; on the in-memory channel
layer and on a real Redis server. Two Hub objects on one loop stand for two server processes
(the two-daphne test, tests/e2e/test_live_two_servers_game.py, runs real ones). Each test runs
its coroutine on a loop of its own (``run_sync``): these tests need no database, so they may run
after the browser tests have started Playwright's loop in this thread."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from channels.layers import InMemoryChannelLayer

from game.live.hub import Hub
from game.live.members import group_channels
from tests.wsclient import run_sync


@pytest.fixture(params=["memory", "redis"])
def layer(request):
    if request.param == "memory":
        return InMemoryChannelLayer()
    from channels_redis.core import RedisChannelLayer

    return RedisChannelLayer(hosts=[request.getfixturevalue("redis_url")], prefix=f"gotweb-test-{uuid.uuid4().hex[:8]}")


class Member:
    """A stand-in consumer: records what the hub dispatches to it; ``fail`` raises on a type."""

    def __init__(self, fail: str | None = None) -> None:
        self.got: list[dict] = []
        self.fail = fail

    async def dispatch(self, message: dict) -> None:
        if message["type"] == self.fail:
            raise RuntimeError("handler failed")
        self.got.append(message)


async def _settle(members, count: int, timeout: float = 5.0) -> None:
    """Wait until every member holds ``count`` messages, then a moment for any extra copy."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while any(len(m.got) < count for m in members) and loop.time() < end:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)


async def _members_of_group(layer, group: str) -> int:
    return len(await group_channels(layer, group))


def _count_sends(layer, monkeypatch) -> list[str]:
    """Record the group of every ``group_send`` on ``layer`` and the channel of every message the
    hub sends to channels (``members.send_to``, or a plain ``send``); the real calls still run."""
    from game.live import members

    sent: list[str] = []
    inside: list[bool] = []
    real_group_send, real_send, real_send_to = layer.group_send, layer.send, members.send_to

    async def group_send(group, message):
        sent.append(group)
        await real_group_send(group, message)

    async def send(channel, message):
        if not inside:
            sent.append(channel)
        await real_send(channel, message)

    async def send_to(layer_, channels, message):
        sent.extend(sorted(channels))
        inside.append(True)
        try:
            return await real_send_to(layer_, channels, message)
        finally:
            inside.pop()

    layer.group_send, layer.send = group_send, send
    monkeypatch.setattr(members, "send_to", send_to)
    return sent


def _count_reads(layer) -> list[str]:
    """Record the channel of every message ``receive`` returns on ``layer``."""
    read: list[str] = []
    real = layer.receive

    async def receive(channel):
        message = await real(channel)
        read.append(channel)
        return message

    layer.receive = receive
    return read


def test_one_relay_per_process_and_group(layer):
    run_sync(_test_one_relay_per_process_and_group(layer))


async def _test_one_relay_per_process_and_group(layer):
    hub, group = Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    members = [Member() for _ in range(5)]
    for m in members:
        await hub.join(group, m)
    await hub.join(group, members[0])  # joining twice changes nothing
    assert hub.members(group) == 5
    assert await _members_of_group(layer, group) == 1  # one channel in the group, not five
    for m in members:
        await hub.leave(group, m)
    assert hub.members(group) == 0
    assert await _members_of_group(layer, group) == 0  # the last leave takes the relay out


def test_publish_reaches_every_process_once(layer):
    run_sync(_test_publish_reaches_every_process_once(layer))


async def _test_publish_reaches_every_process_once(layer):
    """A publishing hub serves its own members at once (before the channel layer's round trip)
    and its relay skips the copy that comes back; the other process's members get it once."""
    here, there, group = Hub(layer), Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    local, remote = [Member(), Member()], [Member(), Member(), Member()]
    for m in local:
        await here.join(group, m)
    for m in remote:
        await there.join(group, m)

    here.deliver(group, {"type": "game.changed", "version": 1})
    await asyncio.sleep(0)  # one turn of the loop: no channel layer involved yet
    assert [m.got for m in local] == [[{"type": "game.changed", "version": 1}]] * 2

    await here.publish(group, {"type": "game.changed", "version": 2})
    await _settle(local + remote, 1)
    assert [len(m.got) for m in local] == [2, 2]  # version 1 (deliver) and 2, no echo of 2
    assert all(m.got == [{"type": "game.changed", "version": 2}] for m in remote)


def test_a_group_watched_from_one_process_costs_the_layer_no_send(layer, monkeypatch):
    run_sync(_test_a_group_watched_from_one_process_costs_the_layer_no_send(layer, monkeypatch))


async def _test_a_group_watched_from_one_process_costs_the_layer_no_send(layer, monkeypatch):
    """A change published in the only process that watches the game goes to its members and
    not to the channel layer (its relay would read it back only to drop it); once a second
    process joins, the same publish reaches it through the layer; a group nobody joined (a
    person's sockets that follow nothing) costs no send either."""
    here, there, group = Hub(layer), Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    sent = _count_sends(layer, monkeypatch)
    local, remote = Member(), Member()
    await here.join(group, local)
    await here.publish(group, {"type": "game.changed", "version": 1})
    await here.publish(f"user-{uuid.uuid4().hex[:6]}", {"type": "user.games"})
    await _settle([local], 1)
    assert local.got == [{"type": "game.changed", "version": 1}]
    assert sent == []

    await there.join(group, remote)
    await here.publish(group, {"type": "game.changed", "version": 2})
    await _settle([remote], 1)
    assert sent == [there.groups[group].channel]  # to the other process's relay alone
    assert remote.got == [{"type": "game.changed", "version": 2}]
    assert [m["version"] for m in local.got] == [1, 2]  # served at once, and no echo

    await there.leave(group, remote)  # the other process's last socket closed: no sends again
    await here.publish(group, {"type": "game.changed", "version": 3})
    await _settle([local], 3)
    assert len(sent) == 1


def test_a_published_change_never_comes_back_to_its_own_relay(layer):
    run_sync(_test_a_published_change_never_comes_back_to_its_own_relay(layer))


async def _test_a_published_change_never_comes_back_to_its_own_relay(layer):
    """With three processes in a game, each change published by one reaches the two others'
    relays, once each, and the publisher's relay reads nothing: a process's one receive loop
    reads only what its members need."""
    hubs, group = [Hub(layer), Hub(layer), Hub(layer)], f"game-{uuid.uuid4().hex[:6]}"
    watchers = [Member() for _ in hubs]
    read = _count_reads(layer)  # before the relays start reading
    for hub, m in zip(hubs, watchers):
        await hub.join(group, m)
    for v in range(1, 7):
        await hubs[v % 3].publish(group, {"type": "game.changed", "version": v})
    await _settle(watchers, 6)
    # each once (across processes in any order: a consumer keeps the latest version)
    assert all(sorted(x["version"] for x in m.got) == [1, 2, 3, 4, 5, 6] for m in watchers)
    relays = [hub.groups[group].channel for hub in hubs]
    assert sorted(read) == sorted(relays[i] for v in range(1, 7) for i in range(3) if i != v % 3)


def test_group_members_as_the_layer_counts_them(layer):
    run_sync(_test_group_members_as_the_layer_counts_them(layer))


async def _test_group_members_as_the_layer_counts_them(layer):
    """``group_channels`` reads a group without changing it, and leaves out a member whose
    ``group_add`` is older than the layer's ``group_expiry`` (its ``group_send`` would drop it);
    a layer it does not know answers None (send as before)."""
    group = f"game-{uuid.uuid4().hex[:6]}"
    assert await group_channels(layer, group) == set()
    fresh, stale = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(group, fresh)
    await layer.group_add(group, stale)
    old = int(time.time()) - layer.group_expiry - 5
    if isinstance(layer, InMemoryChannelLayer):
        layer.groups[group][stale] = old
    else:
        await layer.connection(layer.consistent_hash(group)).zadd(layer._group_key(group), {stale: old})
    assert await group_channels(layer, group) == {fresh}
    assert await group_channels(layer, group) == {fresh}  # nothing was removed by reading
    await layer.group_discard(group, fresh)
    await layer.group_discard(group, stale)
    assert await group_channels(object(), group) is None
    assert await Hub(object()).elsewhere(group) is True


def test_a_plain_group_send_reaches_every_member(layer):
    run_sync(_test_a_plain_group_send_reaches_every_member(layer))


async def _test_a_plain_group_send_reaches_every_member(layer):
    """What a bot's thread, an HTTP view or another server sends with ``group_send`` arrives
    through the relays."""
    a, b, group = Hub(layer), Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    members = [Member(), Member(), Member()]
    await a.join(group, members[0])
    await a.join(group, members[1])
    await b.join(group, members[2])
    await layer.group_send(group, {"type": "game.chat", "message": {"id": 7}})
    await _settle(members, 1)
    assert all(m.got == [{"type": "game.chat", "message": {"id": 7}}] for m in members)


def test_order_kept_and_a_failing_member_does_not_stop_the_others(layer):
    run_sync(_test_order_kept_and_a_failing_member_does_not_stop_the_others(layer))


async def _test_order_kept_and_a_failing_member_does_not_stop_the_others(layer):
    hub, group = Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    bad, good = Member(fail="game.seats"), Member()
    await hub.join(group, bad)
    await hub.join(group, good)
    for i, kind in enumerate(["game.changed", "game.seats", "game.changed", "game.chat"]):
        await hub.publish(group, {"type": kind, "n": i})
    await _settle([good], 4)
    assert [m["n"] for m in good.got] == [0, 1, 2, 3]
    assert [m["n"] for m in bad.got] == [0, 2, 3]  # its failed message is logged, the rest arrive
    await hub.leave(group, bad)
    await hub.publish(group, {"type": "game.changed", "n": 4})
    await _settle([good], 5)
    assert [m["n"] for m in bad.got] == [0, 2, 3]  # gone: nothing more
    assert good.got[-1]["n"] == 4


def test_memberships_outlive_the_group_expiry(tmp_path, request):
    """The keeper adds each relay to its group again every ``group_expiry / 3`` seconds: with a
    3 s expiry, a plain ``group_send`` still reaches every member after three expiry periods, on
    the in-memory layer and on Redis (a member that never joined again is dropped meanwhile)."""
    from channels_redis.core import RedisChannelLayer

    redis_url = request.getfixturevalue("redis_url")
    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    layers = [InMemoryChannelLayer(group_expiry=3), RedisChannelLayer(hosts=[redis_url], prefix=prefix, group_expiry=3)]

    async def both():
        await asyncio.gather(*(_test_memberships_outlive_the_group_expiry(layer) for layer in layers))

    run_sync(both())


async def _test_memberships_outlive_the_group_expiry(layer):
    hub, group = Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    member = Member()
    await hub.join(group, member)
    stray = await layer.new_channel()  # joined once, never again
    await layer.group_add(group, stray)
    await asyncio.sleep(10)  # over three expiry periods (channels_redis counts whole seconds)
    await layer.group_send(group, {"type": "game.changed", "version": 1})
    await _settle([member], 1)
    assert member.got == [{"type": "game.changed", "version": 1}]
    try:
        got = await asyncio.wait_for(layer.receive(stray), 0.5)
    except TimeoutError:
        got = None
    assert got is None  # the expiry is in force: a member that did not renew is gone
    await hub.leave(group, member)
    assert hub.keeper is None  # the keeper stops with the last group


def test_the_hub_joins_again_after_redis_restarts(tmp_path):
    """A Redis restart forgets every group. The hub notices (its relay's read fails), joins its
    groups again once Redis answers, and hands each member ``hub.resync``; later messages arrive."""
    from tests.e2e.faults import RedisServer

    server = RedisServer(tmp_path)
    server.start()
    try:
        run_sync(_test_the_hub_joins_again_after_redis_restarts(server))
    finally:
        server.kill()


async def _test_the_hub_joins_again_after_redis_restarts(server):
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[server.url], prefix="gotweb-test")
    here, there, group = Hub(layer), Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    local, remote = Member(), Member()
    await here.join(group, local)
    await there.join(group, remote)
    await here.publish(group, {"type": "game.changed", "version": 1})
    await _settle([local, remote], 1)

    server.kill()
    await here.publish(group, {"type": "game.changed", "version": 2})  # logged, not raised
    assert local.got[-1] == {"type": "game.changed", "version": 2}  # its own process: at once
    await asyncio.sleep(0.5)
    server.start()
    loop = asyncio.get_running_loop()
    end, version = loop.time() + 20, 2
    while not any(m.get("version", 0) > 2 for m in remote.got) and loop.time() < end:
        version += 1  # a move every half second until the other process hears one
        await here.publish(group, {"type": "game.changed", "version": version})
        await asyncio.sleep(0.5)
    assert any(m.get("version", 0) > 2 for m in remote.got), remote.got  # its relay is in the group again
    assert {"type": "hub.resync"} in remote.got and {"type": "hub.resync"} in local.got
    assert here.recoveries >= 1 and there.recoveries >= 1
    await here.leave(group, local)
    await there.leave(group, remote)


def test_joining_while_redis_is_down(tmp_path):
    """A socket that connects while Redis is down is still served (its join does not raise); its
    relay is added to the group once Redis answers, and later messages reach it."""
    from tests.e2e.faults import RedisServer

    server = RedisServer(tmp_path)
    server.start()
    try:
        run_sync(_test_joining_while_redis_is_down(server))
    finally:
        server.kill()


async def _test_joining_while_redis_is_down(server):
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[server.url], prefix="gotweb-test")
    here, there, group = Hub(layer), Hub(layer), f"game-{uuid.uuid4().hex[:6]}"
    sender = Member()
    await here.join(group, sender)
    server.kill()
    late = Member()
    await asyncio.wait_for(there.join(group, late), 10)  # neither raises nor hangs
    assert there.members(group) == 1
    await asyncio.sleep(0.3)
    server.start()
    loop = asyncio.get_running_loop()
    end, version = loop.time() + 20, 0
    while not any(m["type"] == "game.changed" for m in late.got) and loop.time() < end:
        version += 1
        await here.publish(group, {"type": "game.changed", "version": version})
        await asyncio.sleep(0.5)
    assert any(m["type"] == "game.changed" for m in late.got), late.got
    await here.leave(group, sender)
    await there.leave(group, late)


def test_send_to_fills_each_channel_up_to_its_capacity(request):
    run_sync(_test_send_to_fills_each_channel_up_to_its_capacity(request.getfixturevalue("redis_url")))


async def _test_send_to_fills_each_channel_up_to_its_capacity(redis_url):
    """``members.send_to`` on two real channels_redis layers (two processes: their own client
    prefixes): a message reaches every channel named (the channels of one process share one Redis
    key, so one copy serves them), in one script per Redis; a key at capacity keeps what it holds
    and is counted, as channels_redis's own sends would refuse it."""
    from channels_redis.core import RedisChannelLayer

    from game.live.members import send_to

    prefix = f"gotweb-test-{uuid.uuid4().hex[:8]}"
    here = RedisChannelLayer(hosts=[redis_url], prefix=prefix, capacity=2)
    there = RedisChannelLayer(hosts=[redis_url], prefix=prefix, capacity=2)
    a, b = await there.new_channel(), await there.new_channel()
    assert await send_to(here, {a, b}, {"type": "x", "n": 1}) == 0
    assert await send_to(here, {a}, {"type": "x", "n": 2}) == 0
    assert await send_to(here, {a, b}, {"type": "x", "n": 3}) == 1  # that process's key holds two: full
    got_a = [await asyncio.wait_for(there.receive(a), 5) for _ in range(2)]
    got_b = await asyncio.wait_for(there.receive(b), 5)
    assert [m["n"] for m in got_a] == [1, 2] and got_b["n"] == 1
    assert all(m == {"type": "x", "n": m["n"]} for m in [*got_a, got_b])
    assert await send_to(here, {b}, {"type": "x", "n": 4}) == 0  # room again
    assert (await asyncio.wait_for(there.receive(b), 5))["n"] == 4
    await here.flush()
