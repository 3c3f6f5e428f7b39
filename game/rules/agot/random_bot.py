"""The ``random`` bot level, and what every level shares: trying a candidate action with
``apply``, answering a decision kind it does not know from its action type and options.

``random``: uniform among the actions built from the options; large spaces (how a March order
splits its units over destinations, recruits) are sampled, each sample checked with ``apply``;
after a few refusals it falls back to a single-choice action that the options guarantee (or the
empty march / no recruits / pass).

Decision kinds unknown to the bot are answered generically from their action type and options
(``choose`` ``options``, ``select_card`` ``cards``, ``select_units`` ``candidates``/``units``).

No rulebook section: a bot implements no rule, it reads the decision's options (:mod:`.options`)
and the viewer's view (see :mod:`.bots`).
"""

from __future__ import annotations

from random import Random
from typing import Any

from ..base import Decision, IllegalAction

TRIES = 8


class RandomBot:
    """The ``random`` level (:meth:`random`); :class:`.basic_bot.BasicBot` builds on it."""

    def __init__(self, ruleset: Any, state: Any, actor: str, d: Decision, rnd: Random) -> None:
        self.R = ruleset
        self.state = state
        self.me = actor
        self.d = d
        self.o = d.options
        self.rnd = rnd
        self._view: dict | None = None

    # -- helpers -------------------------------------------------------------------------------
    def ok(self, act: dict) -> bool:
        try:
            self.R.apply(self.state, self.me, act)
            return True
        except IllegalAction:
            return False

    def first_ok(self, cands, fallback: dict) -> dict:
        for a in cands:
            if self.ok(a):
                return a
        return fallback

    @property
    def view(self) -> dict:
        if self._view is None:
            self._view = self.R.view(self.state, self.me)
        return self._view

    def atype(self) -> str:
        """The action type this decision is answered with (generic kinds)."""
        k = self.d.kind
        by_kind = {"choose": "choose", "use_blade": "choose", "retreat": "choose", "support_combat": "choose",
                   "select_card": "select_card", "choose_house_card": "select_card",
                   "select_units": "select_units", "casualties": "select_units"}
        if k in by_kind:
            return by_kind[k]
        if "cards" in self.o:
            return "select_card"
        if "candidates" in self.o or ("units" in self.o and "count" in self.o):
            return "select_units"
        if isinstance(self.o.get("options"), list):
            return "choose"
        raise ValueError(f"bot cannot answer decision {k!r}")

    # -- random ----------------------------------------------------------------------------------
    def random(self) -> dict:
        k, o, rnd = self.d.kind, self.o, self.rnd
        if k == "place_orders":
            return {"type": "place_orders", "orders": self._random_orders()}
        if k == "raven":
            choices = [{"type": "raven", "choice": "pass"}] + ([{"type": "raven", "choice": "peek"}] if "peek" in o["choices"] else [])
            choices += [{"type": "raven", "choice": "replace", "area": a, "token": t} for a, ts in o["replacements"].items() for t in ts]
            return rnd.choice(choices)
        if k == "raven_wildling":
            return {"type": "raven_keep", "bottom": rnd.random() < 0.5}
        if k == "raid":
            area = rnd.choice(sorted(o["raids"]))
            targets = o["raids"][area]
            if area in o.get("two_targets", ()) and len(targets) >= 2 and rnd.random() < 0.5:
                first, second = rnd.sample(targets, 2)
                return {"type": "raid", "area": area, "target": first, "second_target": second}
            return {"type": "raid", "area": area, "target": rnd.choice(targets + [None])}
        if k == "march":
            return self._random_march()
        if k == "support_neutral_attack":
            return {"type": "support", "give": rnd.choice(o["choices"])}
        if k == "consolidate":
            area = rnd.choice(o["areas"])
            if area not in o["muster"] or rnd.random() < 0.5:
                return {"type": "consolidate", "area": area}
            rec = self._random_recruits({area: o["muster"][area]})
            return rec and {"type": "consolidate", "area": area, "muster": rec} or {"type": "consolidate", "area": area}
        if k == "muster":
            recs = o["recruits"]
            if o.get("one_area"):
                a = rnd.choice(sorted(recs))
                recs = {a: recs[a]}
            return {"type": "muster", "recruits": self._random_recruits(recs) or []}
        if k == "reduce_armies":
            return self._reconcile(rnd.choice(o["plans"]), prefer_weak=False)
        if k == "bid":
            return {"type": "bid", "amount": rnd.randint(0, o["max"])}
        if k == "order_ties":
            order = []
            for g in o["groups"]:
                g = list(g)
                rnd.shuffle(g)
                order += g
            return {"type": "order_ties", "order": order}
        t = self.atype()
        if t == "choose":
            return {"type": "choose", "option": rnd.choice(o["options"])}
        if t == "select_card":
            cards = list(o["cards"]) + ([None] if o.get("optional") else [])
            return {"type": "select_card", "card": rnd.choice(cards)}
        if o.get("purpose") == "wildlings_muster_points":
            from .wildlings import muster_point_plan

            units = [tuple(u) for u in o["units"]]
            rnd.shuffle(units)
            return {"type": "select_units", "units": [{"area": a, "unit": u} for a, u in muster_point_plan(units, o["points"])]}
        return self._select_units(lambda cands: rnd.sample(cands, len(cands)))

    def _random_orders(self) -> dict[str, str]:
        o, rnd = self.o, self.rnd
        if o.get("not_allowed"):  # 1st edition: no Consolidate Power at sea, no Support on an island
            from .options import random_order_set

            return random_order_set(o, rnd)
        info = o["token_info"]
        toks = [t for t in o["tokens"] if t not in o["forbidden"]]
        rnd.shuffle(toks)
        chosen, sp = [], 0
        for t in toks:
            if info[t]["special"]:
                if sp >= o["special_allowed"]:
                    continue
                sp += 1
            chosen.append(t)
        areas = rnd.sample(o["areas"], o["must_place"])
        return dict(zip(areas, chosen))

    def _random_march(self) -> dict:
        rnd = self.rnd
        area = rnd.choice(sorted(self.o["marches"]))
        m = self.o["marches"][area]
        dests = m["destinations"]
        singles = [{"type": "march", "area": area, "moves": []}]
        for dest, dd in dests.items():
            for n in dd["counts"]:
                pool = [t for t in dd["units"] for _ in range(m["units"].get(t, 0))]
                singles.append({"type": "march", "area": area, "moves": [{"to": dest, "units": rnd.sample(pool, n)}]})
        for _ in range(TRIES):
            moves: dict[str, list[str]] = {}
            for t, n in sorted(m["units"].items()):
                for _ in range(n):
                    opts = [None] + [dd for dd in sorted(dests) if t in dests[dd]["units"]]
                    to = rnd.choice(opts)
                    if to is not None:
                        moves.setdefault(to, []).append(t)
            if sum(1 for to in moves if dests[to]["fight"]) > 1:
                continue
            left = sum(m["units"].values()) + m["routed"] - sum(len(v) for v in moves.values())
            act = {"type": "march", "area": area, "moves": [{"to": to, "units": u} for to, u in sorted(moves.items())]}
            if left == 0 and m["leave_power"] and rnd.random() < 0.5:
                act["leave_power"] = True
            if self.ok(act):
                return act
        rnd.shuffle(singles)
        return self.first_ok(singles, {"type": "march", "area": area, "moves": []})

    def _random_recruits(self, recs: dict) -> list[dict]:
        rnd = self.rnd
        out: list[dict] = []
        for area in sorted(recs):
            r = recs[area]
            singles = [{"area": area, "unit": u} for u in r["units"]]
            singles += [{"area": area, "unit": "ship", "to": s} for s in r["ships"]]
            singles += [{"area": area, "unit": u, "upgrade": True} for u in r["upgrades"]]
            pts = r["points"]
            for _ in range(3):
                if pts <= 0 or not singles or rnd.random() < 0.2:
                    break
                pts = self._take_recruit(out, rnd.choice(singles), r, pts)
        return out

    def _take_recruit(self, out: list[dict], s: dict, r: dict, pts: int) -> int:
        """Append recruit ``s`` to ``out`` if ``pts`` (of area options ``r``) pay for it and the
        engine accepts the whole list; returns the points left."""
        cost = 1 if s.get("upgrade") or s["unit"] == "ship" else r["costs"][s["unit"]]
        if cost <= pts and self._recruits_ok(out + [s]):
            out.append(s)
            return pts - cost
        return pts

    def _recruits_ok(self, recs: list[dict]) -> bool:
        if self.d.kind == "consolidate":
            return self.ok({"type": "consolidate", "area": recs[0]["area"], "muster": recs})
        return self.ok({"type": "muster", "recruits": recs})

    def _reconcile(self, plan: dict[str, int], prefer_weak: bool) -> dict:
        rank = {"siege_engine": 0, "footman": 1, "ship": 2, "knight": 3}
        remove = []
        for area, n in sorted(plan.items()):
            pool = [t for t, c in sorted(self.o["units"][area].items()) for _ in range(c)]
            if prefer_weak:
                pool.sort(key=lambda t: rank.get(t, 9))
                chosen = pool[:n]
            else:
                chosen = self.rnd.sample(pool, n)
            remove += [{"area": area, "unit": t} for t in chosen]
        return {"type": "reconcile", "remove": remove}

    def _select_units(self, order_fn) -> dict:
        o = self.o
        cands = [tuple(c) for c in o.get("candidates", o.get("units", []))]
        lo = o.get("min", o.get("count", 0))
        hi = o.get("max", o.get("count", len(cands)))
        if o.get("same_area"):
            area = self.rnd.choice(o["areas"])
            cands = [c for c in cands if c[0] == area]
        n = self.rnd.randint(lo, min(hi, len(cands))) if self.d.kind != "casualties" else min(hi, len(cands))
        picked = order_fn(cands)[:n]
        return {"type": "select_units", "units": [{"area": a, "unit": u} for a, u in picked]}
