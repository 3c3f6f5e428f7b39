// A websocket that reconnects by itself (with back-off) and reports its state.
// Usage: connect("/ws/lobby/1/", {onMessage(data) {...}, onStatus(state) {...}})
// state is "open", "connecting" or "closed"; after a reconnect the server sends a fresh state.

export function connect(path, { onMessage, onStatus = () => {} }) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${path}`;
  let delay = 500;
  let socket = null;
  let stopped = false;

  function open() {
    onStatus("connecting");
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      delay = 500;
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
      onStatus("closed");
      if (stopped || event.code === 4404) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }

  open();
  window.addEventListener("pagehide", () => {
    stopped = true;
    socket?.close();
  });
  return {
    send(obj) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
    },
  };
}
