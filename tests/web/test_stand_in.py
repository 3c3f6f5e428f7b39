"""Stand-in bots ("no stuck games"): a seat awaited for GAME_AWAY_AFTER seconds can be handed to a
bot by another player of the game; the bot then acts for it through the service path until the
seat's player takes it back. Refusals change nothing; spectators cannot do it."""

from __future__ import annotations

import time

import pytest
from asgiref.sync import sync_to_async

from game.live import apply, bots, seats, snapshots, stand_ins
from game.models import Action, Game
from game.rules import IllegalAction

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(live_settings):
    live_settings.GAME_AWAY_AFTER = 60
    snapshots.CACHE.clear()
    yield
    bots.wait_for_bots()


def _backdate(game, seconds: float = 120) -> None:
    """Make every awaited seat of ``game`` awaited for ``seconds`` already."""
    g = Game.objects.get(pk=game.pk)
    g.awaited_since = {s: t - seconds for s, t in g.awaited_since.items()}
    g.save(update_fields=["awaited_since"])


def _fingerprint(game):
    g = Game.objects.get(pk=game.pk)
    return g.version, g.stand_ins, g.awaited_since, Action.objects.filter(game=g).count()


def _refused(code, fn, *args):
    with pytest.raises(IllegalAction) as e:
        fn(*args)
    assert e.value.code == code, e.value.code
    return e.value


def test_awaited_since_is_kept_per_seat(make_lobby):
    game, users = start_game(make_lobby, 3)
    g = Game.objects.get(pk=game.pk)
    assert set(g.awaited_since) == {"stark", "lannister", "baratheon"}
    before = g.awaited_since["lannister"]
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    g.refresh_from_db()
    assert "stark" not in g.awaited_since  # stark's orders are in: no longer awaited
    assert g.awaited_since["lannister"] == before  # still awaited since the start


def test_refusals_change_nothing(make_lobby, make_user, settings):
    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    before = _fingerprint(game)
    stranger = make_user("stranger")
    _refused("stand_in.not_a_player", stand_ins.hand_to_bot, game.pk, stranger, "lannister")
    _refused("stand_in.not_a_player", stand_ins.hand_to_bot, game.pk, None, "lannister")
    _refused("stand_in.not_a_player", stand_ins.take_back, game.pk, stranger)
    _refused("stand_in.self", stand_ins.hand_to_bot, game.pk, users["lannister"], "lannister")
    _refused("stand_in.bad_seat", stand_ins.hand_to_bot, game.pk, users["stark"], "martell")
    _refused("stand_in.bad_seat", stand_ins.hand_to_bot, game.pk, users["stark"], ["lannister"])
    e = _refused("stand_in.not_away", stand_ins.hand_to_bot, game.pk, users["stark"], "lannister")
    assert 0 < e.params["wait"] <= 60
    _backdate(game)
    before = _fingerprint(game)
    e = _refused("stand_in.not_away", stand_ins.hand_to_bot, game.pk, users["lannister"], "stark")
    assert e.params["wait"] is None  # stark's orders are in: stark is not awaited
    _refused("stand_in.none", stand_ins.take_back, game.pk, users["lannister"])
    _refused("game.not_found", stand_ins.hand_to_bot, 987654, users["stark"], "lannister")
    assert _fingerprint(game) == before
    stand_ins.hand_to_bot(game.pk, users["stark"], "lannister")
    before = _fingerprint(game)
    _refused("stand_in.already", stand_ins.hand_to_bot, game.pk, users["baratheon"], "lannister")
    assert _fingerprint(game) == before


def test_handed_seat_is_played_by_the_bot_until_taken_back(make_lobby):
    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    assert apply.bot_act(game.pk) is None  # a game of people: no bot moves
    _backdate(game)
    status = stand_ins.hand_to_bot(game.pk, users["stark"], "lannister")
    assert status["stand_ins"] == {"lannister": "basic"}
    seat = game.lobby.seats.get(house="lannister")
    assert seat.user == users["lannister"] and seat.bot == ""  # the seat keeps its player
    assert seats.seat_of(game, users["lannister"]) == "lannister"
    assert apply.bot_act(game.pk) == 3  # version 2 is the hand-over's note
    last = Action.objects.filter(game=game).last()
    assert (last.number, last.actor, last.user) == (3, "lannister", None)
    assert apply.bot_act(game.pk) is None  # lannister's orders are in; baratheon is a person
    # take-back: the stand-in stops at once, and the player's wait starts again
    stand_ins.hand_to_bot(game.pk, users["stark"], "baratheon")
    status = stand_ins.take_back(game.pk, users["baratheon"])
    assert status["stand_ins"] == {"lannister": "basic"}
    assert status["awaited_for"]["baratheon"] < 5
    assert apply.bot_act(game.pk) is None
    assert Game.objects.get(pk=game.pk).version == 5  # two notes: the hand-over and the take-back
    notes = Action.objects.filter(game=game, actor="").values_list("number", "action")
    assert [(n, a["type"], a["seat"]) for n, a in notes] == [
        (2, "stand_in", "lannister"), (4, "stand_in", "baratheon"), (5, "take_back", "baratheon")
    ]
    _refused("stand_in.not_away", stand_ins.hand_to_bot, game.pk, users["stark"], "baratheon")
    apply.act(game.pk, users["baratheon"], legal_json(game.pk, "baratheon"))
    assert seats.seats_info(Game.objects.get(pk=game.pk), "en")[1]["stand_in"] == "basic"


