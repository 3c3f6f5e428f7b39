// The map follows the decision: on a phone, where the decision sheet is fixed over the bottom of
// the screen, the areas a decision is about (the areas to choose from, or the chosen one and its
// targets) are brought into the part of the map above the sheet, zoomed in as far as they fit
// (never past `maxZoom`), and the page is scrolled so the map starts at the top of the screen
// (the site's bar and the game's head scroll away while a decision needs the map).

// Is the sheet fixed over the screen (a phone), and open?
export function sheetCovers(sheet) {
  return getComputedStyle(sheet).position === "fixed" && !sheet.classList.contains("collapsed");
}

// The CSS pixels at the bottom of the map hidden under the sheet.
export function hiddenUnderSheet(svg, sheet) {
  if (!sheetCovers(sheet)) return 0;
  const r = svg.getBoundingClientRect();
  return Math.max(0, r.bottom - Math.max(r.top, sheet.getBoundingClientRect().top));
}

// The union of the areas' drawn boxes (drawing units), or null.
function boxOf(board, areas, pad) {
  const boxes = areas.map((a) => board.areas[a] && (board.boxes[a] || (board.boxes[a] = board.areas[a].getBBox()))).filter(Boolean);
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.x)) - pad;
  const y0 = Math.min(...boxes.map((b) => b.y)) - pad;
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
  const y1 = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
  return { x0, y0, x1, y1 };
}

// Brings `areas` into the map's part in sight. `scroll`: scroll the page so the map starts at the
// top of the screen first (phones). `minZoom`: zoom in at least this far (a battle). Leaves the
// map alone when the areas are already in sight and no zoom is asked for.
export function focusAreas(board, pz, mapWrap, sheet, areas, { scroll = false, minZoom = 1, maxZoom = 3 } = {}) {
  const b = boxOf(board, areas, 12);
  if (!b || !pz) return false;
  if (scroll) {
    const top = mapWrap.getBoundingClientRect().top;
    if (Math.abs(top) > 2) window.scrollTo({ top: window.scrollY + top, behavior: "instant" });
  }
  const r = board.svg.getBoundingClientRect();
  const controls = mapWrap.querySelector(".map-controls");
  const cr = controls && getComputedStyle(controls).position === "static" ? controls.getBoundingClientRect() : null;
  const top = Math.max(r.top, 0, cr ? cr.bottom : -Infinity);
  let bottom = Math.min(r.bottom, window.innerHeight);
  if (sheetCovers(sheet)) bottom = Math.min(bottom, sheet.getBoundingClientRect().top);
  if (bottom - top < 60) return false;
  // already in sight: nothing moves
  const m = board.svg.getScreenCTM();
  if (m && minZoom <= pz.zoom) {
    const p0 = new DOMPoint(b.x0, b.y0).matrixTransform(m);
    const p1 = new DOMPoint(b.x1, b.y1).matrixTransform(m);
    if (p0.x >= r.left - 1 && p1.x <= r.right + 1 && p0.y >= top - 1 && p1.y <= bottom + 1) return false;
  }
  const home = pz.home;
  const ppu0 = Math.min(r.width / home.w, r.height / home.h);  // pixels per unit, whole board
  const fit = Math.min((0.94 * r.width) / ppu0 / (b.x1 - b.x0), (0.94 * (bottom - top)) / ppu0 / (b.y1 - b.y0));
  const zoom = Math.max(1, minZoom, Math.min(maxZoom, fit));
  pz.show((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2, zoom, r.width / 2, (top + bottom) / 2 - r.top);
  return true;
}
