"""Capacity of live play: ``python -m tests.bench.capacity [--processes 1,2] [--period 2] ...``.

How many concurrent AGoT games one daphne process carries, and two. On loopback it creates a
PostgreSQL database of its own (dropped at the end) and uses Redis with a key prefix of its own
(its keys deleted at the end), starts daphne processes on free ports with ``GOTWEB_BENCH=1`` (the
bench-only sockets of :mod:`game.devtools.bench_echo`), and for each number of processes ramps up
the number of games G (``--steps``: 10, 25, 50, 100, 150, 200, 300, ...):

* **games**: 6-player games started through the project's services (``lobbies.create_lobby``,
  ``join_lobby``, ``start_lobby``), each with 6 player sockets (each its seat's own user, logged in
  by a session cookie) and 4 anonymous spectator sockets, each from its own address of the
  loopback range (127.0.x.y): 10 sockets per game, distinct users and addresses like real
  visitors, so the per-user and per-IP socket caps and budgets (``LIVE_SOCKETS_PER_USER`` 20,
  ``LIVE_SOCKETS_PER_IP`` 60, ``LIVE_RATE``) stay at their production values and are never hit.
  With several processes each socket goes to the next process in turn, as a load balancer
  without affinity would send it (``--spread socket``; ``--spread game`` sends all of a game's
  sockets to one process). ``--spread lb`` puts Debian's nginx with the repository's
  configuration in front of the processes (``deploy/nginx.conf``: a consistent hash of the game's
  id picks its process) and sends every socket to nginx, as deployed; the daphne processes then
  trust nginx's ``X-Forwarded-For`` (``TRUSTED_PROXIES=127.0.0.1``), so each spectator still
  counts as its own address. nginx's CPU is printed with the rest.
* **load**: each game acts once every ``--period`` seconds (default 2), its phase drawn at random:
  the awaited seat's socket sends an ``act`` whose action a random bot chose ahead of time (the
  load generator replays each game's own seed and options, so no engine work is timed). A sample
  is the time from that send until all 10 of the game's sockets hold the new version (the
  sockets ask for patches, ``?patch=1``, as the site's client does: a push is a ``patch`` or a
  whole ``state``; a ``--compare`` baseline that predates patches sends states). Each step warms up ``--warmup`` s, then measures ``--measure`` s. ``--advance N``
  plays each game N actions in first (random bots, written straight into its log and snapshot,
  not timed), so the ramp plays games in their middle: larger views and a full log window.
* **the load generator** runs in ``--generators`` processes of its own (asyncio, one event loop
  each, its sockets :class:`tests.bench.genws.ClientSocket` protocols: no task per socket), each
  holding whole games; each reports the CPU it used and how late it sent its acts, and a
  generator over 80 % of a core is flagged ``SATURATED``.

Per step it prints games, sockets, acts/s, p50/p90/p99/max, the generators' CPU and lag, each
daphne's CPU (% of one core) and RSS, PostgreSQL's CPU (the backends of this database) and
Redis's CPU (the whole server: shared with whatever else uses it), errors, and the load average;
then how many samples were slow (over 50 ms) and how many of those came in bursts, three or more
within 100 ms on one process (:func:`bursts_of`): a process's event loop behind for a moment;
and where the host's cores went in the measured window (:func:`host_line`: user, system, softirq
and idle, in % of one core, and how much of daphne's own CPU was spent in the kernel): what the
generators, the databases and the kernel left for daphne; and how late each daphne's event loop
ran a 10 ms timer (:func:`lag_line`: its stalls, whatever their cause).
Before the first step and after the last it prints the host's jitter (:func:`host_jitter`: how
much longer than its median a fixed 2 ms loop takes at the 99th percentile): a host that takes
its cores away now and then stretches every latency figure, whatever the code does.
A ramp stops when p99 passes ``--stop-ms`` (100) or errors appear. Then the largest G with p99
< 50 ms per number of processes, and their ratio.

Before the ramps (unless ``--no-memory``) one daphne runs with ``PYTHONTRACEMALLOC=1`` (slow, not
timed): the memory one socket costs (a second set of 10 sockets on games already open) and what an
idle game (played, then all its sockets closed) leaves behind, in RSS and in bytes traced by
``tracemalloc``, with how many games each per-process cache still holds.

``--profile FILE`` samples daphne with py-spy (``PY_SPY``, ``py-spy`` on the PATH, or beside this
interpreter; ``pip install py-spy``) during the measurement of the step with ``--profile-games``
games (default: the last step) and prints where the time went (functions by inclusive and own
share of the samples); without py-spy it runs daphne under cProfile for the whole ramp
(``python -m pstats FILE``), which about doubles daphne's CPU per act.

``--pin`` pins each daphne's event loop to a core of its own (process i to core i), as a host
that runs one daphne per core would (the other processes float).

``--compare DIR`` runs every phase twice in the one run, first on the code of another checkout
(the baseline, e.g. ``git archive <commit> | tar -x -C DIR``, with this checkout's
``game/devtools/bench_echo.py`` copied in for the memory figures), then on this one: before and
after under the same conditions.

Bounded: every step, socket and wait has a limit (``--max-games``, ``--max-seconds``), it talks
to 127.0.0.1 only (from loopback source addresses) and it stops by itself. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing as mp
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.live import scratch_site  # noqa: E402  (after the path is set)

PLAYERS, SPECTATORS = 6, 4
ORIGIN = "http://127.0.0.1"
_VERSION = re.compile(rb'"version":(\d+)')
CLK = os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], p: float) -> float:
    """Nearest-rank percentile (nan for no samples)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


# --- processes' CPU and memory from /proc ------------------------------------------------------------------
def cpu_ticks(pid: int) -> int:
    """utime + stime of ``pid`` and its threads, in clock ticks (0 when it is gone)."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[int, int]:
    """``(utime, stime)`` of ``pid`` and its threads, in clock ticks ((0, 0) when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]), int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0, 0


HOST_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def host_ticks() -> dict[str, int]:
    """The whole host's CPU time by kind (``/proc/stat``'s ``cpu`` line: user, nice, system,
    idle, iowait, irq, softirq, steal), in clock ticks summed over its cores."""
    with open("/proc/stat") as f:
        first = f.readline().split()
    return {k: int(v) for k, v in zip(HOST_FIELDS, first[1:])}


