"""Deadlines at scale, with nobody connected: two daphne processes on PostgreSQL and Redis, each
running the scheduler thread (``GAME_SCHEDULER=auto``), and ``GOTWEB_CLOCK_GAMES`` (default 20;
50 passed in 212 s in all on this shared 2-core machine at load 8-12, every game finished 130 s
after the start) games of The Duke between two people with a live clock of a few seconds and one time-out allowed.

No one ever connects or acts: each seat's clock runs out once, the stand-in takes it and keeps it
(``max_timeouts`` 1), and the stand-ins play every game to its end. Mid-run one process is killed
(SIGKILL: its transactions roll back, its scheduled bot moves are lost) and started again.
Checked: every game finishes; every seat's deadline fired exactly once, counted from the action
log (one ``timeout`` note of the site per seat; a double firing would also break the log's unique
entry number); the log of every game, notes included, replays with the pure engine to its stored
result.

Skipped, naming the service, when PostgreSQL or Redis does not answer on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.daphne import free_port

from .conftest import start_server, stop_server
from .faults import throwaway_database
from .live_tools import replay

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
GAMES = int(os.environ.get("GOTWEB_CLOCK_GAMES", "20"))
BANK = 3  # seconds on each clock
BUDGET = float(os.environ.get("GOTWEB_CLOCK_BUDGET", "240"))  # seconds for every game to finish

#: the time-outs in the action log: the site's notes (actor "") of type timeout
TIMEOUTS = "SELECT game_id, action FROM game_action WHERE actor = '' AND action->>'type' = 'timeout' ORDER BY game_id, number"

SETUP = r"""
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
django.setup()
from django.contrib.auth import get_user_model
from game.models import Profile
from game.site import lobbies
User = get_user_model()
n, bank, tag = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
tc = {"kind": "live", "bank": bank, "increment": 0, "max_timeouts": 1}
games = []
for i in range(n):
    a = User.objects.create(username=f"a{i}-{tag}")
    b = User.objects.create(username=f"b{i}-{tag}")
    for u in (a, b):
        Profile.objects.create(user=u, is_guest=True, display_name=u.username)
    lobby = lobbies.create_lobby(a, name=f"Clock {i}", players=2, ruleset="duke", time_control=tc)
    lobbies.join_lobby(lobby.pk, b)
    lobbies.start_lobby(lobby.pk, a)
    games.append(lobby.game.pk)
print(json.dumps(games))
"""


@pytest.fixture
def database(postgres_url):
    with throwaway_database(postgres_url) as db_url:
        yield db_url


def _query(db_url: str, sql: str, *params):
    import psycopg

    with psycopg.connect(db_url) as con:
        return con.execute(sql, params).fetchall()


def test_deadlines_fire_exactly_once_across_two_servers_and_a_restart(tmp_path, database, redis_url):
    env = {
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": f"gotweb-clock-{uuid.uuid4().hex[:8]}",
        "GAME_BOT_DELAY": "0.05",
        "GAME_SCHEDULER": "auto",
        "GAME_SCHEDULER_INTERVAL": "0.3",
        "GAME_BOT_RESCUE": "2",
    }
    port_a = free_port()
    servers = {"a": start_server(tmp_path, env, "daphne-a", port_a), "b": start_server(tmp_path, env, "daphne-b")}
    try:
        t0 = time.monotonic()
        out = subprocess.run(
            [sys.executable, "-c", SETUP, str(GAMES), str(BANK), uuid.uuid4().hex[:6]],
            cwd=ROOT, env={**os.environ, "SECRET_KEY": "e2e-" + "x" * 40, **env}, capture_output=True, text=True, timeout=300,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        games = json.loads(out.stdout.strip().splitlines()[-1])
        created = time.monotonic() - t0
        assert len(games) == GAMES

        # let the deadlines start firing, then kill one process mid-run and start it again
        deadline = time.monotonic() + BUDGET
        while time.monotonic() < deadline:
            fired = _query(database, f"SELECT count(*) FROM ({TIMEOUTS}) t")[0][0]
            if fired >= GAMES // 2:
                break
            time.sleep(0.2)
        servers["a"][1].send_signal(signal.SIGKILL)
        servers["a"][1].wait(10)
        killed_at = fired
        time.sleep(1.0)
        servers["a"] = start_server(tmp_path, env, "daphne-a2", port_a)

        while time.monotonic() < deadline:
            running = _query(database, "SELECT count(*) FROM game_game WHERE status = 'running'")[0][0]
            if running == 0:
                break
            time.sleep(0.5)
        elapsed = time.monotonic() - t0
        left = _query(database, "SELECT id, version, stand_ins, deadline FROM game_game WHERE status = 'running'")
        assert left == [], f"{len(left)} games still running after {elapsed:.0f} s: {left[:3]}"

        firings = _query(database, TIMEOUTS)
        timeouts = {}
        for gid, action in firings:
            note = action if isinstance(action, dict) else json.loads(action)
            timeouts.setdefault(gid, []).append(note["seat"])
        for gid in games:
            assert sorted(timeouts.get(gid, [])) == ["dark", "light"], (gid, timeouts.get(gid))  # once per seat
        for gid, numbers in _query(database, "SELECT game_id, array_agg(number ORDER BY number) FROM game_action GROUP BY game_id"):
            assert numbers == list(range(1, len(numbers) + 1)), gid  # the log has no gap
        # the log is the truth: every game replays to its stored result, with no action of a person
        for gid in games:
            rules, state, version = replay(database, gid)
            stored = _query(database, "SELECT version, result FROM game_game WHERE id = %s", gid)[0]
            assert version == stored[0] and rules.result(state) == stored[1]
        people_acts = _query(database, "SELECT count(*) FROM game_action WHERE user_id IS NOT NULL")[0][0]
        assert people_acts == 0
        actions = _query(database, "SELECT count(*) FROM game_action")[0][0]
        print(
            f"\n{GAMES} games: set up in {created:.1f} s, all finished {elapsed:.1f} s after the start;"
            f" {len(firings)} time-outs fired (killed at {killed_at}), {actions - len(firings)} stand-in actions"
        )
    finally:
        for _, proc in servers.values():
            if proc.poll() is None:
                stop_server(proc)
