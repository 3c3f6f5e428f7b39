"""The capacity benchmark's client socket (``tests.bench.capacity``): RFC 6455 as an asyncio
:class:`~asyncio.Protocol`, for a load generator that holds thousands of sockets on one event loop.

:class:`tests.wsclient.WS` reads each frame with three or four awaits of a ``StreamReader`` in a
task of its own per socket: about 0.1 ms of the generator's CPU per 18 KB state, so a
generator at 165 acts/s (10 states each) took a sixth of a core. Here the frames are cut from
the bytes as they arrive, in the protocol's ``data_received``, with no task and no await, and
a text message is handed to ``on_text`` (a bytearray, not decoded: the generator reads its head
only). The generator's CPU is taken from the cores the daphne processes being measured run
on, so what it saves is theirs.

What it speaks: the opening handshake (``Origin`` and ``Cookie``, from a chosen loopback
address), masked text frames out, unmasked frames in, fragments joined, a ping answered, a
close frame or a lost connection reported once to ``on_closed`` with the close code (None:
the connection broke). Loopback and tests only: the handshake's answer is checked for its
status, not for ``Sec-WebSocket-Accept``.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Callable

from tests.wsclient import frame, handshake


class Refused(Exception):
    """The handshake was answered with another status than 101 (``code``), or broke (None)."""

    def __init__(self, code: int | None = None) -> None:
        super().__init__(f"websocket refused ({code})")
        self.code = code


class ClientSocket(asyncio.Protocol):
    """One client websocket. ``on_text(data: bytearray)`` gets every text message, in order;
    ``on_closed(code)`` is called once when the server closes (its close code) or the connection
    breaks (None), not after :meth:`close`."""

    def __init__(self, request: bytes, on_text: Callable[[bytes], None], on_closed: Callable[[int | None], None]) -> None:
        self.request, self.on_text, self.on_closed = request, on_text, on_closed
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.buf = bytearray()
        self.parts: list[bytes] = []  # the fragments of a message not yet complete
        self.closing = False  # closed by us: nothing is reported

    @classmethod
    async def connect(cls, host: str, port: int, path: str, origin: str, cookie: str, on_text, on_closed,
                      timeout: float = 10, local_host: str | None = None) -> "ClientSocket":
        """Open ``ws://host:port/path``; raises :class:`Refused`, ``OSError`` or ``TimeoutError``."""
        loop = asyncio.get_running_loop()
        sock = cls(handshake(host, port, path, origin, cookie), on_text, on_closed)
        local = None if local_host is None else (local_host, 0)
        transport, _ = await asyncio.wait_for(loop.create_connection(lambda: sock, host, port, local_addr=local), timeout)
        try:
            await asyncio.wait_for(asyncio.shield(sock.opened), timeout)
        except BaseException:
            sock.closing = True
            transport.abort()
            raise
        return sock

    # --- asyncio.Protocol ---------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")]).split()
            del buf[: end + 4]
            if len(status) < 2 or status[1] != b"101":
                self.opened.set_exception(Refused(int(status[1]) if len(status) > 1 and status[1].isdigit() else None))
                self.closing = True
                self.transport.close()
                return
            self.opened.set_result(None)
        pos, n = 0, len(buf)
        while n - pos >= 2:
            b1, b2 = buf[pos], buf[pos + 1]
            size, head = b2 & 0x7F, 2
            if size == 126:
                if n - pos < 4:
                    break
                size, head = int.from_bytes(buf[pos + 2 : pos + 4], "big"), 4
            elif size == 127:
                if n - pos < 10:
                    break
                size, head = int.from_bytes(buf[pos + 2 : pos + 10], "big"), 10
            masked = b2 & 0x80
            if n - pos < head + (4 if masked else 0) + size:
                break
            start = pos + head + (4 if masked else 0)
            payload = buf[start : start + size]  # a copy (bytearray)
            if masked:  # a server never masks; read it anyway
                key = buf[pos + head : pos + head + 4]
                payload = bytearray(b ^ key[i % 4] for i, b in enumerate(payload))
            pos = start + size
            self._message(b1 & 0x0F, bool(b1 & 0x80), payload)
            if self.transport is None or self.transport.is_closing():
                break
        del buf[:pos]

    def connection_lost(self, exc) -> None:
        if not self.opened.done():
            self.opened.set_exception(Refused(None))
        elif not self.closing:
            self.closing = True
            self.on_closed(None)

    # --- frames ---------------------------------------------------------------------------------
    def _message(self, opcode: int, fin: bool, payload: bytes) -> None:
        if opcode == 0x8:
            if not self.closing:
                self.closing = True
                self.on_closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None)
            self.transport.close()
        elif opcode == 0x9:  # ping: answered with a pong of the same data
            self.transport.write(frame(0xA, payload))
        elif opcode in (0x0, 0x1, 0x2):
            if fin and not self.parts:
                self.on_text(payload)
            else:
                self.parts.append(payload)
                if fin:
                    whole, self.parts = b"".join(self.parts), []
                    self.on_text(whole)

    def send(self, text: str) -> None:
        """Send one text message (written at once; the transport buffers)."""
        self.transport.write(frame(0x1, text.encode()))

    def close(self) -> None:
        """Send a close frame (1000) and close the connection; nothing is reported."""
        self.closing = True
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(0x8, struct.pack("!H", 1000)))
            self.transport.close()
