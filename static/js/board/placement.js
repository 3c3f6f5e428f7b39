// Where the overlay's pieces go inside their areas. The board's areas are drawn once into a small
// off-screen canvas, each in its own colour, so every spot of the drawing is known to belong to one
// area (the drawn, smoothed outline, not the grid it was made from). A piece is a box; a box is
// placed where it lies wholly inside its own area, clear of the area's name and icons and of the
// area's other pieces, as near as possible to the spot the board suggests. When nothing fits, the
// caller tries again smaller or grouped (see `placeArea`); as a last resort a box keeps its centre
// in its own area and covers as little as it can. All lengths are in the drawing's units.

// drawing units per canvas pixel: fine enough for ports (one cell is 24 units), cheap to scan
const RES = 3;
// pixels kept free along an area's edge, so no halo reaches a neighbour
const MARGIN_PX = 1;  // (the erosion below looks at the 8 neighbours: one pixel)
// how far around its preferred spot a piece is looked for before the whole area is (drawing units)
const NEAR = 40;
// units kept free around a name
const LABEL_PAD = 1.5;

// A colour per area index, far from its neighbours' blends (an edge pixel mixes two colours and
// must not read as a third area).
const colourOf = (i) => [i + 1, (i * 37 + 11) % 256, (i * 91 + 53) % 256];

// The map of the board's areas: {res, W, H, owner: Int16Array (area index + 1 or 0 per pixel),
// ids: [area ids], index: {id: i}, rooms: {} (per area, made on first use)}. Kept on `board`.
export function areaMap(board) {
  if (board.areaMap) return board.areaMap;
  // the whole drawing (not the viewBox, which a zoom or a crop changes)
  const Wu = board.width || 768;
  const Hu = board.height || 1104;
  const W = Math.ceil(Wu / RES);
  const H = Math.ceil(Hu / RES);
  const ids = Object.keys(board.areas);
  const canvas = document.createElement("canvas");
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.scale(1 / RES, 1 / RES);
  ids.forEach((id, i) => {
    const [r, g, b] = colourOf(i);
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fill(new Path2D(board.areas[id].getAttribute("d")), "evenodd");
  });
  const px = ctx.getImageData(0, 0, W, H).data;
  // an area's pixels carry its index + 1 in red and its own green and blue (a blend of two
  // neighbours' colours matches neither); each area's pixel bounds [x0, y0, x1, y1] on the way
  const green = new Int16Array(256).fill(-1);
  const blue = new Int16Array(256).fill(-1);
  ids.forEach((id, i) => { const [, g, b] = colourOf(i); green[i + 1] = g; blue[i + 1] = b; });
  const exact = new Int16Array(W * H);
  const bounds = ids.map(() => [W, H, -1, -1]);
  for (let y = 0, p = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1, p += 1) {
      const q = p * 4;
      const r = px[q];
      if (!r || px[q + 3] !== 255 || px[q + 1] !== green[r] || px[q + 2] !== blue[r]) continue;
      exact[p] = r;
      const b = bounds[r - 1];
      if (x < b[0]) b[0] = x;
      if (x > b[2]) b[2] = x;
      if (y < b[1]) b[1] = y;
      if (y > b[3]) b[3] = y;
    }
  }
  // an area keeps the pixels whose neighbours within MARGIN_PX are its own
  const owner = new Int16Array(W * H);
  for (let y = MARGIN_PX; y < H - MARGIN_PX; y += 1) {
    for (let x = MARGIN_PX, p = y * W + MARGIN_PX; x < W - MARGIN_PX; x += 1, p += 1) {
      const a = exact[p];
      if (!a || exact[p - 1] !== a || exact[p + 1] !== a || exact[p - W] !== a || exact[p + W] !== a
        || exact[p - W - 1] !== a || exact[p - W + 1] !== a || exact[p + W - 1] !== a || exact[p + W + 1] !== a) continue;
      owner[p] = a;
    }
  }
  board.areaMap = { res: RES, W, H, owner, exact, bounds, ids, index: Object.fromEntries(ids.map((id, i) => [id, i])), rooms: {} };
  return board.areaMap;
}

