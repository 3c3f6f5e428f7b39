// The board areas each game log line highlights (hovered, focused or tapped): the areas the line
// names (log[].areas), and for the lines of a battle or a Raid that name none themselves (a card
// chosen, the cards revealed, the Blade, casualties, a pillage...) the battle's or the Raid's
// areas. The events the lines tell (view.events, numbered from view.events_from) say which line
// belongs to which.

const IN_BATTLE = new Set(["combat_support", "support_declared", "combat_base", "house_card_chosen", "house_cards_revealed", "house_card_replaced",
  "tides_drawn", "blade_used", "blade_redraw", "tides_revealed", "house_card_ability", "combat_result", "casualties", "units_destroyed",
  "unit_destroyed", "retreat_impossible", "garrison_destroyed", "house_cards_discarded", "house_cards_recovered", "power_lost",
  "power_regained", "track_moved", "combat_cleanup", "combat_end"]);
export function lineAreas(log, view) {
  const events = (view && view.events) || [];
  const from = (view && view.events_from) || 0;
  let battle = null;
  let raid = null;
  return log.map((line) => {
    const own = (line.areas || []).filter((a) => typeof a === "string");
    const ev = events[line.n - from];
    const kind = ev && ev.kind;
    if (kind === "combat_started" || kind === "neutral_attack") battle = own;
    const inherited = !own.length && kind === "pillage" ? raid : !own.length && battle && IN_BATTLE.has(kind) ? battle : null;
    if (kind === "raid") raid = own;
    if (kind === "combat_end" || kind === "orders_revealed") battle = null;
    return own.length ? own : inherited || [];
  });
}

