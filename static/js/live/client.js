// The live game's socket client (protocol: docs/protocol.md). It implements the `client` that
// ruleset renderers receive in mount(root, client):
//   client.viewer, client.lang
//   client.on("state", fn)       fn({view, pending, version, log}) now (if known) and after every change
//   client.on("connection", fn)  fn("open" | "connecting" | "closed" | "refused", close code); "refused" is
//                                final (docs/protocol.md: 4403, 4404, 4429), client.closeCode tells which
//   client.send(action)          Promise of {ok: true} | {ok: false, error: {code, message, params}}
// plus, for the page itself: client.on("chat", fn), client.chat(channel, text, to), client.sync(),
// client.on("seats", fn) (stand-in bots, how long seats have waited), client.standIn(seat),
// client.takeBack(), client.vacation(on) (correspondence games: pause my deadlines),
// client.followMyGames() + client.on("my_games", fn) (the header's "My games" badge), the table's
// votes (client.propose(kind, {seat, minutes}), client.vote(n, yes), client.resume()),
// client.on("rematch", fn) (a player of the finished game opened its rematch) and chat
// blocks (client.hide(lineId), client.unhide(blockId), client.on("hidden", fn)): table.js.
// The socket (static/js/live.js) reconnects by itself with back-off. It asks for patches
// (`?patch=1`): after the first whole state, a push may be a `patch` from the version held, applied
// here (patch.js); a reconnect, a version gap or a patch that does not apply gets the whole state
// again (a `sync`), so none needs a page reload. The board may be drawn (from `initial`) before
// the socket first opens: what is sent until then waits for it (at most HOLD_MS), it is not refused.

import { connect } from "../live.js";
import { applyPatch } from "./patch.js";

const gettext = (s) => (window.gettext ? window.gettext(s) : s);
const HOLD_MS = 10000;

