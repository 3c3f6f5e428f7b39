// The overlay drawn over the board from the view: units (shape by type, house letter on a house
// colour, routed units pale, dashed and turned), order tokens (face down "?", face up with the
// order's short name, starred ones gold with a star), power tokens, garrisons, neutral forces,
// blocked areas, the combat in progress, the player's draft orders and marches, and highlights.

import { svgEl } from "./svgboard.js";
import { orderShort } from "./names.js";

// Token size on the board (1 = the drawing's own units; the board is 768 x 1104).
const S = 1.35;
const DARK_TEXT = new Set(["stark", "baratheon"]);
const SHAPES = {
  footman: (g) => svgEl("circle", { r: 6.2 }, g),
  knight: (g) => svgEl("path", { d: "M0 -8L7.5 0L0 8L-7.5 0z" }, g),
  ship: (g) => svgEl("path", { d: "M-8 -1H8L5 6H-5z M-1 -1V-9L6 -2z" }, g),
  siege_engine: (g) => svgEl("path", { d: "M-7 7V-2L0 -8L7 -2V7z" }, g),
};

function houseGlyph(g, house, data) {
  const h = data.houses[house] || { color: "#999", letter: "?" };
  g.setAttribute("fill", h.color);
  g.setAttribute("stroke", "#1b1309");
  g.setAttribute("stroke-width", "1.1");
  return h;
}

function letter(g, text, house, y = 0, size = 7.5) {
  svgEl("text", {
    y: y + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 700,
    fill: DARK_TEXT.has(house) ? "#111" : "#fff", stroke: "none", "font-family": "system-ui, sans-serif",
  }, g).textContent = text;
}

export function drawUnit(parent, x, y, house, type, routed, data) {
  const g = svgEl("g", { class: "ov-unit" + (routed ? " routed" : ""), "data-unit": type, "data-house": house,
    transform: `translate(${x} ${y}) scale(${S})` + (routed ? " rotate(90)" : "") }, parent);
  const h = houseGlyph(g, house, data);
  (SHAPES[type] || SHAPES.footman)(g);
  letter(g, h.letter, house, type === "ship" ? 1.8 : type === "siege_engine" ? 1.5 : 0, 6.5);
  return g;
}

function drawUnits(layer, area, info, at, data, doomed) {
  const n = info.units.length;
  const marks = {};
  for (const d of doomed || []) if (d.area === area) marks[d.unit] = (marks[d.unit] || 0) + 1;
  const perRow = n > 4 ? Math.ceil(n / 2) : n;
  info.units.forEach((u, i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, n - row * perRow);
    const col = i - row * perRow;
    const x = at.x + (col - (inRow - 1) / 2) * 17 * S;
    const y = at.y + (row - (n > perRow ? 0.5 : 0)) * 17 * S;
    const g = drawUnit(layer, x, y, info.house, u.type, u.routed, data);
    if (marks[u.type] && !u.routed) {
      marks[u.type] -= 1;
      g.classList.add("doomed");
      svgEl("path", { d: "M-7 -7L7 7M7 -7L-7 7", class: "ov-doomed" }, g);
    }
  });
}

