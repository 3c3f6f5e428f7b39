// The AGoT 1st edition game screen: `mount(root, client)`, the shared AGoT screen
// (static/js/board/screen.js, docs/ui.md) on the 1st-edition board (/boards/agot1.svg and
// /boards/agot1.json).

import { mountScreen } from "../board/screen.js";

export function mount(root, client) {
  return mountScreen(root, client, "agot1");
}
