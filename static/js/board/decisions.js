// One controller per kind of pending decision, built from that decision's `options`.
// A controller says which areas are clickable (`selectable`) or highlighted as destinations
// (`targets`), reacts to clicks on the map (`onArea`), draws its panel (`panel()`) and sends the
// action through `ctx.send`. Draft orders and moves are drawn by the overlay.
//
// ctx = {view, data, me, send(action) -> Promise, rerender(), previous, keep(value)}; `previous` is
// the face-down choice just taken back for this decision (face_down.js), or the draft kept for it
// across a reload of the page (drafts.js), to start from; `keep` keeps a draft so (the orders being
// placed, a march's moves, a mustering's units: what takes several taps before it is sent).

import { h, houseChip } from "./dom.js";
import { svgEl } from "./svgboard.js";
import { UNIT_PATHS } from "./overlay.js";
import { fmt, fmtNodes, gettext, labelled, listOf } from "../i18n.js";
import { icon, iconRun } from "../icons.js";
import { areaName, cardName, decisionName, houseName, optionName, orderShort, purposeName, tidesName, tidesTitle, tokenName, trackName, unitName } from "./names.js";

const UNIT_ORDER = ["footman", "knight", "siege_engine", "ship"];
const COST = { footman: 1, knight: 2, ship: 1, siege_engine: 2 };

function title(text) {
  return h("h3", { class: "decision-title" }, text);
}

// A small ship (the board's own silhouette, SVG: no emoji font needed) with a spoken label.
function shipIcon(label) {
  const s = svgEl("svg", { viewBox: "-12 -12 24 24", width: 18, height: 18, role: "img", "aria-label": label, class: "inline-icon" });
  svgEl("title", {}, s).textContent = label;
  svgEl("path", { d: UNIT_PATHS.ship, fill: "currentColor" }, s);
  return s;
}

// A greyed choice says why, in its tooltip and in small type under its label (`opts.why`).
function btn(label, onclick, opts = {}) {
  const why = opts.disabled && opts.why ? opts.why : null;
  return h("button", { type: "button", class: opts.class || "btn", onclick, disabled: !!opts.disabled, title: why,
    "aria-pressed": opts.pressed === undefined ? null : String(!!opts.pressed), dataset: { key: opts.key || label } }, label,
  why ? h("small", { class: "why" }, why) : null);
}

// The decision's main button; greyed, it says what is still missing beside it.
function confirmBtn(label, onclick, disabled, key = "confirm", why = null) {
  const b = h("button", { type: "button", class: "btn btn-primary", onclick, disabled: !!disabled, title: disabled && why ? why : null, dataset: { key } }, label);
  return disabled && why ? [b, h("small", { class: "why why-confirm" }, why)] : b;
}

// why a mustering choice is not offered (the engine's `recruits[area].why`)
function musterWhy(reason) {
  return {
    points: gettext("Not enough mustering points"),
    reserve: gettext("None left in your reserve"),
    supply: gettext("It would pass your supply limit"),
    no_sea: gettext("No port or sea open to a new ship"),
    no_footman: gettext("No footman here to upgrade"),
  }[reason] || null;
}

function counts(list) {
  const out = {};
  for (const x of list) out[x] = (out[x] || 0) + 1;
  return out;
}

// ---------------------------------------------------------------------------------------------
function placeOrders(d, ctx) {
  const o = d.options;
  const before = ctx.view.my_orders || (ctx.previous && ctx.previous.orders) || {};
  const draft = Object.fromEntries(Object.entries(before).filter(([a]) => o.areas.includes(a)));
  let sel = null;
  const pool = counts(o.tokens);
  const isSpecial = (tok) => (ctx.data.tokens[tok] || {}).special;
  const used = (except) => counts(Object.entries(draft).filter(([a]) => a !== except).map(([, tok]) => tok));
  const specials = (except) => Object.entries(draft).filter(([a, tok]) => a !== except && isSpecial(tok)).length;
  // the draft survives a reload of the page until it is confirmed (drafts.js, through the screen)
  const keep = () => ctx.keep && ctx.keep({ kind: "place_orders", orders: { ...draft } });
  return {
    get selectable() { return o.areas; },
    get selected() { return sel; },
    get draftOrders() { return draft; },
    onArea(a) {
      if (o.areas.includes(a)) { sel = a; ctx.rerender({ focus: "tokens" }); }
    },
    panel() {
      const n = Object.keys(draft).length;
      const box = h("div", { class: "decision place-orders" }, title(gettext("Place your orders")),
        h("p", { class: "hint" }, gettext("Click one of your areas on the map, then pick an order token. You can change them until you confirm.")),
        h("p", { class: "counter", dataset: { role: "orders-count" } },
          fmt(gettext("Orders placed: %(n)s of %(m)s"), { n, m: o.must_place }), " · ",
          h("span", { class: "stars" }, fmtNodes(gettext("Special orders (%(star)s): %(n)s of %(m)s"), { star: icon("star"), n: specials(null), m: o.special_allowed }))));
      const list = h("ul", { class: "area-list" });
      for (const a of o.areas) {
        const tok = draft[a];
        list.appendChild(h("li", {}, btn(labelled(areaName(a, ctx.data), tok ? tokenName(tok, ctx.data) : "—"),
          () => { sel = a; ctx.rerender({ focus: "tokens" }); }, { class: "btn btn-small", pressed: sel === a, key: "area-" + a })));
      }
      box.appendChild(list);
      if (sel) {
        const u = used(sel);
        const sp = specials(sel);
        const grid = h("div", { class: "token-grid", role: "group", "aria-label": fmt(gettext("Order for %(area)s"), { area: areaName(sel, ctx.data) }) });
        for (const tok of Object.keys(pool)) {
          const left = pool[tok] - (u[tok] || 0);
          // forbidden this round (a Westeros card), or not in this area (1st edition: no Support
          // order on an island, no Consolidate Power at sea: `not_allowed`)
          const forbidden = (o.forbidden || []).includes(tok);
          const notHere = ((o.not_allowed || {})[sel] || []).includes(tok);
          const starBlocked = isSpecial(tok) && sp >= o.special_allowed;
          const label = h("span", {}, h("b", { class: "tok-short" }, orderShort(tok, ctx.data)), " ", tokenName(tok, ctx.data),
            isSpecial(tok) ? [" ", icon("star", gettext("Special order (gold, with a star)"))] : "", h("small", {}, " ×" + left));
          const by = (o.forbidden_by || {})[tok];
          const why = forbidden ? (by ? fmt(gettext("Forbidden this round by %(card)s"), { card: cardName(by, ctx.data) }) : gettext("Forbidden this round"))
            : notHere ? gettext("Not allowed in this area")
              : starBlocked && draft[sel] !== tok ? gettext("No more special orders allowed")
                : left <= 0 && draft[sel] !== tok ? gettext("All placed") : null;
          const b = h("button", {
            type: "button", class: "token" + (isSpecial(tok) ? " special" : ""), "data-token": tok, dataset: { key: "tok-" + tok },
            "aria-pressed": String(draft[sel] === tok), disabled: !!why, title: why,
            onclick: () => { draft[sel] = tok; keep(); const next = o.areas.find((a) => !draft[a]); sel = next || sel; ctx.rerender({ focus: "tokens" }); },
          }, label, why ? h("small", { class: "why" }, why) : null);
          grid.appendChild(b);
        }
        box.appendChild(h("h4", {}, fmt(gettext("Order for %(area)s"), { area: areaName(sel, ctx.data) })));
        box.appendChild(grid);
        if (draft[sel]) box.appendChild(btn(gettext("Remove this order"), () => { delete draft[sel]; keep(); ctx.rerender(); }, { class: "btn btn-small", key: "remove" }));
      }
      box.appendChild(h("div", { class: "actions" },
        confirmBtn(gettext("Confirm orders"), () => ctx.send({ type: "place_orders", orders: { ...draft } }), n < o.must_place, "confirm",
          fmt(gettext("Place %(n)s more order(s) first"), { n: o.must_place - n }))));
      return box;
    },
  };
}

