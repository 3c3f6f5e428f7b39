"""Replays: ``/game/<id>/replay/<version>.json`` and ``index.json``.

The leak test plays whole bot games through the real consumer and checks every step: what a
player's replay of the running game shows at a version is exactly the payload that player was
sent live at that version (so it never shows another seat's hidden items early), stepping
forward and jumping back alike. Once a game is over its replay is the open view (everything
shown). Access follows ``/game/<id>/``; refusals are typed errors, never a 500.
"""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from .archive_helpers import clear_caches, next_move, play_to_end, start_duke
from .live_helpers import connect, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.GAME_BOT_DELAY = None
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    clear_caches()
    yield
    clear_caches()


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _step(client: Client, game_id: int, version: int):
    r = client.get(f"/game/{game_id}/replay/{version}.json")
    return r.status_code, json.loads(r.content)


def _without_seats(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k != "seats"}


@pytest.mark.parametrize("players,seed", [(3, 20261123)])
async def test_a_players_replay_of_a_running_game_is_what_they_were_sent(make_lobby, make_user, monkeypatch, players, seed):
    from gotweb.asgi import application

    from game.live import apply

    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: seed)
    game, users = await sync_to_async(start_game)(make_lobby, players)
    socks = {h: (await connect(application, game.pk, u))[0] for h, u in users.items()}
    clients = {h: await sync_to_async(_client)(u) for h, u in users.items()}
    live = {h: {} for h in users}  # seat -> version -> payload received on the socket
    rnd = random.Random(seed)
    version, checked, back_steps = 0, 0, 0
    while True:
        move = await sync_to_async(next_move)(game.pk, 11)
        if move is None:
            break
        actor, action, at = move
        version = await sync_to_async(apply.act)(game.pk, users[actor], action, at)
        for h, ws in socks.items():
            while True:
                msg = await ws.receive_json_from(timeout=10)
                if msg["type"] == "state":
                    live[h][msg["version"]] = _without_seats(msg)
                    if msg["version"] >= version:
                        break
        if live[next(iter(users))][version]["status"] == "finished":
            break
        for h in users:  # this step, and a jump back to an earlier one
            for v in (version, rnd.randrange(0, version)):
                status, body = await sync_to_async(_step)(clients[h], game.pk, v)
                assert status == 200, body
                assert body["open"] is False and body["latest"] == version
                if v in live[h]:
                    assert body["state"] == live[h][v], (h, v)
                    checked += 1
                    back_steps += v < version
        assert version < 3000
    assert version > 50
    assert checked >= 2 * len(users) * (version - 1) * 0.9 and back_steps > version
    for ws in socks.values():
        await ws.disconnect()


def _planning_version(game) -> tuple[int, dict]:
    """A version of a finished AGoT game where all houses but one have placed their orders face
    down (the last one's placing reveals them all)."""
    from game.live import snapshots

    for v in range(1, game.version):
        state = snapshots.state_at(game, v)
        if len(state.placed) == len(state.houses) - 1:
            return v, {h: dict(o) for h, o in state.placed.items()}
    raise AssertionError("no planning phase")


def test_a_finished_games_replay_shows_everything_to_everyone(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users)
    v, placed = _planning_version(game)
    for who in [None, make_user("stranger"), next(iter(users.values()))]:
        status, body = _step(_client(who), game.pk, v)
        assert status == 200 and body["open"] is True and body["latest"] == game.version
        view = body["state"]["view"]
        assert view["open"] is True
        shown = {}
        for area, o in view["open_orders"].items():
            shown.setdefault(o["house"], {})[area] = o["token"]
        assert shown == placed  # every house's face-down orders
    # the live payload at that version kept them hidden from a spectator
    from game.live import payloads

    assert "open_orders" not in payloads.payload(game, None, "en", v)["view"]
    r = _client().get(f"/game/{game.pk}/replay/{v}.json")
    assert "max-age" in r["Cache-Control"]


def test_the_duke_open_view_shows_a_divination(make_lobby, make_user):
    """The Duke's open view: the drawn tiles and private event details for every viewer."""
    from game.rules import get_ruleset
    from game.rules.base import open_view

    rules = get_ruleset("duke")
    state = rules.new_game(2, 5, {})
    assert open_view(rules, state, None)["open"] is True
    assert open_view(rules, state, "light")["drawn"] == list(state.drawn)

    class Bare:  # a ruleset without open_view: each viewer's own view, never more
        def view(self, state, viewer):
            return {"viewer": viewer, "secret": viewer == "a"}

    assert open_view(Bare(), None, "b") == {"viewer": "b", "secret": False}


def test_index_marks_rounds_and_phases(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users, salt=3)
    r = _client().get(f"/game/{game.pk}/replay/index.json")
    data = r.json()
    assert r.status_code == 200 and data["latest"] == game.version and data["open"] is True
    marks = data["marks"]
    assert marks[0]["version"] == 0 and [m["version"] for m in marks] == sorted({m["version"] for m in marks})
    phases = {(m["round"], m["phase"]) for m in marks}
    # (a round's Westeros phase has a version of its own only when one of its cards asks for a
    # decision; the game is drawn anew each run, so it is not required)
    assert (1, "planning") in phases and (2, "planning") in phases
    from game.live import snapshots

    for m in marks:  # each mark is the first version of its round and phase
        state = snapshots.state_at(game, m["version"])
        assert (state.round, state.phase) == (m["round"], m["phase"])
        if m["version"]:
            before = snapshots.state_at(game, m["version"] - 1)
            assert (before.round, before.phase) != (m["round"], m["phase"])
    assert "Round 1" in marks[0]["label"]


