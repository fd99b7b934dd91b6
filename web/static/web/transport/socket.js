// The websockets of the public API (docs/api.md, Realtime): each connection opened with a
// single-use ticket, since a long-lived token never goes in a URL.

import { api } from "./rest.js";

const FINAL_CLOSES = new Set([4403, 4404]); // banned / no such game or not yours: no retry

/** Keep `ws /ws/v1/<path>` open: a new ticket for each connection, and after a drop a
 *  reconnect with exponential backoff (0.5 s doubling to 15 s, with jitter). `onMessage`
 *  gets each parsed message, `onStatus` "connecting" | "open" | "retrying" | "closed". */
export function liveSocket(path, { onMessage, onStatus = () => {} }) {
  let socket = null;
  let stopped = false;
  let failures = 0;
  let timer = null;

  async function connect() {
    if (stopped) return;
    onStatus("connecting");
    let ticket;
    try {
      ticket = (await api("POST", "auth/ws-ticket/")).ticket;
    } catch {
      retry();
      return;
    }
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = `ticket=${encodeURIComponent(ticket)}`;
    socket = new WebSocket(`${scheme}//${location.host}/ws/v1/${path}?${query}`);
    socket.addEventListener("open", () => {
      failures = 0;
      onStatus("open");
    });
    socket.addEventListener("message", (message) => {
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      onMessage(data);
    });
    socket.addEventListener("close", (closed) => {
      socket = null;
      if (stopped) return;
      if (FINAL_CLOSES.has(closed.code)) {
        stopped = true;
        onStatus("closed", closed.code);
      } else {
        retry();
      }
    });
  }

  function retry() {
    if (stopped) return;
    onStatus("retrying");
    const delay = Math.min(15000, 500 * 2 ** failures) * (0.75 + Math.random() * 0.5);
    failures += 1;
    timer = setTimeout(connect, delay);
  }

  connect();
  return {
    close() {
      stopped = true;
      clearTimeout(timer);
      socket?.close(1000);
    },
  };
}
