// The table among strangers on the game page: in the page's head, while there is one, the open vote
// (who asked what, who agreed and whose answer it awaits, yes / no), the pause and its end, and the
// seats the table opened for a new player; in the Players tab, asking the table for a vote and the
// link to report the game; per chat line "hide this player" and "report".
// Mounted by play.js (mountTable), which calls chatLine(li, message) for each chat line it draws.
// Everything it shows comes from the seat status every socket gets (`seats.table`,
// docs/protocol.md "The table's votes"); the server decides everything.

const gettext = (s) => (window.gettext ? window.gettext(s) : s);
// names joined as the language writes a list ("a, b"; in Chinese "a、b")
const listOf = (items) => items.join(window.pgettext ? window.pgettext("between the items of a list", ", ") : ", ");
const interpolate = (fmt, args) => args.reduce((text, arg) => text.replace("%s", arg), fmt);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function asked(v, name) {
  switch (v.kind) {
    case "pause": return interpolate(gettext("pause the game for %s minutes"), [String(v.minutes)]);
    case "extend": return gettext("extend every clock and deadline");
    case "end": return gettext("end the game now (scored as the rules score an early end; unrated)");
    case "replace": return interpolate(gettext("replace the player of %s"), [name(v.target)]);
    case "swap": return interpolate(gettext("swap houses with %s"), [name(v.target)]);
    default: return v.kind;
  }
}

