// The game page (templates/game/play.html): connection indicator, the ruleset's board renderer,
// who is awaited, "your turn" signals (turn_alert.js), the game log and the chat.
import { createClient } from "./client.js";
import { createReplayClient } from "./replay.js";
import { refusedText } from "../live.js";
import { createTurnAlert } from "./turn_alert.js";
import { showAwaiting } from "../badge_count.js";
import { mountTable } from "./table.js";
import { lineAreas } from "./log_areas.js";
import { gettext, labelColon } from "../i18n.js";

const interpolate = (fmt, args) => args.reduce((text, arg) => text.replace("%s", arg), fmt);
const config = JSON.parse(document.getElementById("game-config").textContent);
const seatName = Object.fromEntries(config.seats.map((s) => [s.seat, s.name]));
const baseTitle = document.title;

// the first state, in the page (the socket's first message to this viewer, sent with the HTML so
// the board is drawn without waiting for the socket)
const firstState = document.getElementById("game-state");
const initial = firstState ? JSON.parse(firstState.textContent) : null;
const live = createClient({ socket: config.socket, viewer: config.viewer, lang: config.lang, initial });
window.gotwebClient = live; // for debugging and browser tests
// replay mode: the board, the log and the banners follow the replay; chat stays live
const replayConfig = config.replay || { allowed: false, at: null };
const replaying = replayConfig.allowed && replayConfig.at !== null;
const client = replaying
  ? createReplayClient({ stepUrl: replayConfig.step, viewer: config.viewer, lang: config.lang, at: replayConfig.at, latest: replayConfig.latest,
    initial: JSON.parse(document.getElementById("replay-step")?.textContent || "null") })
  : live;
window.gotwebReplay = replaying ? client : null;

// --- connection indicator ----------------------------------------------------------------------
const status = document.getElementById("conn-status");
const statusText = {
  open: gettext("Connected"),
  connecting: gettext("Connecting…"),
  closed: gettext("Connection lost. Reconnecting…"),
};
live.on("connection", (state) => {
  // 4409: a moderator gave this page's seat to someone else: load the page again as who we are now
  if (state === "closed" && live.closeCode === 4409) window.location.reload();
  // the header's "My games" badge follows this socket (no second socket on the game page)
  if (state === "open" && document.getElementById("my-games-badge")) live.followMyGames();
  status.dataset.state = state;
  status.textContent = state === "refused" ? refusedText(live.closeCode, gettext) : statusText[state];
});

live.on("my_games", showAwaiting);

// --- the page's head on a phone: one line while playing, the rest behind "More" ---------------------
const headMore = document.getElementById("head-more");
headMore.addEventListener("click", () => {
  const open = headMore.closest(".play-head").classList.toggle("open");
  headMore.setAttribute("aria-expanded", String(open));
  headMore.textContent = open ? gettext("Less") : gettext("More");
});

// --- board renderer ------------------------------------------------------------------------------
const root = document.getElementById("board-root");
async function mountRenderer() {
  const fallback = () => {
    root.innerHTML = "";
    const p = document.createElement("p");
    p.className = "board-missing";
    p.textContent = gettext("The board of this game cannot be shown here yet. The log and the chat still work.");
    root.append(p);
  };
  if (!config.renderer) return fallback();
  try {
    const module = await import(config.renderer);
    if (typeof module.mount !== "function") throw new Error("no mount()");
    root.innerHTML = "";
    module.mount(root, client);
  } catch (err) {
    console.error("renderer failed", err);
    fallback();
  }
}
mountRenderer();

// --- who is awaited, your turn ---------------------------------------------------------------------
const awaited = document.getElementById("awaited");
const banner = document.getElementById("turn-banner");
const turnAlert = createTurnAlert({
  gameName: config.name || baseTitle,
  gameId: config.game,
  soundBox: document.getElementById("sound-toggle"),
  notifyButton: config.viewer !== null && !replaying ? document.getElementById("notify-turn") : null,
  gettext,
  push: config.push || null,
});

