// The how-to-play page (templates/help/how_to_play.html): its board excerpts are drawn by the game
// screen's own code. Each `figure[data-excerpt]` gets the board SVG (one fetch, cached) cropped to
// a part of Westeros, with a made-up but legal-looking position drawn over it by the overlay
// (pieces, orders, the last moves, a battle); `[data-legend]` gets the map's legend.

import { loadBoard } from "./board/svgboard.js";
import { drawOverlay } from "./board/overlay.js";
import { drawRecent } from "./board/recent.js";
import { legendPanel } from "./board/legend.js";
import { catalogueReady } from "./i18n.js";

const BOARD = "agot2";
const HOUSES = ["stark", "lannister", "baratheon"];
const u = (...types) => types.map((type) => ({ type, routed: false }));
const order = (house, token) => ({ house, token });

// the positions shown, each with the part of the board (viewBox) it is cropped to
const EXCERPTS = {
  pieces: {
    box: "170 30 598 290",
    view: {
      phase: "action",
      units: {
        winterfell: { house: "stark", units: u("knight", "footman", "footman") },
        "white-harbor": { house: "stark", units: u("footman") },
        "the-shivering-sea": { house: "stark", units: u("ship") },
      },
      orders: { winterfell: order("stark", "march-plus-one"), "white-harbor": order("stark", "support"), "the-shivering-sea": order("stark", "raid") },
      power_tokens: { karhold: "stark" },
      garrisons: { winterfell: { house: "stark", strength: 2 } },
    },
  },
  moves: {
    box: "110 540 600 260",
    view: {
      phase: "action",
      units: {
        lannisport: { house: "lannister", units: u("footman") },
        "searoad-marches": { house: "lannister", units: u("knight") },
        "stoney-sept": { house: "lannister", units: u("footman") },
        blackwater: { house: "baratheon", units: u("footman") },
        "crackclaw-point": { house: "baratheon", units: u("knight", "footman") },
      },
      garrisons: { lannisport: { house: "lannister", strength: 2 }, dragonstone: { house: "baratheon", strength: 2 } },
      recent: { round: 2, marks: [
        { k: "raid", h: "lannister", from: "stoney-sept", to: "blackwater", token: "consolidate-power" },
        { k: "march", h: "baratheon", from: "dragonstone", to: "crackclaw-point", units: ["knight", "footman"] },
        { k: "march", h: "lannister", from: "lannisport", to: "searoad-marches", units: ["knight"] },
      ] },
    },
  },
  battle: {
    box: "190 340 420 190",
    view: {
      phase: "action",
      units: {
        seagard: { house: "lannister", units: u("knight", "knight", "footman") },
        "the-twins": { house: "stark", units: u("knight", "footman") },
        "the-fingers": { house: "baratheon", units: u("knight") },
      },
      orders: { seagard: order("lannister", "march"), "the-twins": order("stark", "defense-plus-one"), "the-fingers": order("baratheon", "support") },
      combat: { area: "the-twins", origin: "seagard", attacker: "lannister", defender: "stark",
        supports: [{ house: "baratheon", area: "the-fingers", side: "attacker" }] },
    },
  },
};

async function main() {
  const figures = [...document.querySelectorAll("figure[data-excerpt]")];
  const legend = document.querySelector("[data-legend]");
  if (!figures.length && !legend) return;
  const lang = document.documentElement.lang.startsWith("zh") ? "zh-hans" : "en";
  const [text, data] = await Promise.all([
    fetch(`/boards/${BOARD}.svg?lang=${lang === "zh-hans" ? "zh" : "en"}`).then((r) => r.text()),
    fetch(`/boards/${BOARD}.json?lang=${lang}`).then((r) => r.json()),
    catalogueReady(),
  ]);
  for (const fig of figures) {
    const spec = EXCERPTS[fig.dataset.excerpt];
    const holder = fig.querySelector(".excerpt-holder");
    if (!spec || !holder) continue;
    const board = await loadBoard(holder, lang, text, BOARD);
    board.svg.removeAttribute("id");  // one board id on the page is enough
    board.svg.setAttribute("viewBox", spec.box);
    board.svg.setAttribute("aria-hidden", "true");
    board.svg.querySelectorAll("[tabindex]").forEach((e) => e.removeAttribute("tabindex"));
    const view = { houses: HOUSES, viewer: null, ...spec.view };
    drawOverlay(board, view, data, { under: (layer, centre, anchor) => drawRecent(layer, view, data, centre, anchor) });
    fig.dataset.drawn = "1";
  }
  if (legend) legend.replaceChildren(legendPanel({ houses: HOUSES, viewer: null }, data));
  document.body.dataset.helpReady = "1";
}

main().catch((err) => console.error("the board excerpts could not be drawn", err));
