"""战略阶段 / Planning phase: 部署指令 Assign orders, 展示指令 Reveal orders, 使用信鸽 Messenger Raven.

* Every house places, face-down and simultaneously, one order in each area holding its units
  (ports included; never in an area holding only a garrison). One order per area.
* Each house has 15 tokens (``tracks.json`` ``order_tokens``); special (starred) tokens are
  limited by the house's King's Court position (宫廷势力条 / King's Court, with the 3-4 player
  overlay in ``setups.json``); Westeros cards may forbid some tokens this round.
* 没有足够的指令标记了？ / Not enough orders: when a house cannot legally fill every area, every
  house places its orders in turn order instead of simultaneously (one after another, still
  face-down; the view shows which areas already hold a face-down order); the short house places
  as many as it can and chooses which areas stay empty.
* All orders are revealed at once when the last house is in.
* The Messenger Raven holder then may replace one of its orders with an unused one, or look at
  the top wildling card and keep it on top or put it at the bottom, or do nothing.

1st edition (1st ed. rulebook, 计画阶段 / Planning phase; switches in :mod:`.edition`):

* no turn-order placement: its rulebook has no "not enough orders" rule, so orders are always
  placed at once and a house that cannot fill every area leaves some empty
  (``short_orders_in_turn_order``);
* 特殊规则: "集权令牌只能放在陆地地区上。其他令牌放在陆地或海上均可" - Consolidate Power orders only
  on land (``consolidate_on_land_only``, error ``orders.consolidate_at_sea``);
* 船舰和支援: "你不可以在龙石岛(Dragonstone)、The Arbor和派克上放置支援令牌" - no Support order on an
  island (``support_on_islands``, error ``orders.support_on_island``);
* 步骤三:渡鸦信差: "以手上未使用的令牌替换一个自己在游戏板上的令牌" - the Raven only replaces an
  order, there is no wildling deck to look at (``raven_peek``).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..base import Decision, IllegalAction
from .data import board
from .edition import edition
from .flow import auto, decision, pop, push
from .options import Lazy, order_token_info
from .state import State


def start_round_planning(state: State) -> None:
    """Queue the planning phase and the action phase after it."""
    state.phase = "planning"
    state.placed = {}
    state.tasks = (("place_orders",), ("reveal_orders",), ("raven",), ("action_phase",)) + state.tasks


def order_areas(state: State, house: str) -> list[str]:
    """Areas where ``house`` must place an order: every area with its units."""
    return sorted(a for a, us in state.units.items() if us[0][0] == house)


def stars(state: State, house: str) -> int:
    """Special orders ``house`` may place: the stars by its King's Court position."""
    pos = state.tracks["kings_court"].index(house)
    return board(state).setup(state.players)["kings_court_stars"][pos]


def token_allowed(state: State, token: str) -> bool:
    return token not in state.flags.get("forbidden", frozenset())


def max_orders(state: State, house: str) -> int:
    """How many orders ``house`` can legally have on the board this round."""
    normal, special = _allowed_counts(state.edition, state.flags.get("forbidden", frozenset()))
    return normal + min(special, stars(state, house))


@lru_cache(maxsize=64)
def _allowed_counts(edition_id: str, forbidden: frozenset) -> tuple[int, int]:
    b = board(edition_id)
    pool = Counter(b.order_pool)
    normal = sum(n for t, n in pool.items() if not b.order_tokens[t].special and t not in forbidden)
    special = sum(n for t, n in pool.items() if b.order_tokens[t].special and t not in forbidden)
    return normal, special