def host_line(used: dict, cores: int) -> str:
    """Where the host's cores went in one step, in % of one core (``cores`` x 100 in all): in
    user code, in the kernel (system: the processes' system calls, loopback TCP included;
    softirq: the network's deferred work), idle; and the share of the daphne processes' own CPU
    spent in the kernel."""
    h = used["host"]
    total = sum(h.values()) or 1
    pct = {k: cores * 100.0 * v / total for k, v in h.items()}
    du, ds = used["daphne_split"]
    return (f"host ({cores} cores = {cores * 100}%): user {pct['user'] + pct['nice']:.0f}%, system {pct['system']:.0f}%, "
            f"softirq {pct['softirq'] + pct['irq']:.0f}%, idle {pct['idle'] + pct['iowait']:.0f}%"
            + (f", steal {pct['steal']:.0f}%" if pct["steal"] >= 0.5 else "")
            + f"; daphne in the kernel: {100.0 * ds / max(du + ds, 1):.0f}% of its CPU")


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pids_named(name: str) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/comm") as f:
                    if f.read().strip() == name:
                        out.append(int(d))
            except OSError:
                continue
    return out


# === the load generator (its own processes) ================================================================
class GSock:
    """One socket of a game in the generator (:class:`tests.bench.genws.ClientSocket`): each text
    message is looked at as it arrives, a new state version noted, with no task of its own."""

    __slots__ = ("ws", "game", "version", "port")

    def __init__(self, game: "GGame", port: int = 0) -> None:
        self.ws, self.game, self.version, self.port = None, game, -1, port

    def on_text(self, data: bytearray) -> None:
        g = self.game
        try:
            if data.startswith((b'{"type":"state"', b'{"type":"patch"')):
                m = _VERSION.search(data, 0, 200)
                v = int(m.group(1)) if m else -1
                if v > self.version:
                    self.version = v
                    g.arrived(self, v)
            elif data.startswith(b'{"type":"result"'):
                g.result(json.loads(data))
            elif data.startswith(b'{"type":"error"'):
                g.errors[f"error {json.loads(data).get('error', {}).get('code')}"] += 1
        except Exception as exc:  # a bug of the generator: counted, never silent
            g.errors[f"reader {type(exc).__name__}"] += 1
            g.broken = True
            g.wake()

    def on_closed(self, code: int | None) -> None:
        self.game.errors[f"closed {code}"] += 1
        self.game.broken = True
        self.game.wake()


class GGame:
    """One game in the generator: its sockets, its precomputed acts, the sample in flight."""

    def __init__(self, spec: dict, errors: Counter) -> None:
        from game.rules import get_ruleset

        self.id, self.spec, self.errors = spec["id"], spec, errors
        self.key = spec.get("key", spec["id"])  # the generator's name for it (a second set of sockets: another key)
        self.rules = get_ruleset("agot2")
        self.state = self.rules.new_game(spec["players"], spec["seed"], spec["options"])
        for actor, data in spec.get("prelude") or []:  # the actions the game was advanced by (--advance)
            self.state = self.rules.apply(self.state, actor, self.rules.parse_action(data))
        self.rnd = random.Random(spec["seed"])
        #: (actor, act message text) for versions len..; precomputed (None: the prelude's)
        self.acts: list[tuple[str, str] | None] = [None] * len(spec.get("prelude") or [])
        self.version = len(self.acts)  # versions sent and confirmed
        self.socks: list[GSock] = []
        self.players: dict[str, GSock] = {}
        self.target: int | None = None
        self.have = 0
        self.fut: asyncio.Future | None = None
        self.broken = False
        self.finished = False
        #: the sample in flight's moments: the sender's result, the last socket on the sender's
        #: process and on another process to hold the new version (perf_counter seconds)
        self.t_result = self.t_local = self.t_remote = None
        self.sender_port = 0
        self.last_stage: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def top_up(self, n: int) -> None:
        """Choose the next acts (a random bot's, on a mirror of the game) up to ``n`` ahead."""
        from game.rules.agot.actions import to_json

        R = self.rules
        while len(self.acts) < self.version + n and R.result(self.state) is None:
            st = self.state
            actor = R.pending(st)[0].actor
            action = R.bot_action(st, actor, "random", self.rnd.getrandbits(62))
            self.state = R.apply(st, actor, action)
            v = len(self.acts)
            self.acts.append((actor, json.dumps({"type": "act", "id": v + 1, "version": v, "action": to_json(action)})))

    def arrived(self, sock: GSock, v: int) -> None:
        if self.target is not None and v >= self.target and sock.version >= self.target:
            if sock.port == self.sender_port:
                self.t_local = time.perf_counter()
            else:
                self.t_remote = time.perf_counter()
            self.have += 1
            if self.have == len(self.socks) and self.fut is not None and not self.fut.done():
                self.fut.set_result(time.perf_counter())

    def result(self, msg: dict) -> None:
        if self.target is not None:
            self.t_result = time.perf_counter()
        if not msg.get("ok"):
            self.errors[f"refused {msg.get('error', {}).get('code')}"] += 1
            self.broken = True
            self.wake()

    def wake(self) -> None:
        if self.fut is not None and not self.fut.done():
            self.fut.set_result(None)

    async def act(self) -> float | None:
        """Send the next act; the seconds until every socket holds its version (None: failed)."""
        if self.version >= len(self.acts):
            self.finished = True
            return None
        actor, text = self.acts[self.version]
        self.target, self.have = self.version + 1, sum(1 for s in self.socks if s.version >= self.version + 1)
        self.fut = asyncio.get_running_loop().create_future()
        self.t_result = self.t_local = self.t_remote = None
        self.sender_port = self.players[actor].port
        t0 = time.perf_counter()
        self.players[actor].ws.send(text)
        try:
            done = await asyncio.wait_for(self.fut, 10.0)
        except TimeoutError:
            self.errors["timeout 10 s"] += 1
            self.broken = True
            return None
        finally:
            self.target = None
        if done is None:
            return None
        self.version += 1
        ms = lambda t: 1000 * (t - t0) if t is not None else 0.0  # noqa: E731
        self.last_stage = (ms(self.t_result), ms(self.t_local), ms(self.t_remote))
        return done - t0


