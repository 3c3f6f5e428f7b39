// The header's "My games" badge (templates/base.html, #my-games-badge): shows a pushed count of
// the running games awaiting the signed-in person, {"type": "my_games", "awaiting": n}. Fed by the
// lobby-list socket on most pages (my_games_badge.js) and by the game socket on the game page
// (live/play.js): one socket per tab either way.

const badge = () => document.getElementById("my-games-badge");

// showAwaiting(data) -> true when the count differs from the one shown (false when it is not a
// my_games message or the page has no badge)
export function showAwaiting(data) {
  const el = badge();
  if (!el || !data || data.type !== "my_games" || typeof data.awaiting !== "number") return false;
  el.dataset.pushes = String(Number(el.dataset.pushes || 0) + 1);
  const changed = String(data.awaiting) !== el.dataset.count;
  el.dataset.count = String(data.awaiting);
  el.textContent = String(data.awaiting);
  el.hidden = data.awaiting === 0;
  return changed;
}