export function drawOrder(layer, at, house, token, data, opts = {}) {
  const tok = token ? data.tokens[token] : null;
  const cls = "ov-order" + (tok ? " up" : " down") + (tok && tok.special ? " special" : "") + (opts.draft ? " draft" : "");
  const g = svgEl("g", { class: cls, transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house, "data-token": token || "" }, layer);
  const col = (data.houses[house] || {}).color || "#999";
  if (!tok) {
    svgEl("circle", { r: 10, fill: "#3b2a1a", stroke: col, "stroke-width": 3 }, g);
    svgEl("text", { y: 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#f3e6c4", "font-family": "system-ui, sans-serif" }, g).textContent = "?";
    return g;
  }
  svgEl("circle", {
    r: 11, fill: tok.special ? "#f2cf5b" : "#f7efd9", stroke: col, "stroke-width": 3.2,
    "stroke-dasharray": opts.draft ? "4 2" : null,
  }, g);
  svgEl("text", { y: 3, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: "#1b1309", "font-family": "system-ui, sans-serif" }, g).textContent = orderShort(token, data);
  if (tok.special) {
    svgEl("path", { d: "M0 -15.5l1.6 3.3 3.6.5-2.6 2.5.6 3.6L0 -7.9l-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z", fill: "#b8860b", stroke: "#4a3308", "stroke-width": 0.6 }, g);
  }
  return g;
}

function drawPower(layer, at, house, data) {
  const g = svgEl("g", { class: "ov-power", transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house }, layer);
  houseGlyph(g, house, data);
  svgEl("circle", { r: 6.5, stroke: "#c9a227", "stroke-width": 2 }, g);
  letter(g, (data.houses[house] || {}).letter || "?", house, 0, 6.5);
}

function drawGarrison(layer, at, house, strength, data) {
  const g = svgEl("g", { class: "ov-garrison", transform: `translate(${at.x} ${at.y}) scale(${S})`, "data-house": house }, layer);
  houseGlyph(g, house, data);
  svgEl("path", { d: "M-7 7V-5H-4V-8H-1V-5H1V-8H4V-5H7V7z" }, g);
  letter(g, String(strength), house, 1.5, 8);
}

function drawNeutral(layer, at, strength) {
  const g = svgEl("g", { class: "ov-neutral", transform: `translate(${at.x} ${at.y}) scale(${S})` }, layer);
  svgEl("path", { d: "M-9 0L-4.5 -8H4.5L9 0L4.5 8H-4.5z", fill: "#6b6b6b", stroke: "#111", "stroke-width": 1.2 }, g);
  svgEl("text", { y: 3.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff", "font-family": "system-ui, sans-serif" }, g).textContent = String(strength);
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
  const lines = svgEl("g", { class: "ov-lines" }, tokens);  // under the tokens
  for (const a of view.blocked || []) outline(highlight, board, a, "hl-blocked");
  for (const a of extra.selectable || []) outline(highlight, board, a, "hl-selectable");
  for (const a of extra.targets || []) outline(highlight, board, a, "hl-target");
  if (extra.selected) outline(highlight, board, extra.selected, "hl-selected");
  const combat = view.combat;
  if (combat && combat.area) outline(highlight, board, combat.area, "hl-combat");

  const anchor = (a, k) => (board.anchors[a] || {})[k] || (board.anchors[a] || {}).label;
  for (const [a, g] of Object.entries(view.garrisons || {})) {
    const p = anchor(a, "power");
    if (p) drawGarrison(tokens, { x: p.x + 18 * S, y: p.y }, g.house, g.strength, data);
  }
  for (const [a, h] of Object.entries(view.power_tokens || {})) {
    const p = anchor(a, "power");
    if (p) drawPower(tokens, p, h, data);
  }
  for (const [a, n] of Object.entries(view.neutral || {})) {
    const p = anchor(a, "units");
    if (p) drawNeutral(tokens, view.units && view.units[a] ? { x: p.x, y: p.y - 20 * S } : p, n);
  }
  // the battle's units are drawn last, over any order token that crowds them
  const fighting = combat ? new Set([combat.area, combat.origin]) : new Set();
  const unitsLater = [];
  for (const [a, info] of Object.entries(view.units || {})) {
    const p = anchor(a, "units");
    if (!p) continue;
    if (fighting.has(a)) unitsLater.push([a, info, p]);
    else drawUnits(tokens, a, info, p, data, extra.doomed);
  }
  // orders: revealed ones, then face-down ones of houses that have placed (planning)
  const drafts = extra.draftOrders || {};
  for (const [a, o] of Object.entries(view.orders || {})) {
    const p = anchor(a, "order");
    if (p) drawOrder(tokens, p, o.house, o.token, data);
  }
  const placed = new Set(view.orders_placed || []);
  const mine = view.my_orders || {};
  for (const [a, info] of Object.entries(view.units || {})) {
    if ((view.orders || {})[a]) continue;
    const p = anchor(a, "order");
    if (!p) continue;
    if (info.house === view.viewer && (drafts[a] || mine[a])) {
      drawOrder(tokens, p, info.house, drafts[a] || mine[a], data, { draft: !mine[a] || drafts[a] !== mine[a] });
    } else if ((view.open_orders || {})[a]) {
      // a finished game's replay: the face-down orders shown (the box is open)
      drawOrder(tokens, p, view.open_orders[a].house, view.open_orders[a].token, data);
    } else if (placed.has(info.house) && info.house !== view.viewer) {
      drawOrder(tokens, p, info.house, null, data);
    }
  }
  for (const [a, info, p] of unitsLater) drawUnits(tokens, a, info, p, data, extra.doomed);
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
