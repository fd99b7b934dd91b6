// `/leaderboard`: GET /leaderboard/, a page at a time; `/leaderboard?pool=bots` the bots'
// ladder (`?pool=bots`): the bots and the house CPU levels, which play there as fixed anchors.

import { h, replace, scrolling } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { api } from "../transport/rest.js";
import { playerName } from "../views/player-name.js";
import { decimal } from "../views/text.js";

const PAGE = 50;

const POOLS = {
  ranked: {
    tab: gettext("Players"),
    title: gettext("Leaderboard"),
    about: () => [
      gettext(
        "Ranked players by ordinal (mu − 3 sigma, OpenSkill), over every season. Provisional players have few rated games yet.",
      ),
      " ",
      h("a", { href: "/seasons", testid: "seasons-link" }, gettext("This season's leaderboard")),
    ],
    empty: gettext("Nobody is rated yet: play a ranked game."),
    count: (n) => interpolate(ngettext("%(n)s player", "%(n)s players", n), { n }),
  },
  bots: {
    tab: gettext("Bots"),
    title: gettext("Bots' leaderboard"),
    about: () => [
      gettext(
        "Bots rated on the bot ladder by ordinal, against each other and the house CPU levels, whose ratings are fixed: where a bot stands among the levels says how strong it is.",
      ),
      " ",
      gettext("Bots never play in the players' ranked queue."),
    ],
    empty: gettext("No bot is rated yet."),
    count: (n) => interpolate(ngettext("%(n)s on the ladder", "%(n)s on the ladder", n), { n }),
  },
};

export async function leaderboardPage(root, _params, app) {
  const query = new URLSearchParams(location.search);
  const pool = query.get("pool") === "bots" ? "bots" : "ranked";
  const { about, empty, count, title } = POOLS[pool];
  app.title(title);
  const offset = Math.max(0, Number(query.get("offset")) || 0);
  const page = await api("GET", `leaderboard/?pool=${pool}&limit=${PAGE}&offset=${offset}`);
  const tabPath = (name) => (name === "bots" ? "/leaderboard?pool=bots" : "/leaderboard");
  const at = (n) => `${tabPath(pool)}${pool === "bots" ? "&" : "?"}offset=${n}`;
  replace(
    root,
    h("h1", {}, gettext("Leaderboard")),
    h(
      "nav",
      { class: "tabs", "aria-label": gettext("Leaderboards") },
      Object.entries(POOLS).map(([name, { tab }]) =>
        h(
          "a",
          {
            href: tabPath(name),
            testid: `pool-${name}`,
            "aria-current": name === pool ? "page" : null,
          },
          tab,
        ),
      ),
    ),
    h("p", { class: "muted" }, about()),
    page.results.length
      ? scrolling(
          h(
            "table",
            { class: "grid", testid: "leaderboard", "data-pool": pool },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                [
                  gettext("Rank"),
                  pool === "bots" ? gettext("Bot") : gettext("Player"),
                  gettext("Rating"),
                  gettext("Games"),
                ].map((t) => h("th", { scope: "col" }, t)),
              ),
            ),
            h(
              "tbody",
              {},
              page.results.map((entry) => {
                // A CPU level on the bots' ladder: a fixed anchor, which plays no game there.
                const anchor = pool === "bots" && entry.player.is_cpu;
                return h(
                  "tr",
                  { "data-player": entry.player.id, "data-anchor": anchor ? "true" : null },
                  h("td", {}, formatNumber(entry.rank)),
                  h("th", { scope: "row" }, playerName(entry.player, { link: true })),
                  h(
                    "td",
                    {},
                    decimal(entry.rating.ordinal, 1),
                    anchor
                      ? h(
                          "span",
                          {
                            class: "badge",
                            title: gettext("A house CPU level: its rating never moves"),
                          },
                          pgettext("rating", "fixed"),
                        )
                      : entry.rating.provisional
                        ? h("span", { class: "badge" }, pgettext("rating", "provisional"))
                        : null,
                  ),
                  h("td", {}, anchor ? "–" : formatNumber(entry.rating.games)),
                );
              }),
            ),
          ),
        )
      : h("p", { testid: "leaderboard", "data-pool": pool }, empty),
    h(
      "p",
      { class: "row" },
      page.previous
        ? h("a", { class: "button", href: at(Math.max(0, offset - PAGE)) }, gettext("Previous"))
        : null,
      page.next ? h("a", { class: "button", href: at(offset + PAGE) }, gettext("Next")) : null,
      h("span", { class: "muted" }, count(page.count)),
    ),
  );
  return null;
}
