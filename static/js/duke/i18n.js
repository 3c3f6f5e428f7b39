// Translation helpers for the Duke's board: Django's JavaScript catalogue (window.gettext, loaded
// by the page from /jsi18n/) when present, English otherwise. Tile names come from the tile
// catalogue in both languages.
import { TILES } from "./catalogue.js";

export function gettext(msgid) {
  return typeof window !== "undefined" && window.gettext ? window.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, n) {
  if (typeof window !== "undefined" && window.ngettext) return window.ngettext(singular, plural, n);
  return n === 1 ? singular : plural;
}

// fmt("%(seat)s to move", {seat: "Light"}) -> "Light to move"
export function fmt(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => (key in params ? String(params[key]) : ""));
}

export function tileName(kind, lang) {
  const t = TILES[kind];
  if (!t) return kind;
  return t.names[lang === "zh-hans" ? "zh-hans" : "en"] || t.names.en;
}

export function seatName(seat) {
  if (seat === "light") return gettext("Light");
  if (seat === "dark") return gettext("Dark");
  return seat || "";
}

export function iconName(icon) {
  return {
    move: gettext("Move"),
    jump: gettext("Jump"),
    slide: gettext("Slide"),
    jump_slide: gettext("Jump Slide"),
    strike: gettext("Strike"),
    command: gettext("Command"),
    dread: gettext("Dread"),
    defense: gettext("Defense"),
  }[icon] || icon;
}
