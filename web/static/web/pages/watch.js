// `/watch`: the ranked games in play (GET /games/live/); each opens as a spectator's table.

import { h, replace, when } from "../dom.js";
import { api } from "../transport/rest.js";
import { seatLabel } from "../views/card-table.js";

export async function watchPage(root, _params, app) {
  app.title("Watch");
  async function load() {
    const page = await api("GET", "games/live/?limit=50");
    replace(
      root,
      h("h1", {}, "Watch"),
      h(
        "p",
        { class: "muted" },
        "Ranked games in play. Spectators see what any stranger may: " +
          "the discards, hand counts, scores, never a hand.",
      ),
      page.results.length
        ? h(
            "ul",
            { class: "list", testid: "live-games" },
            page.results.map((game) =>
              h(
                "li",
                { "data-game": game.id },
                h("a", { href: `/games/${game.id}`, class: "button" }, "Watch"),
                h(
                  "span",
                  {},
                  game.seats.map((seat, n) => [
                    n ? " · " : "",
                    seatLabel(seat),
                    ` (${seat.score})`,
                  ]),
                ),
                h(
                  "span",
                  { class: "muted small" },
                  ` round ${game.round}, started ${when(game.created_at)}`,
                ),
              ),
            ),
          )
        : h("p", { testid: "live-games" }, "No ranked game is being played right now."),
      h("p", { class: "muted" }, `${page.count} live games`),
    );
  }
  await load();
  const timer = setInterval(() => load().catch(() => {}), 10000);
  return () => clearInterval(timer);
}
