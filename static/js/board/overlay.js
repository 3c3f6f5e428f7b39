// The overlay drawn over the board from the view. Pieces are own SVG silhouettes in the house's
// colour with a light halo and a dark outline (readable on land and sea): a helmeted soldier
// (footman), a horse head (knight), a hull with a sail (ship), a trebuchet (siege engine). Each
// area's units sit in one row behind a shield with the house's letter (colour is never the only
// cue); more than three units are grouped by type with a count ("3×"); routed units lie down
// (turned 90°) and their tooltip says so. The order token sits beside the row, never on top of it.
// Power tokens are crowned coins, garrisons towers with their strength, neutral forces grey
// hexagons with theirs; every piece has a <title> tooltip. Also: blocked areas, the combat in
// progress, the player's draft orders and marches, highlights, and invisible hit areas that give
// ports and other small areas a target of at least HIT_PX CSS pixels at any zoom.

import { svgEl } from "./svgboard.js";
import { areaName, houseName, orderShort, tokenName, unitName } from "./names.js";
import { placeArea } from "./placement.js";
import { fmt, gettext, labelled } from "../i18n.js";

// Piece size on the board (1 = the drawing's own units; the board is 768 x 1104).
const S = 1.2;
// one unit's cell in a row, in drawing units (icons are drawn in a box of about 22 x 22 at S = 1)
const STEP = 21 * S;
// the smallest click target for an area, in CSS pixels (WCAG 2.5.8 asks for 24; phones want more)
export const HIT_PX = 36;
// above this many units in an area, units of one type are drawn once with a count
const CROWDED = 3;

// Silhouettes, each in a box of about -10..10 (y down). One path each, filled with the house colour.
export const UNIT_PATHS = {
  // a soldier: round helmet with a nasal and a brim, shoulders, a spear at his side
  footman: "M-3.6 -3.2V-6.3A4.3 4.3 0 0 1 4.6 -6.3V-3.2H3.4V-1.6H-0.8V-3.2Z"
    + "M-7.6 9.6V4.2Q-7.2 0.2 -2.8 -0.4H3.6Q7.6 0.2 7.9 4.2V9.6Z"
    + "M8.6 9.6V-8.4L7.6 -8.4L9.3 -11.2L11 -8.4L10 -8.4V9.6Z",
  // a horse's head facing left: ears, forelock, muzzle, the neck down to the chest
  knight: "M-1.2 -10.2L0.4 -7.6L2.2 -10.4L3.6 -6.8Q8.8 -3.6 8.6 3.4L9 9.6H-4.2L-1.4 3.2Q-3 2.2 -5 2.6L-8.6 1.8Q-10.2 0.6 -9.4 -1.4L-5.4 -6.6Q-3.2 -8.6 -1.2 -10.2Z",
  // a cog: curved hull with a raised stern, a mast and a square sail, a pennant
  ship: "M-10.4 2.4H10.4L8.6 6.4Q5 9.2 0 9.2Q-5.6 9.2 -8.8 6.4Z"
    + "M-0.7 2V-10.6H0.7V2Z"
    + "M-7.2 -7.6Q0 -9.6 7.2 -7.6Q8.2 -2.6 7.2 0.8Q0 -0.6 -7.2 0.8Q-8.2 -2.6 -7.2 -7.6Z"
    + "M0.7 -10.6L5.6 -9.4L0.7 -8.2Z",
  // a trebuchet: an A-frame on a base with wheels, the throwing arm and its counterweight
  siege_engine: "M-10 6.6H10V8.4H-10Z"
    + "M-7.2 6.6L-0.9 -3.6H0.9L7.2 6.6H4.9L0 -1.2L-4.9 6.6Z"
    + "M-10.6 -9.4L-9.4 -10.6L6.2 0.4L5 1.6Z"
    + "M3.6 0.6H9.4V5.4H3.6Z"
    + "M-7.6 8.4A1.8 1.8 0 1 0 -4 8.4ZM4 8.4A1.8 1.8 0 1 0 7.6 8.4Z",
};
// the shield behind a house letter (a unit row's badge)
const SHIELD = "M-6.5 -7.5H6.5V0.5Q6.5 6 0 8.8Q-6.5 6 -6.5 0.5Z";
// a tower with three merlons (garrison)
const TOWER = "M-8 9V-4H-8V-9H-4.6V-6H-1.7V-9H1.7V-6H4.6V-9H8V-4V9Z";
// a hexagon (neutral force)
const HEX = "M-10 0L-5 -8.7H5L10 0L5 8.7H-5Z";
// a small crown (power token)
const CROWN = "M-5 2.6L-5.8 -3.4L-2.6 -0.6L0 -4.6L2.6 -0.6L5.8 -3.4L5 2.6Z";