def check_order_set(state: State, house: str, orders: dict[str, str], areas: list[str]) -> None:
    """Validate a full set of orders for ``house`` (token ids per area).

    Raises IllegalAction with codes ``orders.unknown_token``, ``orders.not_your_area``,
    ``orders.token_unavailable``, ``orders.forbidden``, ``orders.too_many_special``,
    ``orders.missing``; 1st edition also ``orders.consolidate_at_sea``, ``orders.support_on_island``
    (:func:`check_order_place`).
    """
    b = board(state)
    for area, tok in orders.items():
        if tok not in b.order_tokens:
            raise IllegalAction("orders.unknown_token", f"There is no order token {tok!r}.", token=tok)
        if area not in areas:
            raise IllegalAction("orders.not_your_area", f"You have no units in {area} to give an order to.", area=area)
        if not token_allowed(state, tok):
            raise IllegalAction("orders.forbidden", f"A Westeros card forbids the {tok} order this round.", token=tok)
        check_order_place(state, area, tok)
    used = Counter(orders.values())
    pool = Counter(b.order_pool)
    for tok, n in used.items():
        if n > pool[tok]:
            raise IllegalAction("orders.token_unavailable", f"You have only {pool[tok]} {tok} token(s).", token=tok, count=pool[tok])
    sp = sum(n for tok, n in used.items() if b.order_tokens[tok].special)
    if sp > stars(state, house):
        raise IllegalAction(
            "orders.too_many_special",
            f"Your King's Court position allows {stars(state, house)} special order(s), not {sp}.",
            allowed=stars(state, house),
            placed=sp,
        )
    need = must_place(state, house, areas)
    if len(orders) < need:
        missing = sorted(set(areas) - set(orders))
        raise IllegalAction("orders.missing", "Every area with your units needs an order.", missing=missing)


def place_allowed(state: State, area: str, token: str) -> bool:
    """Whether ``token`` may stand in ``area`` by the edition's placement rules (1st edition:
    Consolidate Power only on land, no Support on an island; 2nd edition: anywhere)."""
    b = board(state)
    ed = edition(state)
    kind = b.order_tokens[token].type
    if kind == "consolidate_power" and ed.consolidate_on_land_only and not b.is_land(area):
        return False
    if kind == "support" and not ed.support_on_islands and b.areas[area].island:
        return False
    return True


def check_order_place(state: State, area: str, token: str) -> None:
    """Refuse ``token`` in ``area`` when :func:`place_allowed` says no (1st edition)."""
    if place_allowed(state, area, token):
        return
    if board(state).order_tokens[token].type == "consolidate_power":
        raise IllegalAction("orders.consolidate_at_sea", f"A Consolidate Power order may stand only on land, not in {area}.", area=area, token=token)
    raise IllegalAction("orders.support_on_island", f"A Support order cannot stand on the island {area}.", area=area, token=token)


def must_place(state: State, house: str, areas: list[str]) -> int:
    """How many orders ``house`` must place over ``areas`` (its areas with units): one per area,
    as far as its tokens (King's Court stars, Westeros restrictions) and, in the 1st edition,
    where each kind may stand allow (a best matching of tokens to areas)."""
    most = min(len(areas), max_orders(state, house))
    if edition(state).consolidate_on_land_only or not edition(state).support_on_islands:
        most = min(most, _placeable(state, house, areas))
    return most


def _placeable(state: State, house: str, areas: list[str]) -> int:
    """The most areas of ``areas`` that can each get a different allowed token under the 1st
    edition's placement limits (a maximum matching of areas and tokens; by Hall's theorem with
    the three kinds of area - seas refuse Consolidate Power, islands refuse Support, other land
    takes anything - it is the smallest of: all areas, all usable tokens, and for seas and islands
    the areas outside the group plus the tokens the group accepts). Special tokens count up to
    the house's King's Court stars."""
    b = board(state)
    forbidden = state.flags.get("forbidden", frozenset())
    cap = stars(state, house)

    def usable(accept) -> int:
        toks = [b.order_tokens[t] for t in b.order_pool if t not in forbidden and accept(b.order_tokens[t].type)]
        return sum(1 for t in toks if not t.special) + min(cap, sum(1 for t in toks if t.special))

    seas = sum(1 for a in areas if not place_allowed(state, a, "consolidate-power"))
    isles = sum(1 for a in areas if not place_allowed(state, a, "support"))
    n = len(areas)
    return min(n, usable(lambda k: True), n - seas + usable(lambda k: k != "consolidate_power"), n - isles + usable(lambda k: k != "support"))