// `initial`: a first `state` message already at hand (the page's own, see play.js): listeners get
// it at once, and the socket's first state of the same version is not told twice.
export function createClient({ socket, viewer = null, lang = "en", WebSocketImpl = window.WebSocket, initial = null }) {
  const listeners = { state: [], connection: [], chat: [], error: [], seats: [], my_games: [], hidden: [], rematch: [] };
  const waiting = new Map(); // request id -> resolve
  let nextId = 1;
  let latest = initial && initial.type === "state" ? initial : null; // last {view, pending, version, log, ...}
  let told = latest; // the state listeners were last given
  let connection = "connecting";
  const wire = { patches: 0, refused: 0 }; // patches applied, and ones that could not be (a sync instead)
  let closeCode = null; // the code of the last close
  let everOpen = false;
  const held = []; // [{message, timer}] asked for before the socket first opened

  function emit(kind, value) {
    for (const fn of listeners[kind]) {
      try {
        fn(value);
      } catch (err) {
        console.error(err);
      }
    }
  }

  function setConnection(state, code = null) {
    connection = state;
    if (state !== "open" && state !== "connecting") closeCode = code;
    if (state === "open" && !everOpen) {
      everOpen = true;
      for (const h of held.splice(0)) {
        clearTimeout(h.timer);
        if (waiting.has(h.message.id) && !conn.send(h.message)) fail(h.message.id);
      }
    }
    emit("connection", state);
  }

  function fail(id, message = gettext("Not connected. Reconnecting…")) {
    const resolve = waiting.get(id);
    if (!resolve) return;
    waiting.delete(id);
    resolve({ ok: false, error: { code: "connection.closed", message, params: {} } });
  }

  function failWaiting() {
    const error = { code: "connection.closed", message: gettext("Connection lost. Try again in a moment."), params: {} };
    for (const resolve of waiting.values()) resolve({ ok: false, error });
    waiting.clear();
    for (const h of held.splice(0)) clearTimeout(h.timer);
  }

  function onState(data, seats) {
    if (latest && data.version < latest.version) return; // an older push overtaken by a resync
    const same = told && told === initial && data.version === initial.version; // the page's state again
    latest = data;
    told = data;
    if (!same) emit("state", { view: data.view, pending: data.pending, version: data.version, log: data.log, status: data.status, result: data.result });
    // the push after a change carries that version's seat status (docs/protocol.md, `seats`)
    if (seats) emit("seats", { type: "seats", ...seats });
  }

  // a `patch`: the difference from the state this client holds (docs/protocol.md); one it cannot
  // apply (a version missed, or an operation that does not fit) asks for the whole state instead
  function onPatch(data) {
    if (latest && data.version <= latest.version) return;
    let next = null;
    if (latest && data.from === latest.version) {
      try {
        const { type, version, seats, ...rest } = latest; // eslint-disable-line no-unused-vars
        next = { ...applyPatch(rest, data.ops), type: "state", version: data.version };
      } catch (err) {
        console.warn("patch not applied", err);
      }
    }
    if (next === null) {
      wire.refused += 1;
      conn.send({ type: "sync" });
      return;
    }
    wire.patches += 1;
    onState(next, data.seats);
  }

  function onMessage(data) {
    if (data.type === "state") {
      onState(data, data.seats);
    } else if (data.type === "patch") {
      onPatch(data);
    } else if (data.type === "result" || (data.type === "error" && data.id != null && waiting.has(data.id))) {
      const resolve = waiting.get(data.id);
      if (!resolve) return;
      waiting.delete(data.id);
      resolve(data.ok ? { ok: true, version: data.version, hidden: data.hidden } : { ok: false, error: data.error });
    } else if (data.type === "chat") {
      emit("chat", data);
    } else if (data.type === "seats") {
      emit("seats", data);
    } else if (data.type === "my_games") {
      emit("my_games", data);
    } else if (data.type === "hidden") {
      emit("hidden", data.players);
    } else if (data.type === "rematch") {
      emit("rematch", data);
    } else if (data.type === "error") {
      emit("error", data.error);
    }
  }

  const conn = connect(`${socket}?lang=${encodeURIComponent(lang)}&patch=1`, {
    onMessage,
    onStatus: setConnection,
    onClose: failWaiting,
    WebSocketImpl,
  });

  function request(message) {
    const id = nextId++;
    const promise = new Promise((resolve) => waiting.set(id, resolve));
    const full = { ...message, id };
    if (conn.send(full)) return promise;
    if (!everOpen && connection === "connecting") { // the page was drawn before the socket opened
      held.push({ message: full, timer: setTimeout(() => fail(id), HOLD_MS) });
      return promise;
    }
    fail(id);
    return promise;
  }

  const client = {
    viewer,
    lang,
    get version() {
      return latest ? latest.version : null;
    },
    get connection() {
      return connection;
    },
    get closeCode() {
      return closeCode;
    },
    get wire() {
      return { ...wire };
    },
    on(kind, fn) {
      if (!listeners[kind]) throw new Error(`unknown event ${kind}`);
      listeners[kind].push(fn);
      if (kind === "state" && latest) fn({ view: latest.view, pending: latest.pending, version: latest.version, log: latest.log, status: latest.status, result: latest.result });
      if (kind === "connection") fn(connection);
      return () => listeners[kind].splice(listeners[kind].indexOf(fn), 1);
    },
    send(action) {
      return request({ type: "act", version: latest ? latest.version : null, action });
    },
    chat(channel, text, to = null) {
      return request({ type: "chat", channel, text, to });
    },
    standIn(seat) {
      return request({ type: "stand_in", seat });
    },
    takeBack() {
      return request({ type: "take_back" });
    },
    vacation(on) {
      return request({ type: "vacation", on: Boolean(on) });
    },
    propose(kind, { seat = null, minutes = null } = {}) {
      return request({ type: "propose", kind, seat, minutes });
    },
    vote(n, yes) {
      return request({ type: "vote", vote: n, yes: Boolean(yes) });
    },
    resume() {
      return request({ type: "resume" });
    },
    hide(line) {
      return request({ type: "hide", message: line });
    },
    unhide(block) {
      return request({ type: "unhide", block });
    },
    sync() {
      conn.send({ type: "sync" });
    },
    followMyGames() {
      // the header badge's count now and whenever it changes (docs/protocol.md, `my_games`)
      conn.send({ type: "my_games" });
    },
    close() {
      conn.close();
    },
  };
  return client;
}
