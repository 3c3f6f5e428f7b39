"""Change of mind: a face-down choice (orders, a bid, a house card) may be withdrawn and made again
while another house of that decision has not chosen; once the last one is in, everything is
revealed and a withdrawal is refused (:func:`game.rules.agot.flow.withdraw`). The rulebook makes
these choices in secret and shows them together: 部署指令 "所有玩家同时部署各自的指令",
竞标 "当所有玩家做好选择后，同时打开手掌展示各自的出价", 战斗 "待双方选择完毕，同时展示两张卡牌"."""

from __future__ import annotations

import random

import pytest

from game.rules import IllegalAction
from game.rules.agot import RULESET as R
from game.rules.agot.actions import Withdraw

from .combat_util import cards, events, march, pending, position

WITHDRAW = {"type": "withdraw"}


def _orders(s, house, kind="march"):
    """Orders of ``kind`` (``march``, ``defense``...) in every area of ``house``, no special ones,
    any other plain order where tokens of that kind run out."""
    d = next(d for d in R.pending(s) if d.actor == house)
    tokens = [t for t in d.options["tokens"] if not t.startswith("special")]
    tokens.sort(key=lambda t: not t.startswith(kind))
    return {"type": "place_orders", "orders": dict(zip(d.options["areas"], tokens))}


def _refused(s, house, code):
    with pytest.raises(IllegalAction) as e:
        R.apply(s, house, WITHDRAW)
    assert e.value.code == code


def test_withdraw_orders_and_place_others_before_the_reveal():
    s = R.new_game(3, 1, {})
    first = _orders(s, "stark", "march")
    s = R.apply(s, "stark", first)
    assert R.view(s, None)["orders_placed"] == ["stark"]
    before = R.view(s, "lannister")
    s = R.apply(s, "stark", WITHDRAW)
    assert sorted(d.actor for d in R.pending(s)) == ["baratheon", "lannister", "stark"]
    spectator = R.view(s, None)
    assert spectator["orders_placed"] == [] and "my_orders" not in R.view(s, "stark")
    assert spectator["events"][-1] == {**spectator["events"][-1], "kind": "orders_withdrawn", "house": "stark"}
    # another house learns only that Stark is no longer ready: nothing of the orders taken back
    after = R.view(s, "lannister")
    assert {k for k in after if after[k] != before.get(k)} <= {"orders_placed", "placed_areas", "pending", "version", "events"}
    assert "stark" not in after.get("placed_areas", {}) and after["events"][-1]["kind"] == "orders_withdrawn"
    second = _orders(s, "stark", "defense")
    s = R.apply(s, "stark", second)
    for h in ("lannister", "baratheon"):
        s = R.apply(s, h, _orders(s, h))
    revealed = next(e for e in R.view(s, None)["events"] if e["kind"] == "orders_revealed")["orders"]
    assert {a: t for a, (h, t) in revealed.items() if h == "stark"} == second["orders"]  # the orders placed last count
    _refused(s, "stark", "withdraw.too_late")


def test_nothing_to_withdraw_before_choosing():
    s = R.new_game(3, 1, {})
    _refused(s, "stark", "withdraw.nothing")


def test_the_last_order_reveals_and_then_nothing_changes():
    s = R.new_game(3, 1, {})
    for h in ("stark", "lannister"):
        s = R.apply(s, h, _orders(s, h))
    s = R.apply(s, "baratheon", _orders(s, "baratheon"))
    assert any(e["kind"] == "orders_revealed" for e in R.view(s, None)["events"])
    for h in ("stark", "lannister", "baratheon"):
        _refused(s, h, "withdraw.too_late")


def _bidding():
    """A Clash of Kings' first bid (the Iron Throne track) with every house holding power."""
    from game.rules.agot.scenario import build

    return build({"players": 3, "start": {"cards": ["clash-of-kings"]}, "power": {"stark": 5, "lannister": 5, "baratheon": 5}})


def test_withdraw_a_bid_and_bid_again():
    s = _bidding()
    assert {d.kind for d in R.pending(s)} == {"bid"}
    s = R.apply(s, "stark", {"type": "bid", "amount": 4})
    s = R.apply(s, "stark", WITHDRAW)
    assert "stark" not in R.view(s, None).get("bids_placed", [])
    assert not any(e.get("amount") == 4 for e in R.view(s, "lannister")["events"])
    s = R.apply(s, "stark", {"type": "bid", "amount": 1})
    s = R.apply(s, "lannister", {"type": "bid", "amount": 2})
    s = R.apply(s, "baratheon", {"type": "bid", "amount": 0})
    bids = next(e for e in R.view(s, None)["events"] if e["kind"] == "bids_revealed")["bids"]
    assert bids["stark"] == 1


