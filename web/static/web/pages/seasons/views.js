// The season page's views: the season picker, what the season is (dates, status, placement),
// and its leaderboard a page at a time. Functions of the state (store.js).

import { h, scrolling } from "../../dom.js";
import { playerName } from "../../views/player-name.js";
import { chosen } from "./store.js";

export const PAGE = 50;

/** "Nov 12 – Feb 25, 2027", or with both years when they differ. */
export function seasonDates({ starts_at, ends_at }) {
  const [start, end] = [new Date(starts_at), new Date(ends_at)];
  const day = { month: "short", day: "numeric" };
  const from = start.toLocaleDateString(
    [],
    start.getFullYear() === end.getFullYear() ? day : { dateStyle: "medium" },
  );
  return `${from} – ${end.toLocaleDateString([], { dateStyle: "medium" })}`;
}

/** The picker: each season's name and status, and its dates unless the screen is narrow (a
 *  closed <select> would cut them off; the line below the picker shows them). */
export function pickerView(state, actions) {
  if (!state.seasons.length) return h("p", { testid: "season-picker" }, "No season yet.");
  const narrow = matchMedia("(max-width: 600px)").matches;
  return h(
    "div",
    { class: "row" },
    h("label", { for: "season" }, "Season"),
    h(
      "select",
      {
        id: "season",
        testid: "season-picker",
        "data-key": "season",
        onchange: (event) => actions.pick(Number(event.target.value)),
      },
      state.seasons.map((season) =>
        h(
          "option",
          { value: season.number, selected: season.number === state.number },
          `${season.name} (${season.status})${narrow ? "" : ` · ${seasonDates(season)}`}`,
        ),
      ),
    ),
  );
}

/** The season's dates and status, how many rated games place a player in it, and (in the
 *  current season) how many the session's player has left to play. */
export function seasonView(state) {
  const season = chosen(state);
  if (!season) return null;
  const current = season.status === "current";
  const left = state.me?.placement_games_left ?? 0;
  return h(
    "div",
    { testid: "season-info", "data-season": season.number, "data-status": season.status },
    h(
      "p",
      {},
      h("strong", {}, season.name),
      h("span", { class: `badge ${current ? "you" : ""}` }, season.status),
      " ",
      h("span", { class: "muted" }, seasonDates(season)),
      current ? null : h("span", { class: "muted" }, " · final standings"),
    ),
    h(
      "p",
      { class: "muted", testid: "placement" },
      `A player is listed once placed: after ${season.placement_games} rated ` +
        `${plural(season.placement_games, "game")} in the season.`,
      current && left > 0
        ? h(
            "strong",
            { class: "placement-left", testid: "placement-left" },
            ` You have ${left} placement ${plural(left, "game")} left.`,
          )
        : null,
    ),
  );
}

export function boardView(state) {
  if (state.error) return null;
  const { board } = state;
  if (!board) return h("p", { class: "muted" }, "Loading...");
  if (!board.results.length) {
    return h("p", { testid: "season-leaderboard" }, "Nobody is placed in this season yet.");
  }
  const me = state.me?.id;
  return scrolling(
    h(
      "table",
      { class: "grid fits", testid: "season-leaderboard", "data-season": state.number },
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
        board.results.map((entry) =>
          h(
            "tr",
            { "data-player": entry.player.id, class: entry.player.id === me ? "mine" : null },
            h("td", {}, String(entry.rank)),
            h(
              "th",
              { scope: "row" },
              playerName(entry.player, { link: true }),
              entry.player.id === me ? h("span", { class: "badge you" }, "you") : null,
            ),
            h("td", {}, entry.rating.ordinal.toFixed(1)),
            h("td", {}, String(entry.games)),
          ),
        ),
      ),
    ),
  );
}

export function pagerView(state) {
  const { board, number, offset } = state;
  if (!board) return null;
  const at = (o) => `/seasons/${number}?offset=${o}`;
  return [
    board.previous
      ? h("a", { class: "button", href: at(Math.max(0, offset - PAGE)) }, "Previous")
      : null,
    board.next ? h("a", { class: "button", href: at(offset + PAGE) }, "Next") : null,
    h("span", { class: "muted" }, `${board.count} placed ${plural(board.count, "player")}`),
  ];
}

const plural = (n, word) => (n === 1 ? word : `${word}s`);
