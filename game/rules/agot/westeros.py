"""维斯特洛阶段 / Westeros phase (skipped in round 1) and 维斯特洛卡牌参考 / every Westeros card.

1. Advance the round marker.
2. Reveal the top card of decks I, II and III.
3. Each wildling icon moves the threat up one space (2 points); reaching 12 starts a wildlings
   attack at once (extra icons are ignored).
4. Resolve the cards in order I, II, III; each goes to the bottom of its deck.

Cards: Supply (:mod:`.supply`), Mustering (:mod:`.mustering`, in turn order), A Throne of Blades
(Iron Throne holder: supply, mustering or nothing), Winter is Coming (reshuffle that deck, reveal
and resolve a new card, its wildling icon included), Last Days of Summer (nothing), Game of
Thrones (crowns in controlled areas plus ports holding own ships with no enemy ship in their sea),
Dark Wings, Dark Words (Raven holder: bidding, power or nothing), Clash of Kings
(:mod:`.bidding`), Wildlings Attack (:mod:`.wildlings`), Put to the Sword (Blade holder: no
Defense orders, no March +1 order, or nothing), and the planning restrictions Rains of Autumn
(no March +1), Storm of Swords (no Defense), Sea of Storms (no Raid), Web of Lies (no Support),
Feast for Crows (no Consolidate Power).

A card acts by its ``effect_key`` (``westeros_cards.json``), so an edition's card of the same name
may act differently. 1st edition (1st ed. rulebook, 维斯特洛阶段, 威胁逼近 and 维斯特洛卡表; switches
in :mod:`.edition`):

* 威胁逼近: "每当翻出印有图样的卡,在处理之前,先将「野蛮人入侵」标志物向前一格" - each card's
  wildling icon moves the threat one space just before that card resolves
  (``wildling_icon_per_card``), and the top of the track starts nothing: "当牌叠III出现「野蛮人入侵」
  卡时,野蛮人会全力进攻" - an attack comes only from its card (``wildling_attack_at_max``);
* 秋雨 Rains of Autumn: "步兵本回合无法提供支援战力" - footmen add no support strength this round
  (effect key ``footmen_give_no_support``: flag ``footmen_no_support``, read by :mod:`.support`);
* its eleven card types have no A Throne of Blades, Dark Wings Dark Words, Put to the Sword or Web
  of Lies, and Game of Thrones counts crowns only (there are no ports).
"""

from __future__ import annotations

from ..base import Decision, IllegalAction
from .bidding import clash_of_kings
from .control import controller, enemy_ships_in, gain_power
from .data import board
from .edition import edition
from .flow import auto, decision, pop, push
from .mustering import muster_areas
from .planning import start_round_planning
from .rng import shuffled
from .state import State

DECKS = ("I", "II", "III")

FORBID = {
    "no_march_plus_one": ("march-plus-one",),
    "no_defense": ("defense-plus-one", "defense-plus-two"),
    "no_raid": ("raid", "special-raid"),
    "no_support": ("support", "support-plus-one"),
    "no_consolidate_power": ("consolidate-power", "special-consolidate-power"),
}

#: the planning restrictions by effect key
FORBID_BY_EFFECT = {
    "forbid_march_plus_one_orders": "no_march_plus_one",
    "forbid_defense_orders": "no_defense",
    "forbid_raid_orders": "no_raid",
    "forbid_support_orders": "no_support",
    "forbid_consolidate_power_orders": "no_consolidate_power",
}

CHOICES = {
    "a-throne-of-blades": ("iron_throne", ("supply", "mustering", "nothing")),
    "dark-wings-dark-words": ("kings_court", ("clash_of_kings", "game_of_thrones", "nothing")),
    "put-to-the-sword": ("fiefdoms", ("no_defense", "no_march_plus_one", "nothing")),
}


def draw(state: State, deck: str) -> str:
    cards = state.decks[deck]
    top = cards[0]
    state.decks[deck] = cards[1:] + (top,)
    return top


def add_threat(state: State, icons: int) -> bool:
    """Move the threat up ``icons`` spaces (``tracks.json`` ``wildling_track``: ``step_per_icon``
    points each, at most ``max``); True if it reached the top now and the edition starts an
    attack there (the 2nd edition's 12)."""
    if icons <= 0:
        return False
    wt = board(state).tracks["wildling_track"]
    top = wt["max"]
    old = state.threat
    state.threat = min(top, old + wt["step_per_icon"] * icons)
    state.emit("wildling_threat", old=old, new=state.threat)
    return edition(state).wildling_attack_at_max and state.threat >= top and old < top


@auto("westeros")
def westeros(state: State, task: tuple) -> None:
    state.phase = "westeros"
    state.round += 1
    state.emit("round_start", round_no=state.round)
    cards = [draw(state, d) for d in DECKS]
    state.ctx["westeros_cards"] = tuple(cards)
    state.emit("westeros_cards", cards=cards)
    wc = board(state).westeros_cards
    tasks: list[tuple] = []
    if not edition(state).wildling_icon_per_card:
        icons = sum(1 for c in cards if wc[c]["wildling_icon"])
        if add_threat(state, icons):
            tasks.append(("wildling_attack", None, None))
    tasks += [("wcard", d, c) for d, c in zip(DECKS, cards)]
    push(state, *tasks)


@auto("planning_start")
def planning_start(state: State, task: tuple) -> None:
    state.ctx.pop("westeros_cards", None)
    start_round_planning(state)


