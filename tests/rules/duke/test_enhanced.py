"""高阶能力 / Enhanced tiles: the Duchess's Summon (应诏) and the Oracle's Divination (预言)."""

from .helpers import RULESET, actions, build, events, play, refused, tile_at

DUKES = {"c1": "light duke", "f6": "dark duke"}


def test_summon_flips_the_duke_and_brings_the_duchess_beside_it():
    s = build({**DUKES, "e4": "light duchess back", "d1": "dark footman back"}, options={"duchess": True})
    squares = sorted(a["square"] for a in actions(s) if a["type"] == "summon")
    assert squares == ["b1", "c2"]  # d1 holds an enemy: Summon never captures
    assert refused(s, {"type": "summon", "square": "d1"}).code == "place.square"
    s2 = play(s, {"type": "summon", "square": "c2"})
    assert tile_at(s2, "c1")["side"] == "back"
    assert tile_at(s2, "c2") == {"square": "c2", "owner": "light", "kind": "duchess", "side": "back", "frozen": False}
    assert tile_at(s2, "e4") is None
    assert events(s2, "summon")


def test_summon_needs_the_option_and_the_duchess():
    s = build({**DUKES, "e4": "light duchess"})
    assert not any(a["type"] == "summon" for a in actions(s))
    assert refused(s, {"type": "summon", "square": "c2"}).code == "summon.no_duchess"


def test_divination_draws_three_keeps_one_destroys_and_returns():
    s = build({**DUKES, "e3": "light oracle back"}, options={"oracle": True},
              bags={"light": ["knight", "seer", "wizard", "pikeman"]}, seed=3)
    s = play(s, {"type": "divine"})
    assert tile_at(s, "e3")["side"] == "start"
    mine = RULESET.view(s, "light")
    assert len(mine["drawn"]) == 3 and mine["bags"]["light"]["count"] == 1
    theirs = RULESET.view(s, "dark")
    assert theirs["drawn"] == {"count": 3}
    assert "drawn" not in events(s, "divine", "dark")[0]
    assert events(s, "divine", "light")[0]["drawn"] == mine["drawn"]
    (d,) = RULESET.pending(s)
    assert d.kind == "divination" and d.options["drawn"] == mine["drawn"]
    drawn = mine["drawn"]
    s2 = play(s, {"type": "divine_choose", "keep": 0, "square": "b1", "destroy": [1]})
    assert tile_at(s2, "b1") == {"square": "b1", "owner": "light", "kind": drawn[0], "side": "start", "frozen": False}
    v = RULESET.view(s2, "dark")
    assert v["destroyed"]["light"] == [drawn[1]]
    assert v["bags"]["light"]["count"] == 2  # pikeman + the returned tile
    assert v["to_move"] == "dark"
    assert "returned" not in events(s2, "divine_choose", "dark")[0]
    assert events(s2, "divine_choose", "dark")[0]["returned_count"] == 1
    assert len(events(s2, "divine_choose", "light")[0]["returned"]) == 1


def test_divination_with_a_short_bag_and_only_from_the_back_side():
    s = build({**DUKES, "e3": "light oracle"}, options={"oracle": True}, bags={"light": ["knight"]})
    assert refused(s, {"type": "divine"}).code == "divine.start_side"
    s = build({**DUKES, "e3": "light oracle back"}, options={"oracle": True}, bags={"light": ["knight"]})
    s = play(s, {"type": "divine"})
    assert RULESET.view(s, "light")["drawn"] == ["knight"]
    assert [a["keep"] for a in actions(s)] == [0, 0, 0]  # b1, d1 or c2


def test_oracle_back_side_has_no_icons():
    s = build({**DUKES, "e3": "light oracle back"}, options={"oracle": True})
    assert not any(a.get("frm") == "e3" for a in actions(s))
