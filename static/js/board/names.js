// Display names: data names (areas, houses, cards, tokens, tracks, units come from
// /boards/agot2.json in the viewer's language) and the screen's own words (gettext).

import { fmt, gettext, pgettext } from "../i18n.js";
import { h } from "./dom.js";
import { iconRun } from "../icons.js";

export const areaName = (id, data) => (data.areas[id] || {}).name || id;
export const houseName = (id, data) => (data.houses[id] || {}).name || id;
export const tokenName = (id, data) => (data.tokens[id] || {}).name || id;
export const unitName = (id, data) => (data.units || {})[id] || id;
export const trackName = (id, data) => (data.tracks || {})[id] || id;
export const cardName = (id, data) =>
  ((data.house_cards[id] || data.westeros_cards[id] || data.wildling_cards[id]) || {}).name || id;

// The short text printed on a face-up order token: a letter for the type and the modifier.
export function orderShort(token, data) {
  const tok = data.tokens[token];
  if (!tok) return "?";
  const letters = {
    march: pgettext("order token letter: March", "M"),
    defense: pgettext("order token letter: Defense", "D"),
    support: pgettext("order token letter: Support", "S"),
    raid: pgettext("order token letter: Raid", "R"),
    consolidate_power: pgettext("order token letter: Consolidate Power", "C"),
  };
  const mod = tok.strength > 0 ? "+" + tok.strength : tok.strength < 0 ? String(tok.strength) : "";
  return (letters[tok.type] || "?") + mod;
}

export function phaseName(phase) {
  return { planning: gettext("Planning phase"), action: gettext("Action phase"), westeros: gettext("Westeros phase"), over: gettext("Game over") }[phase] || phase;
}

// What a decision is, in words, for "waiting for ..." lines and panel titles.
export function decisionName(kind) {
  const names = {
    place_orders: gettext("placing orders"),
    raven: gettext("using the Messenger Raven"),
    raven_wildling: gettext("looking at the top wildling card"),
    raid: gettext("resolving a Raid order"),
    march: gettext("resolving a March order"),
    support_neutral_attack: gettext("deciding whether to support"),
    support: gettext("deciding whether to support"),
    consolidate: gettext("resolving a Consolidate Power order"),
    muster: gettext("mustering"),
    reduce_armies: gettext("reducing armies to fit supply"),
    bid: gettext("bidding"),
    order_ties: gettext("ordering tied bids"),
    choose: gettext("choosing"),
    select_units: gettext("choosing units"),
    select_card: gettext("choosing a house card"),
    house_card: gettext("choosing a house card"),
    choose_house_card: gettext("choosing a house card"),
    blade: gettext("deciding on the Valyrian Steel Blade"),
    use_blade: gettext("deciding on the Valyrian Steel Blade"),
    support_combat: gettext("deciding whether to support"),
    casualties: gettext("choosing casualties"),
    retreat: gettext("choosing where to retreat"),
    halt: gettext("nothing (the scenario stops here)"),
  };
  return names[kind] || kind.replace(/_/g, " ");
}

// Labels of the options of `choose` decisions and the purposes of bids and selections.
export function optionName(opt, data) {
  if (opt.startsWith("track:")) return trackName(opt.slice(6), data);
  const names = {
    supply: gettext("Supply (adjust supply)"),
    mustering: gettext("Mustering"),
    nothing: gettext("Nothing"),
    clash_of_kings: gettext("Clash of Kings (bid for the tracks)"),
    game_of_thrones: gettext("Game of Thrones (collect power)"),
    no_defense: gettext("No Defense orders this round"),
    no_march_plus_one: gettext("No March +1 orders this round"),
    units: gettext("Lose 2 units"),
    // house card abilities
    none: gettext("None"),
    keep: gettext("Keep it"),
    swap: gettext("Pay 2 power and play another card"),
    cancel: gettext("Cancel that card: the opponent chooses another"),
    top: gettext("Keep it on top"),
    bottom: gettext("Put it at the bottom"),
  };
  if (names[opt]) return names[opt];
  if ((data.tracks || {})[opt]) return trackName(opt, data);
  if ((data.areas || {})[opt]) return areaName(opt, data);
  return opt.replace(/_/g, " ");
}