def all_order_areas(state: State) -> dict[str, list[str]]:
    """``{house: sorted areas with its units}`` in one pass over the board."""
    out: dict[str, list[str]] = {h: [] for h in state.houses}
    for a, us in state.units.items():
        out.setdefault(us[0][0], []).append(a)
    for v in out.values():
        v.sort()
    return out


def sequential(state: State, areas: dict[str, list[str]] | None = None) -> bool:
    """没有足够的指令标记了？: True when some house cannot give every area with its units an
    order (Westeros restrictions, King's Court stars); then all houses place in turn order."""
    if not edition(state).short_orders_in_turn_order:
        return False
    areas = all_order_areas(state) if areas is None else areas
    return any(len(v) > max_orders(state, h) for h, v in areas.items() if v)


@decision("place_orders", ("place_orders",))
class PlaceOrdersTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        out = []
        by_house = all_order_areas(state)
        seq = sequential(state, by_house)
        for h in state.turn_order():
            if h in state.placed:
                continue
            areas = by_house.get(h)
            if not areas:
                continue
            if seq and out:
                break
            out.append(
                Decision(
                    h,
                    "place_orders",
                    Lazy(lambda h=h, areas=areas, seq=seq: {
                        "areas": areas,
                        "tokens": list(board(state).order_pool),
                        "forbidden": sorted(state.flags.get("forbidden", ())),
                        # which Westeros card forbids each (the panel says why a token is greyed)
                        "forbidden_by": dict(state.flags.get("forbidden_by", ())),
                        "special_allowed": stars(state, h),
                        "must_place": must_place(state, h, areas),
                        "token_info": order_token_info(state),
                        "not_allowed": not_allowed(state, areas),
                        "in_turn_order": seq,
                    }),
                    simultaneous=not seq,
                )
            )
        return out

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        orders = dict(action.orders)
        check_order_set(state, actor, orders, order_areas(state, actor))
        state.placed[actor] = tuple(sorted(orders.items()))
        state.emit("orders_placed", house=actor)
        if not PlaceOrdersTask.decisions(state, task):
            pop(state)

    @staticmethod
    def withdraw(state: State, task: tuple, actor: str) -> bool:
        """Take ``actor``'s face-down orders back off the board (:func:`.flow.withdraw`)."""
        if actor not in state.placed:
            return False
        del state.placed[actor]
        state.emit("orders_withdrawn", house=actor)
        return True

    @staticmethod
    def answered(state: State, task: tuple) -> list[str]:
        """The houses whose orders are on the board face down (:func:`.flow.ready`)."""
        return list(state.placed)


@auto("reveal_orders")
def reveal_orders(state: State, task: tuple) -> None:
    """展示指令 / Reveal orders: all at once."""
    state.orders = {}
    for h, orders in state.placed.items():
        for area, tok in orders:
            state.orders[area] = (h, tok)
    state.placed = {}
    state.emit("orders_revealed", orders={a: list(v) for a, v in sorted(state.orders.items())})


def not_allowed(state: State, areas: list[str]) -> dict[str, list[str]]:
    """``{area: [token ids that may not stand there]}`` for ``areas`` (1st edition's placement
    limits; empty in the 2nd edition)."""
    b = board(state)
    out = {}
    for a in areas:
        bad = sorted(t for t in b.order_tokens if not place_allowed(state, a, t))
        if bad:
            out[a] = bad
    return out


def unused_tokens(state: State, house: str) -> Counter:
    pool = Counter(board(state).order_pool)
    pool.subtract(Counter(tok for (h, tok) in state.orders.values() if h == house))
    return +pool


