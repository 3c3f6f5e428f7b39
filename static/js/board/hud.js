// The panels around the map, all from the view: who is awaited, the tracks (Iron Throne,
// Fiefdoms, King's Court with its stars, supply, victory, wildling threat, round), each house's
// power, supply, castles and house cards (hand and discards are public), the Westeros cards
// drawn, revealed bids and the result. Also the details of one area (holder, icons, units).

import { h, houseChip } from "./dom.js";
import { fmt, fmtNodes, gettext, listOf } from "../i18n.js";
import { icon, iconRun } from "../icons.js";
import { areaName, cardName, decisionName, houseName, phaseName, tidesName, tidesTitle, tokenName, trackName, unitName } from "./names.js";
import { cardButton, publicHand } from "./decisions.js";

export function statusLine(view, data, me, connection) {
  const parts = [
    h("span", { class: "round" }, fmt(gettext("Round %(n)s of 10"), { n: view.round })),
    h("span", { class: "phase" }, phaseName(view.phase)),
    h("span", { class: "me-seat" }, me ? houseChip(me, data) : gettext("Spectating")),
  ];
  if (connection && connection !== "open") parts.push(h("span", { class: "conn conn-" + connection }, connection === "closed" ? gettext("Disconnected") : gettext("Connecting…")));
  return h("div", { class: "status-line" }, parts);
}

// Who is awaited, and (`ready`, a face-down decision in progress) who has chosen and waits for
// the others; never what they chose.
export function waitingFor(pending, data, me, ready = []) {
  const others = (pending || []).filter((p) => p.actor !== me && p.actor !== "scenario");
  if (!others.length && !ready.length) return null;
  return h("div", { class: "waiting", role: "status" },
    others.length ? [h("span", {}, gettext("Waiting for:") + " "),
      ...others.map((p) => h("span", { class: "awaited", dataset: { house: p.actor } }, houseChip(p.actor, data), " (" + decisionName(p.kind) + ")"))] : null,
    ready.length ? h("span", { class: "ready-list" }, gettext("Ready:") + " ",
      ready.map((x) => h("span", { class: "ready", dataset: { house: x } }, houseChip(x, data), " ", icon("check", gettext("ready"))))) : null);
}

export function resultBox(view, data) {
  const r = view.result;
  if (!r) return null;
  // the 1st edition may end in a shared win ("再相同则平手"): no single winner, `winners`
  const head = !r.winner && (r.winners || []).length
    ? fmt(gettext("Shared win: %(houses)s"), { houses: listOf(r.winners.map((x) => houseName(x, data))) })
    : fmt(gettext("%(house)s wins the game!"), { house: houseName(r.winner, data) });
  return h("div", { class: "result", role: "status", dataset: { winners: (r.winners || [r.winner]).join(" ") } }, h("strong", {}, head),
    r.ranking ? h("ol", {}, r.ranking.map((x) => h("li", {}, houseName(x, data) + (r.castles ? " · " + fmt(gettext("%(n)s castles"), { n: r.castles[x] }) : "")))) : null);
}