async def _connect_game(g: GGame, sem: asyncio.Semaphore, retries: Counter) -> None:
    from tests.bench.genws import ClientSocket, Refused

    path = f"/ws/game/{g.id}/?lang={g.spec.get('lang', 'en')}&patch=1"  # as the site's client asks
    for port, cookie, local, house in g.spec["sockets"]:
        s = GSock(g, port)
        for attempt in range(6):
            try:
                async with sem:
                    s.ws = await ClientSocket.connect("127.0.0.1", port, path, ORIGIN, cookie, s.on_text, s.on_closed,
                                                      timeout=30, local_host=local)
                break
            except (OSError, TimeoutError, Refused) as exc:
                # daphne drops a handshake its application has not accepted within 5 s
                # (--websocket_connect_timeout): a burst of connects on a busy host; counted, retried
                retries[f"connect retried: {type(exc).__name__}"] += 1
                if attempt == 5:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
        g.socks.append(s)
        if house and house not in g.players:
            g.players[house] = s
    end = time.monotonic() + 60
    while any(s.version < g.version for s in g.socks) and not g.broken and time.monotonic() < end:
        await asyncio.sleep(0.05)
    if any(s.version < g.version for s in g.socks):
        g.errors["no initial state"] += 1
        g.broken = True


async def _run(games: list[GGame], start: float, warmup: float, measure: float, period: float) -> dict:
    """Every game acts once per ``period`` from wall time ``start`` (a random phase each) for
    ``warmup + measure`` seconds; the samples of the measurement window are returned."""
    loop = asyncio.get_running_loop()
    t_start = time.perf_counter() + (start - time.time())
    w0, w1 = t_start + warmup, t_start + warmup + measure
    samples: list[tuple[float, float, int]] = []  # (seconds into the window, ms, daphne port)
    stages: list[tuple[float, float, float]] = []  # each sample's (result, sender's process, other process) ms
    lag: list[float] = []
    late = 0

    async def play(g: GGame) -> None:
        nonlocal late
        nxt = t_start + random.uniform(0, period)
        while nxt < w1 and not g.broken and not g.finished:
            delay = nxt - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.perf_counter()
            took = await g.act()
            if took is not None and w0 <= sent < w1:
                samples.append((sent - w0, took * 1000, g.spec["sockets"][0][0]))
                stages.append(g.last_stage)
                lag.append((sent - nxt) * 1000)
            nxt += period
            if nxt < time.perf_counter():  # the last act took longer than a period: ticks skipped
                late += 1
                nxt += period * math.ceil((time.perf_counter() - nxt) / period)

    delay = t_start - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)
    c0 = time.process_time()
    cpu_at: list[float] = []

    async def window_cpu() -> None:
        await asyncio.sleep(max(0.0, w0 - time.perf_counter()))
        cpu_at.append(time.process_time())
        await asyncio.sleep(max(0.0, w1 - time.perf_counter()))
        cpu_at.append(time.process_time())

    probe = loop.create_task(window_cpu())
    await asyncio.gather(*(play(g) for g in games))
    await probe
    cpu = (cpu_at[1] - cpu_at[0]) if len(cpu_at) == 2 else time.process_time() - c0
    return {"lat": [ms for _, ms, _ in samples], "samples": samples, "stages": stages, "lag": lag, "late": late, "cpu": cpu}


def generator_main(conn, seed: int) -> None:
    """A load generator process: commands arrive on ``conn`` (a Pipe end), one at a time."""
    random.seed(seed)
    asyncio.run(_generator(conn))


async def _generator(conn) -> None:
    loop = asyncio.get_running_loop()
    games: dict[int, GGame] = {}
    errors: Counter = Counter()
    sem = asyncio.Semaphore(4)  # connects in flight per generator
    while True:
        cmd = await loop.run_in_executor(None, conn.recv)
        kind = cmd["cmd"]
        try:
            if kind == "add":
                t0 = time.perf_counter()
                new = [GGame(spec, errors) for spec in cmd["games"]]
                for g in new:
                    games[g.key] = g
                retries: Counter = Counter()
                await asyncio.gather(*(_connect_game(g, sem, retries) for g in new))
                conn.send({"sockets": sum(len(g.socks) for g in games.values()), "seconds": time.perf_counter() - t0,
                           "errors": dict(errors), "retries": dict(retries)})
            elif kind == "prepare":
                for g in games.values():
                    g.top_up(cmd["acts"])
                conn.send({"ok": True})
            elif kind == "run":
                errors.clear()
                out = await _run(list(games.values()), cmd["start"], cmd["warmup"], cmd["measure"], cmd["period"])
                out["errors"] = dict(errors)
                out["broken"] = sum(g.broken for g in games.values())
                out["finished"] = sum(g.finished for g in games.values())
                conn.send(out)
            elif kind == "close":
                ids = cmd.get("games") or list(games)
                for gid in ids:
                    g = games.pop(gid, None)
                    if g is None:
                        continue
                    for s in g.socks:
                        s.ws.close()
                await asyncio.sleep(0.5)
                conn.send({"ok": True})
            elif kind == "quit":
                for g in games.values():
                    for s in g.socks:
                        s.ws.close()
                conn.send({"ok": True})
                return
        except Exception as exc:
            conn.send({"failed": f"{type(exc).__name__}: {exc}"})


class Generators:
    """The generator processes, seen from the main process."""

    def __init__(self, n: int, nice: int = 0) -> None:
        ctx = mp.get_context("spawn")
        self.conns, self.procs = [], []
        for i in range(n):
            a, b = ctx.Pipe()
            p = ctx.Process(target=generator_main, args=(b, 1000 + i), daemon=True)
            p.start()
            renice(p.pid, nice)
            self.conns.append(a)
            self.procs.append(p)

    def ask_all(self, msgs: list[dict], timeout: float = 600) -> list[dict]:
        for c, m in zip(self.conns, msgs):
            c.send(m)
        out = []
        for c in self.conns:
            if not c.poll(timeout):
                raise RuntimeError("a load generator did not answer")
            r = c.recv()
            if "failed" in r:
                raise RuntimeError("load generator: " + r["failed"])
            out.append(r)
        return out

    def same(self, msg: dict, timeout: float = 600) -> list[dict]:
        return self.ask_all([msg] * len(self.conns), timeout)

    def stop(self) -> None:
        try:
            self.same({"cmd": "quit"}, 30)
        except Exception:
            pass
        for p in self.procs:
            p.join(5)
            if p.is_alive():
                p.kill()


