"""The in-process push bench (``python -m tests.bench.pushes``): it pushes a random game's
versions to its 7 viewers as live play does, leaves no cache behind, and prints its line."""

from __future__ import annotations

from game.live import patches, payloads, snapshots
from tests.bench import pushes


def test_the_bench_pushes_every_version_and_forgets_the_game():
    state, moves = pushes.game_moves(3, 1, 6)
    assert len(moves) == 5
    times = pushes.push_times(424242, state, moves)
    assert len(times) == 5 and all(t > 0 for t in times)
    assert snapshots.CACHE.get(424242, state.version + 5) is None
    assert not [k for k in payloads.LATEST if k[0] == 424242] and not [k for k in patches._LATEST if k[0] == 424242]


def test_the_bench_prints_its_line(capsys):
    assert pushes.main(["--games", "1", "--first", "5", "--versions", "4", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "baseline: jsontext.dumps of a shared view x100" in out
    assert "a version's pushes, 7 viewers (from act 5, 3 versions): median " in out and "x baseline), p90 " in out
