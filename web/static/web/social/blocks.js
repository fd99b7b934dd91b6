// Blocking a player (docs/api.md, Friends, blocks and presence), one way for every page: the
// request, then every open chat panel drops that player's messages at once, this tab's and
// the other tabs' of the same browser (a BroadcastChannel). The server hides them from then on
// (lists and pushes); what a panel already shows is the client's to remove.

import { api } from "../transport/rest.js";

const listeners = new Set();
let channel = null;

function tell(playerId) {
  for (const listener of listeners) listener(playerId);
}

/** The tab's channel to its other tabs, opened once (null where there is none). */
function tabs() {
  if (channel === null && typeof BroadcastChannel === "function") {
    channel = new BroadcastChannel("yaniv.blocks");
    channel.onmessage = (event) => {
      if (typeof event.data?.playerId === "string") tell(event.data.playerId);
    };
  }
  return channel;
}

/** Block `player` (`POST /me/blocks/`): the block's row; throws the API's error. */
export async function blockPlayer(player) {
  const row = await api("POST", "me/blocks/", { player_id: player.id });
  tell(player.id);
  tabs()?.postMessage({ playerId: player.id });
  return row;
}

/** Call `listener(playerId)` when the player blocks someone here or in another tab; returns
 *  what stops it. */
export function onBlock(listener) {
  tabs();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