export function tracks(view, data) {
  const box = h("section", { class: "tracks", "aria-label": gettext("Tracks") }, h("h3", {}, gettext("Influence tracks")));
  const stars = (data.kings_court_stars || {})[String(view.players)] || [];
  const dom = { iron_throne: "iron-throne", fiefdoms: "valyrian-steel-blade", kings_court: "messenger-raven" };
  const domName = { iron_throne: gettext("Iron Throne token"), fiefdoms: gettext("Valyrian Steel Blade"), kings_court: gettext("Messenger Raven") };
  for (const tr of ["iron_throne", "fiefdoms", "kings_court"]) {
    const order = (view.tracks || {})[tr] || [];
    const used = tr === "fiefdoms" ? view.blade_used : tr === "kings_court" ? view.raven_used : false;
    const ol = h("ol", { class: "track", dataset: { track: tr } }, order.map((house, i) => h("li", {},
      h("span", { class: "pos" }, (i + 1) + "."), houseChip(house, data), i === 0 ? h("span", { class: "dominance" }, " ", icon("diamond", domName[tr]), used ? " " + gettext("(used)") : "") : null,
      tr === "kings_court" && stars[i] ? h("span", { class: "kc-stars" }, " ", iconRun("star", stars[i], fmt(gettext("%(n)s special orders"), { n: stars[i] }))) : null)));
    box.appendChild(h("div", { class: "track-row" }, h("h4", {}, trackName(tr, data), view.dominance && view.dominance[dom[tr]] ? "" : ""), ol));
  }
  const threat = view.threat || 0;
  box.appendChild(h("div", { class: "threat" }, h("h4", {}, gettext("Wildling threat")),
    h("meter", { min: 0, max: 12, value: threat, "aria-label": gettext("Wildling threat") }), " " + threat + " / 12"));
  // the 1st edition has no wildling deck
  box.appendChild(h("p", { class: "decks" }, view.decks.wildling === undefined
    ? fmt(gettext("Westeros decks: I %(a)s · II %(b)s · III %(c)s"), { a: view.decks.I, b: view.decks.II, c: view.decks.III })
    : fmt(gettext("Westeros decks: I %(a)s · II %(b)s · III %(c)s · wildling %(w)s"),
      { a: view.decks.I, b: view.decks.II, c: view.decks.III, w: view.decks.wildling })));
  if (view.wildling_top) {
    // the open view of a finished game shows it to everyone; live, only the Raven's holder who looked
    const label = view.open ? gettext("Top wildling card:") : gettext("Top wildling card (only you know):");
    box.appendChild(h("p", { class: "wildling-top" }, label + " " + cardName(view.wildling_top, data)));
  }
  return box;
}

// A house's hand (public in this game); while a battle's cards are chosen the view leaves the two
// fighting houses' hands out and they are worked out from the discards.
function handOf(view, data, house) {
  const v = (view.hands || {})[house];
  if (v) return v;
  const c = view.combat;
  return c && (house === c.attacker || house === c.defender) ? publicHand(house, view, data) : [];
}

export function housesTable(view, data, me) {
  const table = h("table", { class: "houses" },
    h("thead", {}, h("tr", {}, [gettext("House"), gettext("Power"), gettext("Supply"), gettext("Castles"), gettext("Cards")].map((x) => h("th", { scope: "col" }, x)))));
  const body = h("tbody");
  const order = (view.tracks || {}).iron_throne || view.houses;
  for (const house of order) {
    const hand = handOf(view, data, house);
    const limits = (data.supply_limits || {})[String(view.supply[house])] || [];
    body.appendChild(h("tr", { dataset: { house }, class: house === me ? "me" : "" },
      h("th", { scope: "row" }, houseChip(house, data)),
      h("td", { title: fmt(gettext("%(n)s in the pool"), { n: (view.power_pool || {})[house] }) }, String(view.power[house])),
      h("td", { title: fmt(gettext("armies up to %(sizes)s"), { sizes: listOf(limits) }) }, String(view.supply[house])),
      h("td", {}, String((view.victory || {})[house]) + "/" + (view.castles_to_win || 7)),
      h("td", {}, String(hand.length))));
  }
  table.appendChild(body);
  const box = h("section", { class: "houses-box", "aria-label": gettext("Houses") }, h("h3", {}, gettext("Houses")), h("div", { class: "table-scroll" }, table));
  if (view.revealed_bids && Object.keys(view.revealed_bids).length) {
    box.appendChild(h("p", { class: "bids" }, gettext("Bids:") + " " + Object.entries(view.revealed_bids).map(([k, v]) => houseName(k, data) + " " + v).join(" · ")));
  } else if (view.open_bids && Object.keys(view.open_bids).length) {
    box.appendChild(h("p", { class: "bids" }, gettext("Bids (face down):") + " " + Object.entries(view.open_bids).map(([k, v]) => houseName(k, data) + " " + v).join(" · ")));
  } else if (view.bids_placed) {
    box.appendChild(h("p", { class: "bids" }, gettext("Have bid:") + " " + (listOf(view.bids_placed.map((x) => houseName(x, data))) || "—") + (view.my_bid !== undefined ? " · " + fmt(gettext("your bid: %(n)s"), { n: view.my_bid }) : "")));
  }
  if (view.orders_placed) {
    box.appendChild(h("p", { class: "placed" }, gettext("Orders placed by:") + " " + (listOf(view.orders_placed.map((x) => houseName(x, data))) || "—")));
  }
  return box;
}

