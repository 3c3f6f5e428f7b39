"""Live-play latency benchmark: ``python -m tests.bench.live [--samples 200] [--spectators 20]``.

On loopback it starts one daphne process on PostgreSQL (a database of its own, dropped at the
end) and Redis (``channels_redis``, a key prefix of its own), with ``GOTWEB_BENCH=1`` so the
bench-only echo socket exists (:mod:`game.devtools.bench_echo`; production routing never has it). Then:

* **game**: a 6-player AGoT game started through the project's services (``lobbies.create_lobby``,
  ``join_lobby``, ``start_lobby``), 6 player sockets (each logged in as its seat's user) and 20
  anonymous spectator sockets on ``/ws/game/<id>/``. Each sample: the seat the game awaits
  sends one legal ``act`` (a random bot's choice, computed before the clock starts on a mirror
  of the state in this process); the sample is the time from that send to the moment every one
  of the 26 sockets holds the new version. The sockets ask for patches (``?patch=1``, as the
  site's client does), so a push is a ``patch`` from the version held, or a whole ``state``
  when that is shorter. A finished game is replaced by a new one. Then, for the "before" figure,
  ``--whole-samples`` more acts of a game whose sockets did not ask for patches (whole states).
* **echo** (baseline, interleaved with the game's samples): 26 sockets on
  ``/ws/bench/echo/<name>/``; one of them sends a short text, the consumer hands it to the whole
  group with one ``group_send`` through the same Redis layer; the sample is the time until all
  26 sockets have it. The same through the project's hub (``hub-echo``), and through the hub
  after the least I/O an act does before its push (``write-echo``: a budget's count in Redis and
  a commit flushed on PostgreSQL, on the event loop; :mod:`game.devtools.bench_echo`).

Then, unless ``--bot-samples 0``, the game's samples again while a **strong bot thinks in
another game on the same daphne process**: a game of The Duke between a bench player (who
answers each bot move at once with a random legal action, through its own socket) and a
``strong`` bot with the site's default budget (``GAME_BOT_BUDGET``, 2 s), so the bot thinks
nearly all the time; ``--bot-workers`` is daphne's ``GAME_BOT_WORKERS`` (default 1: the worker
process; 0: the bot thinks in a thread of daphne, to see what the workers spare).

Prints p50 / p90 / p99 / max in ms of both, the bytes each socket receives per push (and the
whole states' before), the game / echo, game / hub-echo and game / write-echo ratios, and the game's p99 with a
strong bot thinking against without. Targets: game p99 < 20 ms
and <= 2x the hub's echo; a push's median <= 1,500 bytes. Not a test: nothing here is asserted.

Needs PostgreSQL on 127.0.0.1:5432 (``GOTWEB_TEST_POSTGRES_URL``, else ``postgres@``) and Redis
on 127.0.0.1:6379 (``REDIS_URL``, else db 14). ``--profile FILE`` runs daphne under cProfile and
writes its stats there when it stops (``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.daphne import free_port, launch  # noqa: E402  (after the path is set)

SECRET = "bench-" + "x" * 44
ORIGIN = "http://127.0.0.1"
PLAYERS = 6
_VERSION = re.compile(r'"version":(\d+)')


def percentile(xs: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(xs)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def _postgres_url() -> str:
    import psycopg

    for url in filter(None, [os.environ.get("GOTWEB_TEST_POSTGRES_URL", ""), "postgres://postgres@127.0.0.1:5432/postgres",
                             "postgres://postgres:postgres@127.0.0.1:5432/postgres"]):
        try:
            with psycopg.connect(url, connect_timeout=3):
                return url
        except Exception:
            continue
    sys.exit("needs PostgreSQL on 127.0.0.1:5432 (Debian package: postgresql)")


@contextlib.contextmanager
def scratch_site(kind: str):
    """A scratch site for one benchmark run: a PostgreSQL database and a Redis key prefix of its
    own (``gotweb_<kind>_<pid>_<tag>``, ``gotweb-<kind>-<tag>``), the daphne environment that
    names them (also put in ``os.environ``, with ``DJANGO_SETTINGS_MODULE``) and a temporary
    folder for logs. Yields ``(postgres admin url, database name, env, folder, tag)``; at the end
    drops the database and deletes the prefix's Redis keys, and removes the folder after a clean
    run (after a failure it is kept, and named, for its logs)."""
    import psycopg

    pg = _postgres_url()
    tag = uuid.uuid4().hex[:6]
    name = f"gotweb_{kind}_{os.getpid()}_{tag}"
    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        "DATABASE_URL": urlunsplit(urlsplit(pg)._replace(path=f"/{name}")),
        "REDIS_URL": os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/14",
        "REDIS_PREFIX": f"gotweb-{kind}-{tag}",
        "GOTWEB_BENCH": "1",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DEBUG": "0",
        # the load comes from one address, as no crowd of browsers does: the rate of new sockets
        # per address would refuse it (every other limit keeps its production value)
        "LIVE_CONNECT_RATE": "none",
    }
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-{kind}-"))
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "gotweb.settings"
    clean = False
    try:
        yield pg, name, env, tmp, tag
        clean = True
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        try:  # the channel layer's keys of this run (groups live a day otherwise)
            import redis

            r = redis.Redis.from_url(env["REDIS_URL"])
            for key in r.scan_iter(env["REDIS_PREFIX"] + "*"):
                r.delete(key)
        except Exception as exc:
            print(f"could not clean Redis keys {env['REDIS_PREFIX']}*: {exc!r}")
        if clean:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"daphne logs kept in {tmp}")


# cProfile in every thread of daphne (the event loop's and the sync_to_async workers'), written
# to argv[1] when daphne stops (SIGTERM stops the Twisted reactor, then the entry point returns)
_PROFILED = """
import cProfile, pstats, sys, threading
out = sys.argv[1]
sys.argv = ["daphne"] + sys.argv[2:]
profs = [cProfile.Profile()]
def hook(*_):
    sys.setprofile(None)
    p = cProfile.Profile()
    profs.append(p)
    p.enable()
