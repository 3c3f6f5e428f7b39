"""The ``basic`` bot level: simple sense, and the random level's answers where it has no preference.

Orders: March where an adjacent area is worth taking (castles, strongholds, barrels, crowns),
Defense where an enemy threatens a castle, Support next to its own targets, Raid next to enemies,
Consolidate Power elsewhere. Marches take undefended castles first, attack neutral forces and
enemies only with a strength margin, keep a unit in a threatened home, leave a power token in a
valuable area it leaves. Supports its own combats (never its enemies'), bids a sensible share of
its power, musters knights and footmen, plays a strong card with swords when attacking and keeps
the sword cards when defending. It reads the board only from the viewer's view and the public
board data. No rulebook section: a bot implements no rule (see :mod:`.bots`).
"""

from __future__ import annotations

from collections import Counter

from .data import board
from .random_bot import RandomBot


class BasicBot(RandomBot):
    """The ``basic`` level (:meth:`basic`)."""

    def basic(self) -> dict:
        k, o = self.d.kind, self.o
        if k == "place_orders":
            return {"type": "place_orders", "orders": self._basic_orders()}
        if k == "raven":
            return {"type": "raven", "choice": "pass"}
        if k == "raven_wildling":
            return {"type": "raven_keep", "bottom": False}
        if k == "raid":
            return self._basic_raid()
        if k == "march":
            return self._basic_march()
        if k == "support_neutral_attack":
            return {"type": "support", "give": o["attacker"] == self.me}
        if k == "consolidate":
            # a port first (an enemy ship mustered next to it later would make it worthless),
            # then mustering, then the most power
            b = board(self.state)
            ports = [a for a in o["areas"] if b.is_port(a) and o["power"][a] > 0]
            if ports:
                return {"type": "consolidate", "area": ports[0]}
            for area in o["areas"]:
                if area in o["muster"]:
                    rec = self._greedy_recruits({area: o["muster"][area]})
                    if rec:
                        return {"type": "consolidate", "area": area, "muster": rec}
            return {"type": "consolidate", "area": max(o["areas"], key=lambda a: (o["power"][a], a))}
        if k == "muster":
            recs = o["recruits"]
            if o.get("one_area"):
                best = max(sorted(recs), key=lambda a: recs[a]["points"])
                recs = {best: recs[best]}
            return {"type": "muster", "recruits": self._greedy_recruits(recs)}
        if k == "reduce_armies":
            return self._reconcile(o["plans"][0], prefer_weak=True)
        if k == "bid":
            return {"type": "bid", "amount": self._basic_bid()}
        if k == "order_ties":
            order = []
            for g in o["groups"]:
                g = list(g)
                if self.me in g:
                    g.remove(self.me)
                    g.insert(0, self.me)
                order += g
            return {"type": "order_ties", "order": order}
        if k in ("choose_house_card",):
            return {"type": "select_card", "card": self._basic_card()}
        if k in ("support_combat",):
            opts = o["options"]
            side = "none"
            if o.get("attacker") == self.me and "attacker" in opts:
                side = "attacker"
            elif o.get("defender") == self.me and "defender" in opts:
                side = "defender"
            return {"type": "choose", "option": side if side in opts else opts[-1]}
        t = self.atype()
        if t == "choose":
            return {"type": "choose", "option": self._basic_choose()}
        if t == "select_card":
            return {"type": "select_card", "card": self._basic_select_card()}
        rank = {"siege_engine": 0, "footman": 1, "ship": 2, "knight": 3}
        if o.get("purpose") == "wildlings_muster_points":  # 1st edition: the weakest units first
            from .wildlings import muster_point_plan

            units = sorted((tuple(u) for u in o["units"]), key=lambda c: (rank.get(c[1], 9), c[0]))
            return {"type": "select_units", "units": [{"area": a, "unit": u} for a, u in muster_point_plan(units, o["points"])]}
        if o.get("purpose") == "crow_killers_upgrade":
            return {"type": "select_units", "units": [{"area": a, "unit": u} for a, u in o["candidates"][: o["max"]]]}
        return self._select_units(lambda cands: sorted(cands, key=lambda c: (rank.get(c[1], 9), c[0])))

    # board knowledge from the view ---------------------------------------------------------------
    def owner(self, area: str) -> str | None:
        u = self.view["units"].get(area)
        return u["house"] if u else None

    def controller(self, area: str) -> str | None:
        b = board(self.state)
        v = self.view
        u = v["units"].get(area)
        if u:
            return u["house"]
        if b.is_sea(area):
            return None
        if b.is_port(area):
            return self.controller(b.areas[area].port_of)
        t = v["power_tokens"].get(area)
        if t:
            return t
        home = b.areas[area].home_of
        if home in v["houses"]:
            g = v["garrisons"].get(area)
            if g is None or g["house"] == home:
                return home
        return None

    def strength_in(self, area: str, castle_target: bool = False) -> int:
        u = self.view["units"].get(area)
        if not u:
            return 0
        s = 0
        for x in u["units"]:
            if x["routed"]:
                continue
            if x["type"] == "siege_engine":
                s += 4 if castle_target else 0
            else:
                s += board(self.state).unit_strength[x["type"]]
        return s

    def area_value(self, area: str) -> float:
        a = board(self.state).areas[area]
        val = {"stronghold": 4.0, "castle": 3.0}.get(a.castle or "", 0.0)
        val += 0.7 * a.supply + 0.6 * a.power
        if a.home_of and a.home_of != self.me:
            val += 1.0
        return val

    def enemy_land_adjacent(self, area: str) -> int:
        """Strength of enemy land units adjacent to ``area``."""
        b = board(self.state)
        s = 0
        for n in b.adjacent[area]:
            o = self.owner(n)
            if o is not None and o != self.me and b.is_land(n):
                s += self.strength_in(n)
        return s

    def _basic_orders(self) -> dict[str, str]:
        b = board(self.state)
        o = self.o
        info = o["token_info"]
        areas = o["areas"]
        want: dict[str, list[str]] = {}
        score: dict[str, float] = {}
        for a in areas:
            prefs: list[str]
            threat = self.enemy_land_adjacent(a) if b.is_land(a) else 0
            targets = [n for n in b.adjacent[a] if self.controller(n) != self.me and (b.is_land(n) == b.is_land(a) or (b.is_sea(n) and not b.is_land(a)))]
            tgt_val = max([self.area_value(n) for n in targets if b.is_land(n)] + [0.0])
            castle = b.areas[a].castle is not None
            if b.is_land(a):
                if castle and threat >= self.strength_in(a):
                    prefs = ["defense", "march", "consolidate_power", "support", "raid"]
                    score[a] = 6 + threat
                elif tgt_val > 0:
                    prefs = ["march", "support", "consolidate_power", "raid", "defense"]
                    score[a] = 3 + tgt_val
                elif b.areas[a].power:
                    prefs = ["consolidate_power", "march", "support", "raid", "defense"]
                    score[a] = 2
                else:
                    prefs = ["march", "consolidate_power", "support", "raid", "defense"]
                    score[a] = 1
            elif b.is_port(a):
                prefs = ["consolidate_power", "raid", "support", "defense", "march"]
                score[a] = 0.5
            else:
                enemies = any(self.owner(n) not in (None, self.me) for n in b.adjacent[a])
                prefs = ["raid", "support", "march", "consolidate_power", "defense"] if enemies else ["support", "march", "raid", "consolidate_power", "defense"]
                score[a] = 0.8
            want[a] = prefs
        toks = Counter(t for t in o["tokens"] if t not in o["forbidden"])
        sp_left = o["special_allowed"]
        out: dict[str, str] = {}
        best_first = {"march": ["march-plus-one", "march", "march-minus-one"], "defense": ["defense-plus-two", "defense-plus-one"],
                      "support": ["support-plus-one", "support"], "raid": ["special-raid", "raid"],
                      "consolidate_power": ["special-consolidate-power", "consolidate-power"]}
        for a in sorted(areas, key=lambda x: (-score[x], x)):
            if len(out) >= o["must_place"]:
                break
            placed = False
            for typ in want[a] + ["march", "defense", "support", "raid", "consolidate_power"]:
                for t in best_first[typ]:
                    if toks[t] <= 0 or (info[t]["special"] and sp_left <= 0) or t in o.get("not_allowed", {}).get(a, ()):
                        continue
                    toks[t] -= 1
                    if info[t]["special"]:
                        sp_left -= 1
                    out[a] = t
                    placed = True
                    break
                if placed:
                    break
        if len(out) < o["must_place"] or not self.ok({"type": "place_orders", "orders": out}):
            return self._random_orders()
        return out

    def _basic_raid(self) -> dict:
        v = self.view
        rank = {"consolidate_power": 0, "support": 1, "raid": 2, "defense": 3}
        best = None
        for area, targets in sorted(self.o["raids"].items()):
            for t in targets:
                r = rank.get(v["orders"][t]["type"], 9)
                if best is None or r < best[0]:
                    best = (r, area, t)
        if best is None:
            return {"type": "raid", "area": sorted(self.o["raids"])[0], "target": None}
        act = {"type": "raid", "area": best[1], "target": best[2]}
        if best[1] in self.o.get("two_targets", ()):  # 1st edition's special Raid: a second order
            rest = sorted((t for t in self.o["raids"][best[1]] if t != best[2]), key=lambda t: rank.get(v["orders"][t]["type"], 9))
            if rest:
                act["second_target"] = rest[0]
        return act

    def _attack_strength(self, origin: str, dest: str, units: list[str], castle: bool) -> int:
        b = board(self.state)
        tok = self.view["orders"].get(origin, {}).get("token")
        s = sum((4 if castle else 0) if u == "siege_engine" else b.unit_strength[u] for u in units)
        if tok:
            s += b.order_tokens[tok].strength
        for n in b.adjacent[dest]:
            od = self.view["orders"].get(n)
            if od and od["house"] == self.me and od["type"] == "support" and not b.is_port(n):
                s += self.strength_in(n, castle) + b.order_tokens[od["token"]].strength
        return s

    def _defense_strength(self, dest: str) -> int:
        b = board(self.state)
        v = self.view
        castle = b.areas[dest].castle is not None
        s = self.strength_in(dest)
        od = v["orders"].get(dest)
        if od and od["type"] == "defense":
            s += b.order_tokens[od["token"]].strength
        g = v["garrisons"].get(dest)
        if g and g["house"] != self.me:
            s += g["strength"]
        defender = self.owner(dest) or (g and g["house"])
        for n in b.adjacent[dest]:
            o = v["orders"].get(n)
            if o and o["house"] == defender and o["type"] == "support" and not b.is_port(n):
                s += self.strength_in(n, castle) + b.order_tokens[o["token"]].strength
        return s

    def _basic_march(self) -> dict:
        b = board(self.state)
        best: tuple[float, dict] | None = None
        for area, m in sorted(self.o["marches"].items()):
            units = [t for t, n in sorted(m["units"].items()) for _ in range(n)]
            if not units:
                continue
            home_guard = b.areas[area].home_of == self.me and self.enemy_land_adjacent(area) > 0
            for dest, dd in sorted(m["destinations"].items()):
                if b.is_sea(dest) or b.is_port(dest):
                    # ships: move towards unowned seas next to valuable land, rarely worth it
                    val = 0.3 if self.owner(dest) is None else 0.0
                    if dd["fight"] == "combat":
                        val = 1.5
                else:
                    val = self.area_value(dest) if self.controller(dest) != self.me else 0.0
                    if val <= 0 and not dd["fight"]:
                        continue
                movable = [u for u in units if u in dd["units"]]
                n = max(c for c in dd["counts"] if c <= len(movable)) if any(c <= len(movable) for c in dd["counts"]) else 0
                if home_guard and n >= len(units) + 0 and n > 0:
                    n -= 1
                if n <= 0:
                    continue
                rank = {"knight": 0, "siege_engine": 1, "footman": 2, "ship": 3}
                go = sorted(movable, key=lambda u: rank.get(u, 9))[:n]
                if dd["fight"] == "neutral":
                    castle = b.areas[dest].castle is not None
                    if self._attack_strength(area, dest, go, castle) < dd["neutral"]:
                        continue
                    val += 1.0
                elif dd["fight"] == "combat":
                    castle = b.areas[dest].castle is not None
                    margin = self._attack_strength(area, dest, go, castle) - self._defense_strength(dest)
                    if margin < 2:
                        continue
                    val += 0.5 * margin
                act = {"type": "march", "area": area, "moves": [{"to": dest, "units": go}]}
                if n == len(units) and m["routed"] == 0 and m["leave_power"] and self.area_value(area) >= 2 and self.view["power"][self.me] >= 2:
                    act["leave_power"] = True
                if best is None or val > best[0]:
                    if self.ok(act):
                        best = (val, act)
        if best is not None:
            return best[1]
        return {"type": "march", "area": sorted(self.o["marches"])[0], "moves": []}

    def _greedy_recruits(self, recs: dict) -> list[dict]:
        out: list[dict] = []
        for area in sorted(recs, key=lambda a: -recs[a]["points"]):
            r = recs[area]
            pts = r["points"]
            order = []
            if "knight" in r["units"]:
                order.append({"area": area, "unit": "knight"})
            if "knight" in r["upgrades"]:
                order.append({"area": area, "unit": "knight", "upgrade": True})
            if "footman" in r["units"]:
                order += [{"area": area, "unit": "footman"}] * 2
            if r["ships"]:
                order.append({"area": area, "unit": "ship", "to": r["ships"][0]})
            for s in order:
                pts = self._take_recruit(out, s, r, pts)
        return out

    def _basic_bid(self) -> int:
        o = self.o
        power = o["max"]
        p = o.get("purpose")
        if p == "wildlings":
            v = self.view
            threat = v["threat"]
            share = -(-threat // max(1, len(v["houses"])))
            return min(power, share + 1, power // 2 + 1) if threat >= 6 else min(power, share)
        frac = {"iron_throne": 0.35, "fiefdoms": 0.3, "kings_court": 0.3}.get(p, 0.25)
        return min(power, int(power * frac + 0.5))

    def _basic_choose(self) -> str:
        opts = self.o["options"]
        prefs = ["mustering", "game_of_thrones", "no_defense", "iron_throne", "kings_court", "use", "none"]
        p = self.o.get("purpose")
        if p == "asha-greyjoy":  # 1st edition: remove an enemy's Support or Consolidate Power order
            enemy = [a for a in opts if a in self.o.get("orders", {}) and self.o["orders"][a][0] != self.me]
            return enemy[0] if enemy else "none"
        if p == "preemptive_raid":
            tracks = [x for x in opts if x.startswith("track:")]
            return tracks[-1] if tracks else opts[0]
        if p == "retreat":
            return sorted(opts, key=lambda a: -self.area_value(a))[0]
        if p == "port_capture":  # 控制敌方港口: as many ships as allowed
            return opts[-1]
        if p == "blade" and "redraw" in opts:  # Tides of Battle: redraw only a blank card
            return "redraw" if self.o.get("tides") == "zero" else "pass"
        for x in prefs:
            if x in opts:
                return x
        return opts[0]

    def _basic_select_card(self):
        o = self.o
        cards = board(self.state).house_cards
        if o.get("purpose") == "massing_discard":
            return min(o["cards"], key=lambda c: (cards[c]["strength"], c))
        return max(o["cards"], key=lambda c: (cards[c]["strength"], c))

    def _basic_card(self):
        """Attacking: the strongest card, swords first; defending: keep swords, play fortifications/low."""
        cards = board(self.state).house_cards
        hand = list(self.o["cards"])
        c = lambda x: cards[x]  # noqa: E731
        if self.o.get("attacker") == self.me:
            return max(hand, key=lambda x: (c(x)["strength"], c(x).get("swords", 0), x))
        need = 0
        return max(hand, key=lambda x: (c(x)["strength"] - 2 * c(x).get("swords", 0) + c(x).get("fortifications", 0) + need, x))
