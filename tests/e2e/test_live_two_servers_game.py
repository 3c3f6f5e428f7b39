"""At scale, a whole round: two daphne processes share PostgreSQL and Redis, and the three players
of a started game are connected to different processes (Stark and Baratheon to A, Lannister and
an anonymous spectator to B).

Round 1 is played to its end and on through round 2's Westeros phase up to round 2's orders:
the three houses' orders sent at the same time from both processes, the reveal, every decision
of the action phase (Raven, raids, marches, Consolidate Power, combats when they happen), then
Westeros (mustering, simultaneous bids, tie orders...), each house answering with the engine's
own bot (``RULESET.bot_action``).
Checked: every action is accepted (simultaneous ones at the version they were decided at), every
version reaches every socket on both processes, sockets holding the same version agree on the
public board, the orders are revealed exactly once (in the version of the last submission, to
everyone at once; every bidding's bids once too), and the stored log replays to what everyone
was shown.

No browser: the sockets are :mod:`tests.wsclient`. Skipped, naming the service, when PostgreSQL
or Redis does not answer on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from urllib.parse import urlsplit

import pytest

from tests.wsclient import WS, Closed, run_sync

from .conftest import start_server, stop_server
from .faults import throwaway_database
from .live_tools import replay, setup_game

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres]

LEVELS = {"stark": "basic", "lannister": "random", "baratheon": "basic"}  # RULESET.bot_action levels
PUBLIC = ("round", "phase", "units", "orders", "tracks", "power_tokens", "garrisons", "dominance")


@pytest.fixture
def two_servers_db(tmp_path, postgres_url, redis_url):
    """``(db_url, env, [url_a, url_b])``: a throwaway PostgreSQL database (dropped afterwards)
    and two daphne processes on it, sharing a Redis channel layer."""
    with throwaway_database(postgres_url) as db_url:
        yield from _two_servers(tmp_path, db_url, redis_url)


def _two_servers(tmp_path, db_url, redis_url):
    env = {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": f"gotweb-e2e-{uuid.uuid4().hex[:8]}",
        "GAME_BOT_DELAY": "none",
    }
    servers = []
    try:
        servers.append(start_server(tmp_path, env, "daphne-a"))
        servers.append(start_server(tmp_path, env, "daphne-b"))
        yield db_url, env, [url for url, _ in servers]
    finally:
        for _, proc in servers:
            stop_server(proc)


def _all_events(states: list[dict]) -> list[dict]:
    """The viewer's whole event list, put together from the windows its states carried
    (``view.events_from`` is the index of a window's first event); no gap is allowed."""
    events: list[dict] = []
    for s in states:
        first = s["view"]["events_from"]
        assert first <= len(events), "a gap in the events"
        events[first:] = s["view"]["events"]
    return events


class Peer:
    """One websocket and everything it received (read by a background task)."""

    def __init__(self, name: str, server: str, seat: str | None, ws: WS) -> None:
        self.name, self.server, self.seat, self.ws = name, server, seat, ws
        self.msgs: list[dict] = []
        self.cond = asyncio.Condition()
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        try:
            while True:
                msg = await self.ws.recv_json(timeout=3600)
                async with self.cond:
                    self.msgs.append(msg)
                    self.cond.notify_all()
        except Closed:
            pass

    async def wait(self, pred, timeout: float = 15) -> dict:
        async with self.cond:
            await asyncio.wait_for(self.cond.wait_for(lambda: any(pred(m) for m in self.msgs)), timeout)
            return next(m for m in self.msgs if pred(m))

    def states(self) -> list[dict]:
        return [m for m in self.msgs if m["type"] == "state"]

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()


def test_a_round_across_two_processes(two_servers_db):
    from game.live import bot_choice
    from game.rules.agot import RULESET

    db_url, env, (a, b) = two_servers_db
    info = setup_game(env, players=3)
    game, cookies = info["game"], info["cookies"]
    rules, state, version = replay(db_url, game)
    assert rules is not None and version == 0
    where = {"stark": a, "lannister": b, "baratheon": a}

    async def main():
        peers = {}
        for house, url in where.items():
            port = urlsplit(url).port
            ws = await WS.connect(f"ws://127.0.0.1:{port}/ws/game/{game}/", url, cookies[house])
            peers[house] = Peer(house, url, house, ws)
        port_b = urlsplit(b).port
        peers["spectator"] = Peer("spectator", b, None, await WS.connect(f"ws://127.0.0.1:{port_b}/ws/game/{game}/", b))
        for p in peers.values():
            first = await p.wait(lambda m: m["type"] == "state")
            assert first["version"] == 0 and first["viewer"] == p.seat

        model, v = state, 0
        every_peer_sees: list[int] = []  # versions that no socket may skip
        batches = 0
        bid_batches = 0
        while not (RULESET.view(model, None)["round"] == 2 and any(d.kind == "place_orders" for d in RULESET.pending(model))):
            pending = RULESET.pending(model)
            assert pending, "the game stalled"
            batch = [d for d in pending if d.simultaneous] or [pending[0]]
            bid_batches += any(d.kind == "bid" for d in batch)
            actions = {
                d.actor: bot_choice.action_to_json(RULESET, RULESET.bot_action(model, d.actor, LEVELS[d.actor], v * 7 + i))
                for i, d in enumerate(batch)
            }

            async def send(actor, action, v=v):
                rid = f"{v}-{actor}"
                await peers[actor].ws.send_json({"type": "act", "id": rid, "version": v, "action": action})
                return actor, await peers[actor].wait(lambda m: m["type"] == "result" and m["id"] == rid)

            answers = await asyncio.gather(*(send(actor, action) for actor, action in actions.items()))
            for actor, answer in answers:
                assert answer["ok"] is True, (actor, answer)
            assert sorted(ans["version"] for _, ans in answers) == list(range(v + 1, v + 1 + len(batch)))
            for actor, answer in sorted(answers, key=lambda x: x[1]["version"]):
                model = RULESET.apply(model, actor, RULESET.parse_action(actions[actor]))
            v += len(batch)
            every_peer_sees.append(v)
            for p in peers.values():  # the push reaches every socket, on either process
                await p.wait(lambda m, v=v: m["type"] == "state" and m["version"] == v)
            batches += 1
            assert batches < 200

        for p in peers.values():
            await p.ws.send_json({"type": "sync"})
        await asyncio.sleep(0.3)
        for p in peers.values():
            await p.close()
        return peers, model, v, every_peer_sees, bid_batches

    peers, model, v, every_peer_sees, bid_batches = run_sync(main())

    # everyone saw every version that no one may skip, in order, and the same public board
    assert v >= 6
    by_version: dict[int, list[tuple[str, dict]]] = {}
    from game.live import payloads

    for p in peers.values():
        versions = [s["version"] for s in p.states()]
        assert versions == sorted(versions), (p.name, versions)
        assert set(versions) >= {0, 3, *every_peer_sees}, p.name
        for s in p.states():
            by_version.setdefault(s["version"], []).append((p.name, s))
        final = p.states()[-1]
        assert final["version"] == v
        assert final["view"] == json.loads(json.dumps(payloads.windowed_view(RULESET.view(model, p.seat)))), p.name
    for version, seen in by_version.items():
        first_name, first = seen[0]
        for name, s in seen[1:]:
            for key in PUBLIC:
                assert s["view"][key] == first["view"][key], (version, key, first_name, name)
    assert {p.server for p in peers.values()} == {a, b}

    # the reveal: nobody holds anyone's revealed orders before version 3; everyone at version 3
    for p in peers.values():
        for s in p.states():
            if s["version"] < 3:
                assert s["view"]["orders"] == {}, p.name
        at3 = next(s for s in p.states() if s["version"] == 3)
        assert at3["view"]["orders"], p.name
        events = _all_events(p.states())
        assert sum(e["kind"] == "orders_revealed" and e["round"] == 1 for e in events) == 1, p.name
        assert sum(e["kind"] == "orders_revealed" for e in events) == 1, p.name  # round 2's not yet
        assert sum(e["kind"] == "bids_revealed" for e in events) == bid_batches, p.name

    # the database holds exactly what was played
    _, stored, stored_version = replay(db_url, game)
    assert stored_version == v
    assert RULESET.view(stored, None) == RULESET.view(model, None)
    assert RULESET.view(model, None)["round"] == 2 and RULESET.view(model, None)["phase"] == "planning"
