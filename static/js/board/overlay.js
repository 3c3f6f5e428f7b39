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
import { houseName, orderShort, tokenName, unitName } from "./names.js";
import { fmt, gettext } from "./i18n.js";

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
export function drawUnit(parent, x, y, house, type, routed, data, count = 1) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-unit" + (routed ? " routed" : ""), "data-unit": type, "data-house": house, "data-count": count,
    transform: `translate(${x} ${y}) scale(${S})` }, parent);
  const name = unitName(type, data);
  let tip = houseName(house, data) + ": " + (count > 1 ? count + "× " : "") + name;
  if (routed) tip += " (" + gettext("routed: lying down, cannot march or support this round") + ")";
  title(g, tip);
  const body = svgEl("g", { class: "pc", transform: routed ? "rotate(90)" : null }, g);
  piece(body, UNIT_PATHS[type] || UNIT_PATHS.footman, hi.color);
  if (count > 1) {
    const c = svgEl("g", { class: "ov-count", transform: "translate(7 7)" }, g);
    svgEl("rect", { x: -6.4, y: -4.6, width: 12.8, height: 9.2, rx: 2.5, fill: "#fffaf0", stroke: "#1b1309", "stroke-width": 0.8 }, c);
    text(c, count + "×", { y: 3, "font-size": 7.6, fill: "#1b1309" });
  }
  return g;
}

function badge(parent, x, y, house, data) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-badge", "data-house": house, transform: `translate(${x} ${y}) scale(${S})` }, parent);
  title(g, houseName(house, data));
  piece(g, SHIELD, hi.color);
  text(g, hi.letter, { y: 3, "font-size": 8.5, fill: isLight(hi.color) ? "#111" : "#fff" });
  return g;
}

