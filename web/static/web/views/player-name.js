// A player's name as every page shows it: the name in a `<bdi>` (a right-to-left name does not
// reorder the text around it), then a BOT badge when a program plays the account
// (`player.is_bot`; docs/web-client.md, Bots).

import { h } from "../dom.js";
import { gettext } from "../i18n.js";

/** The BOT badge: "BOT" on screen, "bot account" to a screen reader. */
export const botBadge = () =>
  h(
    "span",
    {
      class: "badge badge-bot",
      role: "img",
      "aria-label": gettext("bot account"),
      title: gettext("A bot: a program plays this account"),
      testid: "bot-badge",
    },
    gettext("BOT"),
  );

/** `[<bdi>name</bdi>, badge]` for a `player` object: the name a link to the profile when
 *  `link` (the badge beside the link, not in it), `attrs` the link's or the `<bdi>`'s. */
export function playerName(player, { link = false, attrs = {} } = {}) {
  const name = link
    ? h("a", { href: `/players/${player.id}`, ...attrs }, h("bdi", {}, player.display_name))
    : h("bdi", attrs, player.display_name);
  return [name, player.is_bot ? botBadge() : null];
}
