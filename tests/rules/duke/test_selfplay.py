"""Hundreds of self-play games: no crash, every game ends, and invariants hold after every action:
one tile per square, the acting tile flips (a commanded one does not), placed tiles start side
up, tiles are conserved, and no action leaves the mover's Duke capturable."""


from game.rules.duke.selfplay import play_games

from .helpers import RULESET

TOTAL = {False: 19, True: 20}


def _tiles(v):
    return {t["square"]: t for t in v["tiles"]}


def _captures_duke(a, duke_sq):
    return (a["type"] == "move" and a["to"] == duke_sq) or (a["type"] == "strike" and a["target"] == duke_sq) or (
        a["type"] == "command" and a["to"] == duke_sq
    )


class Invariants:
    def __init__(self):
        self.actions = 0
        self.last = (None, None)

    def __call__(self, before, actor, action, after):
        self.actions += 1
        vb = self.last[1] if self.last[0] is before else RULESET.view(before, None)
        va = RULESET.view(after, None)
        self.last = (after, va)
        tb, ta = _tiles(vb), _tiles(va)
        # one tile per square; terrain never shares a square with a tile
        assert len(ta) == len(va["tiles"])
        assert va["mountain"] is None or va["mountain"] not in ta
        assert va["dragon"] is None or va["dragon"]["square"] not in ta
        # tiles are conserved
        extra = sum(1 for k in ("duchess", "oracle") if after.options[k])
        for seat in ("light", "dark"):
            on_board = sum(1 for t in va["tiles"] if t["owner"] == seat)
            drawn = len(after.drawn) if after.to_move == seat and after.phase in ("place", "divination") else 0
            n = on_board + va["bags"][seat]["count"] + len(va["lost"][seat]) + len(va["destroyed"][seat]) + drawn
            if after.phase != "setup" and seat in after.setup_done:
                assert n == 19 + extra, (seat, n)
        dragon_acted = any(e["type"] in ("dragon_move", "dragon_strike") and e["turn"] == before.turn
                           for e in va["events"])
        t = action.type
        if t == "move" and not dragon_acted:
            assert ta[action.to]["owner"] == actor
            assert ta[action.to]["kind"] == tb[action.frm]["kind"]
            assert ta[action.to]["side"] != tb[action.frm]["side"]
        elif t in ("strike", "command") and not dragon_acted:
            assert ta[action.frm]["side"] != tb[action.frm]["side"]
            if t == "strike":
                assert action.target not in ta
            else:
                assert ta[action.to]["side"] == tb[action.piece]["side"]
                assert action.piece not in ta
        elif t == "place" and not dragon_acted:
            assert ta[action.square]["side"] == "start" and ta[action.square]["owner"] == actor
        # the mover's Duke is never left capturable (checked on the opponent's legal actions;
        # the Dragon's in-between turn may change the board, so only without the Dragon)
        if after.phase == "play" and after.to_move != actor and not after.options["dragon"]:
            duke = next(s for s, x in ta.items() if x["kind"] == "duke" and x["owner"] == actor)
            for a in RULESET.pending(after)[0].options["actions"]:
                assert not _captures_duke(a, duke), (a, duke)
        # the mover never loses their own Duke to the Dragon's in-between turn that follows
        if after.result and after.result["reason"] == "duke_lost_to_dragon":
            assert after.result["winner"] == actor
        # turns alternate (a draw or a Divination is followed by its placement)
        if after.phase == "play":
            assert after.to_move != actor
        elif after.phase in ("place", "divination"):
            assert after.to_move == actor


def _run(n, seed, bots, options, max_actions=None):
    from game.rules.duke.selfplay import game_seed, play_game

    inv = Invariants()
    results = []
    for i in range(n):
        g = play_game(game_seed(seed, i), bots, options, on_state=inv, max_actions=max_actions)
        assert g["reason"] in {"checkmate", "no_legal_action", "duke_captured", "duke_lost_to_dragon",
                               "both_dukes_lost", "no_progress", "unfinished"}
        if max_actions is None:
            assert g["reason"] != "unfinished"
        results.append(g)
    return results, inv.actions


# Hundreds of games in a few seconds: most games are cut after their opening actions (set-up,
# draws, first fights); a smaller number are played to their end.


def test_random_game_openings_base_set():
    _, n = _run(150, 1, ("random", "random"), None, max_actions=50)
    assert n > 5000


def test_random_games_to_the_end():
    results, _ = _run(12, 5, ("random", "random"), None)
    assert {g["winner"] for g in results} >= {"light", "dark"}


def test_random_games_with_mountain_and_enhanced_tiles():
    _run(50, 2, ("random", "random"), {"mountain": True, "duchess": True, "oracle": True}, max_actions=60)


def test_random_games_with_everything():
    results, _ = _run(50, 3, ("random", "random"),
                      {"mountain": True, "dragon": True, "duchess": True, "oracle": True}, max_actions=100)
    assert any(g["reason"] == "duke_lost_to_dragon" for g in results)


def test_basic_bot_games():
    _run(10, 4, ("basic", "random"), {"mountain": True, "duchess": True, "oracle": True})


def test_play_games_shape():
    games = list(play_games(3, 7, max_actions=30))
    assert len(games) == 3
    for g in games:
        assert set(g) == {"seed", "winner", "reason", "turns", "actions", "options"}
        assert g["actions"][0]["action"]["type"] == "setup"
        assert len(g["actions"]) <= 30
