// The AGoT game screen of either edition: `mountScreen(root, client, board)` with board "agot2"
// (static/js/rulesets/agot2.js) or "agot1" (rulesets/agot1.js). The client's interface is in
// static/js/live/client.js; the screen is described in docs/ui.md. Embeds the board SVG inline
// (/boards/<board>.svg), draws the overlay from each pushed view, builds the decision panel from
// `pending[].options` and sends actions with `client.send`. Names and static facts come from
// /boards/<board>.json. The CSS (css/agot2.css, classes agot2-*) serves both editions.

import { loadBoard, svgEl } from "./svgboard.js";
import { panzoom } from "./panzoom.js";
import { drawHitAreas, drawOverlay } from "./overlay.js";
import { legendPanel } from "./legend.js";
import { makeController } from "./decisions.js";
import { faceDownPanel } from "./face_down.js";
import { draftKey, forgetOtherDrafts, loadDraft, saveDraft } from "./drafts.js";
import { drawRecent } from "./recent.js";

import { areaDetails, cards, combatBanner, combatBox, housesTable, lastBattle, lastBattleId, resultBox, statusLine, tracks, waitingFor, westerosCards } from "./hud.js";
import { h } from "./dom.js";
import { catalogueReady, fmt, gettext, labelled, listOf } from "../i18n.js";
import { areaName, houseName, tokenName, unitName } from "./names.js";

const BOARDS = ["agot2", "agot1"];
const dataCache = {};
function loadData(lang, board) {
  const key = board + "|" + lang;
  if (!dataCache[key]) dataCache[key] = fetch("/boards/" + board + ".json?lang=" + lang).then((r) => r.json());
  return dataCache[key];
}

