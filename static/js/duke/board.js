// The 6x6 board as one SVG: squares (each a focusable button), tiles with their current side's
// grid, the Mountain and the Dragon, and highlights (selection, legal targets, last move, Guard).
import { allSquares, bottomSeat, facingVector, toScreen } from "./geometry.js";
import { esc, tileSvg } from "./tile.js";
import { fmt, gettext, seatName, tileName } from "./i18n.js";

export const CELL = 100;
export const MARGIN = 22;

function squareLabel(square, tile, view, viewer, lang, target) {
  const parts = [square];
  if (tile) {
    const who = tile.owner === viewer ? gettext("your") : seatName(tile.owner);
    const side = tile.side === "back" ? gettext("back side") : gettext("start side");
    parts.push(`${who} ${tileName(tile.kind, lang)} (${side})`);
    if (tile.frozen) parts.push(gettext("frozen"));
  } else if (view.mountain === square) parts.push(tileName("mountain", lang));
  else if (view.dragon && view.dragon.square === square) parts.push(tileName("dragon", lang));
  else parts.push(gettext("empty"));
  if (target) parts.push(targetLabel(target));
  return parts.join(", ");
}

export function targetLabel(kind) {
  return {
    move: gettext("move here"),
    capture: gettext("capture"),
    strike: gettext("strike"),
    "command-piece": gettext("command this tile"),
    "command-to": gettext("command it here"),
    place: gettext("place here"),
    setup: gettext("set up here"),
  }[kind] || "";
}

function lastMoveSquares(view) {
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i];
    if (e.type === "move") return [e.frm, e.to];
    if (e.type === "strike") return [e.frm, e.target];
    if (e.type === "command") return [e.frm, e.piece, e.to];
    if (e.type === "place") return [e.square];
    if (e.type === "summon") return [e.frm, e.to];
    if (e.type === "divine_choose") return [e.square];
    if (e.type === "setup") return [e.duke, ...e.footmen];
  }
  return [];
}

function highlightSvg(kind) {
  switch (kind) {
    case "capture":
      return `<rect class="hl hl-capture" x="6" y="6" width="88" height="88" rx="10"/>`;
    case "strike":
      return `<g class="hl hl-strike"><circle cx="50" cy="50" r="30"/><path d="M50 12V32M50 68V88M12 50H32M68 50H88"/></g>`;
    case "command-piece":
      return `<rect class="hl hl-command" x="6" y="6" width="88" height="88" rx="10"/>`;
    default:
      return `<circle class="hl hl-${kind}" cx="50" cy="50" r="15"/>`;
  }
}

// The board's SVG markup.
// opts: {view, viewer, lang, ui, targets: {square: kind}, acting: Set, ghosts: {square: kind},
//        focus: square with tabindex 0}
export function boardSvg({ view, viewer, lang, ui, targets, acting, ghosts = {}, focus }) {
  const bottom = bottomSeat(viewer);
  const size = 6 * CELL;
  const tiles = Object.fromEntries(view.tiles.map((t) => [t.square, t]));
  const last = new Set(lastMoveSquares(view));
  const guardSquare = view.guard ? view.tiles.find((t) => t.owner === view.guard && t.kind === "duke")?.square : null;
  const out = [
    `<svg class="duke-board" viewBox="0 0 ${size + MARGIN} ${size + MARGIN}" role="group" aria-label="${esc(gettext("The Duke: board"))}">`,
    `<rect class="board-bg" x="${MARGIN}" y="0" width="${size}" height="${size}" rx="6"/>`,
  ];
  for (let i = 0; i < 6; i++) {
    const file = "abcdef"[bottom === "dark" ? 5 - i : i];
    const rank = bottom === "dark" ? i + 1 : 6 - i;
    out.push(`<text class="coord" x="${MARGIN + i * CELL + CELL / 2}" y="${size + 17}" text-anchor="middle">${file}</text>`);
    out.push(`<text class="coord" x="${MARGIN / 2}" y="${i * CELL + CELL / 2 + 6}" text-anchor="middle">${rank}</text>`);
  }
  for (const sq of allSquares()) {
    const { col, row } = toScreen(sq, bottom);
    const t = tiles[sq];
    const target = targets[sq];
    const cls = ["sq", (col + row) % 2 ? "sq-dark" : "sq-light"];
    if (last.has(sq)) cls.push("last");
    if (ui.frm === sq || ui.piece === sq || ui.duke === sq || ui.first === sq) cls.push("selected");
    if (acting.has(sq)) cls.push("acting");
    if (target) cls.push("target");
    const label = squareLabel(sq, t, view, viewer, lang, target);
    out.push(
      `<g class="${cls.join(" ")}" data-square="${sq}" transform="translate(${MARGIN + col * CELL} ${row * CELL})" ` +
        `role="button" tabindex="${sq === focus ? 0 : -1}" aria-label="${esc(label)}">`,
      `<rect class="sq-bg" width="${CELL}" height="${CELL}"/>`,
    );
    if (t) {
      const forward = facingVector(t.owner === "light" ? "n" : "s", bottom);
      out.push(tileSvg({ kind: t.kind, side: t.side, owner: t.owner, forward, label: tileName(t.kind, lang), frozen: t.frozen }));
    } else if (view.mountain === sq) {
      out.push(tileSvg({ kind: "mountain", side: "start", owner: "terrain", forward: [0, -1], label: tileName("mountain", lang) }));
    } else if (view.dragon && view.dragon.square === sq) {
      const d = view.dragon;
      out.push(
        tileSvg({
          kind: "dragon",
          side: d.enraged ? "back" : "start",
          owner: "terrain",
          forward: facingVector(d.facing, bottom),
          label: tileName("dragon", lang),
        }),
      );
    } else if (ghosts[sq]) {
      out.push(`<g class="ghost">${tileSvg({ kind: ghosts[sq], side: "start", owner: viewer || "light", forward: [0, -1], label: tileName(ghosts[sq], lang) })}</g>`);
    }
    if (sq === guardSquare) out.push(`<rect class="guard-ring" x="3" y="3" width="94" height="94" rx="11"/>`);
    if (target) out.push(highlightSvg(target));
    out.push(`<rect class="focus-ring" x="2" y="2" width="96" height="96" rx="12"/>`, `</g>`);
  }
  out.push("</svg>");
  return out.join("");
}
