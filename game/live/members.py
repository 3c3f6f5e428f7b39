"""Who is in a channel-layer group, read without changing it.

The hub (:mod:`game.live.hub`) asks before it sends a change made in its own process to the
game's other processes: a game whose sockets are all on one process (the common case, and every
game of a one-process site) then costs the channel layer nothing per change. Without the question,
``channels_redis``'s ``group_send`` takes four Redis round trips per message (trim the group,
read it, trim each channel, a Lua script that stores the message), and the sender's own relay
then reads the message back, only to drop it: about 0.8 ms of one process's CPU per message on
the benchmark host, against 0.1 ms for this one read (``tests.bench.capacity``,
``docs/architecture.md``).

Channels has no public call for a group's members, so this reads the two layers the site runs
on, counting members as their own ``group_send`` does (joined less than ``group_expiry`` seconds
ago):

* ``channels_redis.core.RedisChannelLayer``: the group's sorted set (member: channel name, score:
  the unix second of its latest ``group_add``), on the shard the layer hashes the group to; one
  round trip, read only.
* ``channels.layers.InMemoryChannelLayer``: its ``groups`` dict (``{group: {channel: time}}``).

For any other layer, or one whose internals changed (an upgrade of ``channels_redis``), the
answer is None, "unknown", and callers send as before: nothing is lost, only the saving.

:func:`send_to` then sends a message to the members read, other processes' relays, in one round
trip per Redis server (channels_redis's ``send`` takes four, one after another), storing it as
that ``send`` does; on another layer it calls ``send`` per channel.
``tests/web/test_live_hub.py`` checks on both real layers that the saving is taken.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)
_warned: list[bool] = []  # the layer's internals were found changed, and it was logged once


async def group_channels(layer, group: str) -> set[str] | None:
    """The channel names in ``group`` on ``layer`` (a set, maybe empty), or None when this layer's
    members cannot be read (then assume anyone may be listening). Raises what the layer's
    connection raises (Redis unreachable)."""
    from channels.layers import InMemoryChannelLayer

    if isinstance(layer, InMemoryChannelLayer):
        since = int(time.time()) - layer.group_expiry
        return {name for name, joined in layer.groups.get(group, {}).items() if not joined or joined >= since}
    try:
        from channels_redis.core import RedisChannelLayer
    except ImportError:  # pragma: no cover - channels_redis is a dependency of the project
        return None
    if not isinstance(layer, RedisChannelLayer):
        return None
    try:
        key = layer._group_key(group)
        connection = layer.connection(layer.consistent_hash(group))
        since = int(time.time()) - int(layer.group_expiry)
    except (AttributeError, TypeError) as exc:  # another channels_redis: send as before
        if not _warned:
            _warned.append(True)
            log.warning("live: cannot read channel-layer groups (%r); sending every change to the layer", exc)
        return None
    names = await connection.zrangebyscore(key, min=f"({since}", max="+inf")
    return {n.decode("utf8") if isinstance(n, bytes) else str(n) for n in names}


#: stores one message in each of a connection's channel keys (KEYS; ARGV: the serialized messages,
#: then each key's capacity, then now and the layer's message expiry in seconds): drops what
#: expired, skips a key at capacity (counted and returned), as channels_redis's own group send
_SEND_LUA = """
local now = tonumber(ARGV[#ARGV - 1])
local expiry = tonumber(ARGV[#ARGV])
local full = 0
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[#KEYS + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


async def send_to(layer, channels: set[str], message: dict) -> int:
    """Send ``message`` to each of ``channels`` (names a group's members gave, e.g. other
    processes' relays) on ``layer``; returns how many were at capacity (their copy dropped, as a
    ``group_send`` drops it). On ``channels_redis`` one round trip per Redis server (a script that
    does what its ``send`` does in four); on any other layer, or one whose internals changed, its
    ``send`` per channel. Raises what the layer's connection raises (Redis unreachable)."""
    from channels.exceptions import ChannelFull

    mapped = None
    try:
        from channels_redis.core import RedisChannelLayer

        if isinstance(layer, RedisChannelLayer):
            mapped = layer._map_channel_keys_to_connection(sorted(channels), message)
            expiry, capacity_of = int(layer.expiry), mapped[2]
    except (ImportError, AttributeError, TypeError, ValueError) as exc:
        if not _warned:
            _warned.append(True)
            log.warning("live: cannot send to channel-layer channels at once (%r); one send each", exc)
        mapped = None
    if mapped is None:
        full = 0
        for channel in sorted(channels):
            try:
                await layer.send(channel, message)
            except ChannelFull:
                full += 1
        return full
    by_connection, messages, _ = mapped
    full = 0
    for index, keys in by_connection.items():
        args = [messages[k] for k in keys] + [capacity_of[k] for k in keys] + [time.time(), expiry]
        full += int(await layer.connection(index).eval(_SEND_LUA, len(keys), *keys, *args))
    return full
