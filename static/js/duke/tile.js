// One Duke tile drawn as SVG markup: its current side's movement grid (the tile's own square in
// the middle, icons around it) and its name. Coordinates: a 100 x 100 box with the origin at its
// top-left corner. Icons follow the rulebook's look: Move a dot, Jump a ring, Slide a solid
// arrowhead, Jump Slide a hollow one, Strike a star, Command a square frame, Dread a cross,
// Defense a shield.
import { TILES } from "./catalogue.js";

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

const n = (v) => Math.round(v * 100) / 100;

// One icon at cell centre (cx, cy) of size c; `dir` is the screen direction of a slide (y down).
export function iconSvg(icon, cx, cy, c, dir) {
  const r = c * 0.3;
  const sw = n(Math.max(c * 0.11, 1));
  switch (icon) {
    case "move":
      return `<circle class="ic ic-move" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"/>`;
    case "jump":
      return `<circle class="ic ic-jump" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" stroke-width="${sw}"/>`;
    case "slide":
    case "jump_slide": {
      const [dx, dy] = dir || [0, -1];
      const len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len, px = -uy, py = ux;
      const tip = [cx + ux * c * 0.42, cy + uy * c * 0.42];
      const b1 = [cx - ux * c * 0.3 + px * c * 0.36, cy - uy * c * 0.3 + py * c * 0.36];
      const b2 = [cx - ux * c * 0.3 - px * c * 0.36, cy - uy * c * 0.3 - py * c * 0.36];
      const pts = [tip, b1, b2].map((p) => `${n(p[0])},${n(p[1])}`).join(" ");
      return `<polygon class="ic ic-${icon === "slide" ? "slide" : "jump-slide"}" points="${pts}" stroke-width="${sw}"/>`;
    }
    case "strike": {
      const pts = [];
      for (let i = 0; i < 16; i++) {
        const a = (Math.PI / 8) * i - Math.PI / 2;
        const rr = i % 2 ? c * 0.18 : c * 0.42;
        pts.push(`${n(cx + Math.cos(a) * rr)},${n(cy + Math.sin(a) * rr)}`);
      }
      return `<polygon class="ic ic-strike" points="${pts.join(" ")}" stroke-width="${n(sw * 0.8)}"/>`;
    }
    case "command": {
      const h = c * 0.44;
      return `<rect class="ic ic-command" x="${n(cx - h)}" y="${n(cy - h)}" width="${n(2 * h)}" height="${n(2 * h)}" rx="${n(c * 0.08)}" stroke-width="${sw}"/>`;
    }
    case "dread": {
      const h = c * 0.3;
      return `<path class="ic ic-dread" d="M${n(cx - h)} ${n(cy - h)}L${n(cx + h)} ${n(cy + h)}M${n(cx + h)} ${n(cy - h)}L${n(cx - h)} ${n(cy + h)}" stroke-width="${n(sw * 1.4)}"/>`;
    }
    case "defense": {
      const w = c * 0.32, t = cy - c * 0.36, b = cy + c * 0.4;
      return `<path class="ic ic-defense" d="M${n(cx - w)} ${n(t)}H${n(cx + w)}V${n(cy)}Q${n(cx + w)} ${n(b - c * 0.1)} ${n(cx)} ${n(b)}Q${n(cx - w)} ${n(b - c * 0.1)} ${n(cx - w)} ${n(cy)}Z" stroke-width="${sw}"/>`;
    }
    default:
      return "";
  }
}

// The grid of one side of a tile inside the box (x, y, size): `forward` and `right` are the
// screen vectors (y down) of the tile's forward and right-hand directions.
export function gridSvg(kind, side, x, y, size, forward, right) {
  const spec = TILES[kind];
  if (!spec) return "";
  const icons = spec[side === "back" ? "back" : "start"];
  let reach = 2;
  for (const ic of icons) reach = Math.max(reach, Math.abs(ic.dx), Math.abs(ic.dy));
  const cells = 2 * reach + 1;
  const c = size / cells;
  const at = (dx, dy) => [reach + dx * right[0] + dy * forward[0], reach + dx * right[1] + dy * forward[1]];
  const parts = [`<g class="grid">`];
  for (let i = 0; i <= cells; i++) {
    parts.push(`<path class="gridline" d="M${n(x + i * c)} ${n(y)}V${n(y + size)}M${n(x)} ${n(y + i * c)}H${n(x + size)}"/>`);
  }
  parts.push(`<rect class="self" x="${n(x + reach * c + c * 0.18)}" y="${n(y + reach * c + c * 0.18)}" width="${n(c * 0.64)}" height="${n(c * 0.64)}" rx="${n(c * 0.12)}"/>`);
  // frames (Command) first, so the icon sharing their square is drawn on top
  const ordered = [...icons].sort((a, b) => (a.icon === "command" ? -1 : 0) - (b.icon === "command" ? -1 : 0));
  for (const ic of ordered) {
    const [col, row] = at(ic.dx, ic.dy);
    const dir = ic.dir ? [ic.dir[0] * right[0] + ic.dir[1] * forward[0], ic.dir[0] * right[1] + ic.dir[1] * forward[1]] : null;
    parts.push(iconSvg(ic.icon, x + (col + 0.5) * c, y + (row + 0.5) * c, c, dir));
  }
  parts.push("</g>");
  return parts.join("");
}

// Screen right-hand vector for a forward vector (y down): a quarter turn clockwise.
export function rightOf(forward) {
  return [-forward[1], forward[0]];
}

// A whole tile in the 100 x 100 box: `owner` ("light" | "dark" | "terrain"), `label` its name.
export function tileSvg({ kind, side, owner, forward, label, frozen = false }) {
  const cls = `tile tile-${owner} side-${side}${frozen ? " frozen" : ""}`;
  const parts = [`<g class="${cls}">`];
  parts.push(`<rect class="tile-body" x="5" y="5" width="90" height="90" rx="9"/>`);
  if (kind === "mountain") {
    parts.push(`<path class="mountain-shape" d="M14 80 L40 28 L52 48 L62 34 L86 80 Z"/>`);
  } else {
    parts.push(gridSvg(kind, side, 16, 6, 68, forward, rightOf(forward)));
  }
  if (side === "back") parts.push(`<path class="side-mark" d="M83 5 H86 A9 9 0 0 1 95 14 V17 Z"/>`);
  // long names are squeezed to the tile's width (about 9 Latin letters fit at the usual size)
  const fit = String(label).length > 9 ? ` textLength="82" lengthAdjust="spacingAndGlyphs"` : "";
  parts.push(`<text class="tile-name" x="50" y="89.5" text-anchor="middle"${fit}>${esc(label)}</text>`);
  parts.push("</g>");
  return parts.join("");
}
