// What just happened, on the map: the marks of `view.recent` (game/rules/agot/recent.py), drawn
// under the pieces. Marches are arrows in the house's colour with the units they carried at their
// middle (an attack's arrow is solid and ends in crossed swords), battles a swords mark with the
// winner's shield, retreats thin dashed arrows, Raids dotted arrows ending on the order they
// removed (crossed out), orders removed by a card a crossed-out token, musters a "+" with the
// unit. Every mark has a tooltip in words. While the next orders are placed the marks are faded;
// the next reveal clears them (the server's marks start again).

import { svgEl } from "./svgboard.js";
import { drawOrder, drawSymbol, drawUnit } from "./overlay.js";
import { areaName, houseName, tokenName, unitName } from "./names.js";
import { fmt, gettext, listOf } from "../i18n.js";

const CROSS = "M-7 -7L7 7M7 -7L-7 7";
// two crossed blades with their guards
const SWORDS = CROSS + "M-8.5 -4.5L-4.5 -8.5M4.5 -8.5L8.5 -4.5";

function colour(house, data) {
  return (data.houses[house] || {}).color || "#666";
}

function title(g, text) {
  svgEl("title", {}, g).textContent = text;
}

function unitsText(units, data) {
  const by = new Map();
  for (const u of units || []) by.set(u, (by.get(u) || 0) + 1);
  return listOf([...by].map(([u, n]) => (n > 1 ? n + "× " : "") + unitName(u, data)));
}

// A gently curved arrow from p to q, stopping short of both ends (the pieces stay clear); returns
// its middle and the point `at` of the way along.
function arrow(g, p, q, cls, stroke, width, at = 0.5) {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const len = Math.hypot(dx, dy) || 1;
  const cut = Math.min(16, len / 4);
  const a = { x: p.x + (dx * cut) / len, y: p.y + (dy * cut) / len };
  const b = { x: q.x - (dx * cut) / len, y: q.y - (dy * cut) / len };
  // bend to the left of the way: two arrows between one pair of areas do not lie on each other
  const c = { x: (a.x + b.x) / 2 - (dy / len) * len * 0.12, y: (a.y + b.y) / 2 + (dx / len) * len * 0.12 };
  const d = `M${a.x} ${a.y}Q${c.x} ${c.y} ${b.x} ${b.y}`;
  svgEl("path", { d, class: cls + " rc-under", fill: "none", "stroke-width": width + 2.4 }, g);
  svgEl("path", { d, class: cls, fill: "none", stroke, "stroke-width": width }, g);
  // the head, along the curve's last tangent
  const tx = b.x - c.x;
  const ty = b.y - c.y;
  const tl = Math.hypot(tx, ty) || 1;
  const ux = tx / tl;
  const uy = ty / tl;
  const s = 5 + width;
  svgEl("path", { d: `M${b.x + ux * 2} ${b.y + uy * 2}L${b.x - ux * s - uy * s * 0.6} ${b.y - uy * s + ux * s * 0.6}L${b.x - ux * s + uy * s * 0.6} ${b.y - uy * s - ux * s * 0.6}Z`,
    class: "rc-head", fill: stroke }, g);
  const point = (t) => ({ x: (1 - t) ** 2 * a.x + 2 * (1 - t) * t * c.x + t * t * b.x, y: (1 - t) ** 2 * a.y + 2 * (1 - t) * t * c.y + t * t * b.y });
  return { mid: point(0.5), at: point(at), end: b };
}

// the units a march carried, small, on a light pill at (x, y)
function carried(g, x, y, house, units, data) {
  const by = new Map();
  for (const u of units || []) by.set(u, (by.get(u) || 0) + 1);
  const types = [...by];
  if (!types.length) return;
  const w = types.length * 15 + 4;
  const pill = svgEl("g", { class: "rc-units", transform: `translate(${x} ${y})` }, g);
  svgEl("rect", { x: -w / 2, y: -9, width: w, height: 18, rx: 8, class: "rc-pill" }, pill);
  types.forEach(([u, n], i) => {
    const one = svgEl("g", { transform: `translate(${-w / 2 + 9.5 + i * 15} 0) scale(0.55)` }, pill);
    drawUnit(one, 0, 0, house, u, false, data, n);
  });
}