// ---------------------------------------------------------------------------------------------
function raven(d, ctx) {
  const o = d.options;
  let mode = null;
  let sel = null;
  let tok = null;
  return {
    get selectable() { return mode === "replace" ? (o.replacements ? Object.keys(o.replacements) : o.areas) : []; },
    get selected() { return sel; },
    get draftOrders() { return sel && tok ? { [sel]: tok } : {}; },
    onArea(a) { if (mode === "replace" && this.selectable.includes(a)) { sel = a; tok = null; ctx.rerender(); } },
    panel() {
      // what the Raven does, said before the choice (shown on phones too: not a hint)
      const peek = !o.choices || o.choices.includes("peek");
      const box = h("div", { class: "decision raven" }, title(gettext("Messenger Raven")),
        h("p", { class: "explain" }, peek
          ? gettext("You lead the King's Court, so you hold the Messenger Raven: before the orders are resolved you may replace one of your orders with an order token you have not placed, or look at the top wildling card (and leave it there or put it at the bottom), or do nothing.")
          : gettext("You lead the King's Court, so you hold the Messenger Raven: before the orders are resolved you may replace one of your orders with an order token you have not placed, or leave your orders as they are.")),
        h("div", { class: "choices" },
          btn(gettext("Replace one of my orders"), () => { mode = "replace"; ctx.rerender(); }, { pressed: mode === "replace", key: "replace" }),
          // the 1st edition's Raven only replaces an order (its `choices` has no "peek")
          peek ? btn(gettext("Look at the top wildling card"), () => ctx.send({ type: "raven", choice: "peek" }), { key: "peek" }) : null,
          btn(gettext("Do nothing"), () => ctx.send({ type: "raven", choice: "pass" }), { key: "pass" })));
      if (mode === "replace") {
        box.appendChild(h("p", { class: "hint" }, sel ? fmt(gettext("New order for %(area)s:"), { area: areaName(sel, ctx.data) }) : gettext("Click the area whose order you replace.")));
        if (sel) {
          const grid = h("div", { class: "token-grid" });
          for (const x of (o.replacements ? o.replacements[sel] || [] : [...new Set(o.unused_tokens)])) {
            grid.appendChild(btn(orderShort(x, ctx.data) + " " + tokenName(x, ctx.data), () => { tok = x; ctx.rerender(); }, { class: "token", pressed: tok === x, key: "tok-" + x }));
          }
          box.appendChild(grid);
        }
        box.appendChild(h("div", { class: "actions" }, confirmBtn(gettext("Replace the order"), () => ctx.send({ type: "raven", choice: "replace", area: sel, token: tok }), !(sel && tok),
          "confirm", gettext("Choose an area and its new order first"))));
      }
      return box;
    },
  };
}

function ravenWildling(d, ctx) {
  const card = ctx.data.wildling_cards[d.options.card] || {};
  return {
    panel() {
      return h("div", { class: "decision" }, title(gettext("Top wildling card")), cardBox(d.options.card, card, ctx),
        h("div", { class: "choices" },
          btn(optionName("top", ctx.data), () => ctx.send({ type: "raven_keep", bottom: false }), { key: "top" }),
          btn(optionName("bottom", ctx.data), () => ctx.send({ type: "raven_keep", bottom: true }), { key: "bottom" })));
    },
  };
}

function cardBox(id, card, ctx) {
  const lines = [h("strong", {}, card.name || cardName(id, ctx.data))];
  if (card.lowest) lines.push(h("p", {}, h("em", {}, gettext("Lowest bidder:") + " "), card.lowest));
  if (card.everyone) lines.push(h("p", {}, h("em", {}, gettext("Everyone else:") + " "), card.everyone));
  if (card.highest) lines.push(h("p", {}, h("em", {}, gettext("Highest bidder:") + " "), card.highest));
  if (card.effect) lines.push(h("p", {}, card.effect));
  return h("div", { class: "card-box" }, lines);
}

// ---------------------------------------------------------------------------------------------
function raid(d, ctx) {
  const raids = d.options.raids || {};
  // 1st edition: a special Raid order may remove two adjacent orders (`two_targets` lists them)
  const two = new Set(d.options.two_targets || []);
  let sel = Object.keys(raids).length === 1 ? Object.keys(raids)[0] : null;
  let picks;  // undefined: nothing chosen yet; []: no effect; [a] or [a, b]: the orders removed
  const most = () => (two.has(sel) ? 2 : 1);
  const toggle = (a) => {
    const cur = picks || [];
    if (cur.includes(a)) picks = cur.filter((x) => x !== a);
    else if (most() === 1) picks = [a];
    else picks = cur.length >= 2 ? [cur[1], a] : [...cur, a];
    if (!picks.length) picks = undefined;
  };
  return {
    get selectable() { return sel ? [] : Object.keys(raids); },
    get targets() { return sel ? raids[sel] : []; },
    get selected() { return sel; },
    onArea(a) {
      if (sel && raids[sel].includes(a)) toggle(a);
      else if (raids[a]) { sel = a; picks = undefined; }
      else return;
      ctx.rerender();
    },
    panel() {
      const box = h("div", { class: "decision raid" }, title(gettext("Resolve a Raid order")),
        h("p", { class: "hint" }, gettext("Pick one of your Raid orders, then the order it removes (highlighted), or remove it with no effect.")));
      box.appendChild(h("div", { class: "choices" }, Object.keys(raids).map((a) =>
        btn(two.has(a) ? h("span", {}, areaName(a, ctx.data), " ", icon("star", gettext("Special order (gold, with a star)"))) : areaName(a, ctx.data), () => { sel = a; picks = undefined; ctx.rerender(); }, { pressed: sel === a, key: "from-" + a, class: "btn btn-small" }))));
      if (sel) {
        if (two.has(sel)) box.appendChild(h("p", { class: "hint two-targets" }, gettext("This special Raid order may remove up to two orders next to it (never a Defense order).")));
        const opts = raids[sel].map((a) => btn(areaName(a, ctx.data) + " (" + tokenName(ctx.view.orders[a].token, ctx.data) + ")",
          () => { toggle(a); ctx.rerender(); }, { pressed: !!picks && picks.includes(a), key: "to-" + a, class: "btn btn-small" }));
        opts.push(btn(gettext("No effect (just remove my Raid)"), () => { picks = []; ctx.rerender(); }, { pressed: !!picks && picks.length === 0, key: "to-none", class: "btn btn-small" }));
        box.appendChild(h("h4", {}, most() === 2 ? gettext("Targets (up to two)") : gettext("Target")));
        box.appendChild(h("div", { class: "choices" }, opts));
      }
      const send = () => {
        const action = { type: "raid", area: sel, target: picks && picks.length ? picks[0] : null };
        if (picks && picks.length === 2) action.second_target = picks[1];
        return ctx.send(action);
      };
      box.appendChild(h("div", { class: "actions" }, confirmBtn(gettext("Confirm raid"), send, !sel || picks === undefined, "confirm",
        gettext("Choose a target, or no effect, first"))));
      return box;
    },
  };
}

