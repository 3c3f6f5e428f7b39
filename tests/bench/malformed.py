"""Malformed-message benchmark: ``python -m tests.bench.malformed [--attempts 300]``.

What an attack on the site measured, as figures: one daphne process (a
temporary SQLite file, the in-memory layer, ``GOTWEB_BENCH=1`` for ``/ws/bench/hub-count/``)
serves an AGoT game; a player opens a socket, sends a malformed ``act`` and closes, ``--attempts``
times for each attack:

* **issue**: the issue's message, an ``action`` that is a list nested 500 deep (it crashed the
  consumer: RecursionError, close 1011, a traceback logged, the consumer left in the hub);
* **deep action**: an ``action`` object nested 20 deep (under the message's bound, so it reaches
  the apply path: ``action.malformed``);
* **baseline** (first, the same churn of sockets): a ``ping`` on each socket.

Prints for each: the answers (by code, or the close code), daphne's resident memory before and
after (VmRSS, MiB), the bytes its log grew, and the hub's member count once the sockets closed.
Not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.daphne import free_port, launch  # noqa: E402  (after the path is set)
from tests.e2e.live_tools import setup_game  # noqa: E402
from tests.wsclient import WS, Closed  # noqa: E402

SECRET = "e2e-" + "x" * 40


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def hub_members(url: str) -> int:
    ws = await WS.connect(url.replace("http://", "ws://") + "/ws/bench/hub-count/", url)
    await ws.send("?")
    n = json.loads(await ws.recv())["members"]
    await ws.close()
    return n


async def attack(url: str, game: int, cookie: str, frame: str, attempts: int) -> Counter:
    answers: Counter = Counter()
    socket_url = url.replace("http://", "ws://") + f"/ws/game/{game}/"
    for _ in range(attempts):
        ws = await WS.connect(socket_url, url, cookie)
        for _ in range(3):  # state, chat history, seats
            await ws.recv()
        await ws.send(frame)
        try:
            got = json.loads(await ws.recv(timeout=30))
            answers[got["error"]["code"] if "error" in got else got["type"]] += 1
        except Closed as exc:
            answers[f"closed {exc.code}"] += 1
        await ws.close()
    return answers


async def run(url: str, pid: int, log: Path, game: int, cookie: str, attempts: int) -> None:
    head = '{"type": "act", "id": 1, "version": 0, "action": '
    attacks = [
        ("baseline (ping)", '{"type": "ping", "id": 1}'),
        ("issue (list 500 deep)", head + "[" * 500 + "]" * 500 + "}"),
        ("deep action (object 20 deep)", head + '{"k":' * 20 + "1" + "}" * 20 + "}"),
    ]
    print(f"{'attack':30} {'answers':38} {'RSS MiB before -> after':>24} {'log bytes':>10} {'hub after':>9}")
    for name, frame in attacks:
        await asyncio.sleep(1)
        before, log_before = rss_mib(pid), log.stat().st_size
        answers = await attack(url, game, cookie, frame, attempts)
        await asyncio.sleep(2)  # daphne ends the closed sockets' consumers
        after, grown, members = rss_mib(pid), log.stat().st_size - log_before, await hub_members(url)
        shown = ", ".join(f"{k} x{v}" for k, v in answers.most_common())
        print(f"{name:30} {shown:38} {before:11.1f} -> {after:8.1f} {grown:10d} {members:9d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/db.sqlite3"
        env = {
            **{k: v for k, v in __import__("os").environ.items() if k != "REDIS_URL"},
            "DATABASE_URL": db, "GAME_BOT_DELAY": "none", "GOTWEB_BENCH": "1", "SECRET_KEY": SECRET,
            "ALLOWED_HOSTS": "127.0.0.1,localhost", "STATIC_ROOT": f"{tmp}/static", "DEBUG": "0",
        }
        log = Path(tmp) / "daphne.log"
        url, proc = launch(env, free_port(), log)
        try:
            info = setup_game(env, players=3)
            house = sorted(info["cookies"])[0]
            asyncio.run(run(url, proc.pid, log, info["game"], info["cookies"][house], args.attempts))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