// "Play again" (a seated person's, once the game is over): shown when the game ends on the page;
// another player's rematch turns it into "Join the rematch" (docs/protocol.md, "rematch")
const rematchBox = document.getElementById("rematch-box");
// (from the live socket: a finished game's page shows its replay, yet its socket stays open)
live.on("rematch", () => {
  const button = document.getElementById("rematch-button");
  if (!rematchBox || !button || button.dataset.state !== "new") return;
  button.dataset.state = "open";
  button.textContent = button.dataset.join;
  document.getElementById("rematch-note").textContent = gettext("A player of this game opened a rematch.");
});

client.on("state", ({ pending, status: gameStatus, result }) => {
  // who is awaited is told by the game's own screen (beside the decision); the page says the end
  awaited.textContent = gameStatus === "finished" ? gettext("The game is over.") : "";
  if (rematchBox && gameStatus === "finished" && !replaying) rematchBox.hidden = false;
  const mine = !replaying && config.viewer !== null && pending.some((d) => d.actor === config.viewer && d.options);
  banner.hidden = !mine;
  turnAlert.update(mine);
});

// --- stand-in bots: hand an away player's seat to a bot, take one's own seat back -------------------
const standInBox = document.getElementById("stand-in");
const standInError = document.getElementById("stand-in-error");
const botSeats = new Set(config.seats.filter((s) => s.bot).map((s) => s.seat));
let seatStatus = null; // the latest `seats` message, and when it arrived (performance.now())
let seatStatusAt = 0;
let awaitedActors = new Set();
let standInTimer = null;

function button(text, onClick, name) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn btn-small";
  b.textContent = text;
  if (name) b.dataset.seat = name;
  b.addEventListener("click", async () => {
    b.disabled = true;
    const answer = await onClick();
    standInError.textContent = answer.ok ? "" : answer.error.message;
    b.disabled = false;
  });
  return b;
}

function renderStandIn() {
  clearTimeout(standInTimer);
  const parts = [];
  let next = Infinity; // seconds until another seat may be handed to a bot
  if (seatStatus && config.viewer !== null && !replaying) {
    const standIns = seatStatus.stand_ins || {};
    if (standIns[config.viewer]) {
      const note = document.createElement("span");
      note.textContent = gettext("A bot is playing for you.");
      parts.push(note, button(gettext("Take back my seat"), () => live.takeBack(), "take-back"));
    }
    const elapsed = (performance.now() - seatStatusAt) / 1000;
    const paused = Boolean(seatStatus.table && seatStatus.table.pause); // nobody's wait counts then
    for (const seat of paused ? [] : awaitedActors) {
      if (seat === config.viewer || standIns[seat] || botSeats.has(seat)) continue;
      const waited = seatStatus.awaited_for?.[seat];
      if (waited === undefined) continue;
      const left = seatStatus.away_after - (waited + elapsed);
      if (left > 0) {
        next = Math.min(next, left);
        continue;
      }
      const label = interpolate(gettext("Let a bot play for %s"), [seatName[seat] || seat]);
      parts.push(button(label, () => live.standIn(seat), seat));
    }
  }
  standInBox.replaceChildren(...parts);
  standInBox.hidden = parts.length === 0;
  if (next < Infinity) standInTimer = setTimeout(renderStandIn, (next + 0.5) * 1000);
}

// the log follows its newest line unless the reader has scrolled up (it may be drawn before it is
// in view: the game screen docks it beside the map)
let followLog = true;
function renderLog(log, view) {
  const atBottom = followLog;
  const all = lineAreas(log, view);
  const lines = log.map((line, i) => {
    const li = document.createElement("li");
    li.textContent = line.text;
    li.dataset.n = line.n;
    if (line.note === true) li.classList.add("log-note"); // a time-out, a stand-in: the table, not a move
    const areas = all[i];
    if (areas.length) {
      li.dataset.areas = areas.join(" ");
      li.tabIndex = 0;
      li.classList.add("log-areas");
    }
    return li;
  });
  logList.replaceChildren(...lines);
  if (atBottom) logList.scrollTop = logList.scrollHeight;
}

