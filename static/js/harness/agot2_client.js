// A fake live-play client for the AGoT renderer harness (game/devtools/ui_harness.py): the same
// interface as static/js/live/client.js (viewer, lang, on("state"|"connection"), send), backed
// by plain HTTP requests to the harness endpoints (polled every second for other seats' moves).
// Every sent action is kept in client.sent.

export function harnessClient(config) {
  const base = "/harness/agot2/" + config.gid + "/";
  const handlers = { state: [], connection: [] };
  const client = {
    viewer: config.viewer,
    lang: config.lang,
    sent: [],
    on(kind, fn) {
      (handlers[kind] = handlers[kind] || []).push(fn);
    },
    async refresh(onlyIfNew) {
      const r = await fetch(base + "state?viewer=" + (config.viewer || "") + "&lang=" + config.lang);
      const data = await r.json();
      if (onlyIfNew && client.last && client.last.version === data.version) return data;
      client.last = data;
      for (const fn of handlers.state) fn(data);
      return data;
    },
    async send(action) {
      client.sent.push(action);
      const r = await fetch(base + "act", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ actor: config.viewer, action }),
      });
      const res = await r.json();
      await client.refresh();
      return res;
    },
    async start() {
      for (const fn of handlers.connection) fn("connecting");
      await client.refresh();
      for (const fn of handlers.connection) fn("open");
      // stand-in for live pushes: look for a new version every second
      setInterval(() => client.refresh(true).catch(() => {}), config.poll || 1000);
    },
  };
  return client;
}
