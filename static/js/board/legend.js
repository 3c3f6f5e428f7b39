// The map's legend: every symbol the overlay draws, each drawn by the overlay's own functions
// into a small SVG beside its translated meaning, and the houses in play with their letter and
// colour. `legendPanel(view, data)` -> an element (<div class="map-legend">) for the map's
// "Legend" toggle (static/js/board/screen.js). Only what the edition has (`data.has`).

import { svgEl } from "./svgboard.js";
import { drawOrder, drawUnit, drawSymbol } from "./overlay.js";
import { drawRecentSymbol } from "./recent.js";
import { h, houseChip } from "./dom.js";
import { gettext } from "../i18n.js";

function icon(draw, w = 34) {
  const svg = svgEl("svg", { viewBox: `${-w / 2} -16 ${w} 32`, width: w, height: 32, "aria-hidden": "true", class: "legend-icon" });
  draw(svg);
  return svg;
}

function row(svgIcon, text) {
  return h("li", {}, svgIcon, h("span", {}, text));
}

export function legendPanel(view, data) {
  const inPlay = Array.isArray(view.houses) && view.houses.length ? view.houses : Object.keys(data.houses);
  const house = view.viewer && inPlay.includes(view.viewer) ? view.viewer : inPlay[0];
  const orderTok = Object.keys(data.tokens).find((t) => !data.tokens[t].special);
  const specialTok = Object.keys(data.tokens).find((t) => data.tokens[t].special);
  // what the edition has (the 1st edition: no ports, garrisons or siege engines)
  const has = data.has || { ports: true, garrisons: true, siege_engines: true };
  const rows = [
    row(icon((s) => drawUnit(s, 0, 0, house, "footman", false, data)), gettext("Footman (strength 1)")),
    row(icon((s) => drawUnit(s, 0, 0, house, "knight", false, data)), gettext("Knight (strength 2)")),
    row(icon((s) => drawUnit(s, 0, 0, house, "ship", false, data)), has.ports ? gettext("Ship (strength 1, at sea and in ports)") : gettext("Ship (strength 1, at sea)")),
    has.siege_engines ? row(icon((s) => drawUnit(s, 0, 0, house, "siege_engine", false, data)), gettext("Siege engine (strength 4 attacking a castle or stronghold, else 0)")) : null,
    row(icon((s) => drawUnit(s, 0, 0, house, "footman", true, data)), gettext("Routed unit: lies down, cannot march or support this round")),
    row(icon((s) => drawUnit(s, 0, 0, house, "footman", false, data, 3)), gettext("3 units of one type in a crowded area")),
    row(icon((s) => drawSymbol(s, "badge", house, data)), gettext("The house holding the units: its letter on its shield")),
    row(icon((s) => drawOrder(s, { x: 0, y: 0 }, house, null, data)), gettext("Order token, face down")),
    row(icon((s) => drawOrder(s, { x: 0, y: 0 }, house, orderTok, data)), gettext("Order token, revealed: M March, D Defense, S Support, R Raid, C Consolidate Power")),
    row(icon((s) => drawOrder(s, { x: 0, y: 2 }, house, specialTok, data)), gettext("Special order (gold, with a star)")),
    row(icon((s) => drawSymbol(s, "power", house, data)), gettext("Power token: the house holds the area without units")),
    has.garrisons ? row(icon((s) => drawSymbol(s, "garrison", house, data, 2)), gettext("Garrison and its strength (home areas)")) : null,
    row(icon((s) => drawSymbol(s, "neutral", null, data, 5)), gettext("Neutral force and its strength")),
  ];
  const areas = [
    ["hl-selectable", gettext("You can choose this area")],
    ["hl-target", gettext("A legal destination")],
    ["hl-selected", gettext("The area you chose")],
    ["hl-combat", gettext("The battle in progress")],
    ["hl-blocked", gettext("Out of play in this game")],
  ].map(([cls, text]) => row(icon((s) => svgEl("rect", { x: -14, y: -10, width: 28, height: 20, rx: 3, class: cls }, s)), text));
  const moves = [
    ["march", gettext("A march, with the units it carried")],
    ["attack", gettext("A march into battle")],
    ["battle", gettext("A battle, with the winner's shield")],
    ["raid", gettext("A Raid and the order it removed")],
    ["muster", gettext("Units mustered")],
  ].map(([kind, text]) => row(icon((s) => drawRecentSymbol(s, kind, house, data), 48), text));
  const houses = inPlay.map((hid) => h("li", {}, houseChip(hid, data)));
  return h("div", { class: "map-legend", id: "map-legend", role: "region", "aria-label": gettext("Legend") },
    h("h3", {}, gettext("Legend")),
    h("ul", { class: "legend-list" }, rows.filter(Boolean)),
    h("h4", {}, gettext("The last moves (faded while orders are placed)")),
    h("ul", { class: "legend-list" }, moves),
    h("h4", {}, gettext("Areas")),
    h("ul", { class: "legend-list" }, areas),
    h("h4", {}, gettext("Houses")),
    h("ul", { class: "legend-houses" }, houses));
}
