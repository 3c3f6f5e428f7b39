"""A small asyncio websocket client (RFC 6455, text frames) for tests and benchmarks that talk to a
real daphne process: the handshake with Origin and session cookie, masked text frames out,
unmasked frames in (ping answered, close raises :class:`Closed`)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
from urllib.parse import urlsplit


class Closed(Exception):
    """The server closed the connection (``code``), or the socket broke (``code`` None)."""

    def __init__(self, code: int | None = None) -> None:
        super().__init__(f"websocket closed ({code})")
        self.code = code


def frame(opcode: int, data: bytes) -> bytes:
    """A final client frame of ``opcode`` carrying ``data``, masked with a random key (RFC 6455
    5.3), the mask applied to the whole payload at once."""
    n = len(data)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    key = os.urandom(4)
    if not n:
        return head + key
    stream = (key * (n // 4 + 1))[:n]
    masked = (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(n, "big")
    return head + key + masked


def handshake(host: str, port: int, path: str, origin: str, cookie: str = "") -> bytes:
    """The opening handshake's request for ``ws://host:port/path`` with ``Origin: origin`` and,
    when given, ``Cookie: cookie`` (a fresh random key; the answer's accept value is not checked)."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        f"Origin: {origin}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class WS:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.pings = 0  # ping frames the server sent (each answered)
        self.response = ""  # the handshake's answer: status line and headers

    def header(self, name: str) -> str | None:
        """The value of the handshake answer's header ``name`` (any case), or None."""
        for line in self.response.split("\r\n")[1:]:
            key, _, value = line.partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    @classmethod
    async def connect(cls, url: str, origin: str, cookie: str = "", timeout: float = 10, local_host: str | None = None) -> "WS":
        """Open ``ws://host:port/path`` with ``Origin: origin`` and ``Cookie: cookie``, from the
        local address ``local_host`` when given (e.g. ``127.0.0.7``: any address of the loopback
        range, so a benchmark's anonymous visitors come from distinct IP addresses)."""
        parts = urlsplit(url)
        local = None if local_host is None else (local_host, 0)
        reader, writer = await asyncio.wait_for(asyncio.open_connection(parts.hostname, parts.port, local_addr=local), timeout)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        writer.write(handshake(parts.hostname, parts.port, path, origin, cookie))
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            writer.close()
            raise Closed(int(status.split()[1]) if len(status.split()) > 1 else None)
        ws = cls(reader, writer)
        ws.response = head.decode("latin-1")
        return ws

    async def send(self, text: str) -> None:
        self.writer.write(frame(0x1, text.encode()))
        await self.writer.drain()

    async def send_json(self, obj) -> None:
        await self.send(json.dumps(obj))

    async def _frame(self) -> tuple[int, bool, bytes]:
        try:
            b1, b2 = await self.reader.readexactly(2)
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            mask = await self.reader.readexactly(4) if b2 & 0x80 else None
            data = await self.reader.readexactly(n)
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            raise Closed(None) from e
        if mask:
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        return b1 & 0x0F, bool(b1 & 0x80), data

    async def recv(self, timeout: float = 10) -> str:
        """The next text message."""
        parts: list[bytes] = []
        while True:
            opcode, fin, data = await asyncio.wait_for(self._frame(), timeout)
            if opcode == 0x8:
                raise Closed(struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None)
            if opcode == 0x9:  # ping
                self.pings += 1
                self.writer.write(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if opcode in (0x1, 0x2, 0x0):
                parts.append(data)
                if fin:
                    return b"".join(parts).decode()

    async def recv_json(self, timeout: float = 10):
        return json.loads(await self.recv(timeout))

    async def until(self, pred, timeout: float = 10):
        """Read messages until ``pred(message)`` holds; returns that message."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv_json(max(0.01, end - loop.time()))
            if pred(msg):
                return msg

    async def close(self) -> None:
        try:
            self.writer.write(bytes([0x88, 0x82]) + b"\0\0\0\0" + struct.pack("!H", 1000))
            await self.writer.drain()
        except Exception:
            pass
        self.writer.close()


def run_sync(coro) -> object:
    """Run ``coro`` to completion on a fresh event loop in a worker thread and return its result.

    ``asyncio.run`` refuses to start while another loop runs in this thread, which is the case once
    Playwright's sync API (the session-wide ``browser`` fixture) is active in the test process.
    """
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