live.on("seats", (data) => {
  seatStatus = data;
  seatStatusAt = performance.now();
  for (const li of document.querySelectorAll(".play-seats li[data-seat]")) {
    const tag = li.querySelector(".tag-stand-in");
    if (tag) tag.hidden = !(data.stand_ins || {})[li.dataset.seat];
  }
  renderStandIn();
});

client.on("state", ({ view, pending, status: gameStatus }) => {
  awaitedActors = new Set(gameStatus === "finished" ? [] : pending.map((d) => d.actor));
  renderStandIn();
  // who has made their face-down choice (orders, a bid, a card) and waits for the others: the
  // ruleset's view says (`ready`); not what they chose
  const ready = new Set((view && view.ready) || []);
  for (const li of document.querySelectorAll(".play-seats li[data-seat]")) {
    const tag = li.querySelector(".tag-ready");
    if (tag) tag.hidden = !ready.has(li.dataset.seat);
    li.classList.toggle("is-ready", ready.has(li.dataset.seat));
  }
});

// --- clocks: the server tells each seat's remaining seconds at sending time and whether
// it runs; the page counts down locally between pushes (the server decides when time is up) ------
const clockBar = document.getElementById("clock-bar");
const vacationBox = document.getElementById("vacation-box");
const vacationButton = document.getElementById("vacation-toggle");
let clockTimer = null;

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (d > 0) return interpolate(gettext("%sd %sh"), [String(d), String(h)]);
  if (h > 0) return `${h}:${pad(m)}:${pad(s % 60)}`;
  return `${m}:${pad(s % 60)}`;
}

function renderClocks() {
  clearTimeout(clockTimer);
  const clocks = (seatStatus && seatStatus.clocks) || {};
  const timed = !replaying && Object.keys(clocks).length > 0;
  clockBar.hidden = !timed;
  if (!timed) return;
  const elapsed = (performance.now() - seatStatusAt) / 1000;
  const standIns = seatStatus.stand_ins || {};
  let anyRunning = false;
  for (const [seat, c] of Object.entries(clocks)) {
    const left = c.running ? c.remaining - elapsed : c.remaining;
    anyRunning = anyRunning || c.running;
    let text = clockText(left);
    if (c.on_vacation) text += ` · ${gettext("on vacation")}`;
    const chip = clockBar.querySelector(`[data-clock="${seat}"]`);
    if (chip) {
      chip.querySelector(".clock-time").textContent = text;
      chip.classList.toggle("running", c.running);
      chip.classList.toggle("low", c.running && left < 30);
      chip.classList.toggle("stand-in", Boolean(standIns[seat]));
      chip.title = c.timeouts ? interpolate(gettext("Time-outs: %s"), [String(c.timeouts)]) : "";
    }
    const inList = document.querySelector(`[data-seat-clock="${seat}"]`);
    if (inList) {
      inList.textContent = text;
      inList.classList.toggle("running", c.running);
    }
  }
  const mine = config.viewer !== null ? clocks[config.viewer] : null;
  const tc = seatStatus.time_control || {};
  vacationBox.hidden = !(mine && tc.kind === "deadline" && tc.vacation > 0);
  if (!vacationBox.hidden) {
    vacationButton.textContent = mine.on_vacation ? gettext("End my vacation") : gettext("Start my vacation");
    vacationButton.dataset.on = mine.on_vacation ? "1" : "0";
    document.getElementById("vacation-left").textContent = interpolate(gettext("Vacation left: %s"), [clockText(mine.vacation)]);
  }
  if (anyRunning) clockTimer = setTimeout(renderClocks, 250);
}

vacationButton?.addEventListener("click", async () => {
  vacationButton.disabled = true;
  const answer = await live.vacation(vacationButton.dataset.on !== "1");
  standInError.textContent = answer.ok ? "" : answer.error.message;
  vacationButton.disabled = false;
});
live.on("seats", renderClocks);

