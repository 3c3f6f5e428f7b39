// Lobby list page: refreshes the "Open games" section, and the visitor's own "Your games" (their
// lobbies, and the rematches other players of their finished games opened), whenever any lobby
// changes.
import { listen } from "./lobbies_socket.js";

const section = document.getElementById("open-lobbies");
let timer = null;

async function refresh() {
  const response = await fetch(section.dataset.liveList);
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of ["open-lobbies", "your-games"]) {
    const here = document.getElementById(id);
    const fresh = doc.getElementById(id);
    if (!here || !fresh) continue;
    here.innerHTML = fresh.innerHTML;
    here.hidden = fresh.hidden;
  }
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
