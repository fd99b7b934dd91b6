// What the player's friends, requests and blocks say about another player (docs/api.md,
// Friends, blocks and presence), shared by the friends page and a profile: reading them, a
// friend's presence drawn, and the relation to one player.

import { h } from "../dom.js";
import { gettext, pgettext } from "../i18n.js";
import { allPages } from "../transport/rest.js";

/** The player's friends, open requests (both ways) and blocks. */
export async function readRelations() {
  const [friends, requests, blocks] = await Promise.all([
    allPages("me/friends/?limit=100"),
    allPages("me/friend-requests/?limit=100"),
    allPages("me/blocks/?limit=100"),
  ]);
  return { friends, requests, blocks };
}

/** Whether the player may challenge `player` as far as the client knows: registered, not
 *  blocking them (the server has the last word: their `challenges_from`, a block of theirs). */
export const mayChallenge = (state, player) =>
  !state.me.is_guest && relationTo(state, player.id) !== "blocked";

/** "friend" | "incoming" (they asked you) | "outgoing" (you asked them) | "blocked" (you block
 *  them) | null, for `playerId`. Whether they block you the client cannot know (blocks are
 *  private): the server's refusal says it. */
export function relationTo(relations, playerId) {
  if (relations.blocks.some((row) => row.player.id === playerId)) return "blocked";
  if (relations.friends.some((row) => row.player.id === playerId)) return "friend";
  const request = relations.requests.find((row) => row.player.id === playerId);
  return request ? request.direction : null;
}

// Each presence (the API's value) and its word as players read it.
const PRESENCE = {
  online: pgettext("presence", "online"),
  playing: pgettext("presence", "playing"),
  offline: pgettext("presence", "offline"),
};

/** A friend's presence as a dot and a word; "playing" links to the game when it is public. */
export function presenceView(row) {
  const presence = row.presence in PRESENCE ? row.presence : "offline";
  const word = PRESENCE[presence];
  return h(
    "span",
    { class: `presence ${presence}`, testid: "presence", "data-presence": presence },
    h("span", { class: "dot", "aria-hidden": "true" }),
    row.presence === "playing" && row.game_id
      ? h("a", { href: `/games/${row.game_id}`, title: gettext("Watch their game") }, word)
      : word,
  );
}

/** A friend row with a `presence` message applied (the same row when it is not theirs). */
export function withPresence(row, message) {
  if (row.player.id !== message.player_id) return row;
  return { ...row, presence: message.presence, game_id: message.game_id };
}

/** A small button of a player's row: `data-key` keeps the keyboard's place across redraws. */
export function personButton(testid, player, label, onclick, primary = false) {
  return h(
    "button",
    {
      type: "button",
      class: primary ? "primary" : null,
      testid,
      "data-key": `${testid}-${player.id}`,
      onclick,
    },
    label,
  );
}

/** Add friend / Accept / the request's state, Challenge (unless `challenge: false`), Block or
 *  Unblock: what applies between the player (`state.me`) and `player`. */
export function relationButtons(state, player, actions, { challenge = true } = {}) {
  const relation = relationTo(state, player.id);
  if (relation === "blocked") {
    return personButton("unblock-player", player, gettext("Unblock"), () =>
      actions.unblock(player),
    );
  }
  const registered = !state.me.is_guest && !player.is_guest;
  const friendship = !registered
    ? null
    : relation === "friend"
      ? h("span", { class: "badge", testid: "friend-status" }, pgettext("relation", "friend"))
      : relation === "outgoing"
        ? h("span", { class: "badge", testid: "friend-status" }, gettext("request sent"))
        : personButton(
            relation === "incoming" ? "accept-request" : "add-friend",
            player,
            relation === "incoming" ? gettext("Accept request") : gettext("Add friend"),
            () => actions.befriend(player),
          );
  return [
    friendship,
    challenge && mayChallenge(state, player)
      ? personButton("challenge-player", player, gettext("Challenge"), () =>
          actions.challenge(player),
        )
      : null,
    personButton("block-player", player, gettext("Block"), () => actions.block(player)),
  ];
}