// --- game log ----------------------------------------------------------------------------------------
const logList = document.getElementById("log");
logList.addEventListener("scroll", () => {
  if (logList.clientHeight) followLog = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
});
new ResizeObserver(() => { if (followLog) logList.scrollTop = logList.scrollHeight; }).observe(logList);
// Hovering, focusing or tapping a log line highlights the board areas it names (log[].areas,
// docs/protocol.md): the class "log-hl" on each #area-<id>. A tap pins the highlight until the
// next tap (touch screens have no hover); a pinned line stays pinned across pushes.
let pinnedN = null;
const pinned = () => (pinnedN === null ? null : logList.querySelector(`li[data-n="${pinnedN}"][data-areas]`));
client.on("state", ({ log, view }) => {
  renderLog(log, view);
  highlightLine(pinned());
});

function highlightLine(li) {
  for (const el of document.querySelectorAll(".log-hl")) el.classList.remove("log-hl");
  for (const el of logList.querySelectorAll(".log-active")) el.classList.remove("log-active");
  if (!li || !li.dataset.areas) return;
  li.classList.add("log-active");
  for (const id of li.dataset.areas.split(" ")) {
    const el = document.getElementById("area-" + id);
    if (el) el.classList.add("log-hl");
  }
}
const lineOf = (ev) => (ev.target instanceof Element ? ev.target.closest("li[data-areas]") : null);
logList.addEventListener("mouseover", (ev) => highlightLine(lineOf(ev) || pinned()));
logList.addEventListener("mouseleave", () => highlightLine(pinned()));
logList.addEventListener("focusin", (ev) => highlightLine(lineOf(ev) || pinned()));
logList.addEventListener("focusout", () => highlightLine(pinned()));
logList.addEventListener("click", (ev) => {
  const li = lineOf(ev);
  pinnedN = li && li.dataset.n !== String(pinnedN) ? li.dataset.n : null;
  highlightLine(pinned());
});

// --- the table's votes, open seats, chat blocks and reports (table.js) ------------------------------------
let table = { chatLine() {} };
try {
  table = mountTable({ live, config, replaying, seatName });
} catch (err) { // the table's panel must never take the board, the log or the chat with it
  console.error("table panel failed", err);
}

// --- chat ------------------------------------------------------------------------------------------------
const chatList = document.getElementById("chat-messages");
let followChat = true;  // the chat shows its latest lines (below)
const chatForm = document.getElementById("chat-form");
const chatError = document.getElementById("chat-error");
const seen = new Set();

function channelLabel(channel) {
  if (channel === "public") return gettext("all");
  if (channel === "spectators") return gettext("spectators");
  const other = channel.split(":").slice(1).find((s) => s !== config.viewer);
  return interpolate(gettext("private with %s"), [seatName[other] || other]);
}

live.on("chat", ({ messages, history }) => {
  if (history) {
    chatList.replaceChildren();
    seen.clear();
  }
  for (const m of messages) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    const li = document.createElement("li");
    li.className = `chat-line chat-${m.channel.split(":")[0]}`;
    const meta = document.createElement("span");
    meta.className = "chat-meta";
    meta.append(`[${channelLabel(m.channel)}] ${m.author}`);
    if (m.guest) {
      // a player without an account: nobody can pass for a registered player
      const tag = document.createElement("span");
      tag.className = "tag tag-guest";
      tag.textContent = gettext("guest");
      meta.append(" ", tag);
    }
    // the author, then the colon of a label and its value in the page's language ("：" in Chinese)
    meta.append(`${m.seat ? ` (${seatName[m.seat] || m.seat})` : ""}${labelColon()}`);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.text; // never HTML
    li.append(meta, text);
    table.chatLine(li, m); // hide this player, report this line
    chatList.append(li);
  }
  chatList.scrollTop = chatList.scrollHeight;
  followChat = true;
});
// the chat's latest lines stay in view when its box changes size (beside the map, the box is what
// the decision leaves it), unless the reader has scrolled back
chatList?.addEventListener("scroll", () => {
  if (chatList.clientHeight) followChat = chatList.scrollTop + chatList.clientHeight >= chatList.scrollHeight - 8;
});
if (chatList) new ResizeObserver(() => { if (followChat) chatList.scrollTop = chatList.scrollHeight; }).observe(chatList);

chatForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = chatForm.elements.text;
  const [channel, to] = chatForm.elements.channel.value.split("|");
  const text = input.value.trim();
  if (!text) return;
  const answer = await live.chat(channel, text, to || null);
  if (answer.ok) {
    input.value = "";
    chatError.textContent = "";
  } else {
    chatError.textContent = answer.error.message;
    // in the game screen's chat tab the line under the form may be scrolled out of its panel
    chatError.scrollIntoView({ block: "nearest" });
  }
});
// Send is disabled in the page until here: a form sent before this script has run would be the
// browser's own submission, which reloads the page and loses the line
if (chatForm) chatForm.querySelector("button[type=submit]").disabled = false;

// --- replay: step, jump, play at a speed ---------------------------------------------------------
const bar = document.getElementById("replay-bar");
const openLink = document.getElementById("replay-open");
if (openLink) {
  // the live page's "Replay" button opens the replay at the version on screen
  live.on("state", ({ version }) => {
    openLink.href = `?at=${version}`;
  });
}
if (replaying && bar) {
  const slider = document.getElementById("replay-slider");
  const pos = document.getElementById("replay-pos");
  const jump = document.getElementById("replay-jump");
  const playBtn = document.getElementById("replay-play");
  const speed = document.getElementById("replay-speed");
  const errorBox = document.getElementById("replay-error");
  let timer = null;

  const show = ({ version, latest }) => {
    bar.dataset.version = String(version);
    bar.dataset.latest = String(latest);
    slider.max = String(latest);
    slider.value = String(version);
    pos.textContent = interpolate(gettext("Step %s of %s"), [String(version), String(latest)]);
    const url = new URL(window.location.href);
    url.searchParams.set("at", String(version));
    history.replaceState(null, "", url);
    errorBox.textContent = "";
  };
  client.on("replay", show);
  client.on("error", (err) => {
    errorBox.textContent = err.message;
    stop();
  });

  const step = (d) => client.goto((client.version ?? client.target) + d);
  function stop() {
    clearInterval(timer);
    timer = null;
    playBtn.setAttribute("aria-pressed", "false");
    playBtn.textContent = gettext("Play");
  }
  function play() {
    if ((client.version ?? 0) >= client.latest) client.goto(0);
    playBtn.setAttribute("aria-pressed", "true");
    playBtn.textContent = gettext("Pause");
    timer = setInterval(async () => {
      if ((client.version ?? 0) >= client.latest) return stop();
      await step(1);
    }, Number(speed.value) || 1000);
  }
  playBtn.addEventListener("click", () => (timer ? stop() : play()));
  speed.addEventListener("change", () => {
    if (timer) {
      stop();
      play();
    }
  });
  document.getElementById("replay-first").addEventListener("click", () => { stop(); client.goto(0); });
  document.getElementById("replay-last").addEventListener("click", () => { stop(); client.goto(client.latest); });
  document.getElementById("replay-back").addEventListener("click", () => { stop(); step(-1); });
  document.getElementById("replay-forward").addEventListener("click", () => { stop(); step(1); });
  slider.addEventListener("change", () => { stop(); client.goto(Number(slider.value)); });
  jump.addEventListener("change", () => {
    if (jump.value === "") return;
    stop();
    client.goto(Number(jump.value));
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "ArrowLeft") { stop(); step(-1); }
    else if (ev.key === "ArrowRight") { stop(); step(1); }
  });
  // a running game grows while it is replayed: its players' replay can go on to the present
  live.on("state", ({ version }) => {
    client.latest = version;
  });
  fetch(replayConfig.index, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((index) => {
      if (!index) return;
      for (const m of index.marks) {
        const o = document.createElement("option");
        o.value = String(m.version);
        o.textContent = m.label;
        jump.append(o);
      }
    })
    .catch(() => {});
  client.goto(replayConfig.at);
}