// ---------------------------------------------------------------------------------------------
function march(d, ctx) {
  const marches = d.options.marches || {};
  let sel = Object.keys(marches).length === 1 ? Object.keys(marches)[0] : null;
  let moves = [];
  let picked = [];
  let leavePower = false;
  const unitsOf = (a) => UNIT_ORDER.flatMap((u) => Array((marches[a].units || {})[u] || 0).fill(u));
  // a draft kept across a reload (drafts.js): its order, and its moves while they are still the
  // order's units to places the order may reach
  const kept = ctx.previous && ctx.previous.kind === "march" ? ctx.previous : null;
  if (kept && marches[kept.from]) {
    sel = kept.from;
    const left = unitsOf(sel);
    const reach = Object.keys(marches[sel].destinations || {}).concat(marches[sel].land || [], marches[sel].ship || []);
    const ok = Array.isArray(kept.moves) && kept.moves.every((m) => m && reach.includes(m.to) && Array.isArray(m.units) && m.units.length
      && m.units.every((u) => { const i = left.indexOf(u); if (i < 0) return false; left.splice(i, 1); return true; }));
    if (ok) moves = kept.moves.map((m) => ({ to: m.to, units: [...m.units] }));
    leavePower = ok && kept.leave_power === true;
  }
  const keep = () => ctx.keep && ctx.keep({ kind: "march", from: sel, moves: moves.map((m) => ({ to: m.to, units: [...m.units] })), leave_power: leavePower });
  const remaining = () => {
    const left = unitsOf(sel);
    for (const m of moves) for (const u of m.units) left.splice(left.indexOf(u), 1);
    return left;
  };
  const resetPick = () => { picked = sel ? remaining().map((u, i) => i) : []; };
  resetPick();
  const pickedTypes = () => { const r = remaining(); return picked.map((i) => r[i]).filter(Boolean); };
  // legal destinations of the picked units: the complete `destinations` options when the engine
  // gives them (units allowed, counts, fights), else the plain `land` / `ship` lists
  const dests = () => {
    if (!sel) return [];
    const ty = pickedTypes();
    if (!ty.length) return [];
    const ships = ty.filter((u) => u === "ship").length;
    if (ships && ships < ty.length) return [];
    const full = marches[sel].destinations;
    if (full) {
      return Object.keys(full).filter((a) => ty.every((u) => full[a].units.includes(u)) && !(full[a].fight && moves.some((m) => m.to !== a && (full[m.to] || {}).fight)));
    }
    return ships ? marches[sel].ship : marches[sel].land;
  };
  const destLabel = (a) => {
    const info = (marches[sel].destinations || {})[a] || {};
    const label = [areaName(a, ctx.data)];
    if (info.fight === "combat") label.push(" ", icon("swords"), " " + gettext("(battle)"));
    else if (info.fight === "neutral") label.push(" ", icon("swords"), " " + fmt(gettext("(neutral force %(n)s)"), { n: info.neutral }));
    if (info.by === "transport") label.push(" ", shipIcon(gettext("by ship transport")));
    return label;
  };
  return {
    get selectable() { return sel ? [] : Object.keys(marches); },
    get targets() { return dests(); },
    get selected() { return sel; },
    get moves() { return moves.map((m) => ({ from: sel, to: m.to })); },
    onArea(a) {
      if (sel && dests().includes(a)) {
        const ex = moves.find((m) => m.to === a);
        if (ex) ex.units.push(...pickedTypes()); else moves.push({ to: a, units: pickedTypes() });
        resetPick();
        keep();
        ctx.rerender();
      } else if (marches[a] && (!sel || moves.length === 0)) {
        sel = a; moves = []; resetPick(); keep(); ctx.rerender();
      }
    },
    panel() {
      const box = h("div", { class: "decision march" }, title(gettext("Resolve a March order")));
      if (!sel) {
        box.appendChild(h("p", { class: "hint" }, gettext("Pick one of your March orders (highlighted).")));
        box.appendChild(h("div", { class: "choices" }, Object.keys(marches).map((a) =>
          btn(areaName(a, ctx.data), () => { sel = a; moves = []; resetPick(); keep(); ctx.rerender(); }, { key: "from-" + a, class: "btn btn-small" }))));
        return box;
      }
      box.appendChild(h("p", { class: "hint" }, fmt(gettext("From %(area)s: choose units, then click a highlighted destination. Repeat to split the army."), { area: areaName(sel, ctx.data) })));
      const rem = remaining();
      const chips = h("div", { class: "unit-chips", role: "group", "aria-label": gettext("Units to move") });
      rem.forEach((u, i) => chips.appendChild(btn(unitName(u, ctx.data), () => {
        picked = picked.includes(i) ? picked.filter((x) => x !== i) : [...picked, i];
        ctx.rerender();
      }, { class: "chip unit-" + u, pressed: picked.includes(i), key: "unit-" + i })));
      if (!rem.length) chips.appendChild(h("span", { class: "muted" }, gettext("Every unit has a destination.")));
      box.appendChild(chips);
      const dl = dests();
      if (dl.length) {
        box.appendChild(h("h4", {}, gettext("Destinations")));
        box.appendChild(h("div", { class: "choices" }, dl.map((a) => btn(destLabel(a), () => this.onArea(a), { class: "btn btn-small dest", key: "to-" + a }))));
      } else if (pickedTypes().length) {
        box.appendChild(h("p", { class: "muted" }, gettext("Ships and land units move separately.")));
      }
      if (moves.length) {
        box.appendChild(h("h4", {}, gettext("Moves")));
        box.appendChild(h("ul", { class: "moves" }, moves.map((m, i) => h("li", {},
          fmt(gettext("%(units)s to %(area)s"), { units: listOf(m.units.map((u) => unitName(u, ctx.data))), area: areaName(m.to, ctx.data) }), " ",
          btn(gettext("Undo"), () => { moves.splice(i, 1); resetPick(); keep(); ctx.rerender(); }, { class: "btn btn-small", key: "undo-" + i })))));
      }
      const land = (ctx.data.areas[sel] || {}).kind === "land";
      const keeps = ((ctx.view.garrisons || {})[sel] || {}).house === ctx.me || (ctx.view.power_tokens || {})[sel] === ctx.me;
      const offer = marches[sel].leave_power !== undefined ? marches[sel].leave_power : land && !keeps && (ctx.view.power || {})[ctx.me] > 0;
      if (offer) {
        const id = "leave-power";
        box.appendChild(h("label", { class: "check", for: id },
          h("input", { type: "checkbox", id, checked: leavePower, onchange: (e) => { leavePower = e.target.checked; keep(); }, dataset: { key: id } }),
          " ", fmt(gettext("Leave a power token in %(area)s (when every unit leaves)"), { area: areaName(sel, ctx.data) })));
      }
      box.appendChild(h("div", { class: "actions" },
        confirmBtn(gettext("Confirm march"), () => ctx.send({ type: "march", area: sel, moves: moves.map((m) => ({ to: m.to, units: [...m.units] })), leave_power: leavePower }), !moves.length,
          "confirm", gettext("Choose a destination first")),
        btn(gettext("Remove the order without moving"), () => ctx.send({ type: "march", area: sel, moves: [], leave_power: false }), { key: "nomove" }),
        Object.keys(marches).length > 1 ? btn(gettext("Another March order"), () => { sel = null; moves = []; resetPick(); keep(); ctx.rerender(); }, { key: "other" }) : null));
      return box;
    },
  };
}

