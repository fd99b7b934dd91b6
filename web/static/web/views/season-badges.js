// A player's seasons (GET /players/{id}/seasons/): a badge per season played with the tier it
// ended in (live for the current season), and a season's standing in words.

import { h } from "../dom.js";

const TIERS = {
  legend: "Legend",
  master: "Master",
  diamond: "Diamond",
  gold: "Gold",
  silver: "Silver",
  bronze: "Bronze",
};

/** "Gold", or "placement" for a season the player is not placed in. */
export const tierName = (row) => (row.placed && row.tier ? TIERS[row.tier] : "placement");

/** `rows`: the player's seasons, newest first. One badge each: "Season 1 · Gold", or
 *  "Season 2 · placement" with the games played of those that place. */
export function seasonBadges(rows) {
  if (!rows.length) return null;
  return h(
    "ul",
    { class: "season-badges", testid: "season-badges", "aria-label": "Seasons played" },
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
        h("span", { class: "season-name" }, row.season.name),
        " · ",
        h("strong", {}, tierName(row)),
        row.placed
          ? null
          : h("span", { class: "games" }, ` ${row.games}/${row.season.placement_games} games`),
      ),
    ),
  );
}

function badgeTitle(row) {
  const live = row.season.status === "current" ? " (live)" : "";
  if (!row.placed) {
    return `${row.season.name}: ${row.games} of ${row.season.placement_games} placement games played`;
  }
  return `${row.season.name}: rank ${row.rank} of ${row.placed_players}${live}, ${row.games} games`;
}

/** A season's standing: "#4 of 25 · Gold · 31 games", or the placement games played. */
export function seasonStanding(row) {
  const name = row.season.name;
  if (!row.placed) {
    return [`${name}: placement, ${row.games} of ${row.season.placement_games} games played`];
  }
  return [
    `${name}: `,
    h("strong", { testid: "season-live-rank" }, `#${row.rank}`),
    ` of ${row.placed_players} · ${tierName(row)} · ${row.games} games`,
    row.season.status === "current" ? h("span", { class: "badge" }, "live") : null,
  ];
}