threading.setprofile(hook)
try:
    from gotweb.server import CommandLineInterface  # the site's server (gotweb/server.py)
except ImportError:  # an older source tree, served as a baseline
    from daphne.cli import CommandLineInterface
profs[0].enable()
try:
    CommandLineInterface.entrypoint()
finally:
    for p in profs:
        p.disable()
    st = pstats.Stats(profs[0])
    for p in profs[1:]:
        try:
            st.add(p)
        except Exception:
            pass
    st.dump_stats(out)
"""


def start_daphne(tmp: Path, profile: str | None, bot_workers: int = 1):
    """Migrate, then start daphne on a free port (under cProfile when ``profile``)."""
    port = free_port()
    env = {**os.environ, "STATIC_ROOT": str(tmp / "static"), "GAME_BOT_WORKERS": str(bot_workers), "GAME_BOT_DELAY": "0"}
    args = ["-b", "127.0.0.1", "-p", str(port), "gotweb.asgi:application"]
    cmd = [sys.executable, "-c", _PROFILED, str(Path(profile).resolve()), *args] if profile else None
    try:
        return launch(env, port, tmp / "daphne.log", cmd)
    except RuntimeError as exc:
        sys.exit(str(exc))


# --- sockets -----------------------------------------------------------------------------------------
class Sock:
    """One websocket and a reader task: the arrival time of each state version, and results."""

    def __init__(self, ws, name: str) -> None:
        self.ws, self.name = ws, name
        self.version = -1
        self.arrived: dict[int, float] = {}
        self.texts: dict[str, float] = {}
        self.results: dict = {}
        self.sizes: list[int] = []  # the bytes of each push after the socket's first state
        self.cond = asyncio.Condition()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from tests.wsclient import Closed

        try:
            while True:
                text = await self.ws.recv(timeout=3600)
                now = time.perf_counter()
                if text.startswith(('{"type":"state"', '{"type":"patch"')):
                    v = int(_VERSION.search(text, 0, 200).group(1))
                    self.arrived.setdefault(v, now)
                    if self.version >= 0:
                        self.sizes.append(len(text.encode()))
                    self.version = max(self.version, v)
                elif text.startswith('{"type":"result"'):
                    import json

                    msg = json.loads(text)
                    msg["at"] = now
                    self.results[msg["id"]] = msg
                elif text.startswith("echo:"):
                    self.texts[text] = now
                async with self.cond:
                    self.cond.notify_all()
        except (Closed, asyncio.CancelledError):
            pass

    async def until(self, pred, timeout: float = 10) -> None:
        async with self.cond:
            await asyncio.wait_for(self.cond.wait_for(pred), timeout)

    async def close(self) -> None:
        self.task.cancel()
        await self.ws.close()


async def open_socks(url: str, path: str, cookies: list[str]) -> list[Sock]:
    from tests.wsclient import WS

    ws_url = url.replace("http://", "ws://") + path
    out = []
    for i, cookie in enumerate(cookies):
        out.append(Sock(await WS.connect(ws_url, ORIGIN, cookie), f"{path}#{i}"))
    return out


# --- games -------------------------------------------------------------------------------------------
def make_game(tag: str):
    """A started 6-player game with fresh users; returns ``(game, {house: cookie})``."""
    from django.contrib.auth import get_user_model

    from game.site import lobbies
    from game.models import Profile
    from tests.web.live_helpers import session_cookie

    User = get_user_model()

    def user(name: str):
        u = User.objects.create(username=f"{name}-{tag}")
        u.set_unusable_password()
        u.save()
        Profile.objects.create(user=u, is_guest=True, display_name=f"{name} {tag}"[:30])  # names are unique
        return u

    host = user("host")
    lobby = lobbies.create_lobby(host, name=f"bench {tag}", players=PLAYERS)
    for i in range(2, PLAYERS + 1):
        lobbies.join_lobby(lobby.pk, user(f"p{i}"), invited=True)
    lobbies.start_lobby(lobby.pk, host)
    lobby.refresh_from_db()
    cookies = {s.house: session_cookie(s.user).decode() for s in lobby.seats.select_related("user")}
    return lobby.game, cookies


class GameRun:
    """One live game: its sockets and a mirror of its state to choose the next action."""

    def __init__(self, url: str, spectators: int, n: int, patch: bool = True) -> None:
        self.url, self.spectators, self.n, self.patch = url, spectators, n, patch

    async def start(self) -> None:
        from game.rules.agot import RULESET

        self.game, cookies = await asyncio.to_thread(make_game, f"{os.getpid()}-{self.n}")
        self.R = RULESET
        self.state = RULESET.new_game(self.game.players, self.game.seed, self.game.options)
        path = f"/ws/game/{self.game.pk}/?lang=en" + ("&patch=1" if self.patch else "")
        houses = sorted(cookies)
        socks = await open_socks(self.url, path, [cookies[h] for h in houses] + [""] * self.spectators)
        self.players = dict(zip(houses, socks))
        self.socks = socks
        for s in socks:
            await s.until(lambda s=s: s.version >= 0)
        self.last_sent: dict[str, float] = {}
        self.stages: list[tuple[float, float]] = []  # (sender's result, first socket's state) ms
        self.rid = 0

    def finished(self) -> bool:
        return self.R.result(self.state) is not None

    async def sample(self) -> float:
        """One action; the ms from its send until all sockets hold the new version."""
        from game.rules.agot.actions import to_json

        st = self.state
        actor = self.R.pending(st)[0].actor
        action = self.R.bot_action(st, actor, "random", random.getrandbits(62))
        nxt = self.R.apply(st, actor, action)
        target = self.socks[0].version + 1
        sock = self.players[actor]
        # stay under the per-connection rate limit (LIVE_RATE = 20 messages/s)
        wait = 0.055 - (time.perf_counter() - self.last_sent.get(actor, 0.0))
        if wait > 0:
            await asyncio.sleep(wait)
        self.rid += 1
        rid = self.rid
        msg = {"type": "act", "id": rid, "version": target - 1, "action": to_json(action)}
        import json

        text = json.dumps(msg)
        t0 = time.perf_counter()
        await sock.ws.send(text)
        self.last_sent[actor] = t0
        await sock.until(lambda: rid in sock.results)
        res = sock.results.pop(rid)
        if not res["ok"]:
            raise RuntimeError(f"action refused: {res} for {msg}")
        for s in self.socks:
            await s.until(lambda s=s: s.version >= target)
        self.state = nxt
        arrived = [s.arrived[target] for s in self.socks]
        self.stages.append(((res["at"] - t0) * 1000, (min(arrived) - t0) * 1000))
        return (max(arrived) - t0) * 1000

    def sizes(self) -> list[int]:
        return [n for s in self.socks for n in s.sizes]

    async def close(self) -> None:
        for s in self.socks:
            await s.close()


class EchoRun:
    def __init__(self, url: str, n: int, kind: str = "echo") -> None:
        self.url, self.n, self.i, self.kind = url, n, 0, kind

    async def start(self) -> None:
        self.socks = await open_socks(self.url, f"/ws/bench/{self.kind}/b{os.getpid()}/", [""] * self.n)
        await asyncio.sleep(0.2)

    async def sample(self) -> float:
        self.i += 1
        text = f"echo:{self.i}"
        sender = self.socks[self.i % len(self.socks)]
        t0 = time.perf_counter()
        await sender.ws.send(text)
        for s in self.socks:
            await s.until(lambda s=s: text in s.texts)
        return (max(s.texts.pop(text) for s in self.socks) - t0) * 1000

    async def close(self) -> None:
        for s in self.socks:
            await s.close()


async def whole_sizes(url: str, samples: int, spectators: int) -> list[int]:
    """The bytes per push of ``samples`` acts to sockets that did not ask for patches."""
    run, sizes, n = GameRun(url, spectators, 10_000, patch=False), [], 10_000
    await run.start()
    for _ in range(samples):
        if run.finished():
            sizes += run.sizes()
            await run.close()
            n += 1
            run = GameRun(url, spectators, n, patch=False)
            await run.start()
        await run.sample()
    sizes += run.sizes()
    await run.close()
    return sizes


def make_bot_game(tag: str):
    """A started game of The Duke: a bench player against a strong bot; ``(game, cookie)``."""
    from django.contrib.auth import get_user_model

    from game.models import Profile
    from game.site import lobbies
    from tests.web.live_helpers import session_cookie

    u = get_user_model().objects.create(username=f"duke-{tag}")
    u.set_unusable_password()
    u.save()
    Profile.objects.create(user=u, is_guest=True, display_name=f"duke {tag}"[:30])
    lobby = lobbies.create_lobby(u, name=f"bot {tag}", players=2, ruleset="duke")
    lobbies.add_bot(lobby.pk, u, level="strong")
    lobbies.start_lobby(lobby.pk, u)
    lobby.refresh_from_db()
    return lobby.game, session_cookie(u).decode()


class BotGame:
    """A game against a strong bot, played on in the background (see the module): the bench
    player answers every bot move at once, so the bot in daphne is always thinking."""

    def __init__(self, url: str) -> None:
        self.url, self.n, self.bot_moves, self.games = url, 0, 0, 0

    def _state(self, game_id: int):
        from game.live import snapshots
        from game.models import Game

        game = Game.objects.get(pk=game_id)
        return game, snapshots.state_at(game)

    async def run(self) -> None:
        from game.models import Seat

        while True:
            self.games += 1
            game, cookie = await asyncio.to_thread(make_bot_game, f"{os.getpid()}-{self.games}")
            me = await asyncio.to_thread(lambda: Seat.objects.get(lobby_id=game.lobby_id, bot="").house)
            (sock,) = await open_socks(self.url, f"/ws/game/{game.pk}/?lang=en&patch=1", [cookie])
            rnd, rid = random.Random(game.seed), 0
            try:
                while True:
                    row, state = await asyncio.to_thread(self._state, game.pk)
                    pending = row.rules.pending(state)
                    if not pending:
                        break
                    if pending[0].actor != me:
                        await sock.until(lambda v=row.version: sock.version > v, timeout=120)
                        self.bot_moves += 1
                        continue
                    rid += 1
                    import json

                    action = rnd.choice(pending[0].options["actions"])
                    await sock.ws.send(json.dumps({"type": "act", "id": rid, "version": row.version, "action": action}))
                    await sock.until(lambda r=rid: r in sock.results, timeout=30)
            finally:
                await sock.close()


async def measure_with_bot(url: str, samples: int, warmup: int, spectators: int):
    """The game's samples while a strong bot thinks in another game (:class:`BotGame`)."""
    bot = BotGame(url)
    task = asyncio.create_task(bot.run())
    try:
        while bot.bot_moves < 1:  # the bot has started thinking
            await asyncio.sleep(0.05)
            if task.done():
                task.result()
        out = await measure(url, samples, warmup, spectators, first=20_000)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return out, bot.bot_moves