def test_access_and_hostile_input(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user, is_private=True, password="secret-pass")
    player = next(iter(users.values()))
    stranger = make_user("nosy")
    for who in (None, stranger):  # a private game: 404 for strangers, running or finished
        for url in (f"/game/{game.pk}/replay/0.json", f"/game/{game.pk}/replay/index.json", f"/game/{game.pk}/export.json"):
            assert _client(who).get(url).status_code == 404
    status, body = _step(_client(player), game.pk, 0)
    assert status == 200 and body["open"] is False
    for bad in (1, 99999999999999999999):  # past the log: a typed 404
        status, body = _step(_client(player), game.pk, bad)
        assert status == 404 and body["error"]["code"] == "replay.no_version"
    assert _client(player).get(f"/game/{game.pk}/replay/-1.json").status_code == 404
    assert _client(player).get(f"/game/{game.pk}/replay/abc.json").status_code == 404
    assert _client(player).get(f"/game/{game.pk + 999}/replay/0.json").status_code == 404
    for url in ("/game/99999999999999999999/replay/0.json", "/game/99999999999999999999/replay/index.json", "/game/0/replay/0.json"):
        assert _client(player).get(url).status_code == 404, url
    # deep links: ?at= is clamped, garbage ignored, never a 500
    for at in ("0", "5", "-3", "x", "1e9", "99999999999999999999999"):
        assert _client(player).get(f"/game/{game.pk}/?at={at}").status_code == 200
    play_to_end(game.pk, users)
    for who in (None, stranger):
        assert _client(who).get(f"/game/{game.pk}/replay/0.json").status_code == 404


def test_spectators_cannot_replay_a_running_public_game(make_lobby, make_user):
    game, users = start_duke(make_lobby, make_user)
    for who in (None, make_user("watcher")):
        status, body = _step(_client(who), game.pk, 0)
        assert status == 403 and body["error"]["code"] == "replay.players_only"
        assert body["error"]["message"]
    game = play_to_end(game.pk, users)
    status, body = _step(_client(), game.pk, 3)  # once it is over: anyone, anonymous too
    assert status == 200 and body["state"]["version"] == 3


def test_a_step_reads_the_log_once_not_per_step(make_lobby, make_user, django_assert_max_num_queries):
    """Stepping through a finished game: the log is read once per process, and the game's row and
    seats once every ``replay.KEEP_FOR`` seconds; every later step costs only the request's
    session and user (2 queries), none growing with the game. Each step tells its server time."""
    game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users)
    c = _client(next(iter(users.values())))
    _step(c, game.pk, 0)
    for v in list(range(1, game.version + 1, 7)) + [game.version, 1]:
        with django_assert_max_num_queries(2):
            r = c.get(f"/game/{game.pk}/replay/{v}.json")
        assert r.status_code == 200 and json.loads(r.content)["state"]["version"] == v
        name, dur = r["Server-Timing"].split(";dur=")
        assert name == "replay" and float(dur) >= 0


def test_a_finished_games_kept_row_follows_a_moderator_within_keep_for(make_lobby, make_user, monkeypatch):
    """A moderator may still make a finished game's lobby private or give its seat to someone else:
    the kept row and seats are read again after ``replay.KEEP_FOR`` seconds (here 0)."""
    from game.live import replay
    from game.models import Lobby, Seat

    game, users = start_duke(make_lobby, make_user)
    game = play_to_end(game.pk, users)
    (seat, player), stranger = next(iter(users.items())), make_user("newcomer")
    status, body = _step(_client(player), game.pk, 1)
    assert status == 200 and body["state"]["viewer"] == seat
    url = f"/game/{game.pk}/replay/1.json"
    assert _client().get(url).status_code == 200
    Lobby.objects.filter(pk=game.lobby_id).update(is_private=True)
    Seat.objects.filter(lobby_id=game.lobby_id, user=player).update(user=stranger)
    assert _client().get(url).status_code == 200  # kept: read again only after KEEP_FOR
    monkeypatch.setattr(replay, "KEEP_FOR", 0.0)
    assert _client().get(url).status_code == 404
    assert _client(player).get(url).status_code == 404
    status, body = _step(_client(stranger), game.pk, 2)
    assert status == 200 and body["state"]["viewer"] == seat


def test_a_books_states_are_the_logs_from_any_starting_point(make_lobby, settings):
    """Whatever the order of the steps asked for (the end first, back, forward, far jumps), the
    book's state at a version is the log folded from the start up to it: from a checkpoint, the
    state last served, the pass from the start or the stored snapshot alike."""
    from game.live import replay
    from game.models import Action
    from game.rules.base import open_view

    settings.GAME_SNAPSHOT_EVERY = 7
    game, users = start_game(make_lobby, 3)
    game = play_to_end(game.pk, users)
    assert game.snapshot_version > 0
    rules = game.rules
    state = rules.new_game(game.players, game.seed, game.options)
    want = [open_view(rules, state, None)]
    for actor, data in Action.objects.filter(game=game).order_by("number").values_list("actor", "action"):
        state = rules.apply(state, actor, rules.parse_action(data))
        want.append(open_view(rules, state, None))
    rnd = random.Random(5)
    n = game.version
    far = min(40, n)  # a far jump forward, then one back (a game of basic bots may end sooner)
    order = [n, n - 1, n - 3, 0, 1, 2, far, far - 1, n // 2, n // 2 + 1, n] + [rnd.randrange(0, n + 1) for _ in range(40)]
    replay.forget()
    b = replay.book(game)
    assert open_view(rules, b.state(n), None) == want[n]
    assert b.tip[0] == 0 and b.snapshot[0] == game.snapshot_version  # the end: the snapshot and the log's tail
    for v in order:
        assert open_view(rules, b.state(v), None) == want[v], v
    marks = replay.marks(game)
    assert marks[0]["version"] == 0 and b.tip[0] == n
