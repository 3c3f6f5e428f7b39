// Lobby list page: refreshes the "Open games" section whenever any lobby changes.
import { listen } from "./lobbies_socket.js";

const section = document.getElementById("open-lobbies");
let timer = null;

async function refresh() {
  const response = await fetch(section.dataset.liveList);
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = doc.getElementById("open-lobbies");
  if (fresh) section.innerHTML = fresh.innerHTML;
}

listen(
  (data) => {
    if (data.type !== "lobbies.changed") return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  },
  (state) => {
    section.dataset.live = state;
  },
);
