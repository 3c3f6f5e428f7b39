// What the viewer may click now, and what a click does: pure functions of the viewer's decision
// (`pending` entry with `options.actions`, the legal actions in JSON form), the view and the
// selection state `ui`. No DOM here, so the rules of the interface are testable on their own.
//
// ui = {mode, frm, piece, duke, first, keep, destroy}
//   mode: "idle" | "tile" (a tile chosen: its targets shown) | "command" (a commanded tile chosen)
//         | "summon" (choosing the Duchess's square)
// A click returns {ui} (new selection), {send: action} (an action to send), or
// {choose: [{label, action | ui}]} when one square allows several actions (e.g. Move or Strike,
// or which way the enraged Dragon faces).

export const IDLE = Object.freeze({ mode: "idle" });

export function initialUi() {
  return { mode: "idle", destroy: [] };
}

function tileAt(view, square) {
  return view.tiles.find((t) => t.square === square) || null;
}

// The decision this viewer must take now, or null.
export function myDecision(pending, viewer) {
  if (!viewer) return null;
  return (pending || []).find((d) => d.actor === viewer && d.options && d.options.actions) || null;
}

function actionsOf(decision) {
  return decision ? decision.options.actions : [];
}

// Squares holding a tile that can act now (move, strike or command), for the turn decision.
export function actingSquares(decision) {
  if (!decision || decision.kind !== "turn") return new Set();
  return new Set(actionsOf(decision).filter((a) => "frm" in a).map((a) => a.frm));
}

// {square: kind} of the squares to highlight as targets; kind is one of "move", "capture",
// "strike", "command-piece", "command-to", "place", "setup".
export function targets(decision, view, ui) {
  const out = {};
  if (!decision) return out;
  const acts = actionsOf(decision);
  const viewer = decision.actor;
  if (decision.kind === "setup") {
    if (!ui.duke) acts.forEach((a) => (out[a.duke] = "setup"));
    else if (!ui.first) acts.filter((a) => a.duke === ui.duke).forEach((a) => a.footmen.forEach((f) => (out[f] = "setup")));
    else
      acts
        .filter((a) => a.duke === ui.duke && a.footmen.includes(ui.first))
        .forEach((a) => a.footmen.forEach((f) => f !== ui.first && (out[f] = "setup")));
    return out;
  }
  if (decision.kind === "place") {
    acts.forEach((a) => (out[a.square] = "place"));
    return out;
  }
  if (decision.kind === "divination") {
    if (ui.keep != null) acts.filter((a) => a.keep === ui.keep).forEach((a) => (out[a.square] = "place"));
    return out;
  }
  if (ui.mode === "summon") {
    acts.filter((a) => a.type === "summon").forEach((a) => (out[a.square] = "place"));
  } else if (ui.mode === "tile") {
    for (const a of acts) {
      if (a.frm !== ui.frm) continue;
      if (a.type === "move") {
        const t = tileAt(view, a.to);
        out[a.to] = t && t.owner !== viewer ? "capture" : "move";
      } else if (a.type === "strike") out[a.target] = "strike";
      else if (a.type === "command" && !out[a.piece]) out[a.piece] = "command-piece";
    }
  } else if (ui.mode === "command") {
    acts
      .filter((a) => a.type === "command" && a.frm === ui.frm && a.piece === ui.piece)
      .forEach((a) => {
        const t = tileAt(view, a.to);
        out[a.to] = t && t.owner !== viewer ? "capture" : "command-to";
      });
  }
  return out;
}

// A label key for one of several actions on the same square (see labels in panel.js).
function choiceFor(action) {
  if (action.type === "strike") return { label: "strike", action };
  if (action.type === "move" && action.dragon_facing) return { label: `dragon-${action.dragon_facing}`, action };
  return { label: "move", action };
}

export function click(decision, view, ui, square) {
  if (!decision) return { ui: initialUi() };
  const acts = actionsOf(decision);
  const tg = targets(decision, view, ui);
  const keep = { destroy: ui.destroy || [], keep: ui.keep ?? null };
  if (decision.kind === "setup") {
    if (!ui.duke) return tg[square] ? { ui: { ...initialUi(), duke: square } } : { ui };
    if (square === ui.duke) return { ui: initialUi() };
    if (!ui.first) return tg[square] ? { ui: { ...ui, first: square } } : { ui };
    if (square === ui.first) return { ui: { ...ui, first: null } };
    if (!tg[square]) return { ui };
    const a = acts.find((x) => x.duke === ui.duke && x.footmen.includes(ui.first) && x.footmen.includes(square));
    return { send: a, ui: initialUi() };
  }
  if (decision.kind === "place") {
    const a = acts.find((x) => x.square === square);
    return a ? { send: a, ui: initialUi() } : { ui };
  }
  if (decision.kind === "divination") {
    if (ui.keep == null || !tg[square]) return { ui };
    const destroy = (ui.destroy || []).filter((i) => i !== ui.keep).sort((a, b) => a - b);
    return { send: { type: "divine_choose", keep: ui.keep, square, destroy }, ui: initialUi() };
  }
  // the turn
  if (ui.mode === "summon") {
    const a = acts.find((x) => x.type === "summon" && x.square === square);
    return a ? { send: a, ui: initialUi() } : { ui: { ...initialUi(), ...keep } };
  }
  if (ui.mode === "command") {
    const a = acts.find((x) => x.type === "command" && x.frm === ui.frm && x.piece === ui.piece && x.to === square);
    if (a) return { send: a, ui: initialUi() };
    if (square === ui.piece) return select(decision, square);
    return { ui: { mode: "tile", frm: ui.frm, destroy: [] } };
  }
  if (ui.mode === "tile" && tg[square]) {
    const final = acts
      .filter((a) => a.frm === ui.frm && ((a.type === "move" && a.to === square) || (a.type === "strike" && a.target === square)))
      .map(choiceFor);
    const commands = acts.some((a) => a.type === "command" && a.frm === ui.frm && a.piece === square);
    const commandUi = { mode: "command", frm: ui.frm, piece: square, destroy: [] };
    if (final.length === 1 && !commands) return { send: final[0].action, ui: initialUi() };
    if (final.length === 0 && commands) return { ui: commandUi };
    const options = final.slice();
    if (commands) options.push({ label: "command", ui: commandUi });
    return { choose: options, ui };
  }
  if (ui.mode === "tile" && square === ui.frm) return { ui: initialUi() };
  return select(decision, square);
}

function select(decision, square) {
  if (actingSquares(decision).has(square)) return { ui: { mode: "tile", frm: square, destroy: [] } };
  return { ui: initialUi() };
}

// Buttons the turn offers besides clicking tiles: draw, summon, divination.
export function turnButtons(decision) {
  if (!decision || decision.kind !== "turn") return [];
  const acts = actionsOf(decision);
  const out = [];
  if (acts.some((a) => a.type === "draw")) out.push({ key: "draw", send: { type: "draw" } });
  if (acts.some((a) => a.type === "summon")) out.push({ key: "summon", ui: { mode: "summon", destroy: [] } });
  if (acts.some((a) => a.type === "divine")) out.push({ key: "divine", send: { type: "divine" } });
  return out;
}
