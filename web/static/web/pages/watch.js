// `/watch`: the ranked games in play (GET /games/live/); each opens as a spectator's table.

import { h, replace } from "../dom.js";
import { formatDate, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { api } from "../transport/rest.js";
import { seatLabel } from "../views/card-table.js";

export async function watchPage(root, _params, app) {
  app.title(gettext("Watch"));
  async function load() {
    const page = await api("GET", "games/live/?limit=50");
    replace(
      root,
      h("h1", {}, gettext("Watch")),
      h(
        "p",
        { class: "muted" },
        gettext(
          "Ranked games in play. Spectators see what any stranger may: the discards, hand counts, scores, never a hand.",
        ),
      ),
      page.results.length
        ? h(
            "ul",
            { class: "list", testid: "live-games" },
            page.results.map((game) =>
              h(
                "li",
                { "data-game": game.id },
                h("a", { href: `/games/${game.id}`, class: "button" }, gettext("Watch")),
                h(
                  "span",
                  {},
                  game.seats.map((seat, n) => [
                    n ? " · " : "",
                    seatLabel(seat),
                    " ",
                    interpolate(pgettext("a seat's score", "(%(score)s)"), { score: seat.score }),
                  ]),
                ),
                " ",
                h(
                  "span",
                  { class: "muted small" },
                  interpolate(gettext("round %(round)s, started %(when)s"), {
                    round: game.round,
                    when: formatDate(game.created_at),
                  }),
                ),
              ),
            ),
          )
        : h("p", { testid: "live-games" }, gettext("No ranked game is being played right now.")),
      h(
        "p",
        { class: "muted" },
        interpolate(ngettext("%(n)s live game", "%(n)s live games", page.count), {
          n: page.count,
        }),
      ),
    );
  }
  await load();
  const timer = setInterval(() => load().catch(() => {}), 10000);
  return () => clearInterval(timer);
}