export function drawRecent(layer, view, data, centre, anchor) {
  const recent = view.recent;
  if (!recent || !(recent.marks || []).length) return;
  const g = svgEl("g", { class: "ov-recent" + (view.phase === "planning" ? " stale" : ""), "data-round": recent.round }, layer);
  const H = (h) => houseName(h, data);
  const A = (a) => areaName(a, data);
  for (const m of recent.marks) {
    const mark = svgEl("g", { class: "rc rc-" + m.k + (m.attack ? " rc-attack" : "") }, g);
    mark.setAttribute("data-kind", m.k);
    if (m.k === "march" || m.k === "retreat" || m.k === "raid") {
      const p = centre(m.from);
      const q = m.to && centre(m.to);
      if (!p || !q) { mark.remove(); continue; }
      mark.setAttribute("data-from", m.from);
      mark.setAttribute("data-to", m.to);
      const width = m.k === "march" ? 3.4 : 2.2;
      const cls = m.k === "march" ? (m.attack ? "rc-line rc-line-attack" : "rc-line") : m.k === "raid" ? "rc-line rc-line-raid" : "rc-line rc-line-retreat";
      const way = arrow(mark, p, q, cls, colour(m.h, data), width, 0.78);
      if (m.k === "march") {
        carried(mark, way.mid.x, way.mid.y, m.h, m.units, data);
        title(mark, fmt(m.attack ? gettext("%(house)s attacked %(to)s from %(from)s with %(units)s") : gettext("%(house)s marched from %(from)s to %(to)s with %(units)s"),
          { house: H(m.h), from: A(m.from), to: A(m.to), units: unitsText(m.units, data) }));
      } else if (m.k === "retreat") {
        title(mark, fmt(gettext("%(house)s retreated from %(from)s to %(to)s with %(units)s"), { house: H(m.h), from: A(m.from), to: A(m.to), units: unitsText(m.units, data) }));
      } else {
        const ghost = svgEl("g", { class: "rc-removed" }, mark);
        drawOrder(ghost, way.at, m.h, m.token, data, { k: 0.62 });
        svgEl("path", { d: CROSS, transform: `translate(${way.at.x} ${way.at.y})`, class: "rc-cross" }, ghost);
        title(mark, fmt(gettext("%(house)s raided %(to)s from %(from)s: its %(order)s order removed"), { house: H(m.h), from: A(m.from), to: A(m.to), order: tokenName(m.token, data) }));
      }
    } else if (m.k === "battle") {
      const p = anchor(m.area, "label");
      if (!p) { mark.remove(); continue; }
      mark.setAttribute("data-area", m.area);
      mark.setAttribute("data-winner", m.winner || "");
      const at = svgEl("g", { transform: `translate(${p.x - 22} ${p.y - 20})` }, mark);
      svgEl("circle", { r: 10, class: "rc-battle-disc" }, at);
      svgEl("path", { d: SWORDS, class: "rc-swords" }, at);
      if (m.winner) {
        const w = svgEl("g", { transform: "translate(13 3) scale(0.8)" }, at);
        drawSymbol(w, "badge", m.winner, data);
      }
      title(mark, m.winner
        ? fmt(gettext("Battle in %(area)s: %(house)s won"), { area: A(m.area), house: H(m.winner) })
        : fmt(gettext("Battle in %(area)s"), { area: A(m.area) }));
    } else if (m.k === "removed") {
      const p = anchor(m.area, "order");
      if (!p) { mark.remove(); continue; }
      mark.setAttribute("data-area", m.area);
      const ghost = svgEl("g", { class: "rc-removed" }, mark);
      drawOrder(ghost, p, m.h, m.token, data, { k: 0.62 });
      svgEl("path", { d: CROSS, transform: `translate(${p.x} ${p.y})`, class: "rc-cross" }, ghost);
      title(mark, fmt(gettext("%(house)s's %(order)s order in %(area)s was removed"), { house: H(m.h), order: tokenName(m.token, data), area: A(m.area) }));
    } else if (m.k === "muster") {
      const c = centre(m.area);
      if (!c) { mark.remove(); continue; }
      mark.setAttribute("data-area", m.area);
      const at = svgEl("g", { transform: `translate(${c.x - 8} ${c.y - 22})` }, mark);
      svgEl("circle", { r: 8.5, fill: colour(m.h, data), class: "rc-muster-disc" }, at);
      svgEl("path", { d: "M-4.5 0H4.5M0 -4.5V4.5", class: "rc-plus" }, at);
      title(mark, fmt(gettext("%(house)s mustered a %(unit)s in %(area)s"), { house: H(m.h), unit: unitName(m.unit, data), area: A(m.area) }));
    }
  }
}

// One mark at (0, 0) of `parent`, for the legend: "march", "attack", "battle", "raid", "muster".
export function drawRecentSymbol(parent, kind, house, data) {
  const p = { x: -17, y: 4 };
  const q = { x: 17, y: 4 };
  const g = svgEl("g", { class: "ov-recent" }, parent);
  const mark = svgEl("g", { class: "rc rc-" + kind }, g);
  if (kind === "march" || kind === "attack") {
    arrow(mark, { x: -22, y: 6 }, { x: 22, y: 6 }, kind === "attack" ? "rc-line rc-line-attack" : "rc-line", colour(house, data), 3.4);
    if (kind === "march") carried(mark, 0, -4, house, ["footman"], data);
  } else if (kind === "raid") {
    const way = arrow(mark, p, q, "rc-line rc-line-raid", colour(house, data), 2.2, 0.9);
    const ghost = svgEl("g", { class: "rc-removed" }, mark);
    drawOrder(ghost, way.at, house, Object.keys(data.tokens)[0], data, { k: 0.62 });
    svgEl("path", { d: CROSS, transform: `translate(${way.at.x} ${way.at.y})`, class: "rc-cross" }, ghost);
  } else if (kind === "battle") {
    svgEl("circle", { r: 10, class: "rc-battle-disc" }, mark);
    svgEl("path", { d: SWORDS, class: "rc-swords" }, mark);
    drawSymbol(svgEl("g", { transform: "translate(13 3) scale(0.8)" }, mark), "badge", house, data);
  } else if (kind === "muster") {
    svgEl("circle", { r: 8.5, fill: colour(house, data), class: "rc-muster-disc" }, mark);
    svgEl("path", { d: "M-4.5 0H4.5M0 -4.5V4.5", class: "rc-plus" }, mark);
  }
  return g;
}
