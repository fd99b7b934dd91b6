// The public API of docs/api.md, and nothing else: REST under /api/v1/ with a bearer token
// kept in localStorage, and websockets opened with single-use tickets.

const TOKEN_KEY = "yaniv.token";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || `The server answered ${status}.`);
    this.status = status;
    this.code = body?.code || "error";
    this.body = body || {};
  }
}

export const token = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (value) => localStorage.setItem(TOKEN_KEY, value),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** `api("POST", "games/", {max_players: 3})`: the answer's JSON, or an ApiError holding the
 *  server's `code` and `detail`. `path` may also be a list's full `next` URL. */
export async function api(method, path, body) {
  const url = path.startsWith("http") ? new URL(path) : new URL(`/api/v1/${path}`, location.href);
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const bearer = token.get();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch(url.pathname + url.search, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { detail: "The server cannot be reached.", code: "network" });
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Every item of a paginated list, following `next` (at most `limit` items). */
export async function allPages(path, limit = 1000) {
  const items = [];
  let page = await api("GET", path);
  items.push(...page.results);
  while (page.next && items.length < limit) {
    page = await api("GET", page.next);
    items.push(...page.results);
  }
  return items;
}

// The player using this browser ----------------------------------------------------------

const listeners = new Set();
export const session = {
  me: null,
  /** The caller's `me`; on a first visit (or a token that stopped working) a new guest. */
  async ensure() {
    if (token.get()) {
      try {
        return this.update(await api("GET", "me/"));
      } catch (error) {
        if (error.status !== 401) throw error;
        token.clear();
      }
    }
    const guest = await api("POST", "auth/guest/", {});
    token.set(guest.token);
    return this.update(await api("GET", "me/"));
  },
  async refresh() {
    return this.update(await api("GET", "me/"));
  },
  update(me) {
    this.me = me;
    for (const listener of listeners) listener(me);
    return me;
  },
  onChange(listener) {
    listeners.add(listener);
  },
};

// Websockets ---------------------------------------------------------------------------

const FINAL_CLOSES = new Set([4403, 4404]); // banned / no such game or not yours: no retry

/** Keep `ws /ws/v1/<path>` open: a new ticket for each connection, and after a drop a
 *  reconnect with exponential backoff (0.5 s doubling to 15 s, with jitter). `onMessage`
 *  gets each parsed message, `onStatus` "connecting" | "open" | "retrying" | "closed". */
export function liveSocket(path, { onMessage, onStatus = () => {}, onOpen = () => {} }) {
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
    socket = new WebSocket(`${scheme}//${location.host}/ws/v1/${path}?ticket=${encodeURIComponent(ticket)}`);
    socket.addEventListener("open", () => {
      failures = 0;
      onStatus("open");
      onOpen();
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