@auto("wcard")
def wcard(state: State, task: tuple) -> None:
    _, deck, card = task
    if edition(state).wildling_icon_per_card and board(state).westeros_cards[card]["wildling_icon"]:
        add_threat(state, 1)  # 1st edition 威胁逼近: this card's icon, just before it resolves
    state.emit("westeros_resolve", deck=deck, card=card)
    resolve_card(state, deck, card)


def resolve_card(state: State, deck: str, card: str) -> None:
    """Resolve the Westeros card ``card`` of ``deck`` by its ``effect_key``."""
    key = board(state).westeros_cards[card]["effect_key"]
    if key == "reshuffle_and_redraw":
        state.decks[deck] = shuffled(state, tuple(sorted(state.decks[deck])))
        new = draw(state, deck)
        state.emit("westeros_cards_redraw", deck=deck, card=new)
        cards = list(state.ctx.get("westeros_cards", ()))
        if len(cards) == 3:
            cards[DECKS.index(deck)] = new
            state.ctx["westeros_cards"] = tuple(cards)
        tasks = []
        if not edition(state).wildling_icon_per_card and board(state).westeros_cards[new]["wildling_icon"] and add_threat(state, 1):
            tasks.append(("wildling_attack", None, None))
        tasks.append(("wcard", deck, new))
        push(state, *tasks)
    elif key == "no_effect":
        pass
    elif key == "adjust_supply":
        push(state, ("supply_update",))
    elif key == "muster":
        mustering_all(state)
    elif key == "gain_power_for_crowns_and_ports":
        game_of_thrones(state)
    elif key == "bid_on_influence_tracks":
        clash_of_kings(state)
    elif key == "wildlings_attack":
        push(state, ("wildling_attack", None, None))
    elif card in CHOICES:
        push(state, ("wchoice", card))
    elif key in FORBID_BY_EFFECT:
        forbid(state, FORBID_BY_EFFECT[key], card)
    elif key == "footmen_give_no_support":
        state.flags["footmen_no_support"] = True
        state.emit("footmen_no_support")
    else:  # pragma: no cover - data validated
        raise RuntimeError(f"unknown Westeros card {card} ({key})")


def forbid(state: State, key: str, card: str | None = None) -> None:
    """Forbid this round's orders of restriction ``key``; ``card``: the Westeros card that does
    (kept as ``flags["forbidden_by"]``, pairs of token and card, so a player is told why)."""
    state.flags["forbidden"] = frozenset(state.flags.get("forbidden", frozenset()) | set(FORBID[key]))
    if card:
        by = dict(state.flags.get("forbidden_by", ()))
        by.update((t, card) for t in FORBID[key])
        state.flags["forbidden_by"] = tuple(sorted(by.items()))
    state.emit("orders_forbidden", restriction=key, tokens=list(FORBID[key]))


def mustering_all(state: State) -> None:
    """征募 / Mustering: every house in turn order, in all its castle and stronghold areas."""
    push(state, *[("muster", h) for h in state.turn_order()])


def game_of_thrones(state: State) -> None:
    """权力的游戏 / Game of Thrones: crowns in controlled areas plus trading ports (与自由贸易城邦的通商;
    the 1st edition has no ports: "玩家控制的地区每有一个权力图样(皇冠)就可以从权力池拿一个权力标志物")."""
    b = board(state)
    for h in state.turn_order():
        n = 0
        for a in b.land_ids:
            if b.areas[a].power and controller(state, a) == h:
                n += b.areas[a].power
        for a, x in b.areas.items():
            if x.kind == "port" and state.owner(a) == h and not enemy_ships_in(state, x.port_sea, h):
                n += 1
        got = gain_power(state, h, n)
        state.emit("power_income", house=h, gained=got)


@decision("muster", ("muster",))
class MusterTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        h = task[1]
        areas = muster_areas(state, h)
        if not areas:
            return []
        from .options import Lazy, muster_options

        return [
            Decision(
                h,
                "muster",
                Lazy(lambda: {
                    "areas": areas,
                    "points": {a: board(state).tracks["mustering_points"][board(state).areas[a].castle] for a in areas},
                    "recruits": muster_options(state, h, areas),
                }),
            )
        ]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        from .mustering import apply_recruits

        apply_recruits(state, actor, action.recruits, muster_areas(state, actor))
        state.emit("muster_done", house=actor)
        pop(state)


@decision("wchoice", ("choose",))
class WesterosChoiceTask:
    @staticmethod
    def decisions(state: State, task: tuple) -> list[Decision]:
        card = task[1]
        track, options = CHOICES[card]
        return [Decision(state.holder(track), "choose", {"purpose": card, "options": list(options)})]

    @staticmethod
    def handle(state: State, task: tuple, actor: str, action) -> None:
        card = task[1]
        _, options = CHOICES[card]
        if action.option not in options:
            raise IllegalAction("choose.bad_option", f"Choose one of {list(options)}.", options=list(options))
        pop(state)
        state.emit("westeros_choice", house=actor, card=card, option=action.option)
        opt = action.option
        if opt == "supply":
            push(state, ("supply_update",))
        elif opt == "mustering":
            mustering_all(state)
        elif opt == "clash_of_kings":
            clash_of_kings(state)
        elif opt == "game_of_thrones":
            game_of_thrones(state)
        elif opt in FORBID:
            forbid(state, opt, card)
