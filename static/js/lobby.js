// Live lobby page: listens on /ws/lobby/<id>/ and, when the lobby's version changes, fetches the
// server-rendered seats panel (/lobby/<id>/live/) and swaps it in, keeping what the user typed.
import { connect, refusedText } from "./live.js";

const root = document.getElementById("lobby-live");
const statusLine = document.getElementById("conn-status");
const gettext = window.gettext || ((s) => s); // Django's JavaScriptCatalog (/jsi18n/)

let version = Number(root.dataset.version);
let fetching = null;
let wanted = version;

function keepValues(container) {
  const values = {};
  container.querySelectorAll("input[name], select[name]").forEach((el) => {
    if (el.type !== "hidden") values[el.name] = el.value;
  });
  return values;
}

function restoreValues(container, values) {
  for (const [name, value] of Object.entries(values)) {
    const el = container.querySelector(`[name="${name}"]`);
    if (!el || el.type === "hidden") continue;
    if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === value)) continue;
    el.value = value;
  }
}

async function refresh() {
  if (fetching) return fetching;
  fetching = (async () => {
    try {
      while (wanted > version) {
        const target = wanted;
        const response = await fetch(root.dataset.liveUrl, { headers: { "X-Requested-With": "fetch" } });
        if (!response.ok) break;
        const html = await response.text();
        const values = keepValues(root);
        const focused = document.activeElement?.name;
        root.innerHTML = html;
        restoreValues(root, values);
        if (focused) root.querySelector(`[name="${focused}"]`)?.focus();
        const shown = Number(root.querySelector("[data-version]")?.dataset.version || target);
        version = Math.max(shown, target);
        root.dataset.version = String(version);
        // the game has just started and this user has a seat in it: off to the game
        const go = root.querySelector("#game-link[data-seated]");
        if (go) {
          window.location.assign(go.href);
          return;
        }
      }
    } finally {
      fetching = null;
    }
  })();
  return fetching;
}

connect(`/ws/lobby/${root.dataset.lobby}/`, {
  onMessage(data) {
    if (data.type !== "lobby") return;
    wanted = Math.max(wanted, data.lobby.version);
    if (wanted > version) refresh();
  },
  onStatus(state, code) {
    statusLine.dataset.state = state;
    if (state === "open") statusLine.textContent = gettext("Live: this page updates by itself.");
    else if (state === "refused") statusLine.textContent = refusedText(code, gettext);
    else statusLine.textContent = gettext("Connection lost. Reconnecting…");
  },
});

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.querySelector(button.dataset.copy);
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    document.execCommand?.("copy");
  }
  button.textContent = gettext("Copied");
});

// Forms that undo something for everyone ask first (the question is rendered, translated, by the server).
document.addEventListener("submit", (event) => {
  const question = event.target.dataset?.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
