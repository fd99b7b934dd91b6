// `/players/<id>`: rating, the chart of its history, and the match history with each game's
// place and rating change (each game's `rating_before` and `rating_after`).

import { allPages, api } from "../api.js";
import { ratingChart } from "../chart.js";
import { h, replace, scrolling, when } from "../dom.js";
import { ordinal } from "../table.js";

export async function playerPage(root, [playerId], app) {
  const [player, history] = await Promise.all([
    api("GET", `players/${playerId}/`),
    allPages(`players/${playerId}/rating-history/?limit=200`),
  ]);
  app.title(player.display_name);
  const rating = player.rating;
  const list = h("tbody");
  const more = h("p", { class: "row" });

  async function loadGames(path) {
    const page = await api("GET", path);
    list.append(
      ...page.results.map((game) => {
        const delta = game.rating_after && game.rating_after.ordinal - game.rating_before.ordinal;
        const others = game.seat_names.join(", ");
        return h(
          "tr",
          { "data-game": game.id },
          h("td", {}, when(game.finished_at)),
          h("td", {}, game.ranked ? "ranked" : "private"),
          h("td", {}, ordinal(game.place)),
          h("td", {}, delta === null ? "–" : h("span", { class: `delta ${delta >= 0 ? "up" : "down"}` }, `${delta >= 0 ? "+" : ""}${delta.toFixed(2)}`)),
          h("td", {}, others),
          h("td", {}, h("a", { href: `/replay/${game.id}` }, "replay")),
        );
      }),
    );
    replace(more, page.next ? h("button", { type: "button", onclick: () => loadGames(page.next) }, "More games") : null, h("span", { class: "muted" }, `${page.count} finished games`));
  }

  replace(
    root,
    h("h1", {}, player.display_name, player.is_guest ? h("span", { class: "badge" }, "guest") : null),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Rating"),
      h("dd", { testid: "rating" }, rating.ordinal.toFixed(2), rating.provisional ? h("span", { class: "badge", title: "Sigma is still high: fewer than about a dozen rated games" }, "provisional") : null),
      h("dt", {}, "mu / sigma"),
      h("dd", {}, `${rating.mu.toFixed(2)} / ${rating.sigma.toFixed(2)}`),
      h("dt", {}, "Rated games"),
      h("dd", {}, String(rating.games)),
    ),
    h("h2", {}, "Rating history"),
    ratingChart(history),
    h("h2", {}, "Match history"),
    scrolling(
      h(
        "table",
        { class: "grid", testid: "match-history" },
        h("thead", {}, h("tr", {}, ["Ended", "Table", "Place", "Rating", "Players", ""].map((t) => h("th", { scope: "col" }, t)))),
        list,
      ),
    ),
    more,
  );
  await loadGames(`players/${playerId}/games/?limit=20`);
  return null;
}
