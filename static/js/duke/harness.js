// Development harness (only served with DUKE_HARNESS=1): a fake live-play client that plays
// through the real engine over plain HTTP (game/devtools/duke_harness.py) and polls for changes, then
// mounts the Duke renderer exactly as the game page does.
import { mount } from "../rulesets/duke.js";

function fakeClient(root) {
  const game = root.dataset.game;
  const viewer = root.dataset.seat || null;
  const api = `/duke/harness/api/${encodeURIComponent(game)}/`;
  const handlers = { state: [], connection: [] };
  let version = -1;

  async function poll() {
    try {
      const r = await fetch(`${api}?seat=${viewer || ""}`, { cache: "no-store" });
      const data = await r.json();
      handlers.connection.forEach((fn) => fn("open"));
      if (data.version !== version) {
        version = data.version;
        handlers.state.forEach((fn) => fn(data));
      }
    } catch {
      handlers.connection.forEach((fn) => fn("closed"));
    }
  }

  setInterval(poll, 400);
  setTimeout(poll, 0);
  return {
    viewer,
    lang: root.dataset.lang || "en",
    on(event, fn) {
      handlers[event]?.push(fn);
    },
    async send(action) {
      const r = await fetch(api, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seat: viewer, action }),
      });
      const out = await r.json();
      await poll();
      return out;
    },
  };
}

const root = document.getElementById("board-root");
mount(root, fakeClient(root));
