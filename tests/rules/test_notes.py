"""The site's notes in a game's log: the engine only records them.

A note (a time-out, a stand-in taking a seat) is folded by :func:`game.rules.base.note`: the
state gains one event told to every viewer, and nothing else changes, so a game whose log holds
notes plays exactly as the same game without them (a game is its log: replays and exports
rebuild the same states)."""

from __future__ import annotations

import pytest

from game.rules import IllegalAction, get_ruleset
from game.rules.base import SITE, note, step


def _without_events(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("events", "events_from", "version")}


@pytest.mark.parametrize("ruleset,players,steps", [("duke", 2, 400), ("agot2", 3, 80), ("agot2", 6, 40)])
def test_a_game_with_notes_plays_as_the_same_game_without_them(ruleset, players, steps):
    """Every third action is followed by a note: pending decisions, result, every viewer's view
    apart from its events, and the bots' choices stay those of the plain game; each viewer's
    events are the plain ones with the notes inserted where they happened."""
    rules = get_ruleset(ruleset)
    plain = noted = rules.new_game(players, 7, {})
    seats = [None, *rules.seats(players, {})]
    inserted = 0
    for i in range(steps):
        pending = rules.pending(plain)
        if not pending:
            break
        actor = pending[0].actor
        action = rules.bot_action(plain, actor, "random", i)
        assert rules.bot_action(noted, actor, "random", i) == action
        plain, noted = rules.apply(plain, actor, action), rules.apply(noted, actor, action)
        if i % 3 == 0:
            noted = step(rules, noted, SITE, {"type": "timeout", "seat": actor})
            inserted += 1
        assert rules.pending(noted) == rules.pending(plain) and rules.result(noted) == rules.result(plain)
        for viewer in seats:
            a, b = rules.view(plain, viewer), rules.view(noted, viewer)
            assert _without_events(a) == _without_events(b)
            told = [e for e in b["events"] if (e.get("kind") or e.get("type")) != "note"]
            if ruleset == "agot2":  # AGoT views carry every event; The Duke's its latest 50
                assert told == a["events"]
                assert len(b["events"]) - len(a["events"]) == inserted
    assert inserted > 5


@pytest.mark.parametrize("ruleset,players", [("duke", 2), ("agot2", 4)])
def test_a_note_is_one_event_for_everyone(ruleset, players):
    rules = get_ruleset(ruleset)
    state = rules.new_game(players, 1, {})
    seat = rules.seats(players, {})[0]
    after = note(rules, state, {"type": "stand_in", "seat": seat})
    for viewer in [None, *rules.seats(players, {})]:
        events = rules.view(after, viewer)["events"]
        assert events[-1]["note"] == {"type": "stand_in", "seat": seat}
        assert len(events) == len(rules.view(state, viewer)["events"]) + 1
    assert rules.view(state, None)["events"] == rules.view(note(rules, state, {"type": "x"}), None)["events"][:-1]  # input untouched


@pytest.mark.parametrize(
    "entry",
    [None, [], "timeout", {}, {"type": 5}, {"type": "t", "seat": {"x": 1}}, {"type": "t", "seat": ["a"]}, {"type": "t", "x": 1.5},
     {"type": "t", "seat": "x" * 41}, {"type": "t", **{f"k{i}": 1 for i in range(8)}}, {"type": "t", 1: "a"}, {"type": "t", "v": None}],
)
def test_a_malformed_note_is_refused(entry):
    rules = get_ruleset("duke")
    state = rules.new_game(2, 1, {})
    with pytest.raises(IllegalAction) as e:
        note(rules, state, entry)
    assert e.value.code == "note.malformed"


def test_a_note_is_never_an_action():
    """A client's action of a note's shape is no action of either ruleset: only the site's log
    entries (actor ``""``) are folded as notes."""
    for ruleset in ("duke", "agot2"):
        with pytest.raises(IllegalAction):
            get_ruleset(ruleset).parse_action({"type": "timeout", "seat": "stark"})