export function cards(view, data, me) {
  const box = h("section", { class: "cards-box", "aria-label": gettext("House cards") }, h("h3", {}, gettext("House cards")));
  for (const house of view.houses) {
    const hand = handOf(view, data, house);
    const disc = (view.discards || {})[house] || [];
    const det = h("details", { open: house === me ? true : null, dataset: { house } }, h("summary", {}, houseChip(house, data), " " + fmt(gettext("%(n)s in hand, %(m)s discarded"), { n: hand.length, m: disc.length })));
    det.appendChild(h("div", { class: "cards" }, hand.map((c) => cardButton(c, { data }, null))));
    if (disc.length) det.appendChild(h("div", { class: "cards discarded" }, h("span", { class: "muted" }, gettext("Discarded:")), disc.map((c) => cardButton(c, { data }, null))));
    box.appendChild(det);
  }
  for (const b of box.querySelectorAll("button.house-card")) b.setAttribute("tabindex", "-1");
  return box;
}

export function westerosCards(view, data) {
  const list = view.westeros_cards || [];
  if (!list.length) return null;
  return h("section", { class: "westeros-box", "aria-label": gettext("Westeros cards") }, h("h3", {}, gettext("Westeros cards this round")),
    h("ol", {}, list.map((c) => h("li", { title: (data.westeros_cards[c] || {}).effect || "" }, cardName(c, data)))));
}

// Who holds an area, as the engine counts it (control.py): a port goes with its land; a land with
// units is their house's, else the house of its power token, else the house whose home it is (the
// printed emblem counts as a power token) if that house is in play; a sea is held only by ships.
export function holderOf(area, view, data) {
  const a = data.areas[area] || {};
  if (a.kind === "port") return a.port_of ? holderOf(a.port_of, view, data) : null;
  const u = (view.units || {})[area];
  if (u) return u.house;
  if (a.kind === "sea") return null;
  const p = (view.power_tokens || {})[area];
  if (p) return p;
  return a.home_of && (view.houses || []).includes(a.home_of) ? a.home_of : null;
}

export function areaDetails(area, view, data) {
  const a = data.areas[area];
  if (!a) return h("p", {}, area);
  const lines = [h("strong", {}, a.name)];
  const kind = { land: gettext("land"), sea: gettext("sea"), port: gettext("port") }[a.kind] || a.kind;
  const icons = [kind];
  if (a.castle) icons.push(a.castle === "stronghold" ? gettext("stronghold") : gettext("castle"));
  if (a.supply) icons.push(fmt(gettext("%(n)s supply"), { n: a.supply }));
  if (a.power) icons.push(fmt(gettext("%(n)s power"), { n: a.power }));
  if (a.home_of) icons.push(fmt(gettext("home of %(house)s"), { house: houseName(a.home_of, data) }));
  lines.push(h("div", { class: "muted" }, icons.join(" · ")));
  const u = (view.units || {})[area];
  const holder = holderOf(area, view, data);
  const byHome = holder && !u && !(view.power_tokens || {})[area] && a.kind !== "port";
  lines.push(h("div", {}, gettext("Held by:") + " ", holder ? houseChip(holder, data) : gettext("nobody"),
    byHome ? " " + gettext("(its home area: the printed emblem holds it)") : ""));
  if (u) lines.push(h("div", {}, gettext("Units:") + " " + listOf(u.units.map((x) => unitName(x.type, data) + (x.routed ? " (" + gettext("routed") + ")" : "")))));
  const o = (view.orders || {})[area];
  if (o) lines.push(h("div", {}, gettext("Order:") + " " + tokenName(o.token, data)));
  const g = (view.garrisons || {})[area];
  if (g) lines.push(h("div", {}, fmt(gettext("Garrison of strength %(n)s"), { n: g.strength })));
  if ((view.neutral || {})[area]) lines.push(h("div", {}, fmt(gettext("Neutral force of strength %(n)s"), { n: view.neutral[area] })));
  if ((view.blocked || []).includes(area)) lines.push(h("div", {}, gettext("Out of play in this game")));
  return h("div", { class: "area-details", dataset: { area } }, lines);
}

