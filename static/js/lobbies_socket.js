// The page's one socket on /ws/lobbies/ (docs/protocol.md, "Lobby list socket"), shared by every
// script of the page that follows it (the open-games list, the "My games" badge): one socket per
// tab counts against the per-user cap of open sockets, however many parts listen.
import { connect } from "./live.js";

const messageHandlers = new Set();
const statusHandlers = new Set();
let socket = null;

// listen(onMessage(data), onStatus(state, code)?) -> the shared socket (opened on first use)
export function listen(onMessage, onStatus) {
  messageHandlers.add(onMessage);
  if (onStatus) statusHandlers.add(onStatus);
  if (!socket) {
    socket = connect("/ws/lobbies/", {
      onMessage: (data) => messageHandlers.forEach((h) => h(data)),
      onStatus: (state, code) => statusHandlers.forEach((h) => h(state, code)),
    });
  }
  return socket;
}