# === the main process: database, daphne, games, figures ======================================================
def make_games(n: int, tag: str, advance: int = 0) -> list[dict]:
    """``n`` started 6-player games with fresh users; each as ``{id, seed, players, options,
    cookies: {house: cookie}, prelude: [[actor, action], ...]}``, each game already ``advance``
    actions in (:func:`advance_game`)."""
    from django.contrib.auth import get_user_model

    from game.models import Profile
    from game.site import lobbies
    from tests.web.live_helpers import session_cookie

    User = get_user_model()
    out = []
    for k in range(n):
        users = []
        for i in range(PLAYERS):
            u = User(username=f"c{tag}-{k}-{i}")
            u.set_unusable_password()
            u.save()
            Profile.objects.create(user=u, is_guest=True, display_name=f"cap {tag} {k} {i}")
            users.append(u)
        lobby = lobbies.create_lobby(users[0], name=f"capacity {tag} {k}", players=PLAYERS)
        for u in users[1:]:
            lobbies.join_lobby(lobby.pk, u, invited=True)
        lobbies.start_lobby(lobby.pk, users[0])
        lobby.refresh_from_db()
        game = lobby.game
        seats = list(lobby.seats.select_related("user"))
        cookies = {s.house: session_cookie(s.user).decode() for s in seats}
        prelude = advance_game(game, {s.house: s.user for s in seats}, advance) if advance else []
        out.append({"id": game.pk, "seed": game.seed, "players": game.players, "options": game.options, "cookies": cookies,
                    "prelude": prelude})
    return out


def advance_game(game, users: dict, n: int) -> list[list]:
    """Play ``n`` actions of random bots into ``game`` at once (its log rows, its version and a
    snapshot of the state they lead to, its awaited seats), so that the ramp plays a game in its
    middle (more units, orders, cards and a full log window to render) rather than its opening;
    stops one action before the game would end. Returns the actions as ``[actor, action JSON]``
    for the generator's mirror. Not the apply path (no clocks are run down): a set-up, not a
    measurement."""
    from game.live import snapshots
    from game.models import Action
    from game.rules.agot.actions import to_json

    rules = game.rules
    state = rules.new_game(game.players, game.seed, game.options)
    rnd = random.Random(game.seed)
    prelude, rows = [], []
    for v in range(1, n + 1):
        actor = rules.pending(state)[0].actor
        action = rules.bot_action(state, actor, "random", rnd.getrandbits(62))
        after = rules.apply(state, actor, action)
        if rules.result(after) is not None:
            break
        state, data = after, to_json(action)
        prelude.append([actor, data])
        rows.append(Action(game=game, number=v, actor=actor, action=data, user=users.get(actor)))
    Action.objects.bulk_create(rows)
    game.version = len(rows)
    game.snapshot, game.snapshot_version, game.snapshot_key = snapshots.dump(state), game.version, snapshots.code_key(game.ruleset)
    now = time.time()
    game.awaited_since = {d.actor: now for d in rules.pending(state)}
    game.decisions_since = {d.actor: game.version for d in rules.pending(state)}
    game.save(update_fields=["version", "snapshot", "snapshot_version", "snapshot_key", "awaited_since", "decisions_since"])
    return prelude


_next_addr = [0]


def spectator_addr() -> str:
    """A fresh loopback source address for an anonymous spectator (127.0.1.1, 127.0.1.2, ...)."""
    _next_addr[0] += 1
    n = _next_addr[0]
    return f"127.{1 + n // 62500}.{1 + (n // 250) % 250}.{1 + n % 250}"