// The combat in progress (view.combat, public: the view is already redacted for the viewer):
// both sides, their units, declared support, strengths, revealed house cards and Tides of Battle
// cards, the Blade and the winner. Without a combat: the last battle, whole (lastBattle, below).
export function combatBox(view, data, me, onDismiss) {
  const c = view.combat;
  if (!c) return lastBattle(view, data, onDismiss);
  const sides = [c.attacker, c.defender];
  const box = h("section", { class: "combat-box", "aria-label": gettext("Battle"), dataset: { step: c.step || "" } },
    h("h3", {}, icon("swords"), " " + fmt(gettext("Battle for %(area)s"), { area: areaName(c.area, data) })),
    h("p", { class: "muted" }, fmt(gettext("March from %(origin)s · %(step)s"), { origin: areaName(c.origin, data), step: stepName(c.step) })));
  const row = (label, cell, key) => h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, label), sides.map((x) => h("td", { dataset: { house: x } }, cell(x))));
  const unitsOf = (x) => {
    const list = x === c.attacker ? c.attacking_units : c.defending_units;
    const parts = (list || []).map((u) => unitName(u, data));
    if (x === c.defender && c.garrison) parts.push(fmt(gettext("garrison %(n)s"), { n: c.garrison }));
    return listOf(parts) || "—";
  };
  const supportOf = (x) => {
    const side = x === c.attacker ? "attacker" : "defender";
    const list = (c.supports || []).filter((s) => s.side === side);
    return list.length ? listOf(list.map((s) => houseName(s.house, data) + " (" + areaName(s.area, data) + ")")) : "—";
  };
  // a revealed card's swords and fortifications (those that count: card, ability, Tides card)
  const iconsOf = (x) => {
    const i = (c.icons || {})[x];
    if (!i) return null;
    return h("span", { class: "hc-icons", dataset: { swords: String(i.swords), fortifications: String(i.fortifications) },
      title: fmt(gettext("%(s)s sword(s), %(f)s fortification(s)"), { s: i.swords, f: i.fortifications }) },
    " ", icon("sword"), String(i.swords), " ", icon("tower"), String(i.fortifications));
  };
  const cardOf = (x) => {
    if (c.cards) return c.cards[x] ? h("span", {}, cardName(c.cards[x], data) + " (" + ((data.house_cards[c.cards[x]] || {}).strength ?? "?") + ")", iconsOf(x)) : gettext("no card");
    if (c.open_cards && c.open_cards[x]) return fmt(gettext("%(card)s (face down)"), { card: cardName(c.open_cards[x], data) });
    if (x === me && c.my_card) return fmt(gettext("%(card)s (face down)"), { card: cardName(c.my_card, data) });
    if ((c.chosen || []).includes(x)) return gettext("chosen (face down)");
    return c.step === "cards" ? gettext("choosing…") : "—";
  };
  const tidesOf = (x) => {
    if (c.tides) return h("span", { title: tidesTitle(c.tides[x], data) }, tidesName(c.tides[x], data));
    if (x === me && c.my_tides) return h("span", { title: tidesTitle(c.my_tides, data) }, fmtNodes(gettext("%(card)s (only you see it)"), { card: tidesName(c.my_tides, data) }));
    return (c.tides_drawn || []).includes(x) ? gettext("drawn (face down)") : "—";
  };
  const table = h("table", { class: "combat-table" },
    h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, gettext("Attacker"), h("br"), houseChip(c.attacker, data)),
      h("th", { scope: "col" }, gettext("Defender"), h("br"), houseChip(c.defender, data)))),
    h("tbody", {},
      row(gettext("Units"), unitsOf, "units"),
      row(gettext("Support"), supportOf, "support"),
      c.base && Object.keys(c.base).length ? row(gettext("Strength before cards"), (x) => String(c.base[x]), "base") : null,
      row(gettext("House card"), cardOf, "card"),
      c.tides || c.tides_drawn || c.my_tides ? row(gettext("Tides of Battle"), tidesOf, "tides") : null,
      c.blade ? row(gettext("Valyrian Steel Blade"), (x) => (c.blade === x ? "+1" : "—"), "blade") : null,
      c.parts ? row(gettext("Strength, part by part"), (x) => strengthParts(c, x, data), "parts") : null,
      c.strength ? row(gettext("Final strength"), (x) => h("strong", {}, String(c.strength[x])), "strength") : null));
  box.appendChild(h("div", { class: "table-scroll" }, table));
  const declined = (c.supports || []).filter((s) => s.side === "none");
  if (declined.length) box.appendChild(h("p", { class: "muted" }, gettext("No support from:") + " " + listOf(declined.map((s) => houseName(s.house, data) + " (" + areaName(s.area, data) + ")"))));
  if (c.winner) box.appendChild(h("p", { class: "combat-winner", dataset: { winner: c.winner } }, fmt(gettext("%(house)s wins the battle."), { house: houseName(c.winner, data) })));
  if (c.winner && c.casualties !== undefined && c.icons) {
    // casualties: the winner's swords minus the loser's fortifications
    box.appendChild(h("p", { class: "combat-casualties", dataset: { casualties: String(c.casualties) } },
      fmt(gettext("Casualties: %(n)s (swords of %(winner)s %(s)s − fortifications of %(loser)s %(f)s)."), {
        n: c.casualties, winner: houseName(c.winner, data), loser: houseName(c.loser, data),
        s: c.icons[c.winner].swords, f: c.icons[c.loser].fortifications })));
  }
  return box;
}

