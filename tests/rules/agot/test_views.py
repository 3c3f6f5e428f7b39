"""视图 / Views: each viewer sees what it may know, nothing else."""

import json

from game.rules.agot import RULESET as R
from game.rules.agot.actions import PlaceOrders


def _orders_for(s, house):
    d = next(d for d in R.pending(s) if d.actor == house)
    areas = d.options["areas"]
    toks = [t for t in ["consolidate-power", "consolidate-power", "support", "support", "raid", "raid", "defense-plus-one", "defense-plus-one", "march", "march-minus-one"]][: len(areas)]
    return PlaceOrders(tuple(sorted(zip(areas, toks))))


def test_view_is_json_and_has_no_secrets():
    s = R.new_game(6, 3, {})
    for viewer in [None, "stark", "not-a-house"]:
        v = R.view(s, viewer)
        text = json.dumps(v)
        assert "rng_n" not in v and "seed" not in v
        assert "my_orders" not in v
        # deck order never appears: only sizes
        assert v["decks"] == {"I": 10, "II": 10, "III": 10, "wildling": 9}
        assert s.decks["wildling"][0] not in text or s.decks["wildling"][0] in json.dumps(v["events"])


def test_face_down_orders_only_for_their_house():
    s = R.new_game(3, 3, {})
    s = R.apply(s, "stark", _orders_for(s, "stark"))
    assert R.view(s, "stark")["my_orders"] == dict(s.placed["stark"])
    for viewer in [None, "lannister", "baratheon"]:
        v = R.view(s, viewer)
        assert "my_orders" not in v and v["orders"] == {} and v["orders_placed"] == ["stark"]
        assert all("options" not in p or p["actor"] == viewer for p in v["pending"])
    for h in ["lannister", "baratheon"]:
        s = R.apply(s, h, _orders_for(s, h))
    v = R.view(s, None)
    assert len(v["orders"]) == sum(len(x) for x in [_orders_for(R.new_game(3, 3, {}), h).orders for h in s.houses])
    assert "my_orders" not in v and "orders_placed" not in v


def test_private_events_only_to_their_house():
    s = R.new_game(3, 3, {})
    s = s.clone()
    s.emit("secret", to="stark", x=1)
    assert any(e["kind"] == "secret" for e in R.view(s, "stark")["events"])
    assert not any(e["kind"] == "secret" for e in R.view(s, "lannister")["events"])
    assert not any(e["kind"] == "secret" for e in R.view(s, None)["events"])


def test_shared_view_is_the_same_for_every_viewer_and_the_split_is_exact():
    """``view`` = ``shared_view`` + ``own_view`` with disjoint keys, at every step of random
    games: the server renders the shared part once per version for all sockets, so it must not
    depend on the viewer (a secret there would reach everyone)."""
    import random

    for seed in (1, 2):
        s = R.new_game(4, seed, {})
        rng = random.Random(seed)
        for _ in range(160):
            if R.result(s) is not None:
                break
            shared = R.shared_view(s)
            for viewer in [None, *s.houses]:
                own = R.own_view(s, viewer)
                assert not set(shared) & set(own)
                assert {**shared, **own} == R.view(s, viewer)
                # every private key of the view lives in the viewer's own part
                assert {"my_orders", "my_bid", "may_withdraw", "wildling_top", "combat", "hands", "pending", "events"} >= set(own) - {"viewer"}
            actor = R.pending(s)[0].actor
            s = R.apply(s, actor, R.bot_action(s, actor, "random", rng.getrandbits(62)))


def test_own_view_given_the_pending_decisions_is_the_same_and_reads_their_options():
    """Live play renders 7 viewers of a state and hands ``own_view`` the decisions it has
    (``pending``): the view is the one made without them, and the options shown are those of the
    decisions given (worked out once for all viewers), not of decisions made again."""
    import random

    from game.rules.agot.options import Lazy

    s = R.new_game(4, 5, {})
    rng = random.Random(5)
    used = 0
    for _ in range(120):
        if R.result(s) is not None:
            break
        for viewer in [None, *s.houses]:
            given = R.pending(s)
            assert R.own_view(s, viewer, given) == R.own_view(s, viewer)
            for d in given:
                if isinstance(d.options, Lazy):
                    assert (d.options._d is not None) == (d.actor == viewer)  # read for the viewer's own only
                    used += d.actor == viewer
        actor = R.pending(s)[0].actor
        s = R.apply(s, actor, R.bot_action(s, actor, "random", rng.getrandbits(62)))
    assert used > 50