export function purposeName(purpose, data) {
  if (!purpose) return "";
  const names = {
    wildlings: gettext("Wildlings attack: bid for the Night's Watch"),
    "a-throne-of-blades": cardName("a-throne-of-blades", data),
    "dark-wings-dark-words": cardName("dark-wings-dark-words", data),
    "put-to-the-sword": cardName("put-to-the-sword", data),
    preemptive_raid: cardName("preemptive-raid", data),
    king_beyond_the_wall_other: cardName("a-king-beyond-the-wall", data),
    king_beyond_the_wall_top: cardName("a-king-beyond-the-wall", data),
    destroy_units: gettext("Destroy units"),
    horde_castle: gettext("Destroy units in a castle or stronghold"),
    crow_killers_knights: gettext("Crow Killers: knights become footmen"),
    crow_killers_upgrade: gettext("Crow Killers: footmen you may upgrade to knights"),
    massing_discard: gettext("Massing on the Milkwater: discard a house card"),
    mammoth_recover: gettext("Mammoth Riders: take back a discarded house card"),
    horde_descends: gettext("The Horde Descends: muster in one area"),
    combat_support: gettext("Support in a battle"),
    combat: gettext("Choose your house card"),
    blade: gettext("Valyrian Steel Blade"),
    retreat: gettext("Retreat"),
    combat_swords: gettext("Casualties: the winner's swords"),
    combat_skull: gettext("Casualties: a Tides of Battle skull"),
    combat_ability: gettext("Casualties: a house card ability"),
    combat_supply: gettext("Casualties: retreating over your supply limit"),
    port_capture: gettext("A port taken: how many of your ships replace the enemy's"),
    // the 1st edition
    wildlings_muster_points: gettext("The wildlings win: remove units worth these mustering points"),
    nights_watch_recover: gettext("The Night's Watch wins: you may take back one discarded house card"),
  };
  if (names[purpose]) return names[purpose];
  if ((data.tracks || {})[purpose]) return trackName(purpose, data);
  return cardName(purpose, data);
}

// A Tides of Battle card as its strength and icons: "+2", "+1" and a sword, "+0" and a skull
// (a <span class="tides-name">; the icons are SVG with accessible names, tidesTitle says it in words).
export function tidesName(id, data) {
  const t = (data.tides_cards || {})[id];
  if (!t) return h("span", { class: "tides-name" }, id || "?");
  return h("span", { class: "tides-name", dataset: { tides: id } }, "+" + t.strength,
    t.swords ? [" ", iconRun("sword", t.swords, fmt(gettext("%(n)s sword(s)"), { n: t.swords }))] : null,
    t.fortifications ? [" ", iconRun("tower", t.fortifications, fmt(gettext("%(n)s fortification(s)"), { n: t.fortifications }))] : null,
    t.skulls ? [" ", iconRun("skull", t.skulls, fmt(gettext("%(n)s skull(s): kills an enemy unit"), { n: t.skulls }))] : null);
}

// What a Tides of Battle card does, for a tooltip.
export function tidesTitle(id, data) {
  const t = (data.tides_cards || {})[id];
  if (!t) return "";
  const out = [fmt(gettext("+%(n)s combat strength"), { n: t.strength })];
  if (t.swords) out.push(fmt(gettext("%(n)s sword(s)"), { n: t.swords }));
  if (t.fortifications) out.push(fmt(gettext("%(n)s fortification(s)"), { n: t.fortifications }));
  if (t.skulls) out.push(fmt(gettext("%(n)s skull(s): kills an enemy unit"), { n: t.skulls }));
  return out.join(", ");
}
