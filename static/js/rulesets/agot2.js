// The AGoT 2nd edition game screen: `mount(root, client)`, the shared AGoT screen
// (static/js/board/screen.js, docs/ui.md) on the 2nd-edition board.

import { mountScreen } from "../board/screen.js";

export function mount(root, client) {
  return mountScreen(root, client, "agot2");
}