def test_background_stand_ins_move_the_game_on_despite_the_botless_cache(make_lobby, postgres_only):
    """Bots in background threads while this thread acts: real concurrent connections, so it runs
    on PostgreSQL (test_live_postgres.py). SQLite's shared-cache test database answers a read
    that meets another connection's open write with "table is locked" at once, without waiting."""
    settings = postgres_only
    settings.GAME_BOT_DELAY = 0
    settings.GAME_BOT_STRONG_MIN = float("inf")  # basic stand-ins: what is tested is the cache, not the search
    game, users = start_game(make_lobby, 3)
    bots.wait_for_bots()  # the start's own bot thread has looked (and found no bot) before the next act
    apply.bot_act(game.pk)  # this process now believes the game has no bot
    assert (game.pk, game.seed) in bots._botless
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    _backdate(game)
    stand_ins.hand_to_bot(game.pk, users["stark"], "lannister")
    stand_ins.hand_to_bot(game.pk, users["stark"], "baratheon")
    deadline = time.monotonic() + 30
    g = Game.objects.get(pk=game.pk)
    while g.version < 12 and g.status == Game.Status.RUNNING and time.monotonic() < deadline:
        bots.wait_for_bots()
        g.refresh_from_db()
        state = snapshots.state_at(g)
        if any(d.actor == "stark" for d in g.rules.pending(state)):
            bots._botless[(g.pk, g.seed)] = time.monotonic()  # a stale cache must not stop the bots
            apply.act(g.pk, users["stark"], legal_json(g.pk, "stark", seed=g.version))
        g.refresh_from_db()
    assert g.version >= 12 or g.status == Game.Status.FINISHED
    actors = set(Action.objects.filter(game=g, user=None).values_list("actor", flat=True))
    assert actors == {"lannister", "baratheon"}


def test_finished_game_refuses(make_lobby):
    game, users = start_game(make_lobby, 3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    _refused("game.over", stand_ins.hand_to_bot, game.pk, users["stark"], "lannister")


# --- the websocket ------------------------------------------------------------------------------------
async def test_stand_in_over_the_socket(application, make_lobby, make_user):
    game, users = await sync_to_async(start_game)(make_lobby, 3)
    watcher = await sync_to_async(make_user)("watcher")
    stark, _ = await connect(application, game.pk, users["stark"])
    lannister, _ = await connect(application, game.pk, users["lannister"], lang="zh-hans")
    spectator, _ = await connect(application, game.pk, watcher)

    await spectator.send_json_to({"type": "stand_in", "id": 1, "seat": "lannister"})
    reply = await spectator.receive_json_from(timeout=5)
    assert reply["ok"] is False and reply["error"]["code"] == "stand_in.not_a_player"
    await stark.send_json_to({"type": "stand_in", "id": 2, "seat": "lannister"})
    reply = await stark.receive_json_from(timeout=5)
    assert reply["ok"] is False and reply["error"]["code"] == "stand_in.not_away"
    await stark.send_json_to({"type": "stand_in", "id": 3, "seat": "stark"})
    reply = await stark.receive_json_from(timeout=5)
    assert reply["error"]["code"] == "stand_in.self"
    assert await sync_to_async(lambda: Game.objects.get(pk=game.pk).stand_ins)() == {}

    await sync_to_async(_backdate)(game)
    await stark.send_json_to({"type": "stand_in", "id": 4, "seat": "lannister"})
    msgs = await drain(stark)
    assert {"type": "result", "id": 4, "ok": True} in msgs
    # the hand-over is a note of the game's log: the next version, pushed as a state with its seat status
    pushed = next(m for m in msgs if m["type"] == "state")
    assert pushed["version"] == 1 and pushed["seats"]["stand_ins"] == {"lannister": "basic"}
    assert pushed["log"][-1]["text"] == "A bot now plays for Lannister." and pushed["log"][-1]["note"] is True
    pushed = next(m for m in await drain(lannister) if m["type"] == "state")
    assert "兰尼斯特" in pushed["log"][-1]["text"] and pushed["log"][-1]["note"] is True
    pushed = next(m for m in await drain(spectator) if m["type"] == "state")
    assert pushed["seats"]["stand_ins"] == {"lannister": "basic"} and pushed["log"][-1]["note"] is True

    # the bot's move reaches everyone as one state carrying that version's seat status
    await sync_to_async(apply.bot_act)(game.pk)
    msgs = await drain(stark)
    assert [m["type"] for m in msgs] == ["state"]
    seats = msgs[0]["seats"]
    assert "lannister" not in seats["awaited_for"] and seats["stand_ins"] == {"lannister": "basic"}
    assert [(m["type"], "seats" in m) for m in await drain(lannister)] == [("state", True)]

    await lannister.send_json_to({"type": "take_back", "id": 5})
    msgs = await drain(lannister)
    assert {"type": "result", "id": 5, "ok": True} in msgs
    pushed = next(m for m in msgs if m["type"] == "state")
    assert pushed["version"] == 3 and pushed["seats"]["stand_ins"] == {}
    pushed = next(m for m in await drain(stark) if m["type"] == "state")
    assert pushed["log"][-1]["text"] == "Lannister is back: the bot no longer plays for them."
    rows = await sync_to_async(lambda: list(Action.objects.filter(game=game).order_by("number").values_list("actor", "action", "user_id")))()
    assert rows[0] == ("", {"type": "stand_in", "seat": "lannister"}, users["stark"].pk)
    assert rows[1][0] == "lannister" and rows[1][2] is None  # the stand-in's move
    assert rows[2] == ("", {"type": "take_back", "seat": "lannister"}, users["lannister"].pk)
    await lannister.send_json_to({"type": "take_back", "id": 6})
    reply = await lannister.receive_json_from(timeout=5)
    assert reply["error"]["code"] == "stand_in.none"
    for ws in (stark, lannister, spectator):
        await ws.disconnect()