// The boxes (drawing units) nothing may cover: every area's name (a port's anchor), the compass.
// The icons under a name (castle, barrels, crowns) may be covered, as pieces do on the printed board.
// The board gives each box (`data-box`, from the names' measures): measuring the text here would
// make the browser lay out all of it before the first draw.
function labelBoxes(board) {
  if (board.labelBoxes) return board.labelBoxes;
  const out = [];
  const pad = (x0, y0, x1, y1) => out.push([x0 - LABEL_PAD, y0 - LABEL_PAD, x1 + LABEL_PAD, y1 + LABEL_PAD]);
  for (const g of board.svg.querySelectorAll("g.label[data-area], .compass")) {
    if (g.dataset.box) {
      const [x0, y0, x1, y1] = g.dataset.box.split(",").map(Number);
      pad(x0, y0, x1, y1);
      continue;
    }
    for (const e of g.matches(".compass") ? [g] : g.querySelectorAll(":scope > text, :scope > use")) {
      const b = e.getBBox();
      if (b.width && b.height) pad(b.x, b.y, b.x + b.width, b.y + b.height);
    }
  }
  board.labelBoxes = out;
  return out;
}

// The pixels under a name (a global mask, made once).
function namedMask(board) {
  const m = areaMap(board);
  if (m.named) return m.named;
  const named = new Uint8Array(m.W * m.H);
  for (const [bx0, by0, bx1, by1] of labelBoxes(board)) {
    const i0 = Math.max(0, Math.floor(bx0 / RES)), i1 = Math.min(m.W, Math.ceil(bx1 / RES));
    const j0 = Math.max(0, Math.floor(by0 / RES)), j1 = Math.min(m.H, Math.ceil(by1 / RES));
    for (let j = j0; j < j1; j += 1) named.fill(1, j * m.W + i0, j * m.W + i1);
  }
  return (m.named = named);
}

// A summed-area table over the box (x0, y0, w, h) of the canvas of `cell(p)` (0 or 1 per pixel p).
function table(m, x0, y0, w, h, cell) {
  const sat = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y += 1) {
    let row = 0;
    for (let x = 0, p = (y + y0) * m.W + x0; x < w; x += 1, p += 1) {
      row += cell(p);
      sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row;
    }
  }
  return sat;
}

// One area's room: its pixels' bounding box and a summed-area table of the pixels a piece may not
// cover there (another area's, the edge margin, a name); the names' own table on first need.
function room(board, area) {
  const m = areaMap(board);
  if (m.rooms[area] !== undefined) return m.rooms[area];
  if (m.index[area] === undefined) return null;
  const a = m.index[area] + 1;
  const [x0, y0, x1, y1] = m.bounds[a - 1];
  if (x1 < 0) return (m.rooms[area] = null);
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const named = namedMask(board);
  const owner = m.owner;
  // (the table of the pixels a piece may not cover, written out: it is the first draw's main cost)
  const sat = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y += 1) {
    let row = 0;
    const base = (y + 1) * (w + 1);
    const up = y * (w + 1);
    for (let x = 0, p = (y + y0) * m.W + x0; x < w; x += 1, p += 1) {
      if (owner[p] !== a || named[p]) row += 1;
      sat[base + x + 1] = sat[up + x + 1] + row;
    }
  }
  const r = { x0, y0, w, h, sat,
    free: (i, j) => owner[(j + y0) * m.W + i + x0] === a && !named[(j + y0) * m.W + i + x0],
    get names() { return this._names || (this._names = table(m, x0, y0, w, h, (p) => named[p])); } };
  return (m.rooms[area] = r);
}

const hits = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
const gap = (a, b) => Math.hypot(Math.max(0, a[0] - b[2], b[0] - a[2]), Math.max(0, a[1] - b[3], b[1] - a[3]));
const overlap = (a, b) => Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));