function ensureStyles() {
  const href = new URL("../../css/agot2.css", import.meta.url).href;
  if (![...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) {
    document.head.appendChild(h("link", { rel: "stylesheet", href }));
  }
}

// the "whole map" button's icon: four corners of a frame (SVG, no font glyph)
function resetIcon() {
  const s = svgEl("svg", { viewBox: "0 0 20 20", width: 20, height: 20, "aria-hidden": "true", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" });
  svgEl("path", { d: "M3 8V3H8M12 3H17V8M17 12V17H12M8 17H3V12" }, s);
  return s;
}

export function mountScreen(root, client, boardId = "agot2") {
  if (!BOARDS.includes(boardId)) throw new Error("unknown board " + boardId);
  performance.mark(boardId + ":mount");
  ensureStyles();
  const lang = client.lang === "zh-hans" ? "zh-hans" : "en";
  const me = client.viewer || null;
  let latest = null;
  let connection = "connecting";
  let ctrl = null;
  let ctrlKey = null;
  let ctrlCtx = null;
  let accepted = 0;
  let error = null;
  let taken = null;  // a face-down choice taken back (change of mind), until answered again
  let draftAt = null;  // the key the current decision's draft is kept under (drafts.js)
  let busy = false;
  let detailsArea = null;
  let board = null;
  let data = null;
  let pz = null;

  root.classList.add("agot2-screen");
  root.dataset.board = boardId;
  root.dataset.ready = "0";
  const top = h("div", { class: "agot2-top" });
  const holder = h("div", { class: "map-holder" });
  const tip = h("div", { class: "area-tip", "aria-live": "polite" });
  const controls = h("div", { class: "map-controls" });
  // the legend: a toggle over the map (its panel is rebuilt from the newest view when opened)
  const legendBox = h("div", { class: "legend-box", hidden: true });
  const legendButton = h("button", { type: "button", class: "btn btn-small legend-toggle", "aria-expanded": "false",
    "aria-controls": "map-legend", "aria-label": gettext("Legend"), title: gettext("Legend"), onclick: () => {
      const open = legendBox.hidden;
      legendBox.hidden = !open;
      legendButton.setAttribute("aria-expanded", String(open));
      if (open && latest && data) legendBox.replaceChildren(legendPanel(latest.view, data));
    } }, gettext("Legend"));
  // the last moves' marks on the map: shown unless turned off (the choice is kept in this browser)
  let showRecent = true;
  try { showRecent = localStorage.getItem("gotweb.recent") !== "off"; } catch (err) { /* no storage: shown */ }
  const recentButton = h("button", { type: "button", class: "btn btn-small recent-toggle", "aria-pressed": String(showRecent),
    title: gettext("Show the last moves on the map"), onclick: () => {
      showRecent = !showRecent;
      recentButton.setAttribute("aria-pressed", String(showRecent));
      try { localStorage.setItem("gotweb.recent", showRecent ? "on" : "off"); } catch (err) { /* private mode */ }
      if (latest && board) drawMap();
    } }, gettext("Last moves"));
  const mapWrap = h("div", { class: "map-wrap" }, holder, controls, legendBox, tip);
  const decisionBox = h("div", { class: "decision-panel", "aria-live": "polite" });
  const errorBox = h("div", { class: "action-error", role: "alert" });
  // the tabs under the decision: the battle (while there is one), tracks, houses, cards, then the
  // page's own panels (chat, players); the page's log is docked under them, always in view
  const tabs = sideTabs();
  const dock = tabs.adopt(document);
  const TAB = { battle: 10, tracks: 20, houses: 30, cards: 40 };
  for (const [id, label] of [["tracks", gettext("Tracks")], ["houses", gettext("Houses")], ["cards", gettext("Cards")]]) {
    tabs.fill(id, label, h("p", { class: "muted" }, "…"), { order: TAB[id] });
  }
  const sheetToggle = h("button", { type: "button", class: "sheet-toggle btn btn-small", "aria-expanded": "true",
    onclick: () => {
      const open = sheet.classList.toggle("collapsed") === false;
      sheetToggle.setAttribute("aria-expanded", String(open));
      sheetToggle.textContent = open ? gettext("Hide panel") : gettext("Show panel");
      hideDetails();  // the sheet changed: the area pop-up closes
    } }, gettext("Hide panel"));
  // on phones the decision panel is a sheet fixed at the bottom of the screen, over the page
  const sheet = h("div", { class: "decision-sheet" }, sheetToggle, errorBox, decisionBox);
  const side = h("aside", { class: "agot2-side", "aria-label": gettext("Game panels") }, sheet, tabs.el, dock || null);
  root.replaceChildren(top, h("div", { class: "agot2-main" }, mapWrap, side));
  holder.appendChild(h("p", { class: "loading" }, gettext("Loading the map…")));

  client.on("connection", (s) => { connection = s; if (latest && data) renderTop(); });
  client.on("state", (s) => { latest = s; if (board) render(); });

  // the board SVG, its names and the catalogue load in parallel
  const svgText = fetch("/boards/" + boardId + ".svg?lang=" + (lang === "zh-hans" ? "zh" : "en")).then((r) => r.text());
  const ready = Promise.all([loadData(lang, boardId), svgText, catalogueReady()]).then(async ([d, text]) => {
    performance.mark(boardId + ":fetched");
    data = d;
    holder.replaceChildren();
    board = await loadBoard(holder, lang, text, boardId);
    performance.mark(boardId + ":board");
    board.svg.setAttribute("aria-label", gettext("Map of Westeros"));
    pz = panzoom(board.svg, { onChange: () => drawHitAreas(board), insetBottom: () => hiddenUnderSheet(board.svg, sheet) });
    new ResizeObserver(() => drawHitAreas(board)).observe(board.svg);
    controls.append(
      h("button", { type: "button", class: "btn btn-small", onclick: () => pz.zoomIn(), "aria-label": gettext("Zoom in") }, "+"),
      h("button", { type: "button", class: "btn btn-small", onclick: () => pz.zoomOut(), "aria-label": gettext("Zoom out") }, "−"),
      h("button", { type: "button", class: "btn btn-small", onclick: () => pz.reset(), "aria-label": gettext("Show the whole map") }, resetIcon()),
      recentButton, legendButton);
    // the area under a click: an area's path, a small area's hit area, or a piece (data-at)
    const areaOf = (t) => {
      const p = t.closest && t.closest("path[data-area], [data-at]");
      return p ? p.getAttribute("data-area") || p.getAttribute("data-at") : null;
    };
    board.svg.addEventListener("click", (e) => {
      const area = areaOf(e.target);
      if (!area) { hideDetails(); return; }  // the map tapped outside every area: the pop-up closes
      // a second tap on the area whose pop-up is open closes the pop-up (and still acts)
      const again = area === tappedArea && detailsArea === area;
      areaActivated(area);
      if (again) hideDetails();
      tappedArea = again ? null : area;
    });
    board.svg.addEventListener("keydown", (e) => {
      const p = e.target.closest && e.target.closest("path[data-area]");
      if (p && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        areaActivated(p.getAttribute("data-area"));
      }
    });
    const hover = (e) => {
      const a = areaOf(e.target);
      if (a) showDetails(a);
    };
    board.svg.addEventListener("mouseover", hover);
    board.svg.addEventListener("focusin", hover);
    if (latest) render();
    performance.mark(boardId + ":ready");
    root.dataset.ready = "1";
    root.dispatchEvent(new CustomEvent(boardId + ":ready"));
  }).catch((err) => {
    holder.replaceChildren(h("p", { class: "action-error" }, gettext("The map could not be loaded.") + " " + String(err)));
  });

  let tappedArea = null;
  function hideDetails() {
    detailsArea = null;
    tappedArea = null;
    tip.replaceChildren();
  }

  function showDetails(area) {
    detailsArea = area;
    if (latest) tip.replaceChildren(areaDetails(area, latest.view, data));
  }

  function areaActivated(area) {
    showDetails(area);
    if (ctrl && ctrl.onArea && !busy) ctrl.onArea(area);
  }

  async function send(action) {
    if (busy) return;
    const at = draftAt;  // the decision this answers (the next state may come before the answer's ack)
    busy = true;
    error = null;
    decisionBox.classList.add("busy");
    let res;
    try {
      res = await client.send(action);
    } catch (err) {
      res = { ok: false, error: { code: "network", message: gettext("The action could not be sent. Check your connection.") } };
    }
    busy = false;
    decisionBox.classList.remove("busy");
    if (!res || !res.ok) {
      error = (res && res.error) || { code: "unknown", message: gettext("The action was refused.") };
      renderError();
    } else {
      accepted += 1;  // the next decision gets a fresh controller, even with the same options
      if (action.type !== "withdraw") {
        taken = null;
        if (at) saveDraft(at, null);  // answered: nothing to restore after a reload
      }
      renderError();
      if (latest && board) render();
    }
    return res;
  }

  function renderError() {
    errorBox.replaceChildren();
    if (error) errorBox.appendChild(h("p", { dataset: { code: error.code || "" } }, error.message || error.code));
  }

  // Zooms the map onto the battle in progress (its area and the March's origin): 2.5x to 3x, into
  // the part of the map in sight, which on phones ends at the decision sheet.
  function showBattle() {
    const c = latest && latest.view.combat;
    if (!c || !pz || !board.areas[c.area]) return;
    mapWrap.scrollIntoView({ block: "start" });  // the whole map's height in sight, as far as it goes
    focusAreas(board, pz, mapWrap, sheet, [c.area, c.origin].filter(Boolean), { minZoom: 2.5, maxZoom: 3 });
  }

  // On a phone the map follows the decision: when the areas it is about change (a new decision,
  // a March's origin chosen and its destinations lit), they are brought above the sheet.
  let followed = "";
  function follow() {
    if (!ctrl || !pz || !sheetCovers(sheet)) { followed = ""; return; }
    const targets = [...(ctrl.targets || [])];
    let areas = targets.length ? [ctrl.selected, ...targets].filter(Boolean) : [...(ctrl.selectable || [])];
    // a battle's decisions (cards, the Blade, support) are about the battle: it stays in sight
    const c = latest.view.combat;
    if (!areas.length && c && c.area) areas = [c.area, c.origin].filter(Boolean);
    const key = ctrlKey + "|" + areas.slice().sort().join(",");
    if (!areas.length || key === followed) return;
    followed = key;
    focusAreas(board, pz, mapWrap, sheet, areas, { scroll: true });
  }

  function renderTop() {
    const v = latest.view;
    top.replaceChildren(statusLine(v, data, me, connection), waitingFor(latest.pending || v.pending, data, me, v.ready || []) || "", combatBanner(v, data, showBattle) || "", resultBox(v, data) || "");
  }

  function rerender(opts = {}) {
    const active = document.activeElement;
    const key = active && decisionBox.contains(active) ? active.dataset.key : null;
    drawMap();
    const panel = ctrl ? ctrl.panel() : idlePanel();
    decisionBox.replaceChildren(...(panel ? [panel] : []));
    sheet.hidden = !panel;  // nothing to show: no sheet over a phone's page
    afterLayout(follow);
    let target = null;
    if (opts.focus === "tokens") target = decisionBox.querySelector(".token-grid button:not([disabled])");
    else if (opts.focus) target = decisionBox.querySelector(`[data-key="${opts.focus}"]`);
    if (!target && key) target = decisionBox.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (target && (opts.focus || key)) target.focus({ preventScroll: !!opts.focus && !key });
  }

  // What needs the page laid out (where the sheet is, where the map is) runs at the next frame,
  // once, not in the middle of drawing (which would make the browser lay out the page twice)
  const queued = new Set();
  function afterLayout(fn) {
    if (queued.has(fn)) return;
    queued.add(fn);
    requestAnimationFrame(() => { queued.delete(fn); if (latest && board) fn(); });
  }

  // A new decision of mine starts at its title, and the page shows it: on a desktop the side
  // column scrolls back to it; on a phone the sheet is fixed and only scrolls to its top.
  let newDecision = false;
  function decisionIntoView() {
    sheet.scrollTop = 0;
    decisionBox.scrollTop = 0;
    if (getComputedStyle(sheet).position === "fixed") return;
    const r = sheet.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 120) sheet.scrollIntoView({ block: "start", behavior: "instant" });
  }

  // The last battle stays in the decision's place, whole, until it is dismissed or a decision
  // of the viewer's comes; then in the Battle tab until it is dismissed or the next orders.
  let dismissedBattle = null;
  let decidedSince = null;  // the last battle a decision of the viewer's has come after
  const dismissBattle = () => {
    dismissedBattle = lastBattleId(latest.view);
    render();
  };

  // The panel when the viewer has no decision, or null for none (then no sheet): a player's
  // face-down choice or "Nothing to decide", and the last battle until it is dismissed; a
  // spectator's only the last battle (the head says they watch); nothing once the game is over
  // (the result is at the top).
  function idlePanel() {
    const v = latest.view;
    if (v.result) return null;
    const id = lastBattleId(v);
    const battle = !v.combat && id !== null && id !== dismissedBattle && id !== decidedSince ? lastBattle(v, data, dismissBattle) : null;
    const idle = me ? faceDownPanel(v, data, changeMind) || h("p", { class: "muted" }, gettext("Nothing to decide right now.")) : null;
    return battle ? h("div", { class: "idle" }, idle, battle) : idle;
  }

  // Change of mind: the face-down choice is taken back; the decision opens again with it
  // filled in (`ctx.previous`, the choice in `taken`), unless the server refused (the last
  // player was in first)
  async function changeMind(choice) {
    taken = choice;
    const res = await send({ type: "withdraw" });
    if (!res || !res.ok) taken = null;
  }

  function drawMap() {
    const v = latest.view;
    drawOverlay(board, v, data, {
      draftOrders: ctrl && ctrl.draftOrders,
      moves: ctrl && ctrl.moves,
      selectable: ctrl && ctrl.selectable,
      targets: ctrl && ctrl.targets,
      selected: ctrl && ctrl.selected,
      doomed: ctrl && ctrl.doomed,
      under: (layer, centre, anchor) => { if (showRecent) drawRecent(layer, v, data, centre, anchor); },
    });
    const clickable = new Set([...((ctrl && ctrl.selectable) || []), ...((ctrl && ctrl.targets) || [])]);
    for (const [id, p] of Object.entries(board.areas)) {
      p.classList.toggle("is-clickable", clickable.has(id));
      p.setAttribute("aria-label", areaLabel(id, v));
    }
  }

  function areaLabel(id, v) {
    const parts = [areaName(id, data)];
    const u = (v.units || {})[id];
    if (u) parts.push(labelled(houseName(u.house, data), listOf(u.units.map((x) => unitName(x.type, data) + (x.routed ? " (" + gettext("routed") + ")" : "")))));
    const o = (v.orders || {})[id];
    if (o) parts.push(gettext("Order:") + " " + tokenName(o.token, data));
    if ((v.power_tokens || {})[id]) parts.push(fmt(gettext("power token of %(house)s"), { house: houseName(v.power_tokens[id], data) }));
    if ((v.neutral || {})[id]) parts.push(fmt(gettext("Neutral force of strength %(n)s"), { n: v.neutral[id] }));
    return parts.join("; ");
  }

  function render() {
    const v = latest.view;
    const pending = latest.pending || v.pending || [];
    const mine = me ? pending.find((p) => p.actor === me && p.options) : null;
    // the same decision stays the same controller (what the player has picked so far survives
    // other houses' moves, e.g. the opponent choosing its house card); it reads the newest view
    const key = mine ? accepted + "|" + mine.kind + "|" + JSON.stringify(mine.options) : null;
    if (key === ctrlKey && ctrlCtx) ctrlCtx.view = v;
    if (key !== ctrlKey) {
      ctrlKey = key;
      // kept until the player answers (the answer's ack may come after the decision's push)
      if (mine && taken && taken.kind !== mine.kind) taken = null;
      // a draft kept across a reload of the page (drafts.js) opens the same decision with it
      draftAt = mine ? draftKey(me, v.round, mine) : null;
      if (draftAt) forgetOtherDrafts(draftAt);
      const kept = draftAt && !taken ? loadDraft(draftAt) : null;
      const previous = mine ? taken || (kept && kept.kind === mine.kind ? kept : null) : null;
      const at = draftAt;
      ctrlCtx = { view: v, data, me, send, previous, keep: at ? (value) => saveDraft(at, value) : null, rerender: (o) => rerender(o) };
      ctrl = mine ? makeController(mine, ctrlCtx) : null;
      if (detailsArea) hideDetails();  // a new decision in the sheet: the area pop-up closes
      error = null;
      renderError();
      newDecision = !!mine;
      if (mine) decidedSince = lastBattleId(v);
    }
    renderTop();
    // the last battle is in the Battle tab unless the decision's place shows it (no need twice)
    const lastId = lastBattleId(v);
    const inIdle = !v.combat && !mine && !v.result && lastId !== null && lastId !== dismissedBattle && lastId !== decidedSince;
    const battle = v.combat || (lastId !== dismissedBattle && !inIdle) ? combatBox(v, data, me, dismissBattle) : null;
    const fresh = battle && !tabs.has("battle");
    tabs.fill("battle", gettext("Battle"), battle, { order: TAB.battle });
    if (fresh && v.combat) tabs.select("battle");  // a battle begins: its panel comes to the front
    tabs.fill("tracks", gettext("Tracks"), () => [westerosCards(v, data), tracks(v, data)]);
    tabs.fill("houses", gettext("Houses"), () => housesTable(v, data, me));
    tabs.fill("cards", gettext("Cards"), () => cards(v, data, me) || h("p", { class: "muted" }, gettext("No cards to show.")));
    rerender();
    if (detailsArea) showDetails(detailsArea);
    if (newDecision) afterLayout(decisionIntoView);
    newDecision = false;
    if (!root.dataset.version) performance.mark(boardId + ":first-state");
    root.dataset.version = String(v.version);
    root.dataset.decision = mine ? mine.kind : "";
  }

  return { ready };
}

// The side column's tabs: one panel in view at a time (the battle, tracks, houses, cards, and
// whatever the page adds), so the map, the decision and the log fit a desktop window without
// scrolling. A page offers its own panels by marking them: `[data-screen-tab="<id>"]` with
// `data-tab-label` (and `data-tab-order`, against the screen's 10-40) becomes a tab (the live page's chat and players), `[data-screen-dock]` is
// docked under the tabs, always in view (the live page's log). A tab marked `data-tab-notify`
// whose hidden panel changes (a chat message) is marked until it is opened.
function sideTabs() {
  const list = h("div", { class: "side-tablist", role: "tablist" });
  const panels = h("div", { class: "side-panels" });
  const box = h("div", { class: "side-tabs" }, list, panels);
  const tabs = new Map();  // id -> {button, panel, own}
  let active = null;
  let chosen = null;  // the tab the player opened last (a battle's own tab gives way to it later)

  function select(id, byPlayer = false) {
    if (!tabs.has(id)) return;
    active = id;
    if (byPlayer) chosen = id;
    drawLater(id);
    for (const [tid, t] of tabs) {
      const on = tid === id;
      t.button.setAttribute("aria-selected", String(on));
      t.button.tabIndex = on ? 0 : -1;
      t.panel.hidden = !on;
      if (on) t.button.classList.remove("unread");
    }
  }

  function add(id, label, panel, { own = true, order = 100 } = {}) {
    const button = h("button", { type: "button", role: "tab", class: "side-tab", id: "tab-" + id, "aria-controls": "tabpanel-" + id,
      "aria-selected": "false", tabIndex: -1, dataset: { tab: id }, onclick: () => select(id, true) }, label);
    const wrap = h("div", { class: "side-panel", role: "tabpanel", id: "tabpanel-" + id, "aria-labelledby": "tab-" + id, hidden: true, dataset: { tab: id } }, panel);
    // tabs stand in their `order` (the page's chat first, then the battle, tracks, houses, cards)
    const at = [...tabs.values()].find((t) => t.order > order);
    list.insertBefore(button, at ? at.button : null);
    panels.insertBefore(wrap, at ? at.panel : null);
    tabs.set(id, { button, panel: wrap, own, order });
    if (!own && panel.hasAttribute("data-tab-notify")) {
      // a page's panel changing while hidden (a chat line) marks its tab
      new MutationObserver(() => { if (active !== id) button.classList.add("unread"); }).observe(panel, { childList: true, subtree: true });
    }
    if (!active) select(id);
    return wrap;
  }

  function remove(id) {
    const t = tabs.get(id);
    if (!t) return;
    t.button.remove();
    t.panel.remove();
    tabs.delete(id);
    if (active === id) select(tabs.has(chosen) ? chosen : tabs.keys().next().value);
  }

  // arrow keys move between tabs (the tablist pattern)
  list.addEventListener("keydown", (e) => {
    const ids = [...tabs.keys()];
    const i = ids.indexOf(active);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ids.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const id = ids[(next + ids.length) % ids.length];
    select(id, true);
    tabs.get(id).button.focus();
  });

  // Fills an own tab's panel (made on first use); null or empty content removes the tab. A
  // function as content is called only while its tab is open (hidden tabs are not drawn on every
  // push: they are drawn when opened).
  const later = new Map();  // id -> the content function of a hidden tab, not drawn yet
  function fill(id, label, content, opts = {}) {
    if (typeof content === "function") {
      if (!tabs.has(id)) add(id, label, h("div", { class: "side-info" }), opts);
      if (active !== id) { later.set(id, content); return; }
      later.delete(id);
      content = content();
    }
    const nodes = [].concat(content || []).filter(Boolean);
    if (!nodes.length) { remove(id); return; }
    if (!tabs.has(id)) add(id, label, h("div", { class: "side-info" }), opts);
    tabs.get(id).panel.firstChild.replaceChildren(...nodes);
  }
  function drawLater(id) {
    const make = later.get(id);
    if (!make) return;
    later.delete(id);
    tabs.get(id).panel.firstChild.replaceChildren(...[].concat(make() || []).filter(Boolean));
  }

  // The page's own panels (see above): adopted once, kept where the page made them otherwise.
  function adopt(doc) {
    const dock = doc.querySelector("[data-screen-dock]");
    for (const el of doc.querySelectorAll("[data-screen-tab]")) {
      add(el.dataset.screenTab, el.dataset.tabLabel || el.dataset.screenTab, el, { own: false, order: Number(el.dataset.tabOrder || 100) });
    }
    return dock;
  }

  return { el: box, add, fill, remove, select, adopt, get active() { return active; }, get chosen() { return chosen; }, has: (id) => tabs.has(id) };
}

// The map follows the decision: on a phone, where the decision sheet is fixed over the bottom of
// the screen, the areas a decision is about (the areas to choose from, or the chosen one and its
// targets) are brought into the part of the map above the sheet, zoomed in as far as they fit
// (never past `maxZoom`), and the page is scrolled so the map starts at the top of the screen
// (the site's bar and the game's head scroll away while a decision needs the map).

// Is the sheet fixed over the screen (a phone), and open?
function sheetCovers(sheet) {
  return !sheet.hidden && getComputedStyle(sheet).position === "fixed" && !sheet.classList.contains("collapsed");
}

// The CSS pixels at the bottom of the map hidden under the sheet.
function hiddenUnderSheet(svg, sheet) {
  if (!sheetCovers(sheet)) return 0;
  const r = svg.getBoundingClientRect();
  return Math.max(0, r.bottom - Math.max(r.top, sheet.getBoundingClientRect().top));
}

// The union of the areas' drawn boxes (drawing units), or null.
function boxOf(board, areas, pad) {
  const boxes = areas.map((a) => board.areas[a] && (board.boxes[a] || (board.boxes[a] = board.areas[a].getBBox()))).filter(Boolean);
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((b) => b.x)) - pad;
  const y0 = Math.min(...boxes.map((b) => b.y)) - pad;
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
  const y1 = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
  return { x0, y0, x1, y1 };
}

// Brings `areas` into the map's part in sight. `scroll`: scroll the page so the map starts at the
// top of the screen first (phones). `minZoom`: zoom in at least this far (a battle). Leaves the
// map alone when the areas are already in sight and no zoom is asked for.
function focusAreas(board, pz, mapWrap, sheet, areas, { scroll = false, minZoom = 1, maxZoom = 3 } = {}) {
  const b = boxOf(board, areas, 12);
  if (!b || !pz) return false;
  if (scroll) {
    const top = mapWrap.getBoundingClientRect().top;
    if (Math.abs(top) > 2) window.scrollTo({ top: window.scrollY + top, behavior: "instant" });
  }
  const r = board.svg.getBoundingClientRect();
  const controls = mapWrap.querySelector(".map-controls");
  const cr = controls && getComputedStyle(controls).position === "static" ? controls.getBoundingClientRect() : null;
  const top = Math.max(r.top, 0, cr ? cr.bottom : -Infinity);
  let bottom = Math.min(r.bottom, window.innerHeight);
  if (sheetCovers(sheet)) bottom = Math.min(bottom, sheet.getBoundingClientRect().top);
  if (bottom - top < 60) return false;
  // already in sight: nothing moves
  const m = board.svg.getScreenCTM();
  if (m && minZoom <= pz.zoom) {
    const p0 = new DOMPoint(b.x0, b.y0).matrixTransform(m);
    const p1 = new DOMPoint(b.x1, b.y1).matrixTransform(m);
    if (p0.x >= r.left - 1 && p1.x <= r.right + 1 && p0.y >= top - 1 && p1.y <= bottom + 1) return false;
  }
  const home = pz.home;
  const ppu0 = Math.min(r.width / home.w, r.height / home.h);  // pixels per unit, whole board
  const fit = Math.min((0.94 * r.width) / ppu0 / (b.x1 - b.x0), (0.94 * (bottom - top)) / ppu0 / (b.y1 - b.y0));
  const zoom = Math.max(1, minZoom, Math.min(maxZoom, fit));
  pz.show((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2, zoom, r.width / 2, (top + bottom) / 2 - r.top);
  return true;
}