function stepName(step) {
  return {
    support: gettext("calling for support"),
    cards: gettext("choosing house cards"),
    reveal: gettext("house cards revealed"),
    result: gettext("result"),
    after: gettext("after the battle"),
  }[step] || step || "";
}

// A short line over the map while a battle lasts (phones see it without scrolling).
// `onShow()`, if given, adds a button that zooms the map onto the battle.
export function combatBanner(view, data, onShow) {
  const c = view.combat;
  if (!c) return null;
  const s = c.strength || c.base || {};
  const part = (x) => houseName(x, data) + (s[x] !== undefined ? " " + s[x] : "");
  // the icon and the words in one piece: the icon never wraps alone onto its own line
  return h("div", { class: "combat-banner", role: "status" }, h("span", { class: "cb-text" }, icon("swords"), " " + fmt(gettext("%(a)s vs %(b)s in %(area)s"), { a: part(c.attacker), b: part(c.defender), area: areaName(c.area, data) }),
    c.winner ? " · " + fmt(gettext("%(house)s wins"), { house: houseName(c.winner, data) }) : ""),
    onShow ? h("button", { type: "button", class: "btn btn-small show-battle", onclick: onShow }, gettext("Show the battle")) : null);
}

// The last battle, whole, after it is over: who attacked whom from where, the units, the support,
// both house cards, Tides of Battle cards and the Blade, every part of each side's strength, the
// final strengths, the winner (and on a tie, that the Fiefdoms track decided it), the casualties,
// the units destroyed and the retreat. Told from the public events of the view (view.events), so
// a spectator sees the same; gone when the next orders are revealed or another battle begins.
// `lastBattle(view, data, onDismiss)` -> an element or null; `lastBattleId(view)` -> the battle's
// number (its result's place in the game's events) or null.

// the events of the last battle: [started, ...during, result, ...after], or null
function battleEvents(view) {
  const events = view.events || [];
  let i = events.length - 1;
  while (i >= 0 && events[i].kind !== "combat_result") i--;
  if (i < 0) return null;
  if (events.slice(i + 1).some((e) => e.kind === "orders_revealed" || e.kind === "orders_placed" || e.kind === "combat_started")) return null;
  let j = i;
  while (j >= 0 && events[j].kind !== "combat_started") j--;
  if (j < 0 || events[j].area !== events[i].area) return null;
  let k = i + 1;
  while (k < events.length && events[k].kind !== "combat_end") k++;
  return { id: (view.events_from || 0) + i, started: events[j], during: events.slice(j + 1, i), result: events[i], after: events.slice(i + 1, k + 1) };
}

