// The replay of a game: a client with the interface of client.js (what a ruleset
// renderer's mount(root, client) receives), whose states come from
// /game/<id>/replay/<version>.json (docs/protocol.md, "Replays and exports") instead of the
// socket. Moves cannot be made: send() answers replay.read_only, and the decisions' options are
// taken out of each state, so the renderers show no controls for them.
//   createReplayClient({stepUrl, viewer, lang, at, latest, initial})  initial: the first step's
//   answer, already in the page (then goto(at) fetches nothing)
//   client.goto(version), client.version, client.latest, client.on("replay", fn) fn({version, latest, open})

const gettext = (s) => (window.gettext ? window.gettext(s) : s);

function withoutOptions(list) {
  return Array.isArray(list) ? list.map(({ options, ...d }) => d) : list;
}

export function createReplayClient({ stepUrl, viewer = null, lang = "en", at = 0, latest = 0, initial = null }) {
  const listeners = { state: [], connection: [], chat: [], error: [], seats: [], replay: [] };
  let current = null; // the state message shown
  let target = at;
  let last = latest;
  let opened = false;
  let asked = 0; // request sequence: a late answer to an older request is dropped
  let given = false; // `initial` shown and not yet told as a replay position
  if (initial && initial.state && initial.state.type === "state") {
    current = initial.state;
    last = initial.latest;
    opened = initial.open;
    given = true;
  }

  function emit(kind, value) {
    for (const fn of listeners[kind]) {
      try {
        fn(value);
      } catch (err) {
        console.error(err);
      }
    }
  }

  function shown(data) {
    const view = data.view && data.view.pending ? { ...data.view, pending: withoutOptions(data.view.pending) } : data.view;
    return { view, pending: withoutOptions(data.pending), version: data.version, log: data.log, status: data.status, result: data.result };
  }

  async function goto(version) {
    const v = Math.max(0, Math.min(Number(version) || 0, last));
    target = v;
    if (given && current && v === current.version) { // the page's own step: nothing to fetch
      given = false;
      emit("replay", { version: current.version, latest: last, open: opened });
      return true;
    }
    given = false;
    const n = ++asked;
    let res;
    try {
      res = await fetch(`${stepUrl}${v}.json`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    } catch {
      emit("error", { code: "connection.closed", message: gettext("Not connected. Try again in a moment."), params: {} });
      return false;
    }
    const body = await res.json().catch(() => null);
    if (n !== asked) return false; // overtaken by a newer step
    if (!res.ok || !body || !body.state) {
      emit("error", (body && body.error) || { code: "replay.failed", message: gettext("This moment could not be loaded."), params: {} });
      return false;
    }
    last = body.latest;
    opened = body.open;
    current = body.state;
    emit("state", shown(current));
    emit("replay", { version: current.version, latest: last, open: opened });
    return true;
  }

  return {
    viewer,
    lang,
    replay: true,
    get version() {
      return current ? current.version : null;
    },
    get target() {
      return target;
    },
    get latest() {
      return last;
    },
    set latest(v) {
      if (Number.isInteger(v) && v > last) {
        last = v;
        emit("replay", { version: current ? current.version : target, latest: last, open: opened });
      }
    },
    get connection() {
      return "open";
    },
    on(kind, fn) {
      if (!listeners[kind]) throw new Error(`unknown event ${kind}`);
      listeners[kind].push(fn);
      if (kind === "state" && current) fn(shown(current));
      if (kind === "connection") fn("open");
      return () => listeners[kind].splice(listeners[kind].indexOf(fn), 1);
    },
    goto,
    send() {
      return Promise.resolve({ ok: false, error: { code: "replay.read_only", message: gettext("This is a replay: moves are made in the live game."), params: {} } });
    },
    sync() {},
    close() {},
  };
}
