"""The push path of live play: a version this process committed is served without the database,
and it is the same text, for every viewer, as the one built from the database."""

from __future__ import annotations

import json

import pytest

from game.live import apply, payloads, snapshots

from .live_helpers import legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.GAME_BOT_DELAY = None
    snapshots.CACHE.clear()
    payloads.PAYLOADS.items.clear()


def test_cached_text_is_the_payload_for_every_viewer(make_lobby, django_assert_num_queries):
    game, users = start_game(make_lobby, 3)
    for v, h in enumerate(["stark", "lannister", "baratheon"]):
        apply.act(game.pk, users[h], legal_json(game.pk, h), v)
    game.refresh_from_db()
    assert game.version == 3  # the orders are revealed: the log has events for everyone
    for viewer in [None, "stark", "lannister", "baratheon"]:
        for lang in ["en", "zh-hans"]:
            with django_assert_num_queries(0):
                text = payloads.cached_payload_text(game.pk, "agot2", viewer, lang, 3)
            assert text is not None
            assert json.loads(text) == payloads.payload(game, viewer, lang, 3)
            assert text == json.dumps(payloads.payload(game, viewer, lang, 3), separators=(",", ":"), ensure_ascii=False)
            assert payloads.payload_text(game.pk, viewer, lang, 3) == (3, text)


def test_a_version_this_process_does_not_hold_comes_from_the_database(make_lobby):
    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    snapshots.CACHE.clear()
    payloads.PAYLOADS.items.clear()
    assert payloads.cached_payload_text(game.pk, "agot2", "stark", "en", 1) is None
    v, text = payloads.payload_text(game.pk, "stark", "en", 1)
    assert v == 1 and json.loads(text)["view"]["my_orders"]
    assert payloads.cached_payload_text(game.pk, "agot2", "stark", "en", 1) == text


def test_a_payload_carries_the_latest_events_only(make_lobby):
    """``view.events`` is the log window (the events the ``log`` lines tell) and
    ``view.events_from`` the index of its first event: the whole list is not repeated on every
    push."""
    from game.live import gamelog
    from game.rules.agot import RULESET as R

    many = {"viewer": None, "round": 1, "events": [{"kind": "k", "i": i, "to": None} for i in range(150)]}
    shown = payloads.windowed_view(many)
    assert shown["events_from"] == 150 - gamelog.LOG_WINDOW and shown["events"] == many["events"][-gamelog.LOG_WINDOW :]
    assert many["events"][0]["i"] == 0 and len(many["events"]) == 150  # the view itself is untouched
    assert payloads.windowed_view({"viewer": None, "events": many["events"][:5]})["events_from"] == 0

    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    sent = json.loads(payloads.payload_text(game.pk, "stark", "en")[1])
    full = R.view(snapshots.state_at(game), "stark")["events"]
    assert sent["view"]["events"] == full[-gamelog.LOG_WINDOW :]
    assert [line["n"] for line in sent["log"]] == list(range(sent["view"]["events_from"], len(full)))


def test_a_payload_carries_the_pending_decisions_once(make_lobby):
    """The ruleset's view lists the pending decisions too (AGoT's ``own_view``); the payload
    carries them once, as its own ``pending``: the same decisions, options for the viewer's own
    only, for every viewer, in the cached text and in the one made from the database."""
    from game.rules.agot import RULESET as R

    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    state = snapshots.state_at(game)
    for viewer in [None, "stark", "lannister", "baratheon"]:
        assert R.view(state, viewer)["pending"]  # the view has them...
        cached = json.loads(payloads.cached_payload_text(game.pk, "agot2", viewer, "en", 1))
        assert cached == json.loads(payloads.payload_text(game.pk, viewer, "en", 1)[1])
        assert "pending" not in cached["view"]  # ...the payload's view does not
        assert cached["pending"] == R.view(state, viewer)["pending"]
        assert {d["actor"] for d in cached["pending"] if "options" in d} == ({viewer} - {"stark"}) - {None}


