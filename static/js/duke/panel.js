// The side panel: whose turn, Guard, the result, what the viewer can do now (buttons, choices,
// the drawn tile), both bags, lost tiles and the icon legend. (The game page has its own log.)
import { esc, iconSvg, tileSvg } from "./tile.js";
import { fmt, gettext, iconName, ngettext, seatName, tileName } from "./i18n.js";

const SEATS = ["light", "dark"];

function reasonText(reason) {
  return {
    duke_captured: gettext("the Duke was captured"),
    duke_lost_to_dragon: gettext("the Dragon took a Duke"),
    both_dukes_lost: gettext("the Dragon took both Dukes"),
    checkmate: gettext("no legal action while in Guard"),
    no_legal_action: gettext("no legal action"),
    no_progress: gettext("100 turns without a capture or a new tile"),
  }[reason] || reason;
}

export function statusText(view, viewer, decision, others) {
  if (view.result) {
    const r = view.result;
    const why = reasonText(r.reason);
    if (!r.winner) return fmt(gettext("Game over: a draw (%(reason)s)."), { reason: why });
    if (r.winner === viewer) return fmt(gettext("You win! (%(reason)s)"), { reason: why });
    return fmt(gettext("Game over: %(seat)s wins (%(reason)s)."), { seat: seatName(r.winner), reason: why });
  }
  if (decision) {
    if (decision.kind === "setup") return gettext("Your turn: set up. Choose your Duke's square, then two squares beside it for your Footmen.");
    if (decision.kind === "place") return gettext("Your turn: place the drawn tile on a highlighted square beside your Duke.");
    if (decision.kind === "divination") return gettext("Your turn: choose the tile to keep, which others to destroy, then its square.");
    if (decision.options.actions.some((a) => a.type === "draw")) return gettext("Your turn: choose a tile to see where it can go, or draw a tile.");
    return gettext("Your turn: choose a tile to see where it can go.");
  }
  const waiting = others[0];
  if (waiting) {
    if (viewer) return fmt(gettext("Waiting for %(seat)s."), { seat: seatName(waiting.actor) });
    return fmt(gettext("%(seat)s to move."), { seat: seatName(waiting.actor) });
  }
  return "";
}

function choiceLabel(label) {
  return {
    move: gettext("Move here"),
    strike: gettext("Strike (capture without moving)"),
    command: gettext("Command this tile"),
    "dragon-n": fmt(gettext("Push the Dragon; it faces %(seat)s"), { seat: seatName("dark") }),
    "dragon-s": fmt(gettext("Push the Dragon; it faces %(seat)s"), { seat: seatName("light") }),
  }[label] || label;
}

function chip(kind, lang) {
  return `<li class="chip">${esc(tileName(kind, lang))}</li>`;
}

function miniTile(kind, owner, lang) {
  return `<svg class="mini-tile" viewBox="0 0 100 100" aria-hidden="true">${tileSvg({ kind, side: "start", owner, forward: [0, -1], label: tileName(kind, lang) })}</svg>`;
}

// The status bar above the board: whose turn or the result, Guard, a refused action.
export function statusHtml({ view, viewer, decision, others, error }) {
  const out = [];
  const cls = view.result ? " over" : decision ? " my-turn" : "";
  out.push(`<p class="duke-status${cls}" role="status" aria-live="polite">${esc(statusText(view, viewer, decision, others))}</p>`);
  if (view.guard && !view.result) {
    const text = view.guard === viewer ? gettext("Guard! Your Duke can be captured: answer it.") : fmt(gettext("Guard! %(seat)s's Duke is threatened."), { seat: seatName(view.guard) });
    out.push(`<p class="duke-guard" role="alert">${esc(text)}</p>`);
  }
  if (error) out.push(`<p class="duke-error" role="alert">${esc(error)}</p>`);
  return out.join("");
}

