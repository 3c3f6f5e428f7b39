"""The game log tells every event in English and Chinese, with names, never raw ids.

Full bot games of both rulesets (AGoT with 3-6 players and Tides of Battle, The Duke) are played
with the pure engines; every event every viewer is told (``view(state, viewer)["events"]``, the
redacted list the log is made from) is told in both languages and each sentence is checked: no
untranslated kind, no ``snake_case`` or ``kebab-case`` id, no lower-case house id, no ``None`` or
empty name, no English word in a Chinese line. The log lines the live layer sends
(``game.live.gamelog.lines``) carry the areas they name.
"""

from __future__ import annotations

import re

import pytest

from game.live import gamelog
from game.rules import get_ruleset
from game.rules.agot import selfplay as agot_selfplay
from game.rules.agot.data import board
from game.rules.agot.log import TEMPLATES
from game.rules.duke import selfplay as duke_selfplay

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
KEBAB = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")
EMPTY_NAME = re.compile(r"(^|[\s：（(])-($|[\s.。，、)）])|\bNone\b|[{}]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def _raw_problems(text: str, kind: str, lang: str, house_ids: set[str]) -> list[str]:
    out = []
    if text == kind:
        out.append("untranslated kind")
    for rx, what in ((SNAKE, "snake_case id"), (KEBAB, "kebab-case id"), (EMPTY_NAME, "empty name")):
        m = rx.search(text)
        if m:
            out.append(f"{what} {m.group(0)!r}")
    for h in house_ids:
        if re.search(rf"\b{h}\b", text):
            out.append(f"house id {h!r}")
    if lang == "zh-hans":
        m = LATIN_WORD.search(text)
        if m:
            out.append(f"English word {m.group(0)!r} in Chinese")
    return out


def _agot_final(players: int, seed: int, bots: str):
    last = {}

    def keep(before, actor, action, after):
        last["s"] = after

    selfplay_result = agot_selfplay.play_game(players, seed, bots, {"tides_of_battle": True}, on_state=keep, max_actions=4000)
    return last["s"], selfplay_result


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_agot_full_bot_games_are_told_without_raw_ids(players):
    ruleset = get_ruleset("agot2")
    houses = set(board().houses)
    seen_kinds: set[str] = set()
    problems: list[str] = []
    for seed, bots in ((1000 + players, "random"), (2000 + players, "basic")):
        state, res = _agot_final(players, seed, bots)
        assert res["actions"] > 100
        for viewer in [None, *state.houses]:
            view = ruleset.view(state, viewer)
            for ev in view["events"]:
                seen_kinds.add(ev["kind"])
                for lang in ("en", "zh-hans"):
                    text = gamelog.describe("agot2", ev, lang)
                    for p in _raw_problems(text, ev["kind"], lang, houses):
                        problems.append(f"{lang} {ev['kind']}: {p}: {text}")
    assert not problems, "\n".join(sorted(set(problems))[:40])
    # the walk really met the events that used to be told without their data
    assert {"march", "raid", "combat_result", "mustered", "bids_revealed", "westeros_cards"} <= seen_kinds
    assert seen_kinds <= set(TEMPLATES)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_agot1_full_bot_games_are_told_without_raw_ids(players):
    """The 1st edition: its events through the live layer's sentences, with the 1st
    edition's names (cards such as Lord Mormont exist only on its board)."""
    ruleset = get_ruleset("agot1")
    houses = set(board("agot1").houses)
    problems: list[str] = []
    for seed, bots in ((3000 + players, "random"), (4000 + players, "basic")):
        last = {}
        res = agot_selfplay.play_game(players, seed, bots, on_state=lambda b, a, act, after: last.update(s=after), ruleset="agot1")
        assert res["actions"] > 50
        state = last["s"]
        for viewer in [None, *state.houses]:
            for ev in ruleset.view(state, viewer)["events"]:
                for lang in ("en", "zh-hans"):
                    text = gamelog.describe("agot1", ev, lang)
                    # the deck numerals I, II, III are the rulebooks' own (维斯特洛卡牌堆III); only the
                    # 1st edition has Winter is Coming in deck III, whose redraw names it
                    bare = re.sub(r"(?<![A-Za-z])I{1,3}(?![A-Za-z])", "", text)
                    for p in _raw_problems(bare, ev["kind"], lang, houses):
                        problems.append(f"{lang} {ev['kind']}: {p}: {text}")
                    if ev["kind"] == "march" and ev.get("moves"):
                        assert gamelog.named_areas("agot1", ev)[0] == ev["area"]
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_duke_full_bot_games_are_told_without_raw_ids():
    ruleset = get_ruleset("duke")
    problems: list[str] = []
    for seed in (1, 2, 3):
        last = {}

        def keep(before, actor, action, after):
            last["s"] = after

        duke_selfplay.play_game(seed, on_state=keep, max_actions=600)
        state = last["s"]
        for viewer in (None, "light", "dark"):
            for ev in ruleset.view(state, viewer)["events"]:
                kind = str(ev.get("type") or ev.get("kind"))
                for lang in ("en", "zh-hans"):
                    text = gamelog.describe("duke", ev, lang)
                    for p in _raw_problems(text, kind, lang, set()):
                        problems.append(f"{lang} {kind}: {p}: {text}")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_agot_lines_name_march_destinations_and_carry_their_areas():
    """A march line says where each group of units went, and its ``areas`` are the origin and
    every destination (the page highlights them when the line is hovered)."""
    ruleset = get_ruleset("agot2")
    state, _ = _agot_final(3, 1003, "random")
    names = {a: (x.name_en, x.name_zh) for a, x in board().areas.items()}
    marches = [e for e in ruleset.view(state, None)["events"] if e["kind"] == "march" and e.get("moves")]
    assert marches
    for ev in marches:
        en = gamelog.describe("agot2", ev, "en")
        zh = gamelog.describe("agot2", ev, "zh-hans")
        for dest in ev["moves"]:
            assert names[dest][0] in en and names[dest][1] in zh, (en, zh)
        assert gamelog.named_areas("agot2", ev) == [ev["area"], *[d for d in ev["moves"] if d != ev["area"]]]
    lines = gamelog.lines("agot2", ruleset.view(state, None), "en")
    assert lines and all(isinstance(line["areas"], list) for line in lines)
    assert any(line["areas"] for line in lines)
    duke_state = {}
    duke_selfplay.play_game(5, on_state=lambda b, a, act, after: duke_state.update(s=after), max_actions=40)
    assert all(line["areas"] == [] for line in gamelog.lines("duke", get_ruleset("duke").view(duke_state["s"], None), "en"))


def test_combat_line_gives_each_side_part_by_part():
    """The combat result names both sides' strengths with their parts, which add up."""
    ruleset = get_ruleset("agot2")
    state, _ = _agot_final(4, 1004, "basic")
    results = [e for e in ruleset.view(state, None)["events"] if e["kind"] == "combat_result"]
    assert results
    for ev in results:
        for h, total in ev["strength"].items():
            assert sum(p["strength"] for p in ev["parts"][h]) == total
        en = gamelog.describe("agot2", ev, "en")
        assert " = " in en and "units" in en, en
