"""创建游戏 / Set-up: Duke on a middle home square, two Footmen sharing an edge with it; the
player who sets up first moves first; Mountain and Dragon placed at random afterwards."""

from game.rules.duke import RULESET

from .helpers import actions, events, play, refused, tile_at


def _setup_both(seed=1, options=None):
    s = RULESET.new_game(2, seed, options or {})
    first = s.first
    duke = {"light": "c1", "dark": "d6"}
    foot = {"light": ["b1", "c2"], "dark": ["d5", "e6"]}
    for seat in (first, "dark" if first == "light" else "light"):
        s = play(s, {"type": "setup", "duke": duke[seat], "footmen": foot[seat]}, seat)
    return s


def test_setup_choices_are_the_rulebook_ones():
    s = RULESET.new_game(2, 1, {})
    home = {"light": {"c1", "d1"}, "dark": {"c6", "d6"}}[s.first]
    acts = actions(s)
    assert {a["duke"] for a in acts} == home
    assert len(acts) == 6  # two squares x three pairs of edge-sharing squares


def test_first_player_sets_up_first_and_moves_first():
    s = _setup_both(seed=4)
    assert s.phase == "play"
    (d,) = RULESET.pending(s)
    assert d.actor == s.first and d.kind == "turn"
    assert tile_at(s, "c1") == {"square": "c1", "owner": "light", "kind": "duke", "side": "start", "frozen": False}
    assert tile_at(s, "c2")["kind"] == "footman"
    bags = RULESET.view(s, None)["bags"]
    assert bags["light"]["count"] == bags["dark"]["count"] == 16


def test_setup_refusals():
    s = RULESET.new_game(2, 1, {})
    seat = s.first
    row = "1" if seat == "light" else "6"
    e = refused(s, {"type": "setup", "duke": "a" + row, "footmen": ["b" + row, "a" + ("2" if row == "1" else "5")]})
    assert e.code == "setup.duke_square"
    e = refused(s, {"type": "setup", "duke": "c" + row, "footmen": ["b" + row, "d" + ("2" if row == "1" else "5")]})
    assert e.code == "setup.footman_square"
    e = refused(s, {"type": "setup", "duke": "c" + row, "footmen": ["b" + row, "b" + row]})
    assert e.code == "setup.footman_square"


def test_enhanced_tiles_go_in_the_bag_when_chosen():
    s = _setup_both(options={"duchess": True, "oracle": True})
    kinds = RULESET.view(s, None)["bags"]["light"]["kinds"]
    assert kinds["duchess"] == 1 and kinds["oracle"] == 1 and kinds["footman"] == 1 and kinds["pikeman"] == 3


def test_mountain_and_dragon_are_placed_after_set_up():
    for seed in range(30):
        s = _setup_both(seed=seed, options={"mountain": True, "dragon": True})
        v = RULESET.view(s, None)
        occupied = {t["square"] for t in v["tiles"]}
        assert v["mountain"] and v["mountain"] not in occupied
        d = v["dragon"]
        assert d["square"] in {"c3", "d3", "c4", "d4"} and d["square"] != v["mountain"]
        assert d["facing"] in ("e", "w") and not d["enraged"]
        assert events(s, "mountain") and events(s, "dragon")


def test_dragon_never_starts_able_to_capture():
    """巨龙棋子: no tile may be captured by the Dragon before its owner's first turn."""
    from game.rules.duke.dragon import calm_targets

    for seed in range(40):
        s = RULESET.new_game(2, seed, {"dragon": True})
        first, second = s.first, ("dark" if s.first == "light" else "light")
        # Footmen forward next to the centre: the worst case for the Dragon's side squares.
        s = play(s, {"type": "setup", "duke": "c1" if first == "light" else "c6",
                     "footmen": ["c2", "d1"] if first == "light" else ["c5", "d6"]}, first)
        s = play(s, {"type": "setup", "duke": "d1" if second == "light" else "d6",
                     "footmen": ["d2", "e1"] if second == "light" else ["d5", "e6"]}, second)
        assert calm_targets(s.pos) == []