// The slots of one area's row: one per unit, or per (type, routed) when the area is crowded
// (doomed units stay single, so each can be crossed out).
function rowSlots(info, marks) {
  const slots = info.units.map((u) => ({ type: u.type, routed: !!u.routed, count: 1 }));
  if (info.units.length <= CROWDED || Object.keys(marks).length) return slots;
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

// The unit row of one area with its left edge at x0 and its middle at y: [badge][unit][unit]...
function drawUnits(layer, area, info, x0, y, slots, marks, data) {
  const row = svgEl("g", { class: "ov-units", "data-at": area, "data-house": info.house }, layer);
  badge(row, x0 + BADGE_W / 2, y, info.house, data);
  let x = x0 + BADGE_W;
  slots.forEach((s) => {
    const g = drawUnit(row, x + STEP / 2, y, info.house, s.type, s.routed, data, s.count);
    x += slotW(s);
    if (marks[s.type] && !s.routed) {
      marks[s.type] -= 1;
      g.classList.add("doomed");
      svgEl("path", { d: "M-8 -8L8 8M8 -8L-8 8", class: "ov-doomed" }, g);
    }
  });
}

// boxes are [x0, y0, x1, y1] in drawing units
const hits = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const clash = (box, taken) => taken.reduce((n, t) => n + (hits(box, t) ? 1 : 0), 0);

// The first of `candidates` (boxes) that meets none of `taken`, else the one meeting fewest.
function firstFree(candidates, taken) {
  let best = candidates[0];
  let bestN = Infinity;
  for (const c of candidates) {
    const n = clash(c, taken);
    if (n === 0) return c;
    if (n < bestN) [best, bestN] = [c, n];
  }
  return best;
}

export function drawOrder(layer, at, house, token, data, opts = {}) {
  const tok = token ? data.tokens[token] : null;
  const cls = "ov-order" + (tok ? " up" : " down") + (tok && tok.special ? " special" : "") + (opts.draft ? " draft" : "");
  const g = svgEl("g", { class: cls, transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house, "data-token": token || "" }, layer);
  if (opts.area) g.setAttribute("data-at", opts.area);
  const hi = houseInfo(house, data);
  if (!tok) {
    title(g, fmt(gettext("Order of %(house)s, face down"), { house: houseName(house, data) }));
    svgEl("circle", { r: 10, fill: "#3b2a1a", stroke: hi.color, "stroke-width": 3 }, g);
    svgEl("circle", { r: 11.6, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
    text(g, "?", { y: 4, "font-size": 11, fill: "#f3e6c4" });
    return g;
  }
  title(g, fmt(gettext("Order of %(house)s: %(order)s"), { house: houseName(house, data), order: tokenName(token, data) })
    + (opts.draft ? " (" + gettext("not sent yet") + ")" : ""));
  svgEl("circle", { r: 11, fill: tok.special ? "#f2cf5b" : "#f7efd9", stroke: hi.color, "stroke-width": 3.2,
    "stroke-dasharray": opts.draft ? "4 2" : null }, g);
  svgEl("circle", { r: 12.6, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
  text(g, orderShort(token, data), { y: 3, "font-size": 8.5, fill: "#1b1309" });
  if (tok.special) {
    svgEl("path", { d: "M0 -15.5l1.6 3.3 3.6.5-2.6 2.5.6 3.6L0 -7.9l-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z", fill: "#b8860b", stroke: "#4a3308", "stroke-width": 0.6 }, g);
  }
  return g;
}

function drawPower(layer, at, house, data, area) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-power", transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house, "data-at": area }, layer);
  title(g, fmt(gettext("Power token of %(house)s (holds the area)"), { house: houseName(house, data) }));
  svgEl("circle", { r: 8.4, fill: hi.color, stroke: "#c9a227", "stroke-width": 2.4 }, g);
  svgEl("circle", { r: 9.8, fill: "none", stroke: "#1b1309", "stroke-width": 0.8 }, g);
  svgEl("path", { d: CROWN, transform: "translate(0 -1.6) scale(0.62)", fill: "#f2cf5b", stroke: "#4a3308", "stroke-width": 0.8 }, g);
  text(g, hi.letter, { y: 6.4, "font-size": 6, fill: isLight(hi.color) ? "#111" : "#fff" });
}

function drawGarrison(layer, at, house, strength, data, area) {
  const hi = houseInfo(house, data);
  const g = svgEl("g", { class: "ov-garrison", transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house, "data-at": area }, layer);
  title(g, fmt(gettext("Garrison of %(house)s, strength %(n)s"), { house: houseName(house, data), n: strength }));
  piece(g, TOWER, hi.color);
  text(g, String(strength), { y: 5, "font-size": 9, fill: isLight(hi.color) ? "#111" : "#fff" });
}

function drawNeutral(layer, at, strength, area) {
  const g = svgEl("g", { class: "ov-neutral", transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-at": area }, layer);
  title(g, fmt(gettext("Neutral force of strength %(n)s"), { n: strength }));
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
  return drawNeutral(parent, at, strength, null);
}

function outline(layer, board, area, cls) {
  const p = board.areas[area];
  if (!p) return;
  svgEl("path", { d: p.getAttribute("d"), class: cls, "fill-rule": "evenodd", "data-hl": area }, layer);
}

// Draws everything. `extra`: {draftOrders {area: token}, moves [{from, to}], selectable Set,
// targets Set, selected area|null, doomed [{area, unit}] (units chosen to be destroyed: crossed
// out)}. The combat in progress comes from `view.combat`: its area outlined in red with a mark,
// an arrow from the attacker's origin and a dotted line from each declared support.
export function drawOverlay(board, view, data, extra = {}) {
  const { highlight, tokens } = board.layers;
  highlight.replaceChildren();
  tokens.replaceChildren();
  const vbWidth = board.width || 768;
  const lines = svgEl("g", { class: "ov-lines" }, tokens);  // under the tokens
  for (const a of view.blocked || []) outline(highlight, board, a, "hl-blocked");
  for (const a of extra.selectable || []) outline(highlight, board, a, "hl-selectable");
  for (const a of extra.targets || []) outline(highlight, board, a, "hl-target");
  if (extra.selected) outline(highlight, board, extra.selected, "hl-selected");
  const combat = view.combat;
  if (combat && combat.area) outline(highlight, board, combat.area, "hl-combat");

  const anchor = (a, k) => (board.anchors[a] || {})[k] || (board.anchors[a] || {}).label;
  const around = (x, y, r) => [x - r, y - r, x + r, y + r];
  const taken0 = [];  // boxes of the tokens drawn so far (garrisons, power tokens, neutral forces)
  for (const [a, g] of Object.entries(view.garrisons || {})) {
    const p = anchor(a, "power");
    if (p) drawGarrison(tokens, { x: p.x + 20 * S, y: p.y }, g.house, g.strength, data, a);
    if (p) taken0.push(around(p.x + 20 * S, p.y, 10 * S));
  }
  for (const [a, h] of Object.entries(view.power_tokens || {})) {
    const p = anchor(a, "power");
    if (p) drawPower(tokens, p, h, data, a);
    if (p) taken0.push(around(p.x, p.y, 10.5 * S));
  }
  for (const [a, n] of Object.entries(view.neutral || {})) {
    const p = anchor(a, "units");
    const q = p && (view.units && view.units[a] ? { x: p.x, y: p.y - 24 * S } : p);
    if (q) drawNeutral(tokens, q, n, a);
    if (q) taken0.push(around(q.x, q.y, 11 * S));
  }
  // unit rows first, each centred on its anchor or moved clear of the rows already placed; then
  // each order token beside its row (right, left, above, below), clear of every row and token
  const fighting = combat ? new Set([combat.area, combat.origin]) : new Set();
  const rows = {};
  const taken = taken0;
  const unitLayer = svgEl("g", { class: "ov-unit-layer" }, tokens);
  const orderLayer = svgEl("g", { class: "ov-order-layer" }, tokens);
  const battleLayer = svgEl("g", { class: "ov-battle-layer" }, tokens);
  for (const [a, info] of Object.entries(view.units || {})) {
    const p = anchor(a, "units");
    if (!p) continue;
    const marks = {};
    for (const d of extra.doomed || []) if (d.area === a) marks[d.unit] = (marks[d.unit] || 0) + 1;
    const slots = rowSlots(info, marks);
    const w = rowWidth(slots);
    // a port's row starts at the port and runs out to sea (away from its land), not over the land
    const ad = data.areas[a] || {};
    const land = ad.kind === "port" && ad.port_of && anchor(ad.port_of, "label");
    const lean = land ? (p.x < land.x ? -1 : 1) * (w / 2 - 10 * S) : 0;
    const at = (dx, dy) => [p.x - w / 2 + lean + dx, p.y - ROW_H / 2 + dy, p.x + w / 2 + lean + dx, p.y + ROW_H / 2 + dy];
    const box = firstFree([at(0, 0), at(0, -ROW_H * 0.6), at(0, ROW_H * 0.6), at(-w * 0.4, 0), at(w * 0.4, 0),
      at(0, -ROW_H * 1.1), at(0, ROW_H * 1.1)], taken);
    taken.push(box);
    rows[a] = box;
    drawUnits(fighting.has(a) ? battleLayer : unitLayer, a, info, box[0], (box[1] + box[3]) / 2, slots, marks, data);
  }
  const R = 13 * S;  // an order token's radius with its rim
  const orderAt = (a) => {
    const r = rows[a];
    if (!r) return anchor(a, "order");
    const my = (r[1] + r[3]) / 2;
    const mx = (r[0] + r[2]) / 2;
    const c = [[r[2] + R + 1, my], [r[0] - R - 1, my], [mx, r[1] - R - 1], [mx, r[3] + R + 1],
      [r[2] + R + 1, r[1] - R * 0.6], [r[2] + R + 1, r[3] + R * 0.6], [r[0] - R - 1, r[1] - R * 0.6], [r[0] - R - 1, r[3] + R * 0.6],
      [r[2] + 3 * R, my], [r[0] - 3 * R, my]]
      .filter(([x]) => x - R >= 0 && x + R <= vbWidth)
      .map(([x, y]) => [x - R, y - R, x + R, y + R]);
    const box = firstFree(c.length ? c : [[r[2], my - R, r[2] + 2 * R, my + R]], taken);
    taken.push(box);
    return { x: (box[0] + box[2]) / 2, y: (box[1] + box[3]) / 2 };
  };
  // orders: revealed ones, then face-down ones of houses that have placed (planning)
  const drafts = extra.draftOrders || {};
  for (const [a, o] of Object.entries(view.orders || {})) {
    const p = orderAt(a);
    if (p) drawOrder(orderLayer, p, o.house, o.token, data, { area: a });
  }
  const placed = new Set(view.orders_placed || []);
  const mine = view.my_orders || {};
  for (const [a, info] of Object.entries(view.units || {})) {
    if ((view.orders || {})[a]) continue;
    const shown = info.house === view.viewer && (drafts[a] || mine[a]) ? "mine"
      : (view.open_orders || {})[a] ? "open" : placed.has(info.house) && info.house !== view.viewer ? "down" : null;
    if (!shown) continue;
    const p = orderAt(a);
    if (!p) continue;
    if (shown === "mine") {
      drawOrder(orderLayer, p, info.house, drafts[a] || mine[a], data, { draft: !mine[a] || drafts[a] !== mine[a], area: a });
    } else if (shown === "open") {
      // a finished game's replay: the face-down orders shown (the box is open)
      drawOrder(orderLayer, p, view.open_orders[a].house, view.open_orders[a].token, data, { area: a });
    } else {
      drawOrder(orderLayer, p, info.house, null, data, { area: a });
    }
  }
  tokens.appendChild(battleLayer);
  for (const m of extra.moves || []) {
    const s = anchor(m.from, "units");
    const d = anchor(m.to, "units");
    if (s && d) {
      svgEl("line", { x1: s.x, y1: s.y, x2: d.x, y2: d.y, class: "ov-move", "marker-end": "url(#ov-arrow)" }, tokens);
    }
  }
  if (combat && combat.area) {
    const to = anchor(combat.area, "units");
    const from = combat.origin && anchor(combat.origin, "units");
    if (from && to) svgEl("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "ov-attack", "marker-end": "url(#ov-arrow-red)" }, lines);
    for (const s of combat.supports || []) {
      const a = anchor(s.area, "units");
      if (a && to && s.side !== "none") {
        svgEl("line", { x1: a.x, y1: a.y, x2: to.x, y2: to.y, class: "ov-support side-" + s.side, "data-from": s.area }, lines);
      }
    }
    const p = anchor(combat.area, "label");
    const g = svgEl("g", { class: "ov-combat", transform: `translate(${p.x} ${p.y - 16})` }, tokens);
    svgEl("path", { d: "M-8 -8L8 8M8 -8L-8 8", stroke: "#b91c1c", "stroke-width": 3.5, "stroke-linecap": "round" }, g);
  }
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