function clockOf(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function mountTable({ live, config, replaying, seatName }) {
  const table = config.table || {};
  const name = (seat) => seatName[seat] || seat;
  const viewer = config.viewer;
  if (table.css) document.head.append(el("link", { rel: "stylesheet", href: table.css }));

  // what the table is living through (a pause, an open vote, an open seat) is shown in the page's
  // head; what a player may start (ask for a vote, report the game) waits in the Players tab, so the
  // head stays short and the tabs beside the map keep their room
  const panel = el("section", { class: "table-panel card", id: "table-panel", hidden: true });
  panel.setAttribute("aria-label", gettext("The table"));
  panel.setAttribute("aria-live", "polite");
  const anchor = document.getElementById("stand-in-error") || document.getElementById("board-root");
  anchor.after(panel);
  const error = el("p", { class: "field-error", id: "table-error", role: "alert" });
  const askBox = el("section", { class: "table-ask", id: "table-ask" });
  askBox.setAttribute("aria-label", gettext("The table"));
  const askError = el("p", { class: "field-error", id: "table-ask-error", role: "alert" });
  const players = document.querySelector(".players-card");
  if (players) players.append(askBox);
  else panel.after(askBox);

  const reportLink = config.user && table.report
    ? el("p", { class: "table-links" }, el("a", { href: `${table.report}?game=${config.game}`, id: "report-game", textContent: gettext("Report this game") }))
    : null;

  let status = null; // the latest seats.table
  let timed = false;
  let running = true;
  let timer = null;

  // an answer's error is shown beside the button that asked: in the Players tab or in the head
  function send(promise, button) {
    const where = button && askBox.contains(button) ? askError : error;
    if (button) button.disabled = true;
    return promise.then((answer) => {
      where.textContent = answer.ok ? "" : answer.error.message;
      if (button) button.disabled = false;
      showPanel();
      if (!answer.ok) where.scrollIntoView({ block: "nearest" });  // as the chat's: a tab may hide it below its fold
      return answer;
    });
  }

  // the head's panel only while it has something to say
  let liveParts = false;
  function showPanel() {
    panel.hidden = !liveParts && !error.textContent;
  }

  function button(text, onClick, extra = {}) {
    const b = el("button", { type: "button", class: "btn btn-small", textContent: text, ...extra });
    b.addEventListener("click", () => onClick(b));
    return b;
  }

  const others = config.seats.filter((s) => s.seat !== viewer && !s.bot && s.player).map((s) => s.seat);

  // the votes a player may ask for now, as [kind, label]
  function proposeKinds() {
    const kinds = [];
    if (timed && !(status && status.pause)) kinds.push(["pause", gettext("Pause the game")]);
    if (timed && !(status && status.extended)) kinds.push(["extend", gettext("Extend every clock")]);
    if (table.can_end) kinds.push(["end", gettext("End the game now")]);
    kinds.push(["replace", gettext("Replace a player")]);
    if (table.can_swap && others.length) kinds.push(["swap", gettext("Swap houses")]);
    return kinds;
  }

  // the form to ask the table, made again only when the votes it offers change: a render (each
  // seat status, and every second while a pause or a vote runs) keeps what the player is choosing
  let form = null;
  let formKinds = "";
  function currentForm() {
    const kinds = proposeKinds();
    const key = kinds.map(([k]) => k).join(",");
    if (form === null || key !== formKinds) {
      form = proposeForm(kinds);
      formKinds = key;
    }
    return form;
  }

  function proposeForm(kinds) {
    const kind = el("select", { id: "vote-kind" }, ...kinds.map(([v, t]) => el("option", { value: v, textContent: t })));
    kind.setAttribute("aria-label", gettext("What to ask the table"));
    const minutes = el("input", { type: "number", id: "vote-minutes", min: 1, max: table.pause_max || 60, value: Math.min(10, table.pause_max || 60) });
    minutes.setAttribute("aria-label", gettext("Minutes"));
    const minutesBox = el("label", { class: "vote-minutes" }, minutes, " ", gettext("minutes"));
    const seats = config.seats.filter((s) => !s.bot && s.player).map((s) => s.seat);
    const seat = el("select", { id: "vote-seat" });
    seat.setAttribute("aria-label", gettext("Which player"));
    const fillSeats = () => {
      const list = kind.value === "swap" ? others : seats;
      seat.replaceChildren(...list.map((s) => el("option", { value: s, textContent: s === viewer ? interpolate(gettext("%s (me)"), [name(s)]) : name(s) })));
    };
    const sync = () => {
      minutesBox.hidden = kind.value !== "pause";
      seat.hidden = kind.value !== "replace" && kind.value !== "swap";
      fillSeats();
    };
    kind.addEventListener("change", sync);
    sync();
    const ask = button(gettext("Ask the table"), (b) => {
      const extra = {};
      if (kind.value === "pause") extra.minutes = Number(minutes.value);
      if (!seat.hidden) extra.seat = seat.value;
      send(live.propose(kind.value, extra), b);
    }, { id: "vote-ask" });
    return el("div", { class: "vote-propose" }, kind, " ", minutesBox, " ", seat, " ", ask);
  }

  function render() {
    clearTimeout(timer);
    const parts = [];
    const t = status;
    let ticking = false;
    if (t && t.pause) {
      const left = t.pause.until - (Date.now() / 1000);
      const line = el("p", { class: "table-pause", id: "table-pause" },
        interpolate(gettext("The game is paused (asked by %s): clocks and deadlines stop. %s left."), [name(t.pause.by), clockOf(left)]));
      parts.push(line);
      if (t.pause.by === viewer && !replaying) parts.push(button(gettext("Resume now"), (b) => send(live.resume(), b), { id: "vote-resume" }));
      ticking = true;
    }
    const v = t && t.vote;
    if (v) {
      const box = el("div", { class: "table-vote", id: "table-vote", "data-vote": String(v.n), "data-kind": v.kind });
      box.append(el("p", { class: "vote-question" }, interpolate(gettext("Vote: %s asks to %s."), [name(v.by), asked(v, name)])));
      const yes = listOf(v.yes.map(name)) || "–";
      box.append(el("p", { class: "vote-yes" }, interpolate(gettext("Agreed: %s"), [yes])));
      if (v.no.length) box.append(el("p", { class: "vote-no" }, interpolate(gettext("Refused: %s"), [listOf(v.no.map(name))])));
      if (v.awaiting && v.awaiting.length) box.append(el("p", { class: "vote-awaiting" }, interpolate(gettext("Waiting for: %s"), [listOf(v.awaiting.map(name))])));
      const left = v.until - Date.now() / 1000;
      box.append(el("p", { class: "vote-time muted" }, interpolate(gettext("Expires in %s."), [clockOf(left)])));
      const mayVote = viewer !== null && !replaying && (v.voters || []).includes(viewer) && !v.yes.includes(viewer) && !v.no.includes(viewer);
      if (mayVote) {
        box.append(el("div", { class: "vote-answer" },
          button(gettext("Yes"), (b) => send(live.vote(v.n, true), b), { id: "vote-yes" }), " ",
          button(gettext("No"), (b) => send(live.vote(v.n, false), b), { id: "vote-no" })));
      } else if (viewer !== null && v.kind === "replace" && v.target === viewer) {
        box.append(el("p", { class: "muted" }, gettext("This vote is about your seat: it is not yours to answer.")));
      }
      parts.push(box);
      ticking = true;
    }
    const ask = [];
    if (!v && viewer !== null && running && !replaying) ask.push(currentForm());
    for (const seat of (t && t.vacant) || []) {
      const text = interpolate(gettext("The seat of %s is open for a new player (a bot plays it meanwhile)."), [name(seat)]);
      const row = el("p", { class: "table-vacant", "data-seat": seat }, text);
      if (viewer === null && table.take && config.user) {
        const form = el("form", { method: "post", action: table.take.replace("SEAT", encodeURIComponent(seat)), class: "inline" },
          el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: table.csrf }),
          el("button", { type: "submit", class: "btn btn-small", textContent: gettext("Take this seat") }));
        row.append(" ", form);
      }
      parts.push(row);
    }
    if (reportLink) ask.push(reportLink);
    liveParts = replaying ? Boolean(t && (t.pause || t.vote)) : parts.length > 0;
    parts.push(error);
    panel.replaceChildren(...parts);
    showPanel();
    const kept = [...ask, askError];
    if (kept.length !== askBox.children.length || kept.some((node, i) => askBox.children[i] !== node)) {
      askBox.replaceChildren(...kept);  // only when something comes or goes: a choice in progress keeps its focus
    }
    askBox.hidden = ask.length === 0 && !askError.textContent;
    if (ticking) timer = setTimeout(render, 1000);
  }

  live.on("seats", (data) => {
    status = data.table || null;
    timed = Boolean(data.time_control && data.time_control.kind && data.time_control.kind !== "none");
    render();
  });
  live.on("state", ({ status: gameStatus }) => {
    const now = gameStatus !== "finished";
    if (now !== running) {
      running = now;
      render();
    }
  });
  render();

  // --- chat: hide a player's lines for myself, report a line ----------------------------------------
  const hiddenBox = el("details", { class: "chat-hidden", id: "chat-hidden", hidden: true });
  const hiddenList = el("ul", { class: "chat-hidden-list" });
  const hiddenCount = el("summary", { id: "chat-hidden-count" });
  hiddenBox.append(hiddenCount, hiddenList);
  document.getElementById("chat-error")?.after(hiddenBox);

  function showHidden(players) {
    if (!Array.isArray(players)) return;
    hiddenBox.hidden = players.length === 0;
    hiddenCount.textContent = interpolate(gettext("Players you hide: %s"), [String(players.length)]);
    hiddenList.replaceChildren(...players.map((p) => el("li", {}, `${p.name} `,
      button(gettext("Show again"), (b) => send(live.unhide(p.block), b).then((a) => a.ok && showHidden(a.hidden)), { "data-block": String(p.block) }))));
  }
  showHidden(table.hidden || []);
  live.on("hidden", showHidden);

  function chatLine(li, m) {
    li.dataset.author = m.author;
    li.dataset.line = String(m.id);
    if (!config.user || m.author === config.me) return;
    const tools = el("span", { class: "chat-tools" });
    tools.append(button(gettext("Hide"), (b) => send(live.hide(m.id), b).then((answer) => {
      if (!answer.ok) return;
      showHidden(answer.hidden);
      for (const other of document.querySelectorAll("#chat-messages li[data-author]")) {
        if (other.dataset.author === m.author) other.remove();
      }
    }), { title: interpolate(gettext("Hide %s's chat lines from me"), [m.author]), class: "btn btn-small btn-link chat-hide" }));
    if (table.report) {
      tools.append(" ", el("a", { href: `${table.report}?line=${m.id}`, class: "chat-report", textContent: gettext("Report"),
        title: gettext("Report this line to the moderators") }));
    }
    li.append(" ", tools);
  }

  return { chatLine };
}