function houseInfo(house, data) {
  return data.houses[house] || { color: "#999", letter: "?", name: house };
}

// light houses (Stark's grey, Baratheon's gold) take dark text and a dark outline; dark ones light
function isLight(color) {
  const c = (color || "#999").replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(c.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45;
}

function title(g, text) {
  svgEl("title", {}, g).textContent = text;
}

// a piece's tooltip names its area, so a piece drawn near a border is never read as the neighbour's
function where(text, area, data) {
  return area && data.areas ? fmt(gettext("%(piece)s, in %(area)s"), { piece: text, area: areaName(area, data) }) : text;
}

// A silhouette with its halo: the halo (wide light stroke) under the filled and outlined shape.
function piece(g, d, color) {
  const light = isLight(color);
  svgEl("path", { d, class: "pc-halo", fill: "none", stroke: light ? "#1b1309" : "#fffaf0", "stroke-width": 3.2, "stroke-linejoin": "round" }, g);
  svgEl("path", { d, class: "pc-body", fill: color, stroke: light ? "#2a1d0c" : "#1b1309", "stroke-width": 1, "stroke-linejoin": "round" }, g);
}

function text(g, s, attrs) {
  const t = svgEl("text", { "text-anchor": "middle", "font-weight": 700, "font-family": "system-ui, sans-serif", stroke: "none", ...attrs }, g);
  t.textContent = s;
  return t;
}

// One unit (or a group of `count` units of one type) at (x, y); routed units lie down.
export function drawUnit(parent, x, y, house, type, routed, data, count = 1, area = null) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-unit" + (routed ? " routed" : ""), "data-unit": type, "data-house": house, "data-count": count,
    transform: `translate(${x} ${y}) scale(${S})` }, parent);
  const name = unitName(type, data);
  let tip = labelled(houseName(house, data), (count > 1 ? count + "× " : "") + name);
  if (routed) tip += " (" + gettext("routed: lying down, cannot march or support this round") + ")";
  title(g, where(tip, area, data));
  const body = svgEl("g", { class: "pc", transform: routed ? "rotate(90)" : null }, g);
  piece(body, UNIT_PATHS[type] || UNIT_PATHS.footman, hi.color);
  if (count > 1) {
    const c = svgEl("g", { class: "ov-count", transform: "translate(7 7)" }, g);
    svgEl("rect", { x: -6.4, y: -4.6, width: 12.8, height: 9.2, rx: 2.5, fill: "#fffaf0", stroke: "#1b1309", "stroke-width": 0.8 }, c);
    text(c, count + "×", { y: 3, "font-size": 7.6, fill: "#1b1309" });
  }
  return g;
}

function badge(parent, x, y, house, data, area = null) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-badge", "data-house": house, transform: `translate(${x} ${y}) scale(${S})` }, parent);
  title(g, where(houseName(house, data), area, data));
  piece(g, SHIELD, hi.color);
  text(g, hi.letter, { y: 3, "font-size": 8.5, fill: isLight(hi.color) ? "#111" : "#fff" });
  return g;
}

