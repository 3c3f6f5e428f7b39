"""game/live/apply.py and game/live/snapshots.py: applying actions (who may act, nothing written on a
refusal, the log and the version), bots through the same path, snapshots as a safe cache, the end
of a game."""

from __future__ import annotations

import pytest

from game.live import apply, bots, moves, payloads, snapshots
from game.site import lobbies
from game.models import Action, Game
from game.rules import IllegalAction

from .live_helpers import legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.GAME_BOT_DELAY = None
    snapshots.CACHE.clear()
    yield
    bots.wait_for_bots()


def _rows(game):
    return list(Action.objects.filter(game=game).values_list("number", "actor", "user_id"))


def test_act_appends_and_bumps(make_lobby):
    game, users = start_game(make_lobby, 3)
    v = apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    assert v == 1 and game.version == 1
    assert _rows(game) == [(1, "stark", users["stark"].pk)]
    with pytest.raises(ValueError):
        Action.objects.get().save()  # append-only


def test_refusals_write_nothing(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    cases = [
        (make_user("stranger"), legal_json(game.pk, "stark"), None, "act.not_a_player"),
        (users["stark"], {"type": "place_orders", "orders": {}}, None, None),
        (users["stark"], {"type": "nonsense"}, None, "action.malformed"),
        (users["stark"], legal_json(game.pk, "stark"), 3, "version.stale"),
    ]
    for user, action, version, code in cases:
        with pytest.raises(IllegalAction) as e:
            apply.act(game.pk, user, action, version)
        if code:
            assert e.value.code == code
    game.refresh_from_db()
    assert game.version == 0 and _rows(game) == []
    with pytest.raises(IllegalAction) as e:
        apply.act(987654, users["stark"], {}, None)
    assert e.value.code == "game.not_found"


def test_a_changed_decision_makes_an_old_version_stale(make_lobby):
    """After every order is in, the planning decision is gone: an answer made at version 0 is stale."""
    game, users = start_game(make_lobby, 3)
    for i, h in enumerate(["stark", "lannister", "baratheon"]):
        apply.act(game.pk, users[h], legal_json(game.pk, h), i)
    game.refresh_from_db()
    state = snapshots.state_at(game)
    actor = game.rules.pending(state)[0].actor
    with pytest.raises(moves.StaleVersion):
        apply.act(game.pk, users[actor], legal_json(game.pk, actor), 0)


def _bot_lobby(make_lobby):
    lobby = make_lobby(players=3, house="stark")
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    lobbies.add_bot(lobby.pk, lobby.creator, level="random")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    return Game.objects.get(lobby=lobby), lobby.creator


def test_bots_act_through_the_service(make_lobby):
    game, host = _bot_lobby(make_lobby)
    assert apply.bot_act(game.pk) == 1
    assert apply.bot_act(game.pk) == 2
    assert apply.bot_act(game.pk) is None  # only Stark (a person) is awaited now
    assert {(a, u) for _, a, u in _rows(game)} == {("lannister", None), ("baratheon", None)}
    assert apply.act(game.pk, host, legal_json(game.pk, "stark"), 2) == 3


def test_bot_users_cannot_act_as_people(make_lobby):
    game, host = _bot_lobby(make_lobby)
    bot_user = game.lobby.seats.exclude(bot="").first().user
    assert not bot_user.is_active and not bot_user.has_usable_password()
    with pytest.raises(IllegalAction) as e:
        apply.act(game.pk, bot_user, {"type": "place_orders", "orders": {}})
    assert e.value.code == "act.not_a_player"


def test_background_bots_move_after_the_delay(make_lobby, settings):
    game, host = _bot_lobby(make_lobby)
    # only now: a bot thread started by the game's creation would race this test's own reads of
    # the in-memory SQLite database, whose table locks do not wait
    settings.GAME_BOT_DELAY = 0
    bots.schedule_bots(game.pk)
    for _ in range(20):
        bots.wait_for_bots()
        game.refresh_from_db()
        if game.version >= 2:
            break
    assert game.version == 2


def test_a_whole_bot_game_ends_and_is_recorded(make_lobby):
    game, host = _bot_lobby(make_lobby)
    game.lobby.seats.filter(user=host).update(bot="basic")  # the host hands over to a bot
    n = 0
    while apply.bot_act(game.pk) is not None:
        n += 1
        assert n < 3000
    game.refresh_from_db()
    assert game.status == "finished" and game.result["winner"] and game.version == n
    game.lobby.refresh_from_db()
    assert game.lobby.status == "finished"
    with pytest.raises(IllegalAction) as e:
        apply.act(game.pk, host, {"type": "place_orders", "orders": {}})
    assert e.value.code in ("game.over", "act.not_a_player")
    # the log alone rebuilds the final state
    snapshots.CACHE.clear()
    Game.objects.filter(pk=game.pk).update(snapshot=None, snapshot_version=-1)
    game.refresh_from_db()
    assert game.rules.result(snapshots.state_at(game)) == game.result


def test_snapshots_are_written_and_used(make_lobby, settings):
    settings.GAME_SNAPSHOT_EVERY = 2
    game, users = start_game(make_lobby, 3)
    for i, h in enumerate(["stark", "lannister"]):
        apply.act(game.pk, users[h], legal_json(game.pk, h), i)
    game.refresh_from_db()
    assert game.snapshot_version == 2 and game.snapshot_key == snapshots.code_key("agot2")
    replayed = game.rules.new_game(game.players, game.seed, game.options)
    for actor, action in Action.objects.filter(game=game).values_list("actor", "action"):
        replayed = game.rules.apply(replayed, actor, game.rules.parse_action(action))
    snapshots.CACHE.clear()
    assert snapshots.state_at(game) == replayed


@pytest.mark.parametrize("damage", ["other code", "garbage"])
def test_a_bad_snapshot_falls_back_to_the_log(make_lobby, settings, damage):
    settings.GAME_SNAPSHOT_EVERY = 1
    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    good = snapshots.state_at(game)
    if damage == "other code":
        game.snapshot_key = "0" * 32
    else:
        game.snapshot = b"not a pickle"
    game.save()
    snapshots.CACHE.clear()
    assert snapshots.load_snapshot(game) is None
    assert snapshots.state_at(game) == good


def test_state_cache_is_bounded():
    """At most ``per_game`` versions of a game, and ``size`` games no socket holds (the held
    ones: ``tests/web/test_live_memory.py``)."""
    cache = snapshots.StateCache(size=2, per_game=2)
    for v in range(3):
        cache.put(1, v, object())
    assert cache.get(1, 0) is None and cache.get(1, 1) is not None and cache.get(1, 2) is not None
    for g in (2, 3):
        cache.put(g, 0, object())
    assert cache.get(1, 2) is None and cache.games() == {2, 3}


def test_a_duke_game_runs_through_the_same_service(make_lobby):
    lobby = make_lobby(players=2, ruleset="duke", house="light")
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Game.objects.get(lobby=lobby)
    state = snapshots.state_at(game)
    pending = game.rules.pending(state)
    assert pending
    if pending[0].actor == "dark":
        assert apply.bot_act(game.pk) == 1
    text = payloads.payload_text(game.pk, "light", "zh-hans")[1]
    assert '"viewer":"light"' in text
