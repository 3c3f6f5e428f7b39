// The Duke's renderer for the live game page: `mount(root, client)` (the client's interface is in
// static/js/live/client.js; the screen is described in docs/duke.md). Draws the board
// (static/js/duke/board.js) and the side panel (panel.js), turns clicks and keys into actions
// through choices.js, and sends them with `client.send`.
//
// Keyboard: Tab reaches the board (one square at a time is in the tab order), the arrow keys
// move between squares, Enter or Space clicks, Escape cancels the selection.
import { boardSvg } from "../duke/board.js";
import { actingSquares, click, initialUi, myDecision, targets, turnButtons } from "../duke/choices.js";
import { bottomSeat, fromScreen, toScreen } from "../duke/geometry.js";
import { gettext } from "../duke/i18n.js";
import { panelHtml, statusHtml } from "../duke/panel.js";

const CSS_URL = new URL("../../css/duke.css", import.meta.url).href;

function ensureCss() {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === CSS_URL)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = CSS_URL;
  document.head.appendChild(link);
}

export function mount(root, client) {
  ensureCss();
  const viewer = client.viewer || null;
  const lang = client.lang === "zh-hans" ? "zh-hans" : "en";
  root.classList.add("duke-root");
  root.innerHTML =
    `<div class="duke-statusbar" data-role="status"></div>` +
    `<div class="duke-layout"><div class="duke-board-wrap" data-role="board"></div>` +
    `<aside class="duke-panel" data-role="panel" aria-label="${gettext("Game status")}"></aside></div>`;
  const boardEl = root.querySelector('[data-role="board"]');
  const panelEl = root.querySelector('[data-role="panel"]');
  const statusEl = root.querySelector('[data-role="status"]');

  let data = null; // {view, pending, version}
  let ui = initialUi();
  let choice = null;
  let error = "";
  let busy = false;
  let focus = null; // the square in the tab order

  function decision() {
    return data && !data.view.result ? myDecision(data.pending, viewer) : null;
  }

  function render() {
    if (!data) {
      boardEl.innerHTML = `<p class="muted">${gettext("Loading the game…")}</p>`;
      return;
    }
    const active = document.activeElement;
    const hadFocus = active && root.contains(active);
    const focusKey = hadFocus ? active.dataset.key || (active.dataset.square ? `sq-${active.dataset.square}` : null) : null;
    const view = data.view;
    const dec = decision();
    const tg = targets(dec, view, ui);
    const acting = actingSquares(dec);
    if (!focus) focus = Object.keys(tg)[0] || [...acting][0] || (viewer === "dark" ? "a6" : "a1");
    const ghosts = {};
    if (ui.duke) ghosts[ui.duke] = "duke";
    if (ui.first) ghosts[ui.first] = "footman";
    boardEl.innerHTML = boardSvg({ view, viewer, lang, ui, targets: tg, acting, ghosts, focus });
    const others = (data.pending || []).filter((d) => d.actor !== viewer);
    statusEl.innerHTML = statusHtml({ view, viewer, decision: dec, others, error });
    panelEl.innerHTML = panelHtml({ view, viewer, lang, decision: dec, ui, buttons: turnButtons(dec), choice, busy });
    root.dataset.phase = view.phase;
    root.dataset.toMove = view.to_move || "";
    root.dataset.myTurn = dec ? "1" : "0";
    root.dataset.version = String(data.version ?? "");
    if (focusKey) {
      const el = focusKey.startsWith("sq-")
        ? boardEl.querySelector(`[data-square="${focusKey.slice(3)}"]`)
        : panelEl.querySelector(`[data-key="${focusKey}"]`);
      if (el) el.focus();
    }
  }

  async function send(action) {
    busy = true;
    error = "";
    render();
    let res;
    try {
      res = await client.send(action);
    } catch (e) {
      res = { ok: false, error: { message: gettext("Not connected: the action was not sent.") } };
    }
    busy = false;
    if (!res || !res.ok) error = (res && res.error && res.error.message) || gettext("The action was refused.");
    render();
  }

  function onSquare(square) {
    if (!data || busy) return;
    focus = square;
    const dec = decision();
    const r = click(dec, data.view, ui, square);
    error = "";
    choice = r.choose || null;
    ui = r.ui || ui;
    render();
    if (r.send) send(r.send);
  }

  boardEl.addEventListener("click", (ev) => {
    const g = ev.target.closest("[data-square]");
    if (g) onSquare(g.dataset.square);
  });

  boardEl.addEventListener("keydown", (ev) => {
    const g = ev.target.closest("[data-square]");
    if (!g) return;
    const sq = g.dataset.square;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      onSquare(sq);
      return;
    }
    if (ev.key === "Escape") {
      cancel();
      return;
    }
    const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[ev.key];
    if (!d) return;
    ev.preventDefault();
    const bottom = bottomSeat(viewer);
    const { col, row } = toScreen(sq, bottom);
    const nc = Math.min(5, Math.max(0, col + d[0]));
    const nr = Math.min(5, Math.max(0, row + d[1]));
    focus = fromScreen(nc, nr, bottom);
    for (const el of boardEl.querySelectorAll("[data-square]")) el.setAttribute("tabindex", el.dataset.square === focus ? "0" : "-1");
    boardEl.querySelector(`[data-square="${focus}"]`).focus();
  });

  function cancel() {
    ui = initialUi();
    choice = null;
    error = "";
    render();
  }

  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !ev.target.closest("[data-square]")) cancel();
  });

  panelEl.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b || busy) return;
    if (b.dataset.cancel) return cancel();
    if (b.dataset.button) {
      const btn = turnButtons(decision()).find((x) => x.key === b.dataset.button);
      if (!btn) return;
      choice = null;
      if (btn.send) {
        ui = initialUi();
        send(btn.send);
      } else {
        ui = btn.ui;
        render();
      }
      return;
    }
    if (b.dataset.choice) {
      const c = choice && choice[Number(b.dataset.choice)];
      choice = null;
      if (!c) return render();
      if (c.action) {
        ui = initialUi();
        send(c.action);
      } else {
        ui = c.ui;
        render();
      }
      return;
    }
    if (b.dataset.keep) {
      ui = { ...ui, keep: Number(b.dataset.keep) };
      render();
    }
  });

  panelEl.addEventListener("change", (ev) => {
    const box = ev.target.closest("input[data-destroy]");
    if (!box) return;
    const i = Number(box.dataset.destroy);
    const set = new Set(ui.destroy || []);
    if (box.checked) set.add(i);
    else set.delete(i);
    ui = { ...ui, destroy: [...set] };
    render();
  });

  client.on("state", (msg) => {
    const newDecision = myDecision(msg.pending, viewer);
    const oldDecision = decision();
    data = msg;
    root.dukeData = msg; // the latest state this viewer received (read by the browser tests)
    // a new decision (or none) ends any selection made for the previous one
    if (!newDecision || !oldDecision || newDecision.kind !== oldDecision.kind || JSON.stringify(newDecision.options) !== JSON.stringify(oldDecision.options)) {
      ui = initialUi();
      choice = null;
    }
    render();
  });
  client.on("connection", (state) => {
    root.dataset.connection = state;
  });
  render();
  return { render };
}
