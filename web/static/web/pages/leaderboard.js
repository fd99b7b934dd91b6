// `/leaderboard`: GET /leaderboard/, a page at a time.

import { h, replace, scrolling } from "../dom.js";
import { api } from "../transport/rest.js";

const PAGE = 50;

export async function leaderboardPage(root, _params, app) {
  app.title("Leaderboard");
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get("offset")) || 0);
  const page = await api("GET", `leaderboard/?limit=${PAGE}&offset=${offset}`);
  replace(
    root,
    h("h1", {}, "Leaderboard"),
    h(
      "p",
      { class: "muted" },
      "Ranked players by ordinal (mu − 3 sigma, OpenSkill), over every season. " +
        "Provisional players have few rated games yet. ",
      h("a", { href: "/seasons", testid: "seasons-link" }, "This season's leaderboard"),
    ),
    page.results.length
      ? scrolling(
          h(
            "table",
            { class: "grid", testid: "leaderboard" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Rank", "Player", "Rating", "Games"].map((t) => h("th", { scope: "col" }, t)),
              ),
            ),
            h(
              "tbody",
              {},
              page.results.map((entry) =>
                h(
                  "tr",
                  { "data-player": entry.player.id },
                  h("td", {}, String(entry.rank)),
                  h(
                    "th",
                    { scope: "row" },
                    h("a", { href: `/players/${entry.player.id}` }, entry.player.display_name),
                  ),
                  h(
                    "td",
                    {},
                    entry.rating.ordinal.toFixed(1),
                    entry.rating.provisional ? h("span", { class: "badge" }, "provisional") : null,
                  ),
                  h("td", {}, String(entry.rating.games)),
                ),
              ),
            ),
          ),
        )
      : h("p", { testid: "leaderboard" }, "Nobody is rated yet: play a ranked game."),
    h(
      "p",
      { class: "row" },
      page.previous
        ? h(
            "a",
            { class: "button", href: `/leaderboard?offset=${Math.max(0, offset - PAGE)}` },
            "Previous",
          )
        : null,
      page.next
        ? h("a", { class: "button", href: `/leaderboard?offset=${offset + PAGE}` }, "Next")
        : null,
      h("span", { class: "muted" }, `${page.count} players`),
    ),
  );
  return null;
}
