// The websockets of the public API (docs/api.md, Realtime): each connection opened with a
// single-use ticket, since a long-lived token never goes in a URL, and kept alive (docs/api.md,
// Staying in sync): a ping every 20 s, since the server closes a socket that sent nothing for
// 60 s, and a new connection when nothing at all (not even the server's keep-alive) came for 60 s.

import { api } from "./rest.js";

const FINAL_CLOSES = new Set([4403, 4404]); // banned / no such game or not yours: no retry
// The server's process is draining (a deploy, docs/api.md, Close codes): reconnect now, to
// another process, with no backoff and the link still shown live.
const DRAINING = 4503;
const PING_MS = 20_000;
const SILENCE_MS = 60_000;
const CHECK_MS = 5_000;

/** Keep `ws /ws/v1/<path>` open: a new ticket for each connection, and after a drop a
 *  reconnect with exponential backoff (0.5 s doubling to 15 s, with jitter); at once, and
 *  quietly (no "connecting" status), when a socket that was serving is closed by its process's
 *  drain (4503): the server spreads those closes, so no jitter is added. (A handshake a
 *  draining process refused, 4503 before any message, backs off as usual: the balancer has not
 *  yet heard that the process is going.) `query()` gives each connection's other parameters
 *  (the game socket's `after`). `onMessage` gets each parsed message but the keep-alives,
 *  `onStatus` "connecting" | "open" | "retrying" | "closed". */
export function liveSocket(path, { onMessage, onStatus = () => {}, query = () => ({}) }) {
  let socket = null;
  let stopped = false;
  let failures = 0;
  let timer = null;
  let watch = null;

  async function connect(quietly = false) {
    if (stopped) return;
    if (!quietly) onStatus("connecting");
    let ticket;
    try {
      ticket = (await api("POST", "auth/ws-ticket/")).ticket;
    } catch {
      retry();
      return;
    }
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams({ ticket, ...query() });
    const current = new WebSocket(`${scheme}//${location.host}/ws/v1/${path}?${params}`);
    socket = current;
    let heard = Date.now();
    let pinged = Date.now();
    let served = false; // a message came: the process took this socket
    current.addEventListener("open", () => {
      if (socket !== current) return;
      failures = 0;
      heard = pinged = Date.now();
      watch = setInterval(() => {
        const now = Date.now();
        if (now - heard >= SILENCE_MS) {
          drop(current); // a dead link may take minutes to close: leave it, open another
          retry();
        } else if (now - pinged >= PING_MS) {
          pinged = now;
          current.send(JSON.stringify({ type: "ping" }));
        }
      }, CHECK_MS);
      onStatus("open");
    });
    current.addEventListener("message", (message) => {
      if (socket !== current) return;
      heard = Date.now();
      served = true;
      let data;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      if (data.type === "keepalive" || data.type === "pong") return;
      onMessage(data);
    });
    current.addEventListener("close", (closed) => {
      if (socket !== current) return;
      drop(current);
      if (stopped) return;
      if (FINAL_CLOSES.has(closed.code)) {
        stopped = true;
        onStatus("closed", closed.code);
      } else if (closed.code === DRAINING && served) {
        failures = 0;
        connect(true);
      } else {
        retry();
      }
    });
  }

  /** Forget `current` (its events are ignored from now on) and close it. */
  function drop(current) {
    if (socket === current) socket = null;
    clearInterval(watch);
    watch = null;
    current.close(1000);
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
      if (socket) drop(socket);
    },
  };
}