export function lastBattleId(view) {
  const b = battleEvents(view);
  return b ? b.id : null;
}

// One side's strength as its parts (view.combat.parts[house], combat.strength_parts in the
// engine: they sum to the side's strength now), each unit with why it counts 0, then the total.
const WHY_ZERO = {
  routed: () => gettext("routed"),
  siege_no_castle: () => gettext("siege engines count only against a castle or stronghold"),
  siege_defending: () => gettext("siege engines count only when attacking"),
  rains_of_autumn: () => gettext("Rains of Autumn: footmen give no support this round"),
};
export function strengthParts(c, x, data) {
  const parts = (c.parts || {})[x] || [];
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  const items = parts.map((p) => {
    let label;
    if (p.part === "unit") label = unitName(p.unit, data);
    else if (p.part === "order") label = fmt(gettext("%(order)s order"), { order: tokenName(p.token, data) });
    else if (p.part === "support") label = fmt(gettext("support of %(house)s (%(area)s)"), { house: houseName(p.house, data), area: areaName(p.area, data) });
    else if (p.part === "garrison") label = gettext("garrison");
    else if (p.part === "card") label = fmt(gettext("house card %(card)s"), { card: cardName(p.card, data) });
    else if (p.part === "ability") label = fmt(gettext("ability of %(card)s"), { card: cardName(p.card, data) });
    else if (p.part === "blade") label = gettext("Valyrian Steel Blade");
    else if (p.part === "tides") label = gettext("Tides of Battle");
    else label = "?";
    const why = p.why_zero && WHY_ZERO[p.why_zero] ? WHY_ZERO[p.why_zero]() : null;
    return h("li", { dataset: { part: p.part, strength: String(p.strength) }, class: why ? "zero" : "" },
      h("span", { class: "part-label" }, label), " ", h("span", { class: "part-n" }, signed(p.strength)),
      why ? h("span", { class: "part-why" }, " (" + why + ")") : null);
  });
  const total = parts.reduce((n, p) => n + p.strength, 0);
  items.push(h("li", { class: "part-total", dataset: { total: String(total) } }, h("span", { class: "part-label" }, gettext("Total")), " ", h("strong", {}, String(total))));
  return h("ul", { class: "strength-parts" }, items);
}

const SOURCES = {
  swords: () => gettext("the winner's swords"),
  skull: () => gettext("a Tides of Battle skull"),
  ability: () => gettext("a house card ability"),
  supply: () => gettext("over the supply limit after retreating"),
};