async def measure(url: str, samples: int, warmup: int, spectators: int, first: int = 1):
    sockets = PLAYERS + spectators
    echo = EchoRun(url, sockets)
    await echo.start()
    hub_echo = EchoRun(url, sockets, "hub-echo")
    await hub_echo.start()
    write_echo = EchoRun(url, sockets, "write-echo")
    await write_echo.start()
    games = first
    run = GameRun(url, spectators, games)
    await run.start()
    game_ms, echo_ms, hub_ms, write_ms, sizes, stages = [], [], [], [], [], []
    i = 0
    while len(game_ms) < samples:
        if run.finished():
            sizes += run.sizes()
            stages += run.stages
            await run.close()
            games += 1
            run = GameRun(url, spectators, games)
            await run.start()
        g = await run.sample()
        e = await echo.sample()
        h = await hub_echo.sample()
        w = await write_echo.sample()
        if i >= warmup:
            game_ms.append(g)
            echo_ms.append(e)
            hub_ms.append(h)
            write_ms.append(w)
        else:
            run.stages.pop()
        i += 1
        await asyncio.sleep(0.005)
    sizes += run.sizes()
    stages += run.stages
    await run.close()
    await echo.close()
    await hub_echo.close()
    await write_echo.close()
    return game_ms, echo_ms, hub_ms, sizes, stages, games, write_ms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--spectators", type=int, default=20)
    ap.add_argument("--whole-samples", type=int, default=60, help="acts measured with whole states, for the bytes before patches")
    ap.add_argument("--profile", help="run daphne under cProfile and write its stats to this file")
    ap.add_argument("--bot-samples", type=int, default=200, help="game samples with a strong bot thinking in another game (0: none)")
    ap.add_argument("--bot-workers", type=int, default=1, help="daphne's GAME_BOT_WORKERS (0: the bot thinks in a thread)")
    a = ap.parse_args(argv)

    load0 = os.getloadavg()[0]
    with scratch_site("bench") as (_, _, _, tmp, _):
        proc = None
        try:
            import django

            django.setup()
            from django.conf import settings

            settings.GAME_BOT_DELAY = None  # the bot game's bot plays in daphne, never in this process
            url, proc = start_daphne(tmp, a.profile, a.bot_workers)
            game_ms, echo_ms, hub_ms, sizes, stages, games, write_ms = asyncio.run(measure(url, a.samples, a.warmup, a.spectators))
            before = asyncio.run(whole_sizes(url, a.whole_samples, a.spectators)) if a.whole_samples else []
            with_bot = asyncio.run(measure_with_bot(url, a.bot_samples, a.warmup, a.spectators)) if a.bot_samples else None
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()

    def line(label: str, xs: list[float]) -> str:
        return (f"{label:<44} p50 {percentile(xs, 50):7.2f} ms   p90 {percentile(xs, 90):7.2f}   "
                f"p99 {percentile(xs, 99):7.2f}   max {max(xs):7.2f}   (n={len(xs)})")

    n = PLAYERS + a.spectators
    print(f"daphne x1, PostgreSQL, Redis (channels_redis) on loopback; {PLAYERS} players + {a.spectators} spectators = {n} sockets")
    print(f"machine: {os.cpu_count()} cores, load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    print(line(f"game: action -> all {n} sockets hold it", game_ms))
    print(line("  of which: the sender's result", [x[0] for x in stages]))
    print(line("  of which: the first socket's state", [x[1] for x in stages]))
    print(line(f"baseline: echo group_send to {n} sockets", echo_ms))
    print(line("  the same echo through the hub", hub_ms))
    print(line("  the hub's echo after a count and a commit", write_ms))
    b50 = statistics.median(sizes)
    was = f"{statistics.median(before):,.0f}" if before else "not measured"
    print(f"bytes per push: median {b50:,.0f}, p99 {percentile(sizes, 99):,.0f} (before: whole states median {was}); games played {games}")
    g50, g99 = percentile(game_ms, 50), percentile(game_ms, 99)
    e50, e99 = percentile(echo_ms, 50), percentile(echo_ms, 99)
    h50, h99 = percentile(hub_ms, 50), percentile(hub_ms, 99)
    print(f"ratio game / echo: p50 {g50 / e50:.2f}x   p99 {g99 / e99:.2f}x")
    print(f"ratio game / hub echo: p50 {g50 / h50:.2f}x   p99 {g99 / h99:.2f}x")
    w50, w99 = percentile(write_ms, 50), percentile(write_ms, 99)
    print(f"ratio game / hub echo after a count and a commit: p50 {g50 / w50:.2f}x   p99 {g99 / w99:.2f}x")
    if with_bot is not None:
        (bot_ms, bot_echo, *_), moves = with_bot
        b99 = percentile(bot_ms, 99)
        print(line(f"game, a strong bot thinking (workers {a.bot_workers})", bot_ms))
        print(line("  baseline echo meanwhile", bot_echo))
        print(f"strong bot moves meanwhile: {moves};  game p99 with / without: {b99 / g99:.2f}x  "
              f"(p50 {percentile(bot_ms, 50) / g50:.2f}x)")
    print(f"target p99 < 20 ms: {'met' if g99 < 20 else 'NOT met'};  target <= 2x the hub echo (p99): "
          f"{'met' if g99 / h99 <= 2 else 'NOT met'};  target push median <= 1,500 bytes: {'met' if b50 <= 1500 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