// The slots of one area's row: one per unit, or per (type, routed) when the area is crowded
// (doomed units stay single, so each can be crossed out).
function rowSlots(info, marks, grouped = false) {
  const slots = info.units.map((u) => ({ type: u.type, routed: !!u.routed, count: 1 }));
  if ((info.units.length <= CROWDED && !grouped) || Object.keys(marks).length) return slots;
  const by = new Map();
  for (const u of info.units) {
    const k = u.type + (u.routed ? ":r" : "");
    if (!by.has(k)) by.set(k, { type: u.type, routed: !!u.routed, count: 0 });
    by.get(k).count += 1;
  }
  return [...by.values()];
}

const BADGE_W = 15 * S;
const ROW_H = 23 * S;
// a slot with a count badge is wider, so the badge clears the next unit
const slotW = (slot) => (slot.count > 1 ? STEP * 1.25 : STEP);
const rowWidth = (slots) => BADGE_W + slots.reduce((w, x) => w + slotW(x), 0);

// A row's slots in lines: one line, or two (stacked) when the area has no room for one
const lines = (slots, stacked) => (stacked && slots.length > 1
  ? [slots.slice(0, Math.ceil(slots.length / 2)), slots.slice(Math.ceil(slots.length / 2))] : [slots]);
const rowSize = (slots, stacked) => {
  const ls = lines(slots, stacked);
  return { w: Math.max(...ls.map(rowWidth)), h: ROW_H * (ls.length > 1 ? 1.9 : 1) };
};

// The unit row of one area centred on (cx, cy), drawn at `k` times its size: [badge][unit][unit]...,
// on two lines when `stacked` (the second under the first, the badge on the first)
function drawUnits(layer, area, info, cx, cy, k, slots, marks, data, stacked = false) {
  const row = svgEl("g", { class: "ov-units", "data-at": area, "data-house": info.house,
    transform: `translate(${cx} ${cy})` + (k !== 1 ? ` scale(${k})` : "") }, layer);
  const size = rowSize(slots, stacked);
  const x0 = -size.w / 2;
  const ls = lines(slots, stacked);
  const y0 = ls.length > 1 ? -ROW_H * 0.45 : 0;
  badge(row, x0 + BADGE_W / 2, y0, info.house, data, area);
  ls.forEach((line, i) => {
    let x = x0 + BADGE_W;
    line.forEach((s) => {
      const g = drawUnit(row, x + STEP / 2, y0 + i * ROW_H * 0.9, info.house, s.type, s.routed, data, s.count, area);
      x += slotW(s);
      if (marks[s.type] && !s.routed) {
        marks[s.type] -= 1;
        g.classList.add("doomed");
        svgEl("path", { d: "M-8 -8L8 8M8 -8L-8 8", class: "ov-doomed" }, g);
      }
    });
  });
}

