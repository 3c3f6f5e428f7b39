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
