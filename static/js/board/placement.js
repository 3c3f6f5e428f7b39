// Where the overlay's pieces go inside their areas. The board's areas are drawn once into a small
// off-screen canvas, each in its own colour, so every spot of the drawing is known to belong to one
// area (the drawn, smoothed outline, not the grid it was made from). A piece is a box; a box is
// placed where it lies wholly inside its own area, clear of the area's name and icons and of the
// area's other pieces, as near as possible to the spot the board suggests. When nothing fits, the
// caller tries again smaller or grouped (see `placeArea`); as a last resort a box keeps its centre
// in its own area and covers as little as it can. All lengths are in the drawing's units.

// drawing units per canvas pixel: fine enough for ports (one cell is 24 units), cheap to scan
const RES = 2;
// pixels kept free along an area's edge, so no halo reaches a neighbour
const MARGIN_PX = 1;
// units kept free around a name
const LABEL_PAD = 1.5;

// A colour per area index, far from its neighbours' blends (an edge pixel mixes two colours and
// must not read as a third area).
const colourOf = (i) => [i + 1, (i * 37 + 11) % 256, (i * 91 + 53) % 256];

// The map of the board's areas: {res, W, H, owner: Int16Array (area index + 1 or 0 per pixel),
// ids: [area ids], index: {id: i}, rooms: {} (per area, made on first use)}. Kept on `board`.
export function areaMap(board) {
  if (board.areaMap) return board.areaMap;
  const vb = board.svg.viewBox.baseVal;
  const Wu = vb && vb.width ? vb.width : board.width || 768;
  const Hu = vb && vb.height ? vb.height : 1104;
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
  const byColour = new Map(ids.map((id, i) => [colourOf(i).join(","), i + 1]));
  const exact = new Int16Array(W * H);
  for (let p = 0, q = 0; p < exact.length; p += 1, q += 4) {
    if (px[q + 3] === 255) exact[p] = byColour.get(px[q] + "," + px[q + 1] + "," + px[q + 2]) || 0;
  }
  // an area keeps the pixels whose neighbours within MARGIN_PX are its own
  const owner = new Int16Array(W * H);
  for (let y = MARGIN_PX; y < H - MARGIN_PX; y += 1) {
    for (let x = MARGIN_PX; x < W - MARGIN_PX; x += 1) {
      const a = exact[y * W + x];
      if (!a) continue;
      let ok = true;
      for (let dy = -MARGIN_PX; dy <= MARGIN_PX && ok; dy += 1) {
        for (let dx = -MARGIN_PX; dx <= MARGIN_PX; dx += 1) {
          if (exact[(y + dy) * W + x + dx] !== a) { ok = false; break; }
        }
      }
      if (ok) owner[y * W + x] = a;
    }
  }
  // each area's pixel bounds [x0, y0, x1, y1]
  const bounds = ids.map(() => [W, H, -1, -1]);
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const a = exact[y * W + x];
      if (!a) continue;
      const b = bounds[a - 1];
      if (x < b[0]) b[0] = x;
      if (x > b[2]) b[2] = x;
      if (y < b[1]) b[1] = y;
      if (y > b[3]) b[3] = y;
    }
  }
  board.areaMap = { res: RES, W, H, owner, exact, bounds, ids, index: Object.fromEntries(ids.map((id, i) => [id, i])), rooms: {} };
  return board.areaMap;
}

// The boxes (drawing units) nothing may cover: every area's name (a port's anchor), the compass.
// The icons under a name (castle, barrels, crowns) may be covered, as pieces do on the printed board.
function labelBoxes(board) {
  if (board.labelBoxes) return board.labelBoxes;
  const out = [];
  for (const g of board.svg.querySelectorAll("g.label[data-area] text, g.label[data-area] > use, .compass")) {
    const b = g.getBBox();
    if (b.width && b.height) out.push([b.x - LABEL_PAD, b.y - LABEL_PAD, b.x + b.width + LABEL_PAD, b.y + b.height + LABEL_PAD]);
  }
  board.labelBoxes = out;
  return out;
}

// One area's room: its pixels' bounding box and a summed-area table of the pixels a piece may not
// cover there (another area's, the edge margin, a name).
function room(board, area) {
  const m = areaMap(board);
  if (m.rooms[area]) return m.rooms[area];
  if (m.index[area] === undefined) return null;
  const a = m.index[area] + 1;
  const [x0, y0, x1, y1] = m.bounds[a - 1];
  if (x1 < 0) return (m.rooms[area] = null);
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const blocked = new Uint8Array(w * h);
  const named = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) blocked[y * w + x] = m.owner[(y + y0) * m.W + x + x0] === a ? 0 : 1;
  }
  for (const [bx0, by0, bx1, by1] of labelBoxes(board)) {
    const i0 = Math.max(0, Math.floor(bx0 / RES) - x0), i1 = Math.min(w, Math.ceil(bx1 / RES) - x0);
    const j0 = Math.max(0, Math.floor(by0 / RES) - y0), j1 = Math.min(h, Math.ceil(by1 / RES) - y0);
    for (let j = j0; j < j1; j += 1) for (let i = i0; i < i1; i += 1) blocked[j * w + i] = named[j * w + i] = 1;
  }
  // summed-area tables: of the pixels a piece may not cover, and of the names alone
  const table = (cells) => {
    const sat = new Int32Array((w + 1) * (h + 1));
    for (let y = 0; y < h; y += 1) {
      let row = 0;
      for (let x = 0; x < w; x += 1) {
        row += cells[y * w + x];
        sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row;
      }
    }
    return sat;
  };
  return (m.rooms[area] = { x0, y0, w, h, sat: table(blocked), names: table(named), blocked });
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
    for (let j = 0; j + ph <= r.h; j += 1) {
      for (let i = 0; i + pw <= r.w; i += 1) if (blockedIn(i, j) === 0) consider(i, j, 0);
    }
    return best;
  }
  // the last resort: the box may leave the area's room, but its centre stays on a free pixel and
  // it covers no name (names cost far more than the edge)
  const sum = (t, ii, jj, iw, jh) => t[(jj + jh) * S + ii + iw] - t[jj * S + ii + iw] - t[(jj + jh) * S + ii] + t[jj * S + ii];
  for (let j = -ph; j < r.h; j += 1) {
    for (let i = -pw; i < r.w; i += 1) {
      const ci = i + (pw >> 1);
      const cj = j + (ph >> 1);
      if (ci < 0 || cj < 0 || ci >= r.w || cj >= r.h || r.blocked[cj * r.w + ci]) continue;
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
