// The live game's socket client (protocol: docs/protocol.md). It implements the `client` that
// ruleset renderers receive in mount(root, client):
//   client.viewer, client.lang
//   client.on("state", fn)       fn({view, pending, version, log}) now (if known) and after every change
//   client.on("connection", fn)  fn("open" | "connecting" | "closed")
//   client.send(action)          Promise of {ok: true} | {ok: false, error: {code, message, params}}
// plus, for the page itself: client.on("chat", fn), client.chat(channel, text, to), client.sync().
// The socket reconnects by itself with back-off; every state message is a full view, so a
// reconnect or a version gap needs no page reload.

const gettext = (s) => (window.gettext ? window.gettext(s) : s);

export function createClient({ socket, viewer = null, lang = "en", WebSocketImpl = window.WebSocket }) {
  const listeners = { state: [], connection: [], chat: [], error: [] };
  const waiting = new Map(); // request id -> resolve
  let ws = null;
  let nextId = 1;
  let delay = 400;
  let stopped = false;
  let latest = null; // last {view, pending, version, log, ...}
  let connection = "connecting";
  let timer = null;

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${socket}?lang=${encodeURIComponent(lang)}`;

  function emit(kind, value) {
    for (const fn of listeners[kind]) {
      try {
        fn(value);
      } catch (err) {
        console.error(err);
      }
    }
  }

  function setConnection(state) {
    connection = state;
    emit("connection", state);
  }

  function failWaiting() {
    const error = { code: "connection.closed", message: gettext("Connection lost. Try again in a moment."), params: {} };
    for (const resolve of waiting.values()) resolve({ ok: false, error });
    waiting.clear();
  }

  function onMessage(data) {
    if (data.type === "state") {
      if (latest && data.version < latest.version) return; // an older push overtaken by a resync
      latest = data;
      emit("state", { view: data.view, pending: data.pending, version: data.version, log: data.log, status: data.status, result: data.result });
    } else if (data.type === "result" || (data.type === "error" && data.id != null && waiting.has(data.id))) {
      const resolve = waiting.get(data.id);
      if (!resolve) return;
      waiting.delete(data.id);
      resolve(data.ok ? { ok: true, version: data.version } : { ok: false, error: data.error });
    } else if (data.type === "chat") {
      emit("chat", data);
    } else if (data.type === "error") {
      emit("error", data.error);
    }
  }

  function open() {
    clearTimeout(timer);
    if (stopped) return;
    setConnection("connecting");
    ws = new WebSocketImpl(url);
    ws.addEventListener("open", () => {
      delay = 400;
      setConnection("open");
    });
    ws.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(data);
    });
    ws.addEventListener("close", (event) => {
      ws = null;
      failWaiting();
      setConnection("closed");
      if (stopped || event.code === 4404) return;
      const wait = delay * (0.75 + Math.random() * 0.5);
      delay = Math.min(delay * 2, 8000);
      timer = setTimeout(open, wait);
    });
  }

  function request(message) {
    if (!ws || ws.readyState !== 1) {
      return Promise.resolve({
        ok: false,
        error: { code: "connection.closed", message: gettext("Not connected. Reconnecting…"), params: {} },
      });
    }
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // Reconnect at once when the network or the tab comes back.
  const retryNow = () => {
    if (!ws && !stopped) {
      delay = 400;
      open();
    }
  };
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && retryNow());
  window.addEventListener("pagehide", () => {
    stopped = true;
    ws?.close();
  });

  const client = {
    viewer,
    lang,
    get version() {
      return latest ? latest.version : null;
    },
    get connection() {
      return connection;
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
    sync() {
      if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "sync" }));
    },
    close() {
      stopped = true;
      ws?.close();
    },
  };
  open();
  return client;
}