export function lastBattle(view, data, onDismiss) {
  const b = battleEvents(view);
  if (!b) return null;
  const { started: st, result: r } = b;
  const a = r.attacker;
  const d = r.defender;
  const sides = [a, d];
  const cards = {};
  let tides = null;
  let blade = null;
  const supports = [];
  for (const e of b.during) {
    if (e.kind === "house_cards_revealed") Object.assign(cards, e.cards || {});
    if (e.kind === "house_card_replaced") cards[e.house] = e.card;
    if (e.kind === "tides_revealed") tides = e.cards || {};
    if (e.kind === "blade_used") blade = e.house;
    if (e.kind === "combat_support") supports.push(e);
  }
  const parts = r.parts || {};
  const unitsOf = (x) => {
    const list = (parts[x] || []).filter((p) => p.part === "unit" || p.part === "garrison")
      .map((p) => (p.part === "garrison" ? gettext("garrison") : unitName(p.unit, data)));
    return listOf(list) || "—";
  };
  const supportOf = (x) => {
    const side = x === a ? "attacker" : "defender";
    const list = supports.filter((s) => s.side === side);
    return list.length ? listOf(list.map((s) => houseName(s.house, data) + " (" + areaName(s.area, data) + ")")) : "—";
  };
  const cardOf = (x) => (cards[x] ? cardName(cards[x], data) + " (" + ((data.house_cards[cards[x]] || {}).strength ?? "?") + ")" : gettext("no card"));
  const row = (label, cell, key) => h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, label), sides.map((x) => h("td", { dataset: { house: x } }, cell(x))));
  const s = r.strength || {};
  const table = h("table", { class: "combat-table" },
    h("thead", {}, h("tr", {}, h("td", {}), h("th", { scope: "col" }, gettext("Attacker"), h("br"), houseChip(a, data)),
      h("th", { scope: "col" }, gettext("Defender"), h("br"), houseChip(d, data)))),
    h("tbody", {},
      row(gettext("Units"), unitsOf, "units"),
      row(gettext("Support"), supportOf, "support"),
      row(gettext("House card"), cardOf, "card"),
      tides ? row(gettext("Tides of Battle"), (x) => h("span", { title: tidesTitle(tides[x], data) }, tidesName(tides[x], data)), "tides") : null,
      blade ? row(gettext("Valyrian Steel Blade"), (x) => (blade === x ? "+1" : "—"), "blade") : null,
      row(gettext("Strength, part by part"), (x) => strengthParts({ parts }, x, data), "parts"),
      row(gettext("Final strength"), (x) => h("strong", {}, String(s[x])), "strength")));
  const lines = [];
  lines.push(h("p", { class: "combat-winner", dataset: { winner: r.winner } }, fmt(gettext("%(winner)s (%(a)s) beat %(loser)s (%(b)s) in %(area)s."), {
    winner: houseName(r.winner, data), loser: houseName(r.loser, data), a: s[r.winner], b: s[r.loser], area: areaName(r.area, data) })));
  // a tie goes to the house higher on the Fiefdoms track (both editions)
  if (r.tie) lines.push(h("p", { class: "combat-tie" }, fmt(gettext("A tie at %(n)s: %(house)s wins, being higher on the Fiefdoms track."), { n: s[r.winner], house: houseName(r.winner, data) })));
  for (const e of b.after) {
    let text = null;
    if (e.kind === "casualties") {
      text = fmt(gettext("%(house)s lost %(units)s (%(why)s)."), { house: houseName(e.house, data),
        units: listOf((e.units || []).map((u) => unitName(u[1], data))), why: (SOURCES[e.source] || (() => e.source))() });
    } else if (e.kind === "unit_destroyed") {
      text = fmt(gettext("%(house)s's %(unit)s could not retreat and was destroyed."), { house: houseName(e.house, data), unit: unitName(e.unit, data) });
    } else if (e.kind === "retreat_impossible") {
      text = fmt(gettext("%(house)s could not retreat: %(units)s destroyed."), { house: houseName(e.house, data), units: listOf((e.units || []).map((u) => unitName(u, data))) });
    } else if (e.kind === "garrison_destroyed") {
      text = fmt(gettext("The garrison of %(house)s in %(area)s was destroyed."), { house: houseName(e.house, data), area: areaName(e.area, data) });
    } else if (e.kind === "retreat") {
      text = fmt(gettext("%(house)s retreated to %(area)s with %(units)s."), { house: houseName(e.house, data), area: areaName(e.dest, data),
        units: listOf((e.units || []).map((u) => unitName(u, data))) });
    }
    if (text) lines.push(h("p", { class: "combat-after", dataset: { kind: e.kind } }, text));
  }
  if (!b.after.some((e) => e.kind === "casualties")) lines.push(h("p", { class: "combat-after", dataset: { kind: "no-casualties" } }, gettext("No casualties.")));
  return h("section", { class: "combat-box last", "aria-label": gettext("Last battle"), dataset: { battle: String(b.id), area: r.area } },
    h("div", { class: "last-head" },
      h("h3", {}, icon("swords"), " " + fmt(gettext("Last battle: %(area)s"), { area: areaName(r.area, data) })),
      onDismiss ? h("button", { type: "button", class: "btn btn-small dismiss-battle", onclick: onDismiss }, gettext("Dismiss")) : null),
    h("p", { class: "muted" }, fmt(gettext("%(attacker)s attacked %(defender)s from %(origin)s."), {
      attacker: houseName(a, data), defender: houseName(d, data), origin: areaName(st.origin, data) })),
    h("div", { class: "table-scroll" }, table), lines);
}