def socket_specs(game: dict, ports: list[int], spread: str, start: int) -> list[tuple]:
    """``(port, cookie, local address, house)`` of a game's 10 sockets: the players' then the
    spectators', each to the next process in turn from socket number ``start`` (``spread``
    socket), or all to one, the games in turn (``spread`` game: game number ``start // 10``)."""
    houses = sorted(game["cookies"])
    out = []
    for j in range(PLAYERS + SPECTATORS):
        port = ports[(start + j if spread == "socket" else start // (PLAYERS + SPECTATORS)) % len(ports)]
        if j < PLAYERS:
            out.append((port, game["cookies"][houses[j]], None, houses[j]))
        else:
            out.append((port, "", spectator_addr(), None))
    return out


def renice(pid: int, nice: int) -> None:
    """Set the nice value of ``pid`` and its threads (``--nice``: on a host shared with other
    work, this benchmark's own processes are given the CPU first; said in every report)."""
    if not nice:
        return
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            os.setpriority(os.PRIO_PROCESS, int(tid), nice)
    except OSError as exc:
        print(f"  (could not renice {pid}: {exc})")


def pin_to_core(pid: int, i: int) -> None:
    """``--pin``: the event loop of daphne process ``i`` (its main thread, and the threads it
    starts from then on) runs on core ``i`` modulo the cores this benchmark may use, as a
    production host would pin one daphne per core (systemd's ``CPUAffinity=``, ``taskset``); the
    threads daphne already started, PostgreSQL, Redis and the generators still go to any core."""
    cores = sorted(os.sched_getaffinity(0))
    try:
        os.sched_setaffinity(pid, {cores[i % len(cores)]})
    except OSError as exc:
        print(f"  (could not pin {pid}: {exc})")


class Daphnes:
    """n daphne processes on free ports (one environment, one database)."""

    def __init__(self, n: int, tmp: Path, env: dict, profile: str | None = None, tree: Path | None = None, nice: int = 0,
                 pin: bool = False) -> None:
        from tests.bench.live import _PROFILED
        from tests.daphne import free_port, launch

        self.procs, self.ports = [], []
        for i in range(n):
            port = free_port()
            args = ["-b", "127.0.0.1", "-p", str(port), "gotweb.asgi:application"]
            cmd = None
            if profile:
                cmd = [sys.executable, "-c", _PROFILED, f"{profile}.{i}", *args]
            _, proc = launch({**os.environ, **env}, port, tmp / f"daphne-{port}.log", cmd, cwd=tree)
            self.procs.append(proc)
            self.ports.append(port)
            renice(proc.pid, nice)
            if pin:
                pin_to_core(proc.pid, i)

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


async def _ask(port: int, text: str) -> dict:
    from tests.wsclient import WS

    ws = await WS.connect(f"ws://127.0.0.1:{port}/ws/bench/hub-count/", ORIGIN)
    await ws.send(text)
    out = await ws.recv_json(60)
    await ws.close()
    return out


def ask_mem(port: int, detail: bool = False) -> dict:
    return asyncio.run(_ask(port, "mem-detail" if detail else "mem"))


def ask_lag(ports: list[int]) -> list[dict | None]:
    """Each daphne's event-loop lag since the last ask (``game.devtools.bench_echo.LoopLag``;
    None from a baseline tree without it). The first ask starts the probe."""
    async def ask_all() -> list[dict]:
        return await asyncio.gather(*(_ask(port, "lag") for port in ports))

    return [r.get("lag") for r in asyncio.run(ask_all())]


def lag_line(lags: list[dict | None], seconds: float) -> str:
    """One line for the measured window: per process, how many 10 ms ticks of its event loop
    came more than 10 / 25 / 50 ms late, the latest, and the share of the window spent late."""
    parts = []
    for lag in lags:
        if not lag or not lag["ticks"]:
            parts.append("n/a")
            continue
        over = lag["over"]
        parts.append(f"late > 10 ms {over['10']}, > 25 ms {over['25']}, > 50 ms {over['50']}, max {lag['max_ms']:.1f} ms, "
                     f"{lag['late_ms'] / 10 / seconds:.1f}% of the time late")
    return "event loop (a 10 ms timer): " + " | ".join(parts)


class Usage:
    """CPU of the daphne processes, this database's PostgreSQL backends and Redis, between
    :meth:`start` and :meth:`stop`."""

    def __init__(self, daphne_pids: list[int], db: str, pg: str, nginx_pids: list[int] | None = None) -> None:
        self.daphne, self.db, self.pg, self.nginx = daphne_pids, db, pg, nginx_pids or []
        self.redis = pids_named("redis-server")

    def _pg_pids(self) -> list[int]:
        import psycopg

        with psycopg.connect(self.pg, autocommit=True) as c:
            return [r[0] for r in c.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db])]

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.s0 = [cpu_split(p) for p in self.daphne]  # (utime, stime) each
        self.pg0 = {p: cpu_ticks(p) for p in self._pg_pids()}
        self.r0 = {p: cpu_ticks(p) for p in self.redis}
        self.n0 = {p: cpu_ticks(p) for p in self.nginx}
        self.h0 = host_ticks()

    def stop(self) -> dict:
        dt = time.monotonic() - self.t0
        pct = lambda ticks: 100.0 * ticks / CLK / dt  # noqa: E731
        pg1 = {p: cpu_ticks(p) for p in self._pg_pids()}
        pg = sum(max(0, pg1[p] - self.pg0.get(p, 0)) for p in pg1)
        h1 = host_ticks()
        split = [cpu_split(p) for p in self.daphne]
        return {
            "host": {k: h1[k] - self.h0[k] for k in h1},
            "daphne_split": (sum(u - u0 for (u, _), (u0, _) in zip(split, self.s0)),
                             sum(s - s0 for (_, s), (_, s0) in zip(split, self.s0))),
            "daphne_cpu": [pct(sum(now) - sum(then)) for now, then in zip(split, self.s0)],
            "daphne_rss": [rss_mb(p) for p in self.daphne],
            "pg_cpu": pct(pg),
            "redis_cpu": pct(sum(max(0, cpu_ticks(p) - t) for p, t in self.r0.items() if t)),
            "nginx_cpu": pct(sum(max(0, cpu_ticks(p) - t) for p, t in self.n0.items())) if self.nginx else None,
        }


def py_spy() -> str | None:
    """The py-spy to sample daphne with: ``PY_SPY``, else one on the ``PATH``, else one beside this
    interpreter (``pip install py-spy`` into the project's ``.venv``, run as ``.venv/bin/python``,
    whose ``bin`` is not on the ``PATH``); None: the ramp falls back to cProfile, which about
    doubles daphne's CPU per act."""
    return os.environ.get("PY_SPY") or shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))


def summarize_profile(path: str, top: int = 30) -> None:
    """Print the functions with the largest inclusive and own shares of py-spy's raw samples."""
    incl: Counter = Counter()
    own: Counter = Counter()
    threads: Counter = Counter()
    total = 0
    for line in Path(path).read_text(errors="replace").splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        n = int(n)
        frames = stack.split(";")
        total += n
        if frames and frames[0].startswith("thread"):
            threads[frames[0]] += n
            frames = frames[1:]
        names = [re.sub(r" \((.*?/)?([^/]*?/[^/]*?)\)$", r" (\2)", f) for f in frames]
        for f in set(names):
            incl[f] += n
        if names:
            own[names[-1]] += n
    if not total:
        print("  (no samples)")
        return
    print(f"  {total} samples (on-CPU); by thread: " + ", ".join(f"{t} {100 * n / total:.0f}%" for t, n in threads.most_common(6)))
    print("  inclusive:")
    for f, n in incl.most_common(top):
        print(f"    {100 * n / total:5.1f}%  {f[:150]}")
    print("  own:")
    for f, n in own.most_common(top):
        print(f"    {100 * n / total:5.1f}%  {f[:150]}")


# --- the phases ------------------------------------------------------------------------------------------------
def bursts_of(samples: list[tuple[float, float, int]], slow_ms: float = 50.0) -> str:
    """Whether a step's slow samples (``(seconds into the window, ms, daphne port)``, over
    ``slow_ms``) came in bursts: three or more within one 100 ms of one process (its event loop
    behind for a moment: queued acts or a stall) or scattered (single acts)."""
    slow = [(int(t * 10), port) for t, ms, port in samples if ms > slow_ms]
    per = Counter(slow)
    bursts = sum(1 for k in slow if per[k] >= 3)
    by = Counter(port for _, port in slow)
    return (f"slow (> {slow_ms:g} ms): {len(slow)} of {len(samples)}, {bursts} in bursts (>= 3 in 100 ms on one process)"
            + (f"; by process: {', '.join(str(n) for _, n in sorted(by.items()))}" if len(by) > 1 else ""))