def raven_replacements(state: State, house: str) -> dict[str, list[str]]:
    """``{area of house's order: [unused token ids that may replace it]}`` (使用信鸽 / Messenger Raven).

    A replacement must be unused, not forbidden by a Westeros card, and keep the house's special
    orders within its King's Court stars. Areas with no legal replacement are absent.
    """
    b = board(state)
    mine = {a: t for a, (h, t) in state.orders.items() if h == house}
    unused = sorted(t for t, n in unused_tokens(state, house).items() if n > 0 and token_allowed(state, t))
    sp_total = sum(1 for t in mine.values() if b.order_tokens[t].special)
    allowed = stars(state, house)
    out = {}
    for area, cur in sorted(mine.items()):
        sp_other = sp_total - (1 if b.order_tokens[cur].special else 0)
        toks = [t for t in unused if not (b.order_tokens[t].special and sp_other + 1 > allowed) and place_allowed(state, area, t)]
        if toks:
            out[area] = toks
    return out


@decision("raven", ("raven",))
class RavenTask:
    """使用信鸽 / Messenger Raven (once per round, the King's Court leader)."""

    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = state.holder("kings_court")
        if state.flags.get("raven_used"):
            return []
        mine = sorted(a for a, (hh, _) in state.orders.items() if hh == h)
        choices = ["replace", "peek", "pass"] if edition(state).raven_peek else ["replace", "pass"]
        return [
            Decision(
                h,
                "raven",
                Lazy(lambda: {
                    "choices": choices,
                    "areas": mine,
                    "unused_tokens": sorted(unused_tokens(state, h).elements()),
                    "replacements": raven_replacements(state, h),
                }),
            )
        ]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        b = board(state)
        if action.choice == "pass":
            pop(state)
            state.emit("raven_pass", house=actor)
            return
        if action.choice == "peek" and edition(state).raven_peek:
            pop(state)
            state.flags["raven_used"] = True
            push(state, ("raven_peek",))
            top = state.decks["wildling"][0]
            state.emit("raven_peek", house=actor)
            state.emit("raven_saw", to=actor, house=actor, card=top)
            state.ctx["raven_saw"] = (actor, top)
            return
        if action.choice != "replace":
            if not edition(state).raven_peek:
                raise IllegalAction("raven.bad_choice", "Choose replace or pass.", choice=action.choice)
            raise IllegalAction("raven.bad_choice", "Choose replace, peek or pass.", choice=action.choice)
        area, tok = action.area, action.token
        cur = state.orders.get(area or "")
        if cur is None or cur[0] != actor:
            raise IllegalAction("raven.not_your_order", "Replace one of your own orders on the board.", area=area)
        if tok not in b.order_tokens:
            raise IllegalAction("orders.unknown_token", f"There is no order token {tok!r}.", token=tok)
        if unused_tokens(state, actor)[tok] <= 0:
            raise IllegalAction("raven.token_in_use", f"The {tok} token is not among your unused orders.", token=tok)
        if not token_allowed(state, tok):
            raise IllegalAction("orders.forbidden", f"A Westeros card forbids the {tok} order this round.", token=tok)
        check_order_place(state, area, tok)
        sp = sum(1 for a, (h, t) in state.orders.items() if h == actor and a != area and b.order_tokens[t].special)
        if b.order_tokens[tok].special and sp + 1 > stars(state, actor):
            raise IllegalAction(
                "orders.too_many_special",
                f"Your King's Court position allows {stars(state, actor)} special order(s).",
                allowed=stars(state, actor),
                placed=sp + 1,
            )
        state.orders[area] = (actor, tok)
        state.flags["raven_used"] = True
        pop(state)
        state.emit("raven_replace", house=actor, area=area, old=cur[1], new=tok)


@decision("raven_peek", ("raven_keep",))
class RavenPeekTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = state.holder("kings_court")
        return [Decision(h, "raven_wildling", {"card": state.decks["wildling"][0], "choices": ["top", "bottom"]})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        deck = state.decks["wildling"]
        if action.bottom:
            state.decks["wildling"] = deck[1:] + deck[:1]
            state.ctx.pop("raven_saw", None)
        pop(state)
        state.emit("raven_wildling", house=actor, bottom=action.bottom)