// ---------------------------------------------------------------------------------------------
function supportNeutral(d, ctx) {
  const o = d.options;
  return {
    get targets() { return [o.target]; },
    get selected() { return o.from; },
    panel() {
      return h("div", { class: "decision" }, title(gettext("Support?")),
        h("p", {}, fmt(gettext("%(house)s attacks the neutral force in %(area)s. Support from %(from)s?"),
          { house: houseName(o.attacker, ctx.data), area: areaName(o.target, ctx.data), from: areaName(o.from, ctx.data) })),
        h("div", { class: "choices" },
          btn(gettext("Support"), () => ctx.send({ type: "support", give: true }), { class: "btn btn-primary", key: "yes" }),
          btn(gettext("Do not support"), () => ctx.send({ type: "support", give: false }), { key: "no" })));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Mustering: points per area, recruits drafted then sent at once. `finish(recruits, area)` sends.
// `draft` ({start, keep}, optional): a draft kept across a reload to start from ({sel, recruits}),
// and where to keep the draft after each change.
function musterCore(ctx, areas, points, oneArea, finish, heading, recruitOpts, draft = {}) {
  let sel = areas.length === 1 ? areas[0] : null;
  let recruits = [];
  let shipFrom = null;
  const pts = (a) => (points && points[a] !== undefined ? points[a] : ((ctx.data.areas[a] || {}).castle === "stronghold" ? 2 : 1));
  const spent = (a) => recruits.filter((r) => r.area === a).reduce((s, r) => s + (r.upgrade ? 1 : COST[r.unit]), 0);
  const start = draft.start;
  if (start && Array.isArray(start.recruits)) {
    // the kept units while each is of an area offered here and within its points (in one area
    // where only one is allowed); the engine checks the rest when they are sent
    for (const r of start.recruits) {
      if (!r || !areas.includes(r.area) || !COST[r.unit] || (oneArea && recruits.length && recruits[0].area !== r.area)) break;
      const cost = r.upgrade ? 1 : COST[r.unit];
      if (spent(r.area) + cost > pts(r.area)) break;
      recruits.push({ area: r.area, unit: r.unit, ...(r.upgrade ? { upgrade: true } : {}), ...(r.to ? { to: r.to } : {}) });
    }
    if (areas.includes(start.sel)) sel = start.sel;
  }
  const keep = () => draft.keep && draft.keep({ sel, recruits: recruits.map((r) => ({ ...r })) });
  const footmen = (a) => {
    const u = (ctx.view.units || {})[a];
    const n = u && u.house === ctx.me ? u.units.filter((x) => x.type === "footman").length : 0;
    return n - recruits.filter((r) => r.area === a && r.upgrade).length + recruits.filter((r) => r.area === a && r.unit === "footman" && !r.upgrade).length;
  };
  const ro = (a) => (recruitOpts || {})[a];
  const shipTargets = (a) => {
    if (ro(a)) return ro(a).ships || [];
    const ar = ctx.data.areas[a] || {};
    const out = [];
    if (ar.port && !(ctx.view.blocked || []).includes(ar.port)) out.push(ar.port);
    for (const n of ctx.data.adjacent[a] || []) if ((ctx.data.areas[n] || {}).kind === "sea") out.push(n);
    return out;
  };
  const add = (r) => { recruits.push(r); keep(); ctx.rerender(); };
  return {
    get selectable() { return shipFrom ? [] : areas; },
    get targets() { return shipFrom ? shipTargets(shipFrom) : []; },
    get selected() { return shipFrom || sel; },
    onArea(a) {
      if (shipFrom && shipTargets(shipFrom).includes(a)) { const f = shipFrom; shipFrom = null; add({ area: f, unit: "ship", to: a }); }
      else if (areas.includes(a)) { sel = a; shipFrom = null; keep(); ctx.rerender(); }
    },
    panel() {
      const box = h("div", { class: "decision muster" }, title(heading),
        h("p", { class: "hint" }, oneArea ? gettext("Muster in one of your castle areas (highlighted).") : gettext("Pick a castle or stronghold (highlighted), then the units to muster there.")));
      box.appendChild(h("div", { class: "choices" }, areas.map((a) =>
        btn(areaName(a, ctx.data) + " (" + (pts(a) - spent(a)) + ")", () => { sel = a; shipFrom = null; keep(); ctx.rerender(); },
          { pressed: sel === a, key: "area-" + a, class: "btn btn-small", disabled: oneArea && recruits.length && recruits[0].area !== a,
            why: gettext("You muster in one area only") }))));
      if (sel) {
        const left = pts(sel) - spent(sel);
        box.appendChild(h("p", { class: "counter" }, fmt(gettext("%(area)s: %(n)s mustering point(s) left"), { area: areaName(sel, ctx.data), n: left })));
        const hasPort = shipTargets(sel).length > 0;
        // with complete options, only what the engine lists for this area is offered
        const may = (u) => !ro(sel) || (ro(sel).units || []).includes(u);
        const mayUp = (u) => !ro(sel) || (ro(sel).upgrades || []).includes(u) || recruits.some((r) => r.area === sel && r.unit === "footman");
        // why a unit is greyed: the points left here, else what the engine says
        const whyNot = (key, cost) => (left < cost ? gettext("Not enough mustering points left") : musterWhy(((ro(sel) || {}).why || {})[key]));
        const whyUp = (u) => (left < 1 ? gettext("Not enough mustering points left") : footmen(sel) < 1 ? musterWhy("no_footman") : musterWhy(((ro(sel) || {}).why || {})["upgrade_" + u]));
        const siege = !ctx.data.has || ctx.data.has.siege_engines;  // the 1st edition has none
        const opts = [
          btn("+ " + unitName("footman", ctx.data) + " (1)", () => add({ area: sel, unit: "footman" }), { disabled: left < 1 || !may("footman"), key: "footman", why: whyNot("footman", 1) }),
          btn("+ " + unitName("knight", ctx.data) + " (2)", () => add({ area: sel, unit: "knight" }), { disabled: left < 2 || !may("knight"), key: "knight", why: whyNot("knight", 2) }),
          siege ? btn("+ " + unitName("siege_engine", ctx.data) + " (2)", () => add({ area: sel, unit: "siege_engine" }), { disabled: left < 2 || !may("siege_engine"), key: "siege", why: whyNot("siege_engine", 2) }) : null,
          // a castle by the sea whose ship cannot be mustered (no reserve, supply, a closed port) says why
          hasPort || ((ro(sel) || {}).why || {}).ship ? btn("+ " + unitName("ship", ctx.data) + " (1)", () => { shipFrom = sel; ctx.rerender(); },
            { disabled: left < 1 || !hasPort, key: "ship", pressed: shipFrom === sel, why: whyNot("ship", 1) }) : null,
          btn(fmt(gettext("%(a)s → %(b)s (1)"), { a: unitName("footman", ctx.data), b: unitName("knight", ctx.data) }), () => add({ area: sel, unit: "knight", upgrade: true }), { disabled: left < 1 || footmen(sel) < 1 || !mayUp("knight"), key: "up-knight", why: whyUp("knight") }),
          siege ? btn(fmt(gettext("%(a)s → %(b)s (1)"), { a: unitName("footman", ctx.data), b: unitName("siege_engine", ctx.data) }), () => add({ area: sel, unit: "siege_engine", upgrade: true }), { disabled: left < 1 || footmen(sel) < 1 || !mayUp("siege_engine"), key: "up-siege", why: whyUp("siege_engine") }) : null,
        ];
        box.appendChild(h("div", { class: "choices" }, opts));
        if (shipFrom) box.appendChild(h("p", { class: "hint" }, gettext("Click the port or sea where the ship goes (highlighted).")));
      }
      if (recruits.length) {
        box.appendChild(h("ul", { class: "moves" }, recruits.map((r, i) => h("li", {},
          labelled(areaName(r.area, ctx.data), (r.upgrade ? fmt(gettext("%(a)s → %(b)s (1)"), { a: unitName("footman", ctx.data), b: unitName(r.unit, ctx.data) }) : unitName(r.unit, ctx.data))
            + (r.to ? " → " + areaName(r.to, ctx.data) : "")), " ",
          btn(gettext("Undo"), () => { recruits.splice(i, 1); keep(); ctx.rerender(); }, { class: "btn btn-small", key: "undo-" + i })))));
      }
      box.appendChild(h("div", { class: "actions" },
        confirmBtn(recruits.length ? gettext("Muster these units") : gettext("Muster nothing"), () => finish(recruits.map((r) => ({ ...r })), sel), false)));
      return box;
    },
  };
}

function muster(d, ctx) {
  const o = d.options;
  const heading = o.purpose ? purposeName(o.purpose, ctx.data) : gettext("Mustering");
  // the units picked so far survive a reload of the page until they are sent (drafts.js)
  const start = ctx.previous && ctx.previous.kind === "muster" ? ctx.previous : null;
  const keep = ctx.keep ? (value) => ctx.keep({ kind: "muster", ...value }) : null;
  return musterCore(ctx, o.areas || [], o.points, !!o.one_area, (recruits) => ctx.send({ type: "muster", recruits }), heading, o.recruits, { start, keep });
}

function consolidate(d, ctx) {
  const areas = d.options.areas || [];
  let sel = areas.length === 1 ? areas[0] : null;
  let musterMode = null;
  return {
    get selectable() { return musterMode ? musterMode.selectable : areas; },
    get targets() { return musterMode ? musterMode.targets : []; },
    get selected() { return musterMode ? musterMode.selected : sel; },
    onArea(a) {
      if (musterMode) musterMode.onArea(a);
      else if (areas.includes(a)) { sel = a; ctx.rerender(); }
    },
    panel() {
      // one Consolidate Power order per turn (结算休整指令): the house picks which, with the power it
      // gives now; only a special order in a castle it controls may muster instead
      const power = d.options.power || {};
      const musters = d.options.muster || {};
      const box = h("div", { class: "decision consolidate" }, title(gettext("Consolidate Power: resolve one order")));
      box.appendChild(h("div", { class: "choices" }, areas.map((a) => btn(
        power[a] === undefined ? areaName(a, ctx.data) : fmt(gettext("%(area)s (+%(n)s power)"), { area: areaName(a, ctx.data), n: power[a] }),
        () => { sel = a; musterMode = null; ctx.rerender(); }, { pressed: sel === a, key: "area-" + a, class: "btn btn-small" }))));
      if (sel && !musterMode) {
        const row = [btn(gettext("Gain power"), () => ctx.send({ type: "consolidate", area: sel, muster: null }), { key: "power", class: "btn btn-primary" })];
        if (musters[sel]) {
          row.push(btn(gettext("Muster here instead"), () => {
            musterMode = musterCore(ctx, [sel], null, true, (recruits) => ctx.send({ type: "consolidate", area: sel, muster: recruits }), gettext("Muster here instead"), musters);
            ctx.rerender();
          }, { key: "muster" }));
        }
        box.appendChild(h("div", { class: "choices" }, ...row));
      }
      if (musterMode) box.appendChild(musterMode.panel());
      return box;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Picking units from a list of [area, unit] (reconcile armies, wildling penalties). With `points`
// (and `costs` per unit type) the units chosen must be worth that many mustering points, none of
// them more than needed (the 1st edition's wildling victory); else a number of units.
function unitPicker(ctx, heading, hint, list, { exact, max, min = 0, points, costs }, finish, extra) {
  let chosen = [];
  let focus = null;
  const areas = [...new Set(list.map(([a]) => a))];
  const n = exact !== undefined ? exact : max;
  const cost = (i) => (costs || COST)[list[i][1]] || 1;
  const worth = () => chosen.reduce((s, i) => s + cost(i), 0);
  const full = () => (points !== undefined ? worth() >= points : chosen.length >= n);
  return {
    get selectable() { return areas; },
    get selected() { return focus; },
    get doomed() { return chosen.map((i) => ({ area: list[i][0], unit: list[i][1] })); },
    onArea(a) { if (areas.includes(a)) { focus = a; ctx.rerender({ focus: "unit-" + list.findIndex(([x]) => x === a) }); } },
    panel() {
      const box = h("div", { class: "decision pick-units" }, title(heading), extra || null, hint ? h("p", { class: "hint" }, hint) : null,
        h("p", { class: "counter" }, points !== undefined
          ? fmt(gettext("Mustering points chosen: %(n)s of %(m)s"), { n: worth(), m: points })
          : fmt(gettext("Chosen: %(n)s of %(m)s"), { n: chosen.length, m: n })));
      for (const a of areas) {
        const row = h("div", { class: "unit-row" + (focus === a ? " focused" : "") }, h("span", { class: "area-name" }, areaName(a, ctx.data) + ":"));
        list.forEach(([x, u], i) => {
          if (x !== a) return;
          row.appendChild(btn(unitName(u, ctx.data), () => {
            chosen = chosen.includes(i) ? chosen.filter((c) => c !== i) : !full() ? [...chosen, i] : chosen;
            ctx.rerender();
          }, { class: "chip unit-" + u, pressed: chosen.includes(i), key: "unit-" + i }));
        });
        box.appendChild(row);
      }
      const ok = points !== undefined ? worth() >= points && chosen.every((i) => worth() - cost(i) < points)
        : exact !== undefined ? chosen.length === exact : chosen.length <= max && chosen.length >= min;
      box.appendChild(h("div", { class: "actions" }, confirmBtn(gettext("Confirm"), () => finish(chosen.map((i) => ({ area: list[i][0], unit: list[i][1] }))), !ok,
        "confirm", points !== undefined ? gettext("Choose units worth the mustering points, none more than needed") : gettext("Choose the number of units asked for"))));
      return box;
    },
  };
}

function reduceArmies(d, ctx) {
  const o = d.options;
  const list = [];
  for (const a of o.armies || []) {
    if (o.units && o.units[a]) for (const [u, n] of Object.entries(o.units[a])) for (let i = 0; i < n; i++) list.push([a, u]);
    else for (const u of ((ctx.view.units || {})[a] || { units: [] }).units) list.push([a, u.type]);
  }
  return unitPicker(ctx, gettext("Reduce your armies to fit your supply"),
    fmt(gettext("Supply %(s)s allows armies of %(sizes)s. Remove %(n)s unit(s)."), { s: o.supply, sizes: listOf(o.allowed || []), n: o.remove }),
    list, { exact: o.remove }, (units) => ctx.send({ type: "reconcile", remove: units }));
}

function selectUnits(d, ctx) {
  const o = d.options;
  const list = o.candidates ? o.candidates.map((x) => [x[0], x[1]]) : o.units ? o.units.map((x) => [x[0], x[1]]) : (o.footmen || []).map((a) => [a, "footman"]);
  const lim = o.points !== undefined ? { points: o.points, costs: o.costs }
    : o.count !== undefined ? { exact: o.count } : o.min !== undefined && o.min === o.max ? { exact: o.min } : { max: o.max, min: o.min || 0 };
  const hint = o.areas ? fmt(gettext("All from one of: %(areas)s"), { areas: listOf(o.areas.map((a) => areaName(a, ctx.data))) }) : "";
  return unitPicker(ctx, purposeName(o.purpose, ctx.data), hint, list, lim, (units) => ctx.send({ type: "select_units", units }));
}

// ---------------------------------------------------------------------------------------------
function bid(d, ctx) {
  const o = d.options;
  let amount = ctx.previous ? Math.min(ctx.previous.bid, o.max) : 0;
  return {
    panel() {
      const id = "bid-amount";
      const input = h("input", { type: "number", id, min: 0, max: o.max, step: 1, value: amount, inputmode: "numeric", dataset: { key: id },
        oninput: (e) => { amount = Number(e.target.value); const bad = !(Number.isInteger(amount) && amount >= 0 && amount <= o.max); e.target.setAttribute("aria-invalid", String(bad)); box.querySelector(".btn-primary").disabled = bad; } });
      const box = h("div", { class: "decision bid" }, title(fmt(gettext("Bid: %(purpose)s"), { purpose: purposeName(o.purpose, ctx.data) })),
        h("p", { class: "hint" }, fmt(gettext("Bids are secret until everyone has bid. You have %(n)s available power."), { n: o.max })),
        h("label", { for: id }, gettext("Power tokens to bid") + " (0–" + o.max + ") "), input,
        h("div", { class: "actions" }, confirmBtn(gettext("Place bid"), () => ctx.send({ type: "bid", amount }), false)));
      return box;
    },
  };
}

function orderTies(d, ctx) {
  const o = d.options;
  const groups = (o.groups || []).map((g) => [...g]);
  return {
    panel() {
      const box = h("div", { class: "decision ties" }, title(gettext("Order the tied bids")),
        h("p", { class: "hint" }, gettext("As holder of the Iron Throne you decide the order of houses with equal bids (best first).")));
      const ol = h("ol", { class: "tie-list" });
      groups.forEach((g, gi) => g.forEach((house, i) => {
        ol.appendChild(h("li", {}, houseChip(house, ctx.data), " " + fmt(gettext("bid %(n)s"), { n: o.bids[house] }), " ",
          g.length > 1 ? btn("↑", () => { [g[i - 1], g[i]] = [g[i], g[i - 1]]; ctx.rerender(); }, { class: "btn btn-small", disabled: i === 0, key: "up-" + house }) : null,
          g.length > 1 ? btn("↓", () => { [g[i + 1], g[i]] = [g[i], g[i + 1]]; ctx.rerender(); }, { class: "btn btn-small", disabled: i === g.length - 1, key: "down-" + house }) : null));
      }));
      for (const b of ol.querySelectorAll("button")) b.setAttribute("aria-label", b.textContent === "↑" ? gettext("Move up") : gettext("Move down"));
      box.appendChild(ol);
      box.appendChild(h("div", { class: "actions" }, confirmBtn(gettext("Confirm order"), () => ctx.send({ type: "order_ties", order: groups.flat() }), false)));
      return box;
    },
  };
}

function choose(d, ctx) {
  const o = d.options;
  const hc = ctx.data.house_cards[o.purpose];
  const areaOpts = (o.options || []).filter((x) => ctx.data.areas[x]);
  const label = (x) => {
    let text = optionName(x, ctx.data);
    if (o.orders && o.orders[x]) text += " (" + tokenName(o.orders[x], ctx.data) + ")";
    if (x === "swap" && o.cost) text = fmt(gettext("Pay %(n)s power and play another card"), { n: o.cost });
    return text;
  };
  return {
    get targets() { return areaOpts; },
    onArea(a) { if (areaOpts.includes(a)) ctx.send({ type: "choose", option: a }); },
    panel() {
      const card = ctx.data.westeros_cards[o.purpose] || ctx.data.wildling_cards[o.purpose];
      const heading = hc ? fmt(gettext("%(card)s: house card ability"), { card: cardName(o.purpose, ctx.data) }) : purposeName(o.purpose, ctx.data);
      const box = h("div", { class: "decision choose" }, title(heading),
        card ? cardBox(o.purpose, card, ctx) : null,
        hc ? h("div", { class: "cards" }, cardTile(o.purpose, ctx)) : null,
        o.opponent_card ? h("p", {}, fmt(gettext("%(house)s played %(card)s."), { house: houseName(o.opponent, ctx.data), card: cardName(o.opponent_card, ctx.data) })) : null,
        o.positions ? h("p", { class: "hint" }, fmt(gettext("%(house)s's positions: %(list)s"), { house: houseName(o.opponent, ctx.data),
          list: Object.entries(o.positions).map(([t, n]) => trackName(t, ctx.data) + " " + n).join(" · ") })) : null,
        areaOpts.length ? h("p", { class: "hint" }, gettext("Click a highlighted area on the map, or a button.")) : null,
        h("div", { class: "choices" }, (o.options || []).map((x) => btn(label(x), () => ctx.send({ type: "choose", option: x }), { key: "opt-" + x }))));
      return box;
    },
  };
}

// A house card's sword and fortification icons ("2 swords": two sword icons), or null.
function cardIcons(c) {
  if (!c.swords && !c.fortifications) return null;
  return h("span", { class: "hc-icons" },
    c.swords ? [" ", iconRun("sword", c.swords, fmt(gettext("%(n)s sword(s)"), { n: c.swords }))] : null,
    c.fortifications ? [" ", iconRun("tower", c.fortifications, fmt(gettext("%(n)s fortification(s)"), { n: c.fortifications }))] : null);
}

function cardButton(id, ctx, onclick, pressed) {
  const c = ctx.data.house_cards[id] || {};
  return h("button", { type: "button", class: "house-card", onclick, "aria-pressed": pressed === undefined ? null : String(pressed), dataset: { key: "card-" + id, card: id } },
    h("span", { class: "hc-strength" }, String(c.strength ?? "?")), " ", h("strong", {}, c.name || id),
    cardIcons(c),
    c.ability ? h("small", { class: "hc-ability" }, c.ability) : null);
}

// A house card shown, not played (an opponent's hand, the card whose ability asks).
function cardTile(id, ctx, compact = false) {
  const c = ctx.data.house_cards[id] || {};
  return h("div", { class: "house-card static" + (compact ? " compact" : ""), dataset: { card: id }, title: compact ? c.ability || null : null },
    h("span", { class: "hc-strength" }, String(c.strength ?? "?")), " ", h("strong", {}, c.name || id),
    cardIcons(c),
    c.ability && !compact ? h("small", { class: "hc-ability" }, c.ability) : null);
}

function selectCard(d, ctx) {
  const o = d.options;
  return {
    panel() {
      const heading = ctx.data.house_cards[o.purpose] ? fmt(gettext("%(card)s: house card ability"), { card: cardName(o.purpose, ctx.data) }) : purposeName(o.purpose, ctx.data);
      return h("div", { class: "decision select-card" }, title(heading),
        ctx.data.house_cards[o.purpose] ? h("div", { class: "cards" }, cardTile(o.purpose, ctx)) : null,
        o.from && ctx.data.houses[o.from] ? h("p", { class: "hint" }, fmt(gettext("Choose a card from %(house)s's hand."), { house: houseName(o.from, ctx.data) })) : null,
        h("div", { class: "cards" }, (o.cards || []).map((c) => cardButton(c, ctx, () => ctx.send({ type: "select_card", card: c })))),
        o.optional ? btn(gettext("None"), () => ctx.send({ type: "select_card", card: null }), { key: "none" }) : null);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Combat (战斗): support, house cards, the Valyrian Steel Blade, casualties, retreat.

const opponentOf = (o, me) => (me === o.attacker ? o.defender : o.attacker);

// "Lannister attacks Stark in The Twins (from Seagard)."
function battleLine(o, ctx) {
  if (!o.attacker) return null;
  return h("p", { class: "battle-line" }, icon("swords"), " " + fmt(gettext("%(attacker)s attacks %(defender)s in %(area)s (from %(origin)s)."), {
    attacker: houseName(o.attacker, ctx.data), defender: houseName(o.defender, ctx.data),
    area: areaName(o.area, ctx.data), origin: areaName(o.origin, ctx.data) }));
}

// Strength so far, from the view's combat (base after support; final once known).
function strengthLine(ctx) {
  const c = ctx.view.combat;
  if (!c) return null;
  const s = c.strength || c.base;
  if (!s || !Object.keys(s).length) return null;
  const label = c.strength ? gettext("Final strength:") : gettext("Strength before house cards:");
  return h("p", { class: "counter strength-line" }, label + " " +
    [c.attacker, c.defender].map((x) => houseName(x, ctx.data) + " " + s[x]).join(" · "));
}

// An opponent's hand is public (every house card not yet discarded); while cards are chosen the
// view leaves the fighting houses' hands out, so it is worked out from the discards.
export function publicHand(house, view, data) {
  if ((view.hands || {})[house]) return [...view.hands[house]].sort();
  const gone = new Set([...((view.discards || {})[house] || []), ...Object.values((view.combat || {}).cards || {})]);
  return Object.keys(data.house_cards).filter((id) => data.house_cards[id].house === house && !gone.has(id)).sort();
}

function supportCombat(d, ctx) {
  const o = d.options;
  const strength = o.strength || {};
  const label = (side) => {
    if (side === "none") return gettext("Support nobody");
    const house = side === "attacker" ? o.attacker : o.defender;
    const text = house === ctx.me ? gettext("Support myself (%(side)s, +%(n)s)") : gettext("Support %(house)s (%(side)s, +%(n)s)");
    return fmt(text, { house: houseName(house, ctx.data), side: side === "attacker" ? gettext("attacker") : gettext("defender"), n: strength[side] ?? 0 });
  };
  return {
    get targets() { return [o.area]; },
    get selected() { return o.from; },
    panel() {
      return h("div", { class: "decision support-combat" }, title(gettext("Support in a battle")), battleLine(o, ctx),
        h("p", { class: "hint" }, fmt(gettext("Your Support order in %(from)s is next to the battle. Whom does it support?"), { from: areaName(o.from, ctx.data) })),
        h("div", { class: "choices" }, (o.options || []).map((side) => btn(label(side), () => ctx.send({ type: "choose", option: side }),
          { key: "opt-" + side, class: side === "none" ? "btn" : "btn side-" + side }))));
    },
  };
}

function chooseHouseCard(d, ctx) {
  const o = d.options;
  const cards = o.cards || [];
  let pick = cards.length === 1 ? cards[0] : ctx.previous && cards.includes(ctx.previous.card) ? ctx.previous.card : null;
  const opp = o.attacker ? opponentOf(o, ctx.me) : null;
  return {
    panel() {
      const inCombat = o.purpose === "combat";
      const heading = inCombat ? gettext("Choose your house card") : fmt(gettext("%(card)s: choose another house card"), { card: cardName(o.purpose, ctx.data) });
      const box = h("div", { class: "decision choose-house-card" }, title(heading), battleLine(o, ctx), strengthLine(ctx),
        h("p", { class: "hint" }, inCombat ? gettext("Both sides choose in secret; the two cards are revealed together.") : gettext("Pick the card you play instead.")));
      box.appendChild(h("h4", {}, gettext("Your hand")));
      box.appendChild(h("div", { class: "cards", role: "group", "aria-label": gettext("Your hand") },
        (o.cards || []).map((c) => cardButton(c, ctx, () => { pick = c; ctx.rerender({ focus: "card-" + c }); }, pick === c))));
      box.appendChild(h("div", { class: "actions" }, confirmBtn(pick ? fmt(gettext("Play %(card)s"), { card: cardName(pick, ctx.data) }) : gettext("Play this card"),
        () => ctx.send({ type: "select_card", card: pick }), !pick, "confirm", gettext("Choose a card first"))));
      if (opp) {
        const hand = publicHand(opp, ctx.view, ctx.data);
        const det = h("div", { class: "opponent-hand", dataset: { house: opp } },
          h("h4", {}, fmt(gettext("%(house)s's hand"), { house: houseName(opp, ctx.data) }), " ", h("small", { class: "muted" }, gettext("(public)"))),
          h("div", { class: "cards" }, hand.map((c) => cardTile(c, ctx, true))));
        const disc = (ctx.view.discards || {})[opp] || [];
        if (disc.length) det.appendChild(h("p", { class: "muted discards-line" }, gettext("Discarded:") + " " + listOf(disc.map((c) => cardName(c, ctx.data)))));
        box.appendChild(det);
      }
      return box;
    },
  };
}

function useBlade(d, ctx) {
  const o = d.options;
  const label = {
    use: gettext("Use it: +1 combat strength"),
    redraw: gettext("Use it: discard my Tides of Battle card and draw another"),
    pass: gettext("Do not use it"),
  };
  return {
    panel() {
      const c = ctx.view.combat || {};
      const cards = c.cards || {};
      return h("div", { class: "decision use-blade" }, title(gettext("Valyrian Steel Blade")), battleLine(o, ctx), strengthLine(ctx),
        Object.keys(cards).length ? h("p", {}, gettext("House cards:") + " " + [o.attacker, o.defender].map((x) => labelled(houseName(x, ctx.data), cards[x] ? cardName(cards[x], ctx.data) + " (" + ((ctx.data.house_cards[cards[x]] || {}).strength ?? "?") + ")" : "—")).join(" · ")) : null,
        o.tides ? h("p", { class: "my-tides", title: tidesTitle(o.tides, ctx.data) }, fmtNodes(gettext("Your Tides of Battle card: %(card)s"), { card: tidesName(o.tides, ctx.data) })) : null,
        h("p", { class: "hint" }, gettext("You hold the Valyrian Steel Blade: once per round you may use it in a battle you fight.")),
        h("div", { class: "choices" }, (o.options || []).map((x) => btn(label[x] || optionName(x, ctx.data), () => ctx.send({ type: "choose", option: x }),
          { key: "opt-" + x, class: x === "pass" ? "btn" : "btn btn-primary" }))));
    },
  };
}

function casualties(d, ctx) {
  const o = d.options;
  const list = (o.units || []).map((x) => [x[0], x[1]]);
  const c = ctx.view.combat;
  return unitPicker(ctx, purposeName(o.purpose, ctx.data),
    fmt(gettext("Choose %(n)s of your units to destroy (chosen units are crossed out on the map)."), { n: o.count }),
    list, { exact: o.count }, (units) => ctx.send({ type: "select_units", units }), c ? battleLine(c, ctx) : null);
}

function retreat(d, ctx) {
  const o = d.options;
  const options = o.options || [];
  let pick = options.length === 1 ? options[0] : null;
  const losses = o.losses || {};
  const label = (a) => areaName(a, ctx.data) + (losses[a] ? " — " + fmt(gettext("%(n)s unit(s) destroyed first (supply)"), { n: losses[a] }) : "");
  return {
    get targets() { return options; },
    get selected() { return pick || o.from; },
    get moves() { return pick ? [{ from: o.from, to: pick }] : []; },
    onArea(a) { if (options.includes(a)) { pick = a; ctx.rerender({ focus: "confirm" }); } },
    panel() {
      const mine = o.house === ctx.me;
      const box = h("div", { class: "decision retreat" }, title(mine ? gettext("Retreat") : fmt(gettext("Choose where %(house)s retreats"), { house: houseName(o.house, ctx.data) })),
        h("p", {}, fmt(gettext("Retreating from %(area)s: %(units)s. Retreating units are routed."), { units: listOf((o.units || []).map((u) => unitName(u, ctx.data))), area: areaName(o.from, ctx.data) })),
        h("p", { class: "hint" }, gettext("Click a highlighted area on the map, or pick it below.")),
        h("div", { class: "choices" }, options.map((a) => btn(label(a), () => { pick = a; ctx.rerender({ focus: "to-" + a }); }, { pressed: pick === a, key: "to-" + a, class: "btn btn-small dest" }))),
        h("div", { class: "actions" }, confirmBtn(pick ? fmt(gettext("Retreat to %(area)s"), { area: areaName(pick, ctx.data) }) : gettext("Retreat"),
          () => ctx.send({ type: "choose", option: pick }), !pick, "confirm", gettext("Choose where first"))));
      return box;
    },
  };
}

// A decision kind this screen does not know yet: show its options so nothing is hidden.
function unknown(d, ctx) {
  return {
    panel() {
      return h("div", { class: "decision unknown" }, title(decisionName(d.kind)),
        h("p", { class: "muted" }, gettext("This screen cannot show this decision yet.")),
        h("pre", { class: "raw" }, JSON.stringify(d.options, null, 1)));
    },
  };
}

export const CONTROLLERS = {
  place_orders: placeOrders,
  raven,
  raven_wildling: ravenWildling,
  raid,
  march,
  support_neutral_attack: supportNeutral,
  consolidate,
  muster,
  reduce_armies: reduceArmies,
  bid,
  order_ties: orderTies,
  choose,
  select_units: selectUnits,
  select_card: selectCard,
  support_combat: supportCombat,
  choose_house_card: chooseHouseCard,
  use_blade: useBlade,
  casualties,
  retreat,
};

export function makeController(decision, ctx) {
  const make = CONTROLLERS[decision.kind] || unknown;
  return make(decision, ctx);
}

export { cardButton, cardTile, btn, confirmBtn, title };
