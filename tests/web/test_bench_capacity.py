"""The capacity benchmark (``python -m tests.bench.capacity``) imports, spreads sockets as it says,
and runs one tiny step end to end (one game of 10 sockets on a real daphne, PostgreSQL and Redis,
played 40 actions in first), cleaning up its database and Redis keys. Its figures are not asserted: it is a benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench import capacity

ROOT = Path(__file__).resolve().parents[2]


def test_sockets_go_to_the_processes_in_turn_or_by_game():
    game = {"cookies": {h: f"c-{h}" for h in ["a", "b", "c", "d", "e", "f"]}}
    by_socket = capacity.socket_specs(game, [1, 2], "socket", 0)
    assert [s[0] for s in by_socket] == [1, 2] * 5
    assert [s[3] for s in by_socket[:6]] == list("abcdef") and all(s[3] is None and s[1] == "" for s in by_socket[6:])
    spectators = {s[2] for s in by_socket[6:]}
    assert len(spectators) == 4 and all(a.startswith("127.") for a in spectators)  # distinct loopback addresses
    assert {s[0] for s in capacity.socket_specs(game, [1, 2], "game", 10)} == {2}  # the second game
    assert {s[0] for s in capacity.socket_specs(game, [1, 2], "game", 20)} == {1}


def test_slow_samples_are_told_apart_in_bursts_or_scattered():
    samples = [(1.01, 60.0, 1), (1.02, 70.0, 1), (1.05, 80.0, 1), (1.06, 90.0, 2), (3.0, 55.0, 2), (4.0, 10.0, 1)]
    assert capacity.bursts_of(samples) == (
        "slow (> 50 ms): 5 of 6, 3 in bursts (>= 3 in 100 ms on one process); by process: 3, 2")
    assert capacity.bursts_of([(0.5, 20.0, 1)]) == "slow (> 50 ms): 0 of 1, 0 in bursts (>= 3 in 100 ms on one process)"


def test_the_hosts_cores_are_told_by_kind_with_daphnes_share_in_the_kernel():
    used = {"host": {"user": 50, "nice": 10, "system": 20, "idle": 110, "iowait": 2, "irq": 1, "softirq": 4, "steal": 3},
            "daphne_split": (45, 5)}
    assert capacity.host_line(used, 2) == ("host (2 cores = 200%): user 60%, system 20%, softirq 5%, idle 112%, steal 3%; "
                                           "daphne in the kernel: 10% of its CPU")
    ticks = capacity.host_ticks()
    assert set(ticks) == set(capacity.HOST_FIELDS) and ticks["idle"] > 0


def test_the_event_loops_lateness_is_told_per_process():
    lag = {"ticks": 1500, "over": {"5": 40, "10": 12, "25": 3, "50": 0}, "max_ms": 31.24, "late_ms": 450.0}
    assert capacity.lag_line([lag, None], 15) == (
        "event loop (a 10 ms timer): late > 10 ms 12, > 25 ms 3, > 50 ms 0, max 31.2 ms, 3.0% of the time late | n/a")


def test_py_spy_is_found_beside_the_interpreter(tmp_path, monkeypatch):
    """``.venv/bin/python -m tests.bench.capacity`` with py-spy in the .venv (not on the PATH)
    samples with it instead of falling back to cProfile."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    spy = bin_dir / "py-spy"
    spy.write_text("#!/bin/sh\n")
    spy.chmod(0o755)
    monkeypatch.delenv("PY_SPY", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(capacity.sys, "executable", str(bin_dir / "python"))
    assert capacity.py_spy() == str(spy)


def test_profile_summary_reads_py_spy_raw_samples(tmp_path, capsys):
    raw = tmp_path / "p"
    raw.write_text("thread (0x1);main (a.py:1);act (game/live/apply.py:3) 3\nthread (0x1);main (a.py:1) 1\n")
    capacity.summarize_profile(str(raw))
    out = capsys.readouterr().out
    assert "4 samples" in out and "75.0%  act (live/apply.py:3)" in out


@pytest.mark.postgres
@pytest.mark.redis
def test_one_tiny_step_runs_and_cleans_up(postgres_url, redis_url):
    import redis

    env = {**os.environ, "GOTWEB_TEST_POSTGRES_URL": postgres_url, "REDIS_URL": redis_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    out = subprocess.run(
        [sys.executable, "-m", "tests.bench.capacity", "--processes", "1", "--steps", "1", "--warmup", "0.5",
         "--measure", "2", "--period", "0.5", "--no-memory", "--advance", "40"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "largest G with p99 < 50 ms" in out.stdout
    assert "host jitter before" in out.stdout and "host jitter after: p50" in out.stdout
    assert "err 0" in out.stdout, out.stdout
    assert "slow (> 50 ms): " in out.stdout
    assert "host (" in out.stdout and "daphne in the kernel: " in out.stdout
    assert "event loop (a 10 ms timer): late > 10 ms " in out.stdout
    assert not list(redis.Redis.from_url(redis_url).scan_iter("gotweb-capacity-*"))
