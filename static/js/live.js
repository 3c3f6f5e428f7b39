// A websocket that reconnects by itself (with jittered back-off) and reports its state: the one
// reconnecting socket of the site, used by the lobby pages and by the live game's client.
// Usage: const s = connect("/ws/lobby/1/", {onMessage(data) {...}, onStatus(state) {...}, onClose() {...}})
// state is "open", "connecting" or "closed"; after a reconnect the server sends a fresh state.
// s.send(obj) -> true if sent; s.isOpen(); s.close() stops for good. A close with a code of
// FINAL (docs/protocol.md: 4403 not allowed to see it, 4404 no such lobby or game, 4429 too many
// open sockets) is final: no retry, and onStatus("refused", code) says why. Other closes report
// onStatus("closed", code) and reconnect. Reconnects at once when the network or the tab comes back.
// A close with TOO_FAST (4431: this address opens sockets too fast) waits longer: 5 s, doubling to a
// minute, until a socket stays open.
export const FINAL = [4403, 4404, 4429];
export const TOO_FAST = 4431;

// The sentence (translated) that tells why a socket was refused for good.
export function refusedText(code, gettext) {
  if (code === 4403) return gettext("This is private: only its players and those they invited may follow it.");
  if (code === 4404) return gettext("This no longer exists.");
  if (code === 4429) return gettext("Too many open connections from you: close other tabs of this site, then reload this page.");
  return gettext("Connection lost. Reconnecting…");
}

export function connect(path, { onMessage, onStatus = () => {}, onClose = () => {}, WebSocketImpl = window.WebSocket }) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${path}`;
  const first = 400;
  let delay = first;
  let slow = 0; // the back-off after TOO_FAST closes (0: none)
  let socket = null;
  let stopped = false;
  let timer = null;

  function open() {
    clearTimeout(timer);
    if (stopped) return;
    onStatus("connecting");
    socket = new WebSocketImpl(url);
    socket.addEventListener("open", () => {
      delay = first;
      onStatus("open");
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(data);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      onClose(event.code);
      if (FINAL.includes(event.code)) {
        stopped = true;
        onStatus("refused", event.code);
        return;
      }
      onStatus("closed", event.code);
      if (stopped) return;
      if (event.code === TOO_FAST) {
        slow = Math.min(Math.max(slow * 2, 5000), 60000);
      } else {
        slow = 0;
      }
      const wait = Math.max(delay, slow) * (0.75 + Math.random() * 0.5);
      delay = Math.min(delay * 2, 8000);
      timer = setTimeout(open, wait);
    });
  }

  const retryNow = () => {
    if (!socket && !stopped && !slow) {
      delay = first;
      open();
    }
  };
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && retryNow());
  window.addEventListener("pagehide", () => {
    stopped = true;
    socket?.close();
  });

  open();
  return {
    send(obj) {
      if (socket?.readyState !== 1) return false;
      socket.send(JSON.stringify(obj));
      return true;
    },
    isOpen() {
      return socket?.readyState === 1;
    },
    close() {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
