// The client's side of fair deals (docs/fairness.md): a record's check as the pages show it,
// and the player's client seed (§1): after every game this client sets a fresh
// random one of its own (PATCH /me/), so that the commitment of the next game was shown before
// the seed it meets was chosen, and keeps it in localStorage to show it. While the player still
// holds a seat at a waiting or active game the server refuses it (409 `in_game`): the renewal
// waits, and is tried again before the next table is created, joined or queued for.

import { checkRecord, newClientSeed } from "./fairness.js";
import { api } from "./transport/rest.js";
import { session } from "./transport/session.js";

const KEY = "yaniv.clientSeed";

// The last games a seed was renewed after: a finished table opened again renews nothing.
const REMEMBERED = 20;

/** `{player, seed, after, pending, done}` of this browser's player, or null (another
 *  player's, or none). */
function read(playerId) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY));
    return kept?.player === playerId ? kept : null;
  } catch {
    return null;
  }
}

function write(kept) {
  localStorage.setItem(KEY, JSON.stringify(kept));
}

// One renewal at a time (the end of a game may come while the one asked on leaving runs).
let queue = Promise.resolve();

export const clientSeed = {
  /** The seed this client set for the player (null: none yet, or not this client's). */
  stored(playerId = session.me?.id) {
    return read(playerId)?.seed ?? null;
  },

  /** After game `gameId` (seated in it): a fresh seed, once a game. The seed set, or null when
   *  the server refused it for now (then `settle` tries again) or it was set already. */
  renew(gameId) {
    const next = queue.then(() => renewNow(gameId));
    queue = next.catch(() => null);
    return next;
  },

  /** A renewal the server refused earlier, tried again (before a new table or the queue);
   *  never throws. */
  async settle() {
    const kept = read(session.me?.id);
    if (kept?.pending) await this.renew(kept.after);
  },
};

async function renewNow(gameId) {
  const player = session.me?.id;
  if (!player) return null;
  const kept = read(player);
  const done = kept?.done ?? [];
  if (done.includes(gameId) && !(kept.pending && kept.after === gameId)) return null;
  const seed = newClientSeed();
  try {
    await api("PATCH", "me/", { client_seed: seed });
  } catch (error) {
    // Still seated somewhere (a game left to the CPU): try again when the player is free.
    write({ ...kept, player, after: gameId, pending: true, done });
    if (error.code !== "in_game") console.warn("client seed not set:", error.message);
    return null;
  }
  write({
    player,
    seed,
    after: gameId,
    pending: false,
    done: [gameId, ...done].slice(0, REMEMBERED),
  });
  return seed;
}

/** The check of a game's record (`GET /games/{id}/record/`, read here unless given) as the
 *  pages show it: `{status: "verified", gameSeed}`, `{status: "failed", where, detail}`, or
 *  `{status: "unchecked", message}` when the record could not be read or checked. */
export async function verifyRecord(gameId, record = null) {
  try {
    const result = await checkRecord(record ?? (await api("GET", `games/${gameId}/record/`)));
    return result.ok
      ? { status: "verified", gameSeed: result.gameSeed }
      : { status: "failed", where: result.where, detail: result.detail };
  } catch (error) {
    return { status: "unchecked", message: error.message };
  }
}
