"""The capacity benchmark's client socket (``tests/bench/genws.py``): frames cut from the bytes as
they arrive, whatever their split; fragments joined; a ping answered with a masked pong; a
server's close reported once with its code; a refused handshake raised; masked frames out. Its
use against a real daphne is in test_bench_capacity.py's tiny step. Each test runs its body on an
event loop of its own in a worker thread (``run_sync``): the session's Playwright holds this
thread's."""

from __future__ import annotations

import asyncio
import struct

import pytest

from tests.bench.genws import ClientSocket, Refused
from tests.wsclient import frame, run_sync

OK = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"


class _Transport:
    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.out.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


def _server_frame(opcode: int, data: bytes, fin: bool = True) -> bytes:
    n = len(data)
    b1 = (0x80 if fin else 0) | opcode
    if n < 126:
        return struct.pack("!BB", b1, n) + data
    if n < 65536:
        return struct.pack("!BBH", b1, 126, n) + data
    return struct.pack("!BBQ", b1, 127, n) + data


def _unmask(raw: bytes) -> tuple[int, bytes]:
    b1, b2 = raw[0], raw[1]
    assert b2 & 0x80, "a client frame is masked"
    n, i = b2 & 0x7F, 2
    if n == 126:
        n, i = struct.unpack("!H", raw[2:4])[0], 4
    elif n == 127:
        n, i = struct.unpack("!Q", raw[2:10])[0], 10
    key, data = raw[i : i + 4], raw[i + 4 : i + 4 + n]
    return b1 & 0x0F, bytes(b ^ key[j % 4] for j, b in enumerate(data))


def _open():
    texts: list[bytes] = []
    closes: list[int | None] = []
    sock = ClientSocket(b"GET / HTTP/1.1\r\n\r\n", lambda d: texts.append(bytes(d)), closes.append)
    t = _Transport()
    sock.connection_made(t)
    return sock, t, texts, closes


def test_messages_are_cut_from_the_bytes_however_they_arrive():
    run_sync(_messages_are_cut_from_the_bytes_however_they_arrive())


async def _messages_are_cut_from_the_bytes_however_they_arrive():
    sock, t, texts, closes = _open()
    assert t.out == [b"GET / HTTP/1.1\r\n\r\n"]
    small, mid, big = b'{"type":"state","version":1}', b"x" * 300, b"y" * 70000
    stream = OK + _server_frame(1, small) + _server_frame(1, mid) + _server_frame(1, big)
    for i in range(0, len(stream), 7):  # seven bytes at a time: every header and length split somewhere
        sock.data_received(stream[i : i + 7])
    assert sock.opened.done() and sock.opened.exception() is None
    assert texts == [small, mid, big] and closes == [] and not sock.buf


def test_fragments_are_joined_and_a_ping_is_answered():
    run_sync(_fragments_are_joined_and_a_ping_is_answered())


async def _fragments_are_joined_and_a_ping_is_answered():
    sock, t, texts, closes = _open()
    sock.data_received(OK + _server_frame(1, b"ab", fin=False) + _server_frame(9, b"hi") + _server_frame(0, b"cd"))
    assert texts == [b"abcd"]
    assert _unmask(t.out[-1]) == (0xA, b"hi")


def test_a_close_frame_is_reported_once_with_its_code():
    run_sync(_a_close_frame_is_reported_once_with_its_code())


async def _a_close_frame_is_reported_once_with_its_code():
    sock, t, texts, closes = _open()
    sock.data_received(OK + _server_frame(8, struct.pack("!H", 4403)) + _server_frame(1, b"late"))
    sock.connection_lost(None)
    assert closes == [4403] and texts == [] and t.closed


def test_a_lost_connection_is_reported_but_not_after_our_own_close():
    run_sync(_a_lost_connection_is_reported_but_not_after_our_own_close())


async def _a_lost_connection_is_reported_but_not_after_our_own_close():
    sock, t, texts, closes = _open()
    sock.data_received(OK)
    sock.connection_lost(ConnectionResetError())
    assert closes == [None]
    mine, t2, _, closes2 = _open()
    mine.data_received(OK)
    mine.close()
    mine.connection_lost(None)
    assert closes2 == [] and _unmask(t2.out[-1]) == (0x8, struct.pack("!H", 1000)) and t2.closed


def test_a_refused_handshake_raises_with_its_status():
    run_sync(_a_refused_handshake_raises_with_its_status())


async def _a_refused_handshake_raises_with_its_status():
    sock, t, texts, closes = _open()
    sock.data_received(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
    with pytest.raises(Refused) as info:
        await asyncio.wait_for(sock.opened, 1)
    assert info.value.code == 403 and t.closed and closes == []


@pytest.mark.parametrize("n", [0, 5, 125, 126, 65535, 65536])
def test_client_frames_are_masked_with_their_length(n):
    data = bytes(range(256)) * (n // 256 + 1)
    assert _unmask(frame(1, data[:n])) == (1, data[:n])
