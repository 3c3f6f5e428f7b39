"""使公爵陷入危机 (never leave your Duke capturable), "Guard" (警戒), winning (赢取游戏) and the
end of a game when a player has no legal action."""

from .helpers import RULESET, actions, build, events, play, refused

ROCK = {"rock": {"kind": "troop", "start": [], "back": []}}


def test_a_pinned_tile_may_not_move():
    # Dark Marshall (start side) slides along rank 1 toward the light Duke; the Footman blocks.
    s = build({"a1": "light duke", "b1": "light footman", "d1": "dark marshall", "f6": "dark duke"})
    e = refused(s, {"type": "move", "frm": "b1", "to": "b2"})
    assert e.code == "duke.exposed"
    assert [a["to"] for a in actions(s) if a.get("frm") == "b1"] == ["c1"]  # stays in the line


def test_guard_event_and_view_flag():
    # Light Longbowman (start) on a3 moves to a2 and flips: its back side strikes two and three
    # squares ahead (a4, a5): the dark Duke on a5 is in Guard.
    s = build({"f1": "light duke", "a3": "light longbowman", "a5": "dark duke", "f6": "dark footman"})
    s2 = play(s, {"type": "move", "frm": "a3", "to": "a2"})
    assert [e["seat"] for e in events(s2, "guard")] == ["light"]
    assert RULESET.view(s2, "dark")["guard"] == "dark"
    # Dark must answer the Guard: every legal action leaves the Duke safe.
    for a in actions(s2):
        after = RULESET.apply(s2, "dark", RULESET.parse_action(a))
        if after.phase == "place":
            continue
        assert RULESET.view(after, None)["guard"] != "dark"


def test_checkmate_wins():
    s = build({"f1": "light duke", "b3": "light longbowman",
               "a6": "dark duke", "b6": "dark rock", "a5": "dark rock"},
              custom=ROCK, bags={"dark": []})
    s2 = play(s, {"type": "move", "frm": "b3", "to": "a3"})
    assert RULESET.result(s2) == {"winner": "light", "reason": "checkmate"}
    assert RULESET.pending(s2) == []
    assert events(s2, "game_over")[0]["winner"] == "light"


def test_no_legal_action_loses():
    s = build({"f1": "light duke", "c3": "light footman",
               "a6": "dark duke", "b6": "dark rock", "a5": "dark rock"},
              custom=ROCK, bags={"dark": []})
    s2 = play(s, {"type": "move", "frm": "c3", "to": "c4"})
    assert RULESET.result(s2) == {"winner": "light", "reason": "no_legal_action"}


def test_capturing_the_duke_wins():
    # Built position where the dark Duke is already capturable (cannot arise in play).
    s = build({"a1": "light duke", "c3": "light footman", "c4": "dark duke"})
    s2 = play(s, {"type": "move", "frm": "c3", "to": "c4"})
    assert RULESET.result(s2) == {"winner": "light", "reason": "duke_captured"}
    assert RULESET.view(s2, None)["to_move"] is None
