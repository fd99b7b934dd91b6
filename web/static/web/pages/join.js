// `/join/<id>/<code>`: takes the seat, then opens the table.

import { errorLine, h } from "../dom.js";
import { clientSeed } from "../fair-deal.js";
import { gettext } from "../i18n.js";
import { api } from "../transport/rest.js";
import { session } from "../transport/session.js";

export async function joinPage(root, [gameId, code], app) {
  app.title(gettext("Joining"));
  root.append(h("h1", {}, gettext("Joining the table…")));
  try {
    await clientSeed.settle();
    await api("POST", `games/${gameId}/join/`, { invite_code: code });
  } catch (error) {
    const active = session.me.active_game;
    root.append(
      errorLine(error.message),
      active && error.code === "in_game"
        ? h("p", {}, h("a", { href: `/games/${active}` }, gettext("Go to the table you are at")))
        : h("p", {}, h("a", { href: "/" }, gettext("Back to the start"))),
    );
    return null;
  }
  app.navigate(`/games/${gameId}`, { replace: true });
  return null;
}
