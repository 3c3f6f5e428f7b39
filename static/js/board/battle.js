// The last battle, whole, after it is over: who attacked whom from where, the units, the support,
// both house cards, Tides of Battle cards and the Blade, every part of each side's strength, the
// final strengths, the winner (and on a tie, that the Fiefdoms track decided it), the casualties,
// the units destroyed and the retreat. Told from the public events of the view (view.events), so
// a spectator sees the same; gone when the next orders are revealed or another battle begins.
// `lastBattle(view, data, onDismiss)` -> an element or null; `lastBattleId(view)` -> the battle's
// number (its result's place in the game's events) or null.

import { h, houseChip } from "./dom.js";
import { fmt, gettext } from "./i18n.js";
import { icon } from "../icons.js";
import { areaName, cardName, houseName, tidesName, tidesTitle, tokenName, unitName } from "./names.js";

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
    return list.join(", ") || "—";
  };
  const supportOf = (x) => {
    const side = x === a ? "attacker" : "defender";
    const list = supports.filter((s) => s.side === side);
    return list.length ? list.map((s) => houseName(s.house, data) + " (" + areaName(s.area, data) + ")").join(", ") : "—";
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
        units: (e.units || []).map((u) => unitName(u[1], data)).join(", "), why: (SOURCES[e.source] || (() => e.source))() });
    } else if (e.kind === "unit_destroyed") {
      text = fmt(gettext("%(house)s's %(unit)s could not retreat and was destroyed."), { house: houseName(e.house, data), unit: unitName(e.unit, data) });
    } else if (e.kind === "retreat_impossible") {
      text = fmt(gettext("%(house)s could not retreat: %(units)s destroyed."), { house: houseName(e.house, data), units: (e.units || []).map((u) => unitName(u, data)).join(", ") });
    } else if (e.kind === "garrison_destroyed") {
      text = fmt(gettext("The garrison of %(house)s in %(area)s was destroyed."), { house: houseName(e.house, data), area: areaName(e.area, data) });
    } else if (e.kind === "retreat") {
      text = fmt(gettext("%(house)s retreated to %(area)s with %(units)s."), { house: houseName(e.house, data), area: areaName(e.dest, data),
        units: (e.units || []).map((u) => unitName(u, data)).join(", ") });
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
