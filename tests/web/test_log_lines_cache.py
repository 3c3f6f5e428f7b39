"""The log's lines are told and encoded once per event and language (``game.live.gamelog``):
a new version's window tells only its new events, its JSON text is the lines' own text, and a
full cache of told events makes room by forgetting the events told first, not all of them (which
told every open window's events again at once: a stall of the event loop every few minutes with
hundreds of games in play; docs/capacity.md, eighth round)."""

from __future__ import annotations

import json

import pytest

from game.live import gamelog
from game.rules import get_ruleset


@pytest.fixture
def states():
    """A 6-player game's states for its first 80 versions (random bots)."""
    import random

    rules = get_ruleset("agot2")
    state = rules.new_game(6, 8, {})
    rnd = random.Random(8)
    out = [state]
    for _ in range(80):
        actor = rules.pending(state)[0].actor
        state = rules.apply(state, actor, rules.bot_action(state, actor, "random", rnd.getrandbits(62)))
        out.append(state)
    return rules, out


@pytest.fixture
def counted(monkeypatch):
    """The events told (``gamelog._tell`` calls), with empty caches."""
    monkeypatch.setattr(gamelog, "_TOLD", type(gamelog._TOLD)(maxsize=gamelog._TOLD.maxsize))
    monkeypatch.setattr(gamelog, "_LINES", type(gamelog._LINES)(maxsize=gamelog._LINES.maxsize))
    told = []
    real = gamelog._tell

    def tell(ruleset, ev, lang):
        told.append((id(ev), lang))
        return real(ruleset, ev, lang)

    monkeypatch.setattr(gamelog, "_tell", tell)
    return told


def test_each_event_is_told_once_per_language_across_versions_and_viewers(states, counted):
    rules, seq = states
    seen: set[int] = set()
    for state in seq:
        for viewer in (None, *state.houses):
            for lang in ("en", "zh-hans"):
                view = rules.view(state, viewer)
                text = gamelog.lines_text("agot2", view, lang)
                assert json.loads(text) == gamelog.lines("agot2", view, lang)
                assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
                seen.update(id(e) for e in view["events"][-gamelog.LOG_WINDOW:])
    assert len(counted) == len(set(counted))  # no event told twice in one language...
    assert {i for i, _ in counted} == seen  # ...and only the events some window held
    assert len(seen) > gamelog.LOG_WINDOW  # the windows moved on


def test_a_full_cache_forgets_the_events_told_least_recently(states, counted, monkeypatch):
    rules, seq = states
    monkeypatch.setattr(gamelog, "_TOLD", type(gamelog._TOLD)(maxsize=40))
    last = seq[-1]
    events = rules.view(last, None)["events"]
    assert len(events) > 100
    for k in range(0, 60, 20):  # windows of 20 events, one after another: the third finds the cache full
        gamelog.lines("agot2", {"events": events[k:k + 20]}, "en")
        gamelog._LINES.clear()  # (the windows themselves are cached too)
    assert len(gamelog._TOLD) <= 40
    counted.clear()
    gamelog.lines("agot2", {"events": events[40:60]}, "en")  # told last: kept
    assert counted == []
    gamelog.lines("agot2", {"events": events[0:20]}, "en")  # told first: forgotten
    assert len(counted) == 20
    counted.clear()
    gamelog.lines("agot2", {"events": events[40:60]}, "en")  # used again since: still kept
    assert counted == []


def test_a_windows_text_is_joined_from_its_lines_texts_not_encoded_again(states, counted, monkeypatch):
    from game.live import jsontext

    rules, seq = states
    before, after = rules.view(seq[-2], None), rules.view(seq[-1], None)
    gamelog.lines_text("agot2", before, "en")
    told_before = len(counted)
    real, encoded = jsontext.dumps, []
    monkeypatch.setattr(jsontext, "dumps", lambda obj: encoded.append(obj) or real(obj))
    text = gamelog.lines_text("agot2", after, "en")
    assert text == json.dumps(gamelog.lines("agot2", after, "en"), separators=(",", ":"), ensure_ascii=False)
    assert not any(isinstance(obj, list) for obj in encoded)  # no window encoded whole
    assert len(encoded) == len(counted) - told_before  # one line each, for the events new to this window


def test_a_window_moved_on_from_an_earlier_one_is_the_window_made_afresh(states, counted, monkeypatch):
    """Live play's pushes hand each viewer's previous window to the next version's
    (``payloads.cached_parts``): only the new events are looked up and their lines appended to
    what is kept of the previous text. The result is the window made afresh, for every viewer and
    language at every version; a hint that does not fit (another viewer's window with other
    private lines, a later version's, a window two versions back) changes nothing."""
    rules, seq = states
    made = []
    real_entry = gamelog._entry
    monkeypatch.setattr(gamelog, "_entry", lambda *a: made.append(a[2]) or real_entry(*a))
    prev, older = {}, {}
    for state in seq:
        for viewer in (None, *state.houses):
            for lang in ("en", "zh-hans"):
                view = rules.view(state, viewer)
                before = len(made)
                moved = gamelog.window("agot2", view, lang, prev.get((viewer, lang)))
                used_hint = len(made) == before
                fresh = gamelog.window("agot2", view, lang)
                assert moved == fresh, (state.version, viewer, lang)
                assert json.loads(moved[2]) == gamelog.lines("agot2", view, lang)
                if (viewer, lang) in prev:
                    assert used_hint, (state.version, viewer, lang)  # the hint was taken, not _entry
                    for odd in (prev.get((None, lang)), older.get((viewer, lang)), fresh):
                        assert gamelog.window("agot2", view, lang, odd) == fresh
                older[(viewer, lang)] = prev.get((viewer, lang))
                prev[(viewer, lang)] = moved
    for viewer in seq[-1].houses:  # a later version's window as the hint of an earlier version
        early = rules.view(seq[-20], viewer)
        assert gamelog.window("agot2", early, "en", prev[(viewer, "en")]) == gamelog.window("agot2", early, "en")