def stages_of(stages: list[tuple[float, float, float]], slow_ms: float = 50.0) -> str:
    """Where a step's slow samples (over ``slow_ms``) lost their time, from each sample's
    ``(result, sender's process, other process)`` ms (0: no socket there; for the result: it came
    after the last push): the sender's
    ``result`` already late (the act's own path: its process's loop, the database), or only the
    pushes of the sender's process, or only the other process's (the crossing through Redis)."""
    slow = [st for st in stages if max(st) > slow_ms]
    result = sum(1 for r, _, _ in slow if r > slow_ms)
    local = sum(1 for r, lo, _ in slow if r <= slow_ms < lo)
    remote = sum(1 for r, lo, re in slow if r <= slow_ms and lo <= slow_ms < re)
    worst = max(slow, key=max, default=None)
    return (f"slow samples' stage: result late {result}, only the sender's process's pushes {local}, only the other "
            f"process's {remote}" + (f"; the slowest: result {worst[0]:.0f} ms, sender's process {worst[1]:.0f} ms, "
                                     f"other {worst[2]:.0f} ms" if worst else ""))


def line_of(step: dict) -> str:
    lat = step["lat"]
    d = step["usage"]
    daphne = " ".join(f"{c:3.0f}%/{r:4.0f}MB" for c, r in zip(d["daphne_cpu"], d["daphne_rss"]))
    gen = "/".join(f"{c:.0f}%" for c in step["gen_cpu"])
    sat = " SATURATED" if max(step["gen_cpu"]) > 80 else ""
    errs = sum(step["errors"].values())
    per_act = per_act_ms(step)
    return (f"{step['games']:5d} {step['games'] * 10:6d} {step['acts_per_s']:6.1f}  "
            f"{percentile(lat, 50):6.1f} {percentile(lat, 90):6.1f} {percentile(lat, 99):6.1f} {max(lat, default=float('nan')):7.1f}  "
            f"{daphne}  pg {d['pg_cpu']:3.0f}%  redis {d['redis_cpu']:3.0f}%  "
            + (f"nginx {d['nginx_cpu']:3.0f}%  " if d.get("nginx_cpu") is not None else "")
            + f"ms/act {per_act['daphne']:4.1f}/{per_act['pg']:3.1f}/{per_act['redis']:3.1f}  gen {gen}{sat} lag99 {percentile(step['lag'], 99):5.1f}  "
            f"err {errs}{' ' + str(step['errors']) if errs else ''}  load {step['load']:.1f}")


def per_act_ms(step: dict) -> dict[str, float]:
    """CPU milliseconds per act (one act and its 10 pushes) of the daphne processes together,
    this database's PostgreSQL backends and Redis: robust to a noisy host where latency is not."""
    d, rate = step["usage"], max(step["acts_per_s"], 1e-9)
    return {"daphne": 10 * sum(d["daphne_cpu"]) / rate, "pg": 10 * d["pg_cpu"] / rate, "redis": 10 * d["redis_cpu"] / rate}


HEADER = ("games sockets acts/s   p50    p90    p99     max   daphne cpu/rss (each)    PostgreSQL  Redis  "
          "CPU ms per act (daphne/pg/redis)  generators (cpu, lag p99 ms)  errors  load")


