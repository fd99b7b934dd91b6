// The player's own socket, `ws /ws/v1/me/` (docs/api.md, Realtime; Friends, blocks and
// presence): one for the whole client, open on every page (an open one is what makes the player
// `online` to their friends), and opened again as the new player when the session changes
// player (log in, log out). Pages and the client's overlays listen to it.

import { session } from "./session.js";
import { liveSocket } from "./socket.js";

const listeners = new Set();
const statusListeners = new Set();
let socket = null;
let playerId = null;
let status = "closed";

function open() {
  socket?.close();
  socket = liveSocket("me/", {
    onStatus: (now) => {
      status = now;
      for (const listener of statusListeners) listener(now);
    },
    onMessage: (message) => {
      for (const listener of listeners) listener(message);
    },
  });
}

export const meFeed = {
  /** Opens the socket for the session's player (again when the player changes). */
  start() {
    if (socket) return;
    playerId = session.me?.id ?? null;
    open();
    session.onChange((me) => {
      if (me.id === playerId) return;
      playerId = me.id;
      open();
    });
  },
  /** `listener(message)` for each message; returns the unsubscribe. */
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** `listener(status)` at each change of the link ("open" after each (re)connection), called
   *  now with the link as it is; returns the unsubscribe. */
  onStatus(listener) {
    statusListeners.add(listener);
    listener(status);
    return () => statusListeners.delete(listener);
  },
};