// The panel's HTML. opts: {view, viewer, lang, decision, ui, buttons, choice, busy}
export function panelHtml({ view, viewer, lang, decision, ui, buttons, choice, busy }) {
  const out = [];
  // what the viewer can do
  const controls = [];
  const btnLabel = {
    draw: fmt(gettext("Draw a tile (%(n)s in your bag)"), { n: viewer ? view.bags[viewer].count : 0 }),
    summon: gettext("Summon the Duchess"),
    divine: gettext("Divination"),
  };
  for (const b of buttons) {
    controls.push(`<button type="button" class="btn" data-key="btn-${b.key}" data-button="${b.key}"${busy ? " disabled" : ""}>${esc(btnLabel[b.key])}</button>`);
  }
  if (choice) {
    controls.push(`<p class="duke-hint">${esc(gettext("Several actions reach this square: choose one."))}</p>`);
    choice.forEach((c, i) => controls.push(`<button type="button" class="btn btn-primary" data-key="choice-${i}" data-choice="${i}" data-choice-kind="${c.label}">${esc(choiceLabel(c.label))}</button>`));
  }
  if (ui.mode !== "idle" || choice || ui.duke) {
    controls.push(`<button type="button" class="btn" data-key="cancel" data-cancel="1">${esc(gettext("Cancel"))}</button>`);
  }
  if (ui.mode === "summon") controls.unshift(`<p class="duke-hint">${esc(gettext("Choose the Duchess's square beside your Duke."))}</p>`);
  if (ui.mode === "command") controls.unshift(`<p class="duke-hint">${esc(fmt(gettext("Choose where the tile on %(square)s goes."), { square: ui.piece }))}</p>`);
  if (controls.length) out.push(`<div class="duke-controls">${controls.join("")}</div>`);
  // the drawn tile(s)
  if (Array.isArray(view.drawn) && view.drawn.length) {
    const owner = view.to_move || viewer || "light";
    if (decision && decision.kind === "divination") {
      const items = view.drawn.map((kind, i) => {
        const kept = ui.keep === i;
        const destroyed = (ui.destroy || []).includes(i) && !kept;
        return (
          `<li class="drawn-item${kept ? " kept" : ""}">${miniTile(kind, owner, lang)}<span>${esc(tileName(kind, lang))}</span>` +
          `<button type="button" class="btn btn-small" data-key="keep-${i}" data-keep="${i}" aria-pressed="${kept}">${esc(gettext("Keep"))}</button>` +
          (kept ? "" : `<label class="destroy"><input type="checkbox" data-key="destroy-${i}" data-destroy="${i}"${destroyed ? " checked" : ""}> ${esc(gettext("Destroy"))}</label>`) +
          `</li>`
        );
      });
      out.push(`<div class="duke-drawn"><h3>${esc(gettext("Drawn tiles"))}</h3><ul>${items.join("")}</ul></div>`);
    } else {
      out.push(
        `<div class="duke-drawn"><h3>${esc(gettext("Drawn tile"))}</h3><ul>` +
          view.drawn.map((k) => `<li class="drawn-item">${miniTile(k, owner, lang)}<span>${esc(tileName(k, lang))}</span></li>`).join("") +
          `</ul></div>`,
      );
    }
  } else if (view.drawn && view.drawn.count) {
    out.push(`<p class="duke-hint">${esc(fmt(gettext("%(seat)s drew %(n)s tiles by Divination."), { seat: seatName(view.to_move), n: view.drawn.count }))}</p>`);
  }
  // the players
  const rows = SEATS.map((s) => {
    const you = s === viewer ? ` <span class="tag">${esc(gettext("you"))}</span>` : "";
    const turn = view.to_move === s && !view.result ? ` <span class="turn-dot" role="img" title="${esc(gettext("to move"))}" aria-label="${esc(gettext("to move"))}"></span>` : "";
    const bag = view.bags[s].count;
    const lost = view.lost[s];
    return (
      `<section class="duke-seat seat-${s}"><h3><span class="swatch" aria-hidden="true"></span>${esc(seatName(s))}${you}${turn}</h3>` +
      `<p class="bag" data-bag="${s}">${esc(fmt(ngettext("%(n)s tile in the bag", "%(n)s tiles in the bag", bag), { n: bag }))}</p>` +
      `<p class="lost-title">${esc(fmt(gettext("Tiles lost: %(n)s"), { n: lost.length }))}</p>` +
      (lost.length ? `<ul class="chips" data-lost="${s}">${lost.map((k) => chip(k, lang)).join("")}</ul>` : "") +
      `</section>`
    );
  });
  out.push(`<div class="duke-seats">${rows.join("")}</div>`);
  // legend
  const icons = ["move", "jump", "slide", "jump_slide", "strike", "command", "dread", "defense"];
  out.push(
    `<details class="duke-legend"><summary>${esc(gettext("Icons"))}</summary><ul>` +
      icons.map((ic) => `<li><svg viewBox="0 0 20 20" aria-hidden="true" class="legend-icon">${iconSvg(ic, 10, 10, 18, [0, -1])}</svg>${esc(iconName(ic))}</li>`).join("") +
      `</ul></details>`,
  );
  return out.join("");
}