def test_a_house_without_power_made_no_bid_to_take_back():
    from game.rules.agot.scenario import build

    s = build({"players": 3, "start": {"cards": ["clash-of-kings"]}, "power": {"stark": 0, "lannister": 5, "baratheon": 5}})
    _refused(s, "stark", "withdraw.nothing")


def test_withdraw_a_house_card_and_choose_another():
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman", "knight"]},
               "kingswood": {"house": "lannister", "units": ["footman", "footman"]}},
        orders={"kings-landing": "march"},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman", "knight"])
    s = cards(s, lannister="ser-jaime-lannister")
    assert R.view(s, "lannister")["combat"]["my_card"] == "ser-jaime-lannister"
    s = R.apply(s, "lannister", WITHDRAW)
    assert pending(s, "lannister", "choose_house_card")
    assert "ser-jaime-lannister" not in str(R.view(s, "tyrell")["combat"])
    _refused(s, "baratheon", "withdraw.nothing")  # not in this combat
    s = cards(s, lannister="tyrion-lannister", tyrell="alester-florent")
    assert dict(events(s, "house_cards_revealed")[-1]["cards"])["lannister"] == "tyrion-lannister"


def test_bots_never_withdraw():
    for seed in range(3):
        s = R.new_game(4, seed, {})
        rnd = random.Random(seed)
        for _ in range(150):
            ds = R.pending(s)
            if not ds:
                break
            for level in ("random", "basic"):
                action = R.bot_action(s, ds[0].actor, level, rnd.getrandbits(30))
                assert not isinstance(action, Withdraw)
            s = R.apply(s, ds[0].actor, action)



def _ready(s):
    return R.view(s, None).get("ready", [])


def _may(s, house):
    return R.view(s, house).get("may_withdraw", False)


def test_change_of_mind_ready_and_may_withdraw_while_orders_are_face_down():
    """At the table everyone sees who has placed their orders; only the one who placed them may
    take them back, and only until the last house has placed (部署指令)."""
    s = R.new_game(3, 1, {})
    assert _ready(s) == [] and not any(_may(s, h) for h in ("stark", "lannister", "baratheon"))
    s = R.apply(s, "stark", _orders(s, "stark"))
    assert _ready(s) == ["stark"]
    assert _may(s, "stark") and not _may(s, "lannister") and "may_withdraw" not in R.view(s, None)
    s = R.apply(s, "lannister", _orders(s, "lannister"))
    assert _ready(s) == ["lannister", "stark"] and _may(s, "lannister")
    s = R.apply(s, "stark", WITHDRAW)
    assert _ready(s) == ["lannister"] and not _may(s, "stark")
    s = R.apply(s, "stark", _orders(s, "stark"))
    s = R.apply(s, "baratheon", _orders(s, "baratheon"))  # the last one: revealed
    assert _ready(s) == [] and not any(_may(s, h) for h in ("stark", "lannister", "baratheon"))


def test_change_of_mind_a_house_without_power_is_ready_but_may_not_withdraw():
    """竞标: a house with no power bids 0 by itself: it is ready and has no choice to take back."""
    from game.rules.agot.scenario import build

    s = build({"players": 3, "start": {"cards": ["clash-of-kings"]}, "power": {"stark": 0, "lannister": 5, "baratheon": 5}})
    assert _ready(s) == ["stark"] and not _may(s, "stark")
    s = R.apply(s, "lannister", {"type": "bid", "amount": 2})
    assert _ready(s) == ["lannister", "stark"] and _may(s, "lannister")


def test_change_of_mind_a_side_with_its_card_face_down_is_ready():
    s = position(
        units={"kings-landing": {"house": "tyrell", "units": ["footman", "knight"]},
               "kingswood": {"house": "lannister", "units": ["footman", "footman"]}},
        orders={"kings-landing": "march"},
    )
    s = march(s, "tyrell", "kings-landing", "kingswood", ["footman", "knight"])
    s = cards(s, lannister="ser-jaime-lannister")
    assert _ready(s) == ["lannister"] and _may(s, "lannister") and not _may(s, "tyrell")
