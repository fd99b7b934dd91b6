// A player's seasons (GET /players/{id}/seasons/): a badge per season played with the tier it
// ended in (live for the current season), and a season's standing in words.

import { h } from "../dom.js";
import { fill, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { seasonName } from "./text.js";

const TIERS = {
  legend: pgettext("season tier", "Legend"),
  master: pgettext("season tier", "Master"),
  diamond: pgettext("season tier", "Diamond"),
  gold: pgettext("season tier", "Gold"),
  silver: pgettext("season tier", "Silver"),
  bronze: pgettext("season tier", "Bronze"),
};
const STATUS = {
  current: pgettext("season status", "current"),
  finished: pgettext("season status", "finished"),
};

/** A season's status as players read it ("current", "finished"; the API's value translated). */
export const seasonStatus = (status) => STATUS[status] ?? status;

/** "Gold", or "placement" for a season the player is not placed in. */
export const tierName = (row) =>
  row.placed && row.tier ? (TIERS[row.tier] ?? row.tier) : pgettext("season tier", "placement");

/** `rows`: the player's seasons, newest first. One badge each: "Season 1 · Gold", or
 *  "Season 2 · placement" with the games played of those that place. */
export function seasonBadges(rows) {
  if (!rows.length) return null;
  return h(
    "ul",
    { class: "season-badges", testid: "season-badges", "aria-label": gettext("Seasons played") },
    rows.map((row) =>
      h(
        "li",
        {
          class: `tier ${row.placed && row.tier ? `tier-${row.tier}` : "tier-placement"}`,
          testid: "season-badge",
          "data-season": row.season.number,
          "data-tier": row.placed ? row.tier : "placement",
          title: badgeTitle(row),
        },
        h("bdi", { class: "season-name" }, seasonName(row.season)),
        " · ",
        h("strong", {}, tierName(row)),
        row.placed
          ? null
          : [
              " ",
              h(
                "span",
                { class: "games" },
                interpolate(
                  ngettext(
                    "%(played)s/%(needed)s game",
                    "%(played)s/%(needed)s games",
                    row.season.placement_games,
                  ),
                  {
                    played: row.games,
                    needed: row.season.placement_games,
                  },
                ),
              ),
            ],
      ),
    ),
  );
}

function badgeTitle(row) {
  const values = {
    season: seasonName(row.season),
    games: row.games,
    needed: row.season.placement_games,
    rank: row.rank,
    placed: row.placed_players,
  };
  if (!row.placed) {
    return interpolate(
      ngettext(
        "%(season)s: %(games)s of %(needed)s placement game played",
        "%(season)s: %(games)s of %(needed)s placement games played",
        row.season.placement_games,
      ),
      values,
    );
  }
  return interpolate(
    row.season.status === "current"
      ? ngettext(
          "%(season)s: rank %(rank)s of %(placed)s (live), %(games)s game",
          "%(season)s: rank %(rank)s of %(placed)s (live), %(games)s games",
          row.games,
        )
      : ngettext(
          "%(season)s: rank %(rank)s of %(placed)s, %(games)s game",
          "%(season)s: rank %(rank)s of %(placed)s, %(games)s games",
          row.games,
        ),
    values,
  );
}

/** A season's standing: "#4 of 25 · Gold · 31 games", or the placement games played. */
export function seasonStanding(row) {
  const season = h("bdi", {}, seasonName(row.season));
  if (!row.placed) {
    const format = ngettext(
      "%(season)s: placement, %(games)s of %(needed)s game played",
      "%(season)s: placement, %(games)s of %(needed)s games played",
      row.season.placement_games,
    );
    return fill(format, {
      season,
      games: row.games,
      needed: row.season.placement_games,
    });
  }
  return [
    fill(
      ngettext(
        "%(season)s: %(rank)s of %(placed)s · %(tier)s · %(games)s game",
        "%(season)s: %(rank)s of %(placed)s · %(tier)s · %(games)s games",
        row.games,
      ),
      {
        season,
        rank: h(
          "strong",
          { testid: "season-live-rank" },
          interpolate(gettext("#%(rank)s"), { rank: row.rank }),
        ),
        placed: row.placed_players,
        tier: tierName(row),
        games: row.games,
      },
    ),
    row.season.status === "current"
      ? h("span", { class: "badge" }, pgettext("season standing", "live"))
      : null,
  ];
}