export function drawOrder(layer, at, house, token, data, opts = {}) {
  const tok = token ? data.tokens[token] : null;
  const cls = "ov-order" + (tok ? " up" : " down") + (tok && tok.special ? " special" : "") + (opts.draft ? " draft" : "");
  const g = svgEl("g", { class: cls, transform: `translate(${at.x} ${at.y}) scale(${S * (opts.k || 1)})`, "data-house": house, "data-token": token || "" }, layer);
  if (opts.area) g.setAttribute("data-at", opts.area);
  const hi = houseInfo(house, data);
  if (!tok) {
    title(g, where(fmt(gettext("Order of %(house)s, face down"), { house: houseName(house, data) }), opts.area, data));
    svgEl("circle", { r: 10, fill: "#3b2a1a", stroke: hi.color, "stroke-width": 3 }, g);
    svgEl("circle", { r: 11.6, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
    text(g, "?", { y: 4, "font-size": 11, fill: "#f3e6c4" });
    return g;
  }
  title(g, where(fmt(gettext("Order of %(house)s: %(order)s"), { house: houseName(house, data), order: tokenName(token, data) })
    + (opts.draft ? " (" + gettext("not sent yet") + ")" : ""), opts.area, data));
  svgEl("circle", { r: 11, fill: tok.special ? "#f2cf5b" : "#f7efd9", stroke: hi.color, "stroke-width": 3.2,
    "stroke-dasharray": opts.draft ? "4 2" : null }, g);
  svgEl("circle", { r: 12.6, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
  text(g, orderShort(token, data), { y: 3, "font-size": 8.5, fill: "#1b1309" });
  if (tok.special) {
    svgEl("path", { d: "M0 -15.5l1.6 3.3 3.6.5-2.6 2.5.6 3.6L0 -7.9l-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z", fill: "#b8860b", stroke: "#4a3308", "stroke-width": 0.6 }, g);
  }
  return g;
}

function drawPower(layer, at, house, data, area, k = 1) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-power", transform: `translate(${at.x} ${at.y}) scale(${S * k})`, "data-house": house, "data-at": area }, layer);
  title(g, where(fmt(gettext("Power token of %(house)s (holds the area)"), { house: houseName(house, data) }), area, data));
  svgEl("circle", { r: 8.4, fill: hi.color, stroke: "#c9a227", "stroke-width": 2.4 }, g);
  svgEl("circle", { r: 9.8, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
  svgEl("path", { d: CROWN, transform: "translate(0 -1.6) scale(0.62)", fill: "#f2cf5b", stroke: "#4a3308", "stroke-width": 0.8 }, g);
  text(g, hi.letter, { y: 6.4, "font-size": 6, fill: isLight(hi.color) ? "#111" : "#fff" });
}

function drawGarrison(layer, at, house, strength, data, area, k = 1) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-garrison", transform: `translate(${at.x} ${at.y}) scale(${S * k})`, "data-house": house, "data-at": area }, layer);
  title(g, where(fmt(gettext("Garrison of %(house)s, strength %(n)s"), { house: houseName(house, data), n: strength }), area, data));
  piece(g, TOWER, hi.color);
  text(g, String(strength), { y: 5, "font-size": 9, fill: isLight(hi.color) ? "#111" : "#fff" });
}

function drawNeutral(layer, at, strength, area, data, k = 1) {
  const g = svgEl("g", { class: "ov-neutral", transform: `translate(${at.x} ${at.y}) scale(${S * k})`, "data-at": area }, layer);
  title(g, where(fmt(gettext("Neutral force of strength %(n)s"), { n: strength }), area, data || {}));
  piece(g, HEX, "#6b6b6b");
  svgEl("path", { d: "M-6 -4.8L-3.6 -6.8L-1.2 -4.8M1.2 -4.8L3.6 -6.8L6 -4.8", fill: "none", stroke: "#d8d8d8", "stroke-width": 1 }, g);
  text(g, String(strength), { y: 4.6, "font-size": 10.5, fill: "#fff" });
}

// One symbol at (0, 0) of `parent`, for the legend: "badge", "power", "garrison" (with
// `strength`), "neutral" (with `strength`).
export function drawSymbol(parent, kind, house, data, strength) {
  const at = { x: 0, y: 0 };
  if (kind === "badge") return badge(parent, 0, 0, house, data);
  if (kind === "power") return drawPower(parent, at, house, data, null);
  if (kind === "garrison") return drawGarrison(parent, at, house, strength, data, null);
  return drawNeutral(parent, at, strength, null, data);
}

function outline(layer, board, area, cls) {
  const p = board.areas[area];
  if (!p) return;
  svgEl("path", { d: p.getAttribute("d"), class: cls, "fill-rule": "evenodd", "data-hl": area }, layer);
}

// The sizes of the pieces' boxes (drawing units, at full size), halo included
const ORDER_R = 13 * S;
const BOX = { order: 2 * ORDER_R, power: 21 * S, garrison: 20 * S, neutral: 22 * S };
// the crowding levels of an area: as drawn, grouped by type with a count, then smaller and smaller
// (and from full size on, the row stacked on two lines before it shrinks)
const LEVELS = [[false, 1, false], [true, 1, false], [true, 1, true], [true, 0.85, false], [true, 0.85, true], [true, 0.72, false],
  [true, 0.72, true], [true, 0.6, false], [true, 0.6, true], [true, 0.5, true]];

// Where each piece of the view goes: {area: {units, order, power, garrison, neutral: {x, y, k}}}.
// Every area's pieces are placed together inside the area, off its name (placement.js); an area
// keeps its layout while its pieces stay the same (the cache is keyed by what they are).
function layout(board, view, data, extra, anchor) {
  const cache = board.placeCache || (board.placeCache = new Map());
  if (cache.size > 400) cache.clear();
  const fight = view.combat && view.combat.area;
  const areas = new Set([...Object.keys(view.units || {}), ...Object.keys(view.garrisons || {}), ...Object.keys(view.power_tokens || {}),
    ...Object.keys(view.neutral || {}), ...(fight ? [fight] : [])]);
  const drafts = extra.draftOrders || {};
  const placed = new Set(view.orders_placed || []);
  const mine = view.my_orders || {};
  const out = {};
  for (const a of areas) {
    if (!board.areas[a]) continue;
    const info = (view.units || {})[a];
    const marks = {};
    for (const d of extra.doomed || []) if (d.area === a) marks[d.unit] = (marks[d.unit] || 0) + 1;
    // an order is drawn for a revealed one, one's own (sent or draft), an open box, or a face-down one
    const order = (view.orders || {})[a] || (info && ((info.house === view.viewer && (drafts[a] || mine[a])) || (view.open_orders || {})[a]
      || (placed.has(info.house) && info.house !== view.viewer)));
    const kinds = { units: info ? info.units.map((u) => u.type + (u.routed ? "r" : "")).join(",") : "", marks,
      order: !!order, power: !!(view.power_tokens || {})[a], garrison: !!(view.garrisons || {})[a], neutral: !!(view.neutral || {})[a],
      fight: a === fight };
    const key = a + "|" + JSON.stringify(kinds);
    if (!cache.has(key)) {
      const pieces = (level) => {
        const [grouped, k, stacked] = LEVELS[level];
        const list = [];
        if (info) {
          const size = rowSize(rowSlots(info, { ...marks }, grouped), stacked);
          list.push({ key: "units", w: size.w * k, h: size.h * k, prefer: () => anchor(a, "units") });
        }
        if (order) {
          // beside the row (right of it first), else where the board suggests
          list.push({ key: "order", w: BOX.order * k, h: BOX.order * k, prefer: (at) => (at.units
            ? { x: at.units.box[2] + ORDER_R * k, y: at.units.y, near: at.units.box } : anchor(a, "order")) });
        }
        // the battle's mark, placed like a piece: in its area, off the pieces and the name
        if (kinds.fight) list.push({ key: "combat", w: 20 * k, h: 20 * k, prefer: () => { const l = anchor(a, "label"); return { x: l.x, y: l.y - 20 }; } });
        if (kinds.neutral) list.push({ key: "neutral", w: BOX.neutral * k, h: BOX.neutral * k, prefer: () => anchor(a, "units") });
        if (kinds.power) list.push({ key: "power", w: BOX.power * k, h: BOX.power * k, prefer: () => anchor(a, "power") });
        if (kinds.garrison) {
          list.push({ key: "garrison", w: BOX.garrison * k, h: BOX.garrison * k, prefer: (at) => {
            const p = at.power || anchor(a, "power");
            return { x: p.x + 20 * S * k, y: p.y };
          } });
        }
        return list;
      };
      const res = placeArea(board, a, pieces, LEVELS.length);
      const [grouped, k, stacked] = LEVELS[res.level];
      cache.set(key, { at: res.at, k, grouped, stacked });
    }
    out[a] = cache.get(key);
  }
  return out;
}

// Draws everything. `extra`: {draftOrders {area: token}, moves [{from, to}], selectable Set,
// targets Set, selected area|null, doomed [{area, unit}] (units chosen to be destroyed: crossed
// out), under(layer, centre(area), anchor(area, kind)): draws under the pieces}. The combat in progress comes from `view.combat`: its area outlined in red with a mark,
// an arrow from the attacker's origin and a dotted line from each declared support.
// Returns {area: {x, y}}: where each area's units are drawn (for arrows).
export function drawOverlay(board, view, data, extra = {}) {
  const { highlight, tokens } = board.layers;
  highlight.replaceChildren();
  tokens.replaceChildren();
  const lines = svgEl("g", { class: "ov-lines" }, tokens);  // under the tokens
  for (const a of view.blocked || []) outline(highlight, board, a, "hl-blocked");
  for (const a of extra.selectable || []) outline(highlight, board, a, "hl-selectable");
  for (const a of extra.targets || []) outline(highlight, board, a, "hl-target");
  if (extra.selected) outline(highlight, board, extra.selected, "hl-selected");
  const combat = view.combat;
  if (combat && combat.area) outline(highlight, board, combat.area, "hl-combat");

  const anchor = (a, k) => (board.anchors[a] || {})[k] || (board.anchors[a] || {}).label;
  const spots = layout(board, view, data, extra, anchor);
  const fighting = combat ? new Set([combat.area, combat.origin]) : new Set();
  const under = svgEl("g", { class: "ov-under" }, tokens);
  const unitLayer = svgEl("g", { class: "ov-unit-layer" }, tokens);
  const orderLayer = svgEl("g", { class: "ov-order-layer" }, tokens);
  const battleLayer = svgEl("g", { class: "ov-battle-layer" }, tokens);
  const drafts = extra.draftOrders || {};
  const placed = new Set(view.orders_placed || []);
  const mine = view.my_orders || {};
  const centres = {};
  for (const [a, sp] of Object.entries(spots)) {
    const { at, k, grouped, stacked } = sp;
    const info = (view.units || {})[a];
    if (at.garrison) drawGarrison(tokens, at.garrison, view.garrisons[a].house, view.garrisons[a].strength, data, a, k);
    if (at.power) drawPower(tokens, at.power, view.power_tokens[a], data, a, k);
    if (at.neutral) drawNeutral(tokens, at.neutral, view.neutral[a], a, data, k);
    if (info && at.units) {
      const marks = {};
      for (const d of extra.doomed || []) if (d.area === a) marks[d.unit] = (marks[d.unit] || 0) + 1;
      drawUnits(fighting.has(a) ? battleLayer : unitLayer, a, info, at.units.x, at.units.y, k, rowSlots(info, { ...marks }, grouped), marks, data, stacked);
      centres[a] = { x: at.units.x, y: at.units.y };
    }
    if (!at.order) continue;
    const o = (view.orders || {})[a];
    if (o) drawOrder(orderLayer, at.order, o.house, o.token, data, { area: a, k });
    else if (info && info.house === view.viewer && (drafts[a] || mine[a])) {
      drawOrder(orderLayer, at.order, info.house, drafts[a] || mine[a], data, { draft: !mine[a] || drafts[a] !== mine[a], area: a, k });
    } else if ((view.open_orders || {})[a]) {
      // a finished game's replay: the face-down orders shown (the box is open)
      drawOrder(orderLayer, at.order, view.open_orders[a].house, view.open_orders[a].token, data, { area: a, k });
    } else if (info && placed.has(info.house)) {
      drawOrder(orderLayer, at.order, info.house, null, data, { area: a, k });
    }
  }
  board.centres = centres;
  const centre = (a) => centres[a] || anchor(a, "units");
  // what is drawn under the pieces and over the areas (the last moves' marks)
  if (extra.under) extra.under(under, centre, anchor);
  tokens.appendChild(battleLayer);
  for (const m of extra.moves || []) {
    const s = centre(m.from);
    const d = centre(m.to);
    if (s && d) {
      svgEl("line", { x1: s.x, y1: s.y, x2: d.x, y2: d.y, class: "ov-move", "marker-end": "url(#ov-arrow)" }, tokens);
    }
  }
  if (combat && combat.area) {
    const to = centre(combat.area);
    const from = combat.origin && centre(combat.origin);
    if (from && to) svgEl("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "ov-attack", "marker-end": "url(#ov-arrow-red)" }, lines);
    for (const s of combat.supports || []) {
      const a = centre(s.area);
      if (a && to && s.side !== "none") {
        svgEl("line", { x1: a.x, y1: a.y, x2: to.x, y2: to.y, class: "ov-support side-" + s.side, "data-from": s.area }, lines);
      }
    }
    // the battle's mark, placed with the area's pieces
    const sp = spots[combat.area];
    const l = anchor(combat.area, "label");
    const p = sp && sp.at.combat ? sp.at.combat : { x: l.x, y: l.y - 16 };
    const g = svgEl("g", { class: "ov-combat", transform: `translate(${p.x} ${p.y})` + (sp && sp.k !== 1 ? ` scale(${sp.k})` : "") }, tokens);
    svgEl("path", { d: "M-8 -8L8 8M8 -8L-8 8", stroke: "#b91c1c", "stroke-width": 3.5, "stroke-linecap": "round" }, g);
  }
  return centres;
}

// Invisible hit areas: every area whose drawn box is smaller than HIT_PX CSS pixels on the
// screen (ports, mostly) gets a transparent square of HIT_PX around its label anchor, drawn
// over the areas (clicks, taps and hover then go to that area). A square never contains another
// area's label anchor (a label is where a player points), and squares do not overlap: the
// smallest areas are placed first, later ones shrink. Call after a zoom or a resize.
// `board.layers.hits` holds them; each is a <path data-area class="hit-area">.
export function drawHitAreas(board) {
  const layer = board.layers.hits;
  const m = board.svg.getScreenCTM();
  if (!layer || !m || !m.a) return;
  const ppu = Math.abs(m.a);  // CSS pixels per drawing unit
  const want = HIT_PX / ppu / 2;
  const labels = Object.entries(board.anchors).filter(([, a]) => a.label).map(([id, a]) => [id, a.label]);
  layer.replaceChildren();
  const small = [];
  for (const [id, p] of Object.entries(board.areas)) {
    const b = board.boxes[id] || (board.boxes[id] = p.getBBox());
    const size = Math.min(b.width, b.height);
    if (size * ppu < HIT_PX) small.push([size, id, p, board.anchors[id].label || { x: b.x + b.width / 2, y: b.y + b.height / 2 }]);
  }
  small.sort((x, y) => x[0] - y[0]);
  const placed = [];  // [x, y, half size]
  const vb = board.svg.viewBox.baseVal;
  const W = board.width || 768;
  const H = vb && vb.width ? W * (vb.height / vb.width) : 1104;
  const room = (c, id) => {
    let r = want;
    for (const [oid, q] of labels) if (oid !== id) r = Math.min(r, Math.max(Math.abs(q.x - c.x), Math.abs(q.y - c.y)) - 0.5);
    for (const [x, y, h] of placed) r = Math.min(r, Math.max(Math.abs(x - c.x), Math.abs(y - c.y)) - h);
    return r;
  };
  const steps = [0, 0.45, -0.45, 0.9, -0.9];
  for (const [, id, p, label] of small) {
    // the square keeps the area's label inside it; where the label's neighbourhood is taken
    // (another label, a smaller area's square) it moves around the label, then shrinks
    let c = null;
    let r = -1;
    for (const fx of steps) {
      for (const fy of steps) {
        // kept inside the drawing: a square at the map's edge moves inwards
        const q = { x: Math.min(W - want, Math.max(want, label.x + fx * want)), y: Math.min(H - want, Math.max(want, label.y + fy * want)) };
        if (Math.max(Math.abs(q.x - label.x), Math.abs(q.y - label.y)) > want) continue;
        const rq = room(q, id);
        if (rq > r + 0.01) [c, r] = [q, rq];
      }
      if (r >= want) break;
    }
    if (!c || r <= 0) continue;
    placed.push([c.x, c.y, r]);
    const hit = svgEl("path", { d: `M${c.x - r} ${c.y - r}h${2 * r}v${2 * r}h${-2 * r}z`, class: "hit-area", "data-area": id,
      fill: "transparent" }, layer);
    const t = p.querySelector("title");
    if (t) title(hit, t.textContent);
  }
}
