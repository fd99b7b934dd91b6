// A tournament's seats, wherever the player is (docs/web-client.md, The tournament pages): when
// a pass seats the player, their socket's `tournament_game` opens that table from any page (a
// seated player who does not come is paused, so the table cannot wait for a click). The tables
// this tab has shown are remembered, so that a tournament's page opened from one's own table
// links back to it rather than sending the player straight back.

import { meFeed } from "./transport/me-feed.js";

const KEY = "yaniv.tablesShown";
const REMEMBERED = 20;

function shownTables() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY));
    return Array.isArray(kept) ? kept : [];
  } catch {
    return []; // no session storage: every table is new
  }
}

export const tables = {
  /** The game page shows table `gameId` in this tab. */
  shown(gameId) {
    const kept = shownTables().filter((id) => id !== gameId);
    kept.push(gameId);
    try {
      sessionStorage.setItem(KEY, JSON.stringify(kept.slice(-REMEMBERED)));
    } catch {
      // not remembered: the tournament's page sends the player to it again
    }
  },
  /** Whether this tab has shown table `gameId`. */
  wasShown(gameId) {
    return shownTables().includes(gameId);
  },
};

/** Call once, with the client's `app`: each seat the player is given opens its table. */
export function followSeats(app) {
  meFeed.subscribe((message) => {
    if (message.type !== "tournament_game" || !message.game_id) return;
    const path = `/games/${message.game_id}`;
    if (location.pathname !== path) app.navigate(path);
  });
}