def ramp(n_proc: int, a, env: dict, tmp: Path, tag: str, db: str, pg: str, tree: Path | None = None, label: str = "") -> list[dict]:
    profile_cprofile = a.profile if (a.profile and not py_spy()) else None
    lb = a.spread == "lb"
    if lb:
        env = {**env, "TRUSTED_PROXIES": "127.0.0.1"}
    daphnes = Daphnes(n_proc, tmp, env, profile_cprofile, tree, a.nice, a.pin)
    proxy, ports = None, daphnes.ports
    if lb:
        from tests import nginx
        from tests.daphne import free_port

        front = free_port()
        try:
            proxy = nginx.start(tmp / f"nginx-{label[:1]}{n_proc}", front, [f"127.0.0.1:{p}" for p in daphnes.ports])
        except RuntimeError:
            daphnes.stop()
            raise
        ports = [front]
        for pid in nginx.pids(proxy):
            renice(pid, a.nice)
    gens = Generators(a.generators, a.nice)
    steps = []
    t_begin = time.monotonic()
    try:
        games: list[dict] = []
        print(f"\n== {label}{n_proc} daphne process{'es' if n_proc > 1 else ''} (spread: {a.spread}), one act per game every {a.period:g} s, "
              f"{a.measure:g} s measured per step after {a.warmup:g} s ==")
        print(HEADER, flush=True)
        for G in a.steps:
            if G > a.max_games or time.monotonic() - t_begin > a.max_seconds:
                print(f"  (stopped before {G} games: --max-games / --max-seconds)")
                break
            new = make_games(G - len(games), f"{tag}{label[:1]}{n_proc}s{G}", a.advance)
            per_gen: list[list[dict]] = [[] for _ in range(a.generators)]
            for k, gm in enumerate(new):
                idx = len(games) + k
                spec = {**gm, "sockets": socket_specs(gm, ports, a.spread, idx * (PLAYERS + SPECTATORS))}
                per_gen[idx % a.generators].append(spec)
            games += new
            added = gens.ask_all([{"cmd": "add", "games": g} for g in per_gen])
            errs, retried = Counter(), Counter()
            for r in added:
                errs.update(r["errors"])
                retried.update(r.get("retries", {}))
            took = max(r["seconds"] for r in added)
            print(f"  (connected {len(new) * 10} sockets in {took:.0f} s, {len(new) * 10 / max(took, 1e-9):.0f}/s"
                  + (f"; {dict(retried)}" if retried else "") + ")", flush=True)
            if errs:
                print(f"  connecting failed: {dict(errs)}")
                break
            acts = int(math.ceil((a.warmup + a.measure) / a.period)) + 2
            gens.same({"cmd": "prepare", "acts": acts})
            time.sleep(1.0)  # connects settle (bot checks, first payloads)
            start = time.time() + 1.0
            for c in gens.conns:
                c.send({"cmd": "run", "start": start, "warmup": a.warmup, "measure": a.measure, "period": a.period})
            usage = Usage([p.pid for p in daphnes.procs], db, pg, nginx.pids(proxy) if proxy else None)
            for pid in usage._pg_pids() if a.nice else []:
                renice(pid, a.nice)
            time.sleep(max(0.0, start + a.warmup - time.time()))
            usage.start()
            ask_lag(daphnes.ports)  # from here
            spy = None
            if a.profile and py_spy() and G == (a.profile_games or a.steps[-1]):
                spy = [subprocess.Popen([py_spy(), "record", "--nonblocking", "--threads", "-r", "200", "-d", str(int(a.measure)),
                                         "-f", "raw", "-o", f"{a.profile}.{i}", "-p", str(p.pid)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i, p in enumerate(daphnes.procs)]
            time.sleep(max(0.0, start + a.warmup + a.measure - time.time()))
            used = usage.stop()
            lags = ask_lag(daphnes.ports)
            results = []
            for c in gens.conns:
                if not c.poll(a.warmup + a.measure + 120):
                    raise RuntimeError("a load generator did not finish its run")
                results.append(c.recv())
            if spy:
                for s in spy:
                    s.wait(a.measure + 60)
            lat = [x for r in results for x in r["lat"]]
            step = {
                "games": G, "lat": lat, "lag": [x for r in results for x in r["lag"]],
                "acts_per_s": len(lat) / a.measure, "usage": used, "load": os.getloadavg()[0],
                "gen_cpu": [100 * r["cpu"] / a.measure for r in results],
                "errors": sum((Counter(r["errors"]) for r in results), Counter()),
                "late": sum(r["late"] for r in results), "finished": sum(r["finished"] for r in results),
            }
            steps.append(step)
            print(line_of(step), flush=True)
            print("    " + bursts_of(sorted(x for r in results for x in r["samples"])), flush=True)
            print("    " + stages_of([x for r in results for x in r["stages"]]), flush=True)
            print("    " + host_line(used, os.cpu_count() or 1), flush=True)
            print("    " + lag_line(lags, a.measure), flush=True)
            if spy:
                for i in range(len(spy)):
                    print(f"  profile of daphne {i} at {G} games ({a.profile}.{i}):")
                    summarize_profile(f"{a.profile}.{i}")
            if step["errors"] or percentile(lat, 99) > a.stop_ms:
                break
    finally:
        gens.stop()
        if proxy is not None:
            nginx.stop(proxy)
        daphnes.stop()
    if profile_cprofile:
        print(f"  cProfile of the whole ramp: {profile_cprofile}.0 (python -m pstats)")
    return steps


def memory(a, env: dict, tmp: Path, tag: str, tree: Path | None = None, label: str = "", traced: bool = True) -> None:
    """One daphne (under tracemalloc when ``traced``): the cost of a socket, and what idle games
    leave behind. Untraced, the RSS figures are free of tracemalloc's own bookkeeping."""
    m = a.memory_games
    tag = tag + label[:1] + ("t" if traced else "r")
    daphnes = Daphnes(1, tmp, {**env, **({"PYTHONTRACEMALLOC": "1"} if traced else {})}, tree=tree, nice=a.nice)
    gens = Generators(1, a.nice)
    port = daphnes.ports[0]
    pid = daphnes.procs[0].pid
    try:
        def connect(batch: list[dict]) -> None:
            specs = [{**gm, "id": gm["id"], "sockets": socket_specs(gm, [port], "game", 0)} for gm in batch]
            r = gens.same({"cmd": "add", "games": specs})[0]
            if r["errors"]:
                raise RuntimeError(f"memory phase: {r['errors']}")

        def play(acts: int) -> None:
            gens.same({"cmd": "prepare", "acts": acts + 2})
            r = gens.same({"cmd": "run", "start": time.time() + 0.5, "warmup": 0, "measure": acts * 0.25, "period": 0.25})[0]
            if r["errors"]:
                raise RuntimeError(f"memory phase: {r['errors']}")

        def close(ids=None) -> None:
            gens.same({"cmd": "close", "games": ids})
            end = time.monotonic() + 60
            while ask_mem(port)["members"] and time.monotonic() < end:  # every socket's leave is through
                time.sleep(0.5)

        # warm the process (imports, code caches, first connections) with one game, then forget it
        warm = make_games(1, f"{tag}mw")
        connect(warm)
        play(5)
        close()
        m0 = ask_mem(port)
        batch1 = make_games(m, f"{tag}m1")
        connect(batch1)
        play(10)
        m1 = ask_mem(port, a.memory_detail and traced)
        # a second set of 10 sockets on the same games: anonymous spectators, each from its own address
        second = [{**gm, "key": f"second-{gm['id']}",
                   "sockets": [(port, "", spectator_addr(), None) for _ in range(PLAYERS + SPECTATORS)]} for gm in batch1]
        r = gens.same({"cmd": "add", "games": second})[0]
        if r["errors"]:
            raise RuntimeError(f"memory phase: {r['errors']}")
        r = r["sockets"]
        m2 = ask_mem(port, a.memory_detail and traced)
        close()
        m3 = ask_mem(port)
        batch2 = make_games(m, f"{tag}m2")
        connect(batch2)
        play(10)
        close()
        m4 = ask_mem(port)
        sockets = m * (PLAYERS + SPECTATORS)

        def kb(x, y, key, per):
            if x.get(key) is None or y.get(key) is None:
                return float("nan")
            scale = 1 if key == "rss_kb" else 1 / 1024
            return (y[key] - x[key]) * scale / per

        how = "under tracemalloc" if traced else "RSS only, no tracemalloc"
        print(f"\n== {label}memory (one daphne {how}; {m} games of {PLAYERS + SPECTATORS} sockets, 10 acts each) ==")
        print(f"  start: RSS {m0['rss_kb'] / 1024:.1f} MB, traced {(m0['traced'] or 0) / 2**20:.1f} MB; held {m0['held']}")
        print(f"  per socket (a second set of {sockets} sockets on open games): RSS {kb(m1, m2, 'rss_kb', sockets):.1f} KB, "
              f"traced {kb(m1, m2, 'traced', sockets):.1f} KB  [{r} sockets open]")
        if a.memory_detail:
            for where, size, count in m2.get("grew", [])[:15]:
                print(f"    per socket {size / sockets:8.0f} B  {count / sockets:6.1f} blocks  {where}")
        print(f"  per idle game (played, then every socket closed): RSS {kb(m0, m3, 'rss_kb', m):.1f} KB, "
              f"traced {kb(m0, m3, 'traced', m):.1f} KB; held {m3['held']}")
        print(f"  per idle game, a second batch: RSS {kb(m3, m4, 'rss_kb', m):.1f} KB, traced {kb(m3, m4, 'traced', m):.1f} KB; "
              f"held {m4['held']}; hub members {m4['members']}")
        print(f"  RSS at the end {rss_mb(pid):.1f} MB; load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        gens.stop()
        daphnes.stop()


def host_jitter(seconds: float = 3.0) -> str:
    """How steadily this host runs a fixed piece of Python (about 2 ms of CPU, repeated for
    ``seconds``): ``"p50 a, p99 b, max c ms (p99/p50 r)"``. On a core of its own the p99 stays
    near the p50; a host whose cores are taken away now and then (other tenants, a VM's
    neighbours) shows it here first, and then no latency figure of this benchmark is the code's
    own."""
    took = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        x = 0
        for i in range(60_000):
            x += i
        took.append((time.perf_counter() - t) * 1000)
    took.sort()
    p50, p99 = percentile(took, 50), percentile(took, 99)
    return f"p50 {p50:.2f}, p99 {p99:.2f}, max {took[-1]:.2f} ms (p99/p50 {p99 / p50:.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--processes", default="1,2", help="daphne processes per ramp, e.g. 1,2 (default)")
    ap.add_argument("--steps", default="10,25,50,100,150,200,300,400,500,600")
    ap.add_argument("--period", type=float, default=2.0, help="seconds between two acts of one game (T)")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--measure", type=float, default=20.0, help="seconds measured per step")
    ap.add_argument("--stop-ms", type=float, default=100.0, help="a ramp stops when p99 passes this")
    ap.add_argument("--generators", type=int, default=1, help="load generator processes")
    ap.add_argument("--spread", choices=["socket", "game", "lb"], default="socket",
                    help="socket: each socket to the next process; game: a game's sockets to one process; "
                         "lb: every socket through nginx (deploy/nginx.conf), which routes by game")
    ap.add_argument("--advance", type=int, default=0, help="actions each game is played into before it is measured "
                    "(random bots; e.g. 150: the middle of a game, with a full log window)")
    ap.add_argument("--max-games", type=int, default=1000)
    ap.add_argument("--max-seconds", type=float, default=1800, help="per ramp: no new step after this")
    ap.add_argument("--memory-games", type=int, default=30)
    ap.add_argument("--nice", type=int, default=0, help="nice value of daphne, the generators and this database's "
                    "PostgreSQL backends (e.g. -10 on a host shared with other work; 0: unchanged)")
    ap.add_argument("--pin", action="store_true", help="daphne process i runs its event loop on core i (one process per "
                    "core, as in production); the other processes are not pinned")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--memory-detail", action="store_true", help="the source lines a socket's memory comes from")
    ap.add_argument("--profile", help="py-spy samples (or cProfile stats) of daphne, written to FILE.<process>")
    ap.add_argument("--profile-games", type=int, help="the step to sample with py-spy (default: the last step)")
    ap.add_argument("--compare", metavar="DIR", help="another checkout (the baseline code): every phase runs on it "
                    "('before') and then on this one ('after'), in this one run")
    a = ap.parse_args(argv)
    a.steps = [int(x) for x in a.steps.split(",")]
    if a.spread == "lb":
        from tests import nginx

        if nginx.binary() is None:
            ap.error(f"--spread lb needs nginx (Debian package: {nginx.PACKAGE})")
    procs = [int(x) for x in a.processes.split(",") if x.strip()]  # "" : the memory phase alone

    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped (SIGTERM): cleaning up"))  # the scratch site is cleaned up
    results: dict[tuple[str, int], list[dict]] = {}
    load0 = os.getloadavg()
    print(f"capacity: AGoT, {PLAYERS} players + {SPECTATORS} spectators per game; PostgreSQL and Redis on 127.0.0.1; "
          f"{os.cpu_count()} cores, load average {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}"
          + (f"; daphne, generators and this database's backends at nice {a.nice}" if a.nice else "")
          + ("; each daphne's event loop pinned to a core of its own" if a.pin else ""), flush=True)
    print(f"host jitter before (a fixed 2 ms loop for 3 s): {host_jitter()}", flush=True)
    with scratch_site("capacity") as (pg, name, env, tmp, tag):
        env["STATIC_ROOT"] = str(tmp / "static")
        import django

        django.setup()
        from django.conf import settings as django_settings

        django_settings.NOTIFY_MAILS = False  # this process only creates games: no mail worker of its own

        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env={**os.environ, **env}, check=True)
        trees = [(Path(a.compare).resolve(), "before: "), (None, "after: ")] if a.compare else [(None, "")]
        if not a.no_memory:
            for traced in (False, True):
                for tree, label in trees:
                    memory(a, env, tmp, tag, tree, label, traced)
        for n in procs:
            for tree, label in trees:
                results[(label, n)] = ramp(n, a, env, tmp, tag, name, pg, tree, label)

    print("\n== summary ==")
    best: dict[tuple[str, int], int] = {}
    for (label, n), steps in results.items():
        ok = [s["games"] for s in steps if not s["errors"] and percentile(s["lat"], 99) < 50]
        best[(label, n)] = max(ok, default=0)
        knee = next((s for s in steps if s["errors"] or percentile(s["lat"], 99) > a.stop_ms), None)
        print(f"  {label}{n} process{'es' if n > 1 else ''}: largest G with p99 < 50 ms: {best[(label, n)]} games "
              f"({best[(label, n)] * 10} sockets)"
              + (f"; stopped at {knee['games']} (p99 {percentile(knee['lat'], 99):.0f} ms, errors {sum(knee['errors'].values())})" if knee else ""))
    for (label, n), steps in results.items():
        if steps:
            ms = [per_act_ms(s)["daphne"] for s in steps]
            print(f"  {label}{n} process{'es' if n > 1 else ''}: daphne CPU per act {statistics.median(ms):.1f} ms median over "
                  f"{len(ms)} steps ({min(ms):.1f}-{max(ms):.1f}): {n} busy core{'s' if n > 1 else ''} would carry ~{n * 1000 / statistics.median(ms):.0f} acts/s")
    for (label, n), g in best.items():
        one = best.get((label, 1))
        if n > 1 and one:
            print(f"  {label}scaling {n} / 1 process: {g / one:.2f}x")
    print(f"  load average at the end {os.getloadavg()[0]:.2f}; host jitter after: {host_jitter()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
