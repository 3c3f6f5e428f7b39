// The header's "My games" badge: how many running games await the signed-in person. The server
// pushes {"type": "my_games", "awaiting": n} on the page's lobby-list socket (shared with the open
// games list, lobbies_socket.js) whenever the count may have changed. On /my/games/ the lists are
// fetched again too.
import { showAwaiting } from "./badge_count.js";
import { listen } from "./lobbies_socket.js";

const badge = document.getElementById("my-games-badge");
let refreshTimer = null;

async function refreshMyGames() {
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of ["my-running", "my-finished"]) {
    const fresh = doc.getElementById(id);
    const here = document.getElementById(id);
    if (fresh && here) here.replaceChildren(...fresh.childNodes);
  }
}

if (badge) {
  listen(
    (data) => {
      const changed = showAwaiting(data);
      if (data.type === "my_games" && document.getElementById("my-running") && (changed || data.changed)) {
        clearTimeout(refreshTimer);
        refreshTimer = setTimeout(refreshMyGames, 200);
      }
    },
    (state) => {
      badge.dataset.live = state;
    },
  );
}