// The place of a box of `w` x `h` units in `area`: its centre {x, y, box} nearest `prefer` where
// it covers nothing it may not and meets none of `taken`; null when there is none. With `force`,
// the best there is: its centre in the area, covering as little as it can.
export function placeBox(board, area, w, h, prefer, taken, force = false) {
  const r = room(board, area);
  if (!r) return null;
  const pw = Math.ceil(w / RES);
  const ph = Math.ceil(h / RES);
  const S = r.w + 1;
  const blockedIn = (i, j) => r.sat[(j + ph) * S + i + pw] - r.sat[j * S + i + pw] - r.sat[(j + ph) * S + i] + r.sat[j * S + i];
  let best = null;
  let bestScore = Infinity;
  const consider = (i, j, extra) => {
    const x = (r.x0 + i) * RES + (pw * RES) / 2;
    const y = (r.y0 + j) * RES + (ph * RES) / 2;
    const box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2];
    // near a box (an order beside its row): the gap to it counts, then the spot it prefers
    const d = prefer.near ? 4 * gap(box, prefer.near) + 0.3 * Math.hypot(x - prefer.x, y - prefer.y) : Math.hypot(x - prefer.x, y - prefer.y);
    let score = d + extra;
    if (score >= bestScore) return;
    if (!force) {
      if (taken.some((t) => hits(box, t))) return;
    } else {
      score += taken.reduce((s, t) => s + overlap(box, t), 0) * 40;
      if (score >= bestScore) return;
    }
    best = { x, y, box };
    bestScore = score;
  };
  if (!force) {
    // near the spot it prefers first (most pieces fit there); the whole area only if nothing does
    const scan = (i0, j0, i1, j1) => {
      for (let j = Math.max(0, j0); j <= Math.min(r.h - ph, j1); j += 1) {
        for (let i = Math.max(0, i0); i <= Math.min(r.w - pw, i1); i += 1) if (blockedIn(i, j) === 0) consider(i, j, 0);
      }
    };
    const ci = Math.round(prefer.x / RES - r.x0 - pw / 2);
    const cj = Math.round(prefer.y / RES - r.y0 - ph / 2);
    const near = Math.ceil(NEAR / RES);
    scan(ci - near, cj - near, ci + near, cj + near);
    if (best && !prefer.near) return best;
    if (prefer.near) {
      // beside a box (an order by its row): around that box first
      const [bx0, by0, bx1, by1] = prefer.near.map((v) => v / RES);
      scan(Math.floor(bx0 - r.x0 - pw - 2), Math.floor(by0 - r.y0 - ph - 2), Math.ceil(bx1 - r.x0 + 2), Math.ceil(by1 - r.y0 + 2));
      if (best) return best;
    }
    scan(0, 0, r.w, r.h);
    return best;
  }
  // the last resort: the box may leave the area's room, but its centre stays on a free pixel and
  // it covers no name (names cost far more than the edge)
  const sum = (t, ii, jj, iw, jh) => t[(jj + jh) * S + ii + iw] - t[jj * S + ii + iw] - t[(jj + jh) * S + ii] + t[jj * S + ii];
  for (let j = -ph; j < r.h; j += 1) {
    for (let i = -pw; i < r.w; i += 1) {
      const ci = i + (pw >> 1);
      const cj = j + (ph >> 1);
      if (ci < 0 || cj < 0 || ci >= r.w || cj >= r.h || !r.free(ci, cj)) continue;
      const ii = Math.max(0, i), jj = Math.max(0, j);
      const iw = Math.min(r.w, i + pw) - ii, jh = Math.min(r.h, j + ph) - jj;
      const outside = pw * ph - iw * jh;
      consider(i, j, (sum(r.sat, ii, jj, iw, jh) + outside + 50 * sum(r.names, ii, jj, iw, jh)) * RES * RES * 2);
    }
  }
  if (best) return best;
  // an area without one free pixel (covered by its own name): its middle
  const x = (r.x0 + r.w / 2) * RES;
  const y = (r.y0 + r.h / 2) * RES;
  return { x, y, box: [x - w / 2, y - h / 2, x + w / 2, y + h / 2] };
}

// Places one area's pieces. `pieces(level)` gives, for a level of crowding (0 = as drawn, then
// grouped, then smaller and smaller), the list of {key, w, h, prefer(placed) -> {x, y}}; the first
// level at which every piece fits wins; past the last, the last level's pieces go where they fit
// best. Returns {level, at: {key: {x, y, box}}}.
export function placeArea(board, area, pieces, levels) {
  let last = null;
  for (let level = 0; level < levels; level += 1) {
    const list = pieces(level);
    for (const order of [list, [...list].reverse()]) {
      const at = {};
      const taken = [];
      let ok = true;
      for (const p of order) {
        const q = placeBox(board, area, p.w, p.h, p.prefer(at), taken);
        if (!q) { ok = false; break; }
        at[p.key] = q;
        taken.push(q.box);
      }
      if (ok) return { level, at };
      if (list.length < 2) break;
    }
    last = list;
  }
  const at = {};
  const taken = [];
  for (const p of last) {
    const q = placeBox(board, area, p.w, p.h, p.prefer(at), taken) || placeBox(board, area, p.w, p.h, p.prefer(at), taken, true);
    if (!q) continue;
    at[p.key] = q;
    taken.push(q.box);
  }
  return { level: levels - 1, at };
}
