// The board SVG, inline: fetched from /boards/<board>.svg (or already in the page), with the
// overlay's anchor points read from each area's data-* attributes (SVG user units).

const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) el.setAttribute(k, v);
  }
  if (parent) parent.appendChild(el);
  return el;
}

function point(s) {
  if (!s) return null;
  const [x, y] = s.split(",").map(Number);
  return { x, y };
}

// Loads the SVG (`text`, or fetched) into `holder` (unless an svg.board is already inside) and returns
// {svg, areas: {id: path}, anchors: {id: {label, units, order, power}}, boxes: {} (areas' boxes, filled
// lazily), width and height (the whole drawing's), layers: {hits, highlight, tokens, defs}}.
export async function loadBoard(holder, lang, text, board = "agot2") {
  let svg = holder.querySelector("svg.board");
  if (!svg) {
    if (text === undefined) text = await (await fetch("/boards/" + board + ".svg?lang=" + (lang === "zh-hans" ? "zh" : "en"))).text();
    holder.insertAdjacentHTML("afterbegin", text);
    svg = holder.querySelector("svg.board");
  }
  const areas = {};
  const anchors = {};
  for (const p of svg.querySelectorAll("path[id^='area-'][data-area]")) {
    const id = p.getAttribute("data-area");
    areas[id] = p;
    anchors[id] = {
      label: point(p.getAttribute("data-label")),
      units: point(p.getAttribute("data-units")),
      order: point(p.getAttribute("data-order")),
      power: point(p.getAttribute("data-power")),
    };
  }
  const defs = svgEl("defs", {}, svg);
  const hatch = svgEl("pattern", { id: "ov-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  svgEl("rect", { width: 8, height: 8, fill: "#8a8272" }, hatch);
  svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#5a5347", "stroke-width": 3 }, hatch);
  const marker = svgEl("marker", { id: "ov-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
  svgEl("path", { d: "M0 0L10 5L0 10z", fill: "#1d4ed8" }, marker);
  const red = svgEl("marker", { id: "ov-arrow-red", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
  svgEl("path", { d: "M0 0L10 5L0 10z", fill: "#b91c1c" }, red);
  // hit areas (small areas' larger click targets) over the areas, under the pieces
  const hits = svgEl("g", { class: "ov-hits" }, svg);
  const highlight = svgEl("g", { class: "ov-highlight", "pointer-events": "none" }, svg);
  // the pieces: the layer lets clicks through, the pieces themselves take them (their data-at
  // names their area) so their tooltips show
  const tokens = svgEl("g", { class: "ov-tokens", "pointer-events": "none" }, svg);
  // the whole drawing's size (the viewBox changes as the map is zoomed or cropped)
  const width = svg.viewBox.baseVal.width || 768;
  const height = svg.viewBox.baseVal.height || 1104;
  return { svg, areas, anchors, boxes: {}, width, height, layers: { hits, highlight, tokens, defs } };
}