def test_another_process_version_is_one_query_from_the_previous_state(make_lobby, django_assert_num_queries):
    """A version committed by another process (not in this process's cache) is made from the
    cached state before it and the one logged action: one query, no game row."""
    game, users = start_game(make_lobby, 3)
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"), 0)
    game.refresh_from_db()
    expected = snapshots.state_at(game, 1)
    snapshots.CACHE.drop(game.pk)
    snapshots.CACHE.put(game.pk, 0, snapshots.state_at(game, 0))
    with django_assert_num_queries(1):
        assert snapshots.advance(game.pk, "agot2", 1)
    assert snapshots.CACHE.get(game.pk, 1) == expected
    assert not snapshots.advance(game.pk, "agot2", 3)  # nothing cached before it: the caller reads the game


def test_another_process_note_is_advanced_over_too(make_lobby):
    """A note of the site (a time-out, a hand-over) committed by another process is an entry of
    the log like an action: :func:`snapshots.advance` folds it with the engine's ``note``, not
    as a player's action."""
    from django.db import transaction

    from game.live import notes
    from game.models import Game

    game, users = start_game(make_lobby, 3)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        apply.note_locked(locked, [notes.entry(notes.TIMEOUT, "stark")])
    game.refresh_from_db()
    expected = snapshots.state_at(game, 1)
    snapshots.CACHE.drop(game.pk)
    snapshots.CACHE.put(game.pk, 0, snapshots.state_at(game, 0))
    assert snapshots.advance(game.pk, "agot2", 1)
    assert snapshots.CACHE.get(game.pk, 1) == expected


async def test_sockets_wanting_one_version_share_one_read(make_lobby, monkeypatch):
    import asyncio

    from asgiref.sync import sync_to_async

    game, users = await sync_to_async(start_game)(make_lobby, 3)
    await sync_to_async(apply.act)(game.pk, users["stark"], await sync_to_async(legal_json)(game.pk, "stark"), 0)
    state0 = await sync_to_async(snapshots.state_at)(game, 0)
    snapshots.CACHE.drop(game.pk)
    snapshots.CACHE.put(game.pk, 0, state0)
    calls = []
    real = snapshots.advance

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(snapshots, "advance", counted)
    got = await asyncio.gather(*(payloads.load_version(game.pk, "agot2", 1) for _ in range(7)))
    assert got == [True] * 7 and len(calls) == 1
    assert payloads.cached_payload_text(game.pk, "agot2", None, "en", 1) is not None


def test_the_shared_texts_make_the_same_text_as_the_whole_payload_all_game_long():
    """The payload text is put together from parts encoded once and shared (the shared view per
    version, each event, the log's lines per window and language); at every 7th version of a
    4-player bot game, with private lines in the viewers' windows, for every viewer in both
    languages and in changing orders, it is exactly ``json.dumps`` of the payload."""
    import random

    from game.rules import get_ruleset
    from game.rules.agot import selfplay

    rules = get_ruleset("agot2")
    played = selfplay.play_game(4, 20261126, "basic", max_actions=220)
    state = rules.new_game(4, 20261126, {})
    viewers = [None, *state.houses]
    rnd = random.Random(5)
    private = 0
    for v, entry in enumerate(played["log"], start=1):
        state = rules.apply(state, entry["actor"], rules.parse_action(entry["action"]))
        if v % 7:
            continue
        for viewer in rnd.sample(viewers, len(viewers)):
            for lang in rnd.sample(["en", "zh-hans"], 2):
                head, view, tail = payloads._payload_parts(99, "agot2", state, v, viewer, lang)
                whole = json.dumps({**head, "view": view, **tail}, separators=(",", ":"), ensure_ascii=False)
                assert payloads._payload_text(99, "agot2", state, v, viewer, lang) == whole, (v, viewer, lang)
                private += any(e.get("to") for e in view.get("events", []))
    assert private  # the windows differed by viewer somewhere
