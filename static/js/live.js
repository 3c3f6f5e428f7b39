// A websocket that reconnects by itself (with jittered back-off) and reports its state: the one
// reconnecting socket of the site, used by the lobby pages and by the live game's client.
// Usage: const s = connect("/ws/lobby/1/", {onMessage(data) {...}, onStatus(state) {...}, onClose() {...}})
// state is "open", "connecting" or "closed"; after a reconnect the server sends a fresh state.
// s.send(obj) -> true if sent; s.isOpen(); s.close() stops for good. A close with code 4404
// (no such lobby or game) is final. Reconnects at once when the network or the tab comes back.

export function connect(path, { onMessage, onStatus = () => {}, onClose = () => {}, WebSocketImpl = window.WebSocket }) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${path}`;
  const first = 400;
  let delay = first;
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
      onClose();
      onStatus("closed");
      if (stopped || event.code === 4404) return;
      const wait = delay * (0.75 + Math.random() * 0.5);
      delay = Math.min(delay * 2, 8000);
      timer = setTimeout(open, wait);
    });
  }

  const retryNow = () => {
    if (!socket && !stopped) {
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
