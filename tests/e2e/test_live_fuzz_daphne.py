"""The websocket fuzzing of tests/web/test_live_fuzz.py, shorter, against a real daphne process
(SQLite, in-memory layer), on a game of each ruleset (AGoT, The Duke): real frames, so a reply
that is not valid UTF-8 or a consumer crash shows up as a closed socket (1011), and daphne's own
limits apply. The stream begins with the frames that once crashed it (``known_frames``: the
act among them) and has the unit fuzz's hostile values too (nesting up to 10,000 deep,
numbers of 5,000 digits, strings of every Unicode plane, lone surrogates as escapes...).

Each message's answer is predicted by the same model (pure engine + docs/protocol.md); the
server's default rate limit is on, so the messages are paced to stay under it. No socket is
closed by the stream; afterwards every socket still answers, the server logged no traceback and
no failure of a consumer (one line each, :func:`game.live.transport.log_failure`), the stored log
is exactly the accepted actions, a frame over daphne's 1 MiB limit closes only its own socket,
and once every socket has closed the process's hub holds as many consumers as before
(``/ws/bench/hub-count/``, routed with ``GOTWEB_BENCH=1``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from tests.web.test_live_fuzz import Checker, Fuzzer, Model, Sock, documented_codes, known_frames, read_answer
from tests.wsclient import WS, Closed, run_sync

from .conftest import start_server, stop_server
from .live_tools import replay, setup_game, stored_log

pytestmark = pytest.mark.e2e

MESSAGES = 300
PACE = 50
#: a line of game.live.transport.log_failure: "<Consumer> <path> (user <id>): <what> failed: <exception>"
FAILURE_LINE = re.compile(r"^\w+ /ws/\S* \(user \S+\): .* failed: ", re.M)


@pytest.mark.parametrize("ruleset", ["agot2", "duke"])
def test_fuzzing_a_real_server(tmp_path, ruleset):
    db = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env = {"DATABASE_URL": db, "GAME_BOT_DELAY": "none", "GOTWEB_BENCH": "1"}
    url, proc = start_server(tmp_path, env, "daphne-fuzz")
    try:
        info = setup_game({**env, "ALLOWED_HOSTS": "127.0.0.1,localhost"}, players=3 if ruleset == "agot2" else 2, ruleset=ruleset)
        rules, state, _ = replay(db, info["game"])
        model = Model(rules, state, sorted(info["cookies"]))
        rnd = random.Random(f"7-{ruleset}")
        socket_url = url.replace("http://", "ws://") + f"/ws/game/{info['game']}/"
        stats = run_sync(_fuzz(socket_url, url, info["cookies"], model, rnd))
    finally:
        stop_server(proc)
    log = (tmp_path / "daphne-fuzz.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception inside application" not in log, log[-3000:]
    assert not FAILURE_LINE.search(log), FAILURE_LINE.findall(log)[:5]
    _, stored, version = replay(db, info["game"])
    assert version == model.version and rules.view(stored, None) == rules.view(model.state, None)
    assert stored_log(db, info["game"]) == model.accepted  # the refusals wrote nothing
    print(f"\ndaphne fuzz {ruleset}: {stats}")
    assert stats["accepted"] >= 3 and len(stats["codes"]) >= 8, stats
    assert stats["members"] == (0, len(model.seats) + 1, 0), stats  # the hub: before, during, after


async def _hub_members(counter: WS) -> int:
    await counter.send("?")
    return json.loads(await counter.recv())["members"]


async def _fuzz(socket_url, origin, cookies, model: Model, rnd: random.Random) -> dict:
    checker = Checker(documented_codes())
    fuzz = Fuzzer(rnd, model)
    counter = await WS.connect(origin.replace("http://", "ws://") + "/ws/bench/hub-count/", origin)
    before = await _hub_members(counter)
    socks = []
    for house in model.seats:
        socks.append(Sock(house, await WS.connect(socket_url, origin, cookies[house]), house, True))
    socks.append(Sock("anonymous", await WS.connect(socket_url, origin), None, False))
    for s in socks:
        await read_answer(s, checker, "state", 0)
    during = await _hub_members(counter)
    accepted = 0
    known = [(s, frame) for s in socks for frame in known_frames(0)]
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n in range(len(known) + MESSAGES):
        # at most PACE messages/s in all: each socket stays well under LIVE_RATE = 20/s (burst 40)
        await asyncio.sleep(max(0.0, start + n / PACE - loop.time()))
        if n < len(known):
            sock, frame = known[n]
        else:
            sock = rnd.choice(socks)
            frame = fuzz.message(sock.seat)
        if isinstance(frame, bytes) or not frame:
            continue  # tests/wsclient.py sends text frames only
        want = model.expect(sock.seat, sock.logged_in, frame)
        await sock.ws.send(frame)
        try:
            got = await read_answer(sock, checker, want["type"], model.version)
        except Closed as exc:
            raise AssertionError(f"message {n} from {sock.name} closed the socket ({exc.code}): {frame[:300]!r}") from exc
        where = f"message {n} from {sock.name}: {frame[:300]!r}\nexpected {str(want)[:500]}\ngot {str(got)[:500]}"
        code = got["error"]["code"] if got["type"] == "error" or (got["type"] == "result" and not got["ok"]) else None
        if code == "rate_limited" and "channel" in want and got["type"] == "result" and got["id"] == want["id"]:
            continue  # chat's own limit (LIVE_CHAT_RATE: a line per 2 s) is on, and expected
        assert code != "rate_limited", where  # the pace above keeps under LIVE_RATE
        assert got["type"] == want["type"], where
        if got["type"] != "state":
            assert got.get("id") == want["id"] and code == want.get("code"), where
        if got["type"] == "result" and "new" in want and want["code"] is None:
            model.states.append(want["new"])
            model.accepted.append((sock.seat, want["msg"]["action"]))
            accepted += 1
            assert got["version"] == model.version, where
    for i, s in enumerate(socks):
        await s.ws.send(json.dumps({"type": "ping", "id": i}))
        assert (await read_answer(s, checker, "pong", 0))["id"] == i
    huge = socks[-1]
    await huge.ws.send('{"type": "ping", "text": "' + "x" * (1024 * 1024 + 10) + '"}')
    with pytest.raises(Closed) as closed:
        await huge.ws.recv(timeout=10)
    assert closed.value.code in (1009, None)  # daphne's websocket_max_message_size: closed or dropped
    for s in socks[:-1]:  # the others are untouched
        await s.ws.send(json.dumps({"type": "ping", "id": "after"}))
        assert (await read_answer(s, checker, "pong", 0))["id"] == "after"
        await s.ws.close()
    after, deadline = await _hub_members(counter), loop.time() + 15
    while after != before and loop.time() < deadline:  # daphne tells each consumer of its closed socket
        await asyncio.sleep(0.1)
        after = await _hub_members(counter)
    await counter.close()
    return {"accepted": accepted, "codes": checker.counts, "members": (before, during, after)}
