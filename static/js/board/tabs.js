// The side column's tabs: one panel in view at a time (the battle, tracks, houses, cards, and
// whatever the page adds), so the map, the decision and the log fit a desktop window without
// scrolling. A page offers its own panels by marking them: `[data-screen-tab="<id>"]` with
// `data-tab-label` (and `data-tab-order`, against the screen's 10-40) becomes a tab (the live page's chat and players), `[data-screen-dock]` is
// docked under the tabs, always in view (the live page's log). A tab marked `data-tab-notify`
// whose hidden panel changes (a chat message) is marked until it is opened.

import { h } from "./dom.js";

export function sideTabs() {
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

  // Fills an own tab's panel (made on first use); null or empty content removes the tab.
  function fill(id, label, content, opts = {}) {
    const nodes = [].concat(content || []).filter(Boolean);
    if (!nodes.length) { remove(id); return; }
    if (!tabs.has(id)) add(id, label, h("div", { class: "side-info" }), opts);
    tabs.get(id).panel.firstChild.replaceChildren(...nodes);
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
