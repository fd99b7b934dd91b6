// The client's side of fair deals (docs/fairness.md): a record's check as the pages show it,
// and the player's client seed (§1): after every game this client sets a fresh
// random one of its own (PATCH /me/), so that the commitment of the next game was shown before
// the seed it meets was chosen, and keeps it in localStorage to show it, beside the commitment
// that was current when it set it. While the player still holds a seat at a waiting or active
// game the server refuses it (409 `in_game`): the renewal waits, and is tried again before the
// next table is created, joined or queued for. Then too, a commitment other than the one kept
// (a game that ended while no page of this client saw it: a closed tab, another device) means
// the seed kept has met it: a fresh one is set.

import { checkRecord, checkShown, newClientSeed } from "./fairness.js";
import { api } from "./transport/rest.js";
import { session } from "./transport/session.js";

const KEY = "yaniv.clientSeed";

// The last games a seed was renewed after: a finished table opened again renews nothing.
const REMEMBERED = 20;

/** `{player, seed, commitment, after, pending, done}` of this browser's player, or null
 *  (another player's, or none). */
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
  /** The seed this client set for the player's next game (null: none yet, one owed, or not
   *  this client's). */
  stored(playerId = session.me?.id) {
    const kept = read(playerId);
    return kept && !kept.pending ? kept.seed : null;
  },

  /** After game `gameId` (seated in it): a fresh seed, once a game. The seed set, or null when
   *  the server refused it for now (then `settle` tries again) or it was set already. */
  renew(gameId) {
    const next = queue.then(() => renewNow(gameId));
    queue = next.catch(() => null);
    return next;
  },

  /** Before a new table, a join, the queue or a challenge: a renewal the server refused
   *  earlier, tried again; else a fresh seed when the player's commitment (`GET /me/`) is not
   *  the one kept when this client last set its seed (a game took the pair unseen here, or
   *  this client never set one). Never throws. */
  async settle() {
    const kept = read(session.me?.id);
    if (kept?.pending) {
      await this.renew(kept.after);
      return;
    }
    const next = queue.then(refreshNow);
    queue = next.catch(() => null);
    await next.catch(() => null);
  },
};

/** The current commitment of the player's pair (`GET /me/`), or null if it cannot be read. */
async function currentCommitment() {
  try {
    return (await api("GET", "me/")).fairness?.commitment ?? null;
  } catch {
    return null;
  }
}

async function refreshNow() {
  const player = session.me?.id;
  if (!player) return null;
  const kept = read(player);
  if (kept?.pending) return null; // owed after a game: `renew` sets it
  const current = await currentCommitment();
  if (current === null || current === kept?.commitment) return null;
  return setSeed(player, kept, kept?.after ?? null, kept?.done ?? [], current);
}

async function renewNow(gameId) {
  const player = session.me?.id;
  if (!player) return null;
  const kept = read(player);
  const done = kept?.done ?? [];
  if (done.includes(gameId) && !(kept.pending && kept.after === gameId)) return null;
  const after = gameId === null ? done : [gameId, ...done.filter((id) => id !== gameId)];
  return setSeed(player, kept, gameId, after, await currentCommitment());
}

/** A fresh seed set after game `gameId` (null: none seen here), kept with the commitment read
 *  before it was set (`commitment`): a game that takes the pair after that shows another. */
async function setSeed(player, kept, gameId, done, commitment) {
  const seed = newClientSeed();
  try {
    await api("PATCH", "me/", { client_seed: seed });
  } catch (error) {
    // Still seated somewhere (a game left to the CPU): try again when the player is free.
    write({ ...kept, player, after: gameId, pending: true, done: done.slice(0, REMEMBERED) });
    if (error.code !== "in_game") console.warn("client seed not set:", error.message);
    return null;
  }
  write({
    player,
    seed,
    commitment,
    after: gameId,
    pending: false,
    done: done.slice(0, REMEMBERED),
  });
  return seed;
}

/** The check of a game's record (`GET /games/{id}/record/`, read here unless given) as the
 *  pages show it: `{status: "verified", gameSeed}`, `{status: "failed", where, detail}`, or
 *  `{status: "unchecked", message}` when the record could not be read or checked. `shown`: the
 *  game payload's `fairness` block as the page showed it from the start; the record's
 *  commitments and client seeds must be those. */
export async function verifyRecord(gameId, record = null, shown = null) {
  try {
    const data = record ?? (await api("GET", `games/${gameId}/record/`));
    if (shown) {
      const seen = checkShown(data, shown);
      if (!seen.ok) return { status: "failed", where: seen.where, detail: seen.detail };
    }
    const result = await checkRecord(data);
    return result.ok
      ? { status: "verified", gameSeed: result.gameSeed }
      : { status: "failed", where: result.where, detail: result.detail };
  } catch (error) {
    return { status: "unchecked", message: error.message };
  }
}
