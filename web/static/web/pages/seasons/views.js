// The season page's views: the season picker, what the season is (dates, status, placement),
// and its leaderboard a page at a time. Functions of the state (store.js).

import { h, scrolling } from "../../dom.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext, pgettext } from "../../i18n.js";
import { playerName } from "../../views/player-name.js";
import { seasonStatus } from "../../views/season-badges.js";
import { decimal, seasonName } from "../../views/text.js";
import { chosen } from "./store.js";

export const PAGE = 50;

/** "Nov 12 – Feb 25, 2027", or with both years when they differ. */
export function seasonDates({ starts_at, ends_at }) {
  const [start, end] = [new Date(starts_at), new Date(ends_at)];
  const day = { month: "short", day: "numeric" };
  const from = formatDate(
    starts_at,
    start.getFullYear() === end.getFullYear() ? day : { dateStyle: "medium" },
  );
  return interpolate(pgettext("from one date to another", "%(from)s – %(to)s"), {
    from,
    to: formatDate(ends_at, { dateStyle: "medium" }),
  });
}

/** The picker: each season's name and status, and its dates unless the screen is narrow (a
 *  closed <select> would cut them off; the line below the picker shows them). */
export function pickerView(state, actions) {
  if (!state.seasons.length) return h("p", { testid: "season-picker" }, gettext("No season yet."));
  const narrow = matchMedia("(max-width: 600px)").matches;
  return h(
    "div",
    { class: "row" },
    h("label", { for: "season" }, gettext("Season")),
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
          narrow
            ? interpolate(gettext("%(season)s (%(status)s)"), {
                season: seasonName(season),
                status: seasonStatus(season.status),
              })
            : interpolate(gettext("%(season)s (%(status)s) · %(dates)s"), {
                season: seasonName(season),
                status: seasonStatus(season.status),
                dates: seasonDates(season),
              }),
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
      h("strong", {}, h("bdi", {}, seasonName(season))),
      h("span", { class: `badge ${current ? "you" : ""}` }, seasonStatus(season.status)),
      " ",
      h("span", { class: "muted" }, seasonDates(season)),
      current ? null : h("span", { class: "muted" }, " · ", gettext("final standings")),
    ),
    h(
      "p",
      { class: "muted", testid: "placement" },
      interpolate(
        ngettext(
          "A player is listed once placed: after %(n)s rated game in the season.",
          "A player is listed once placed: after %(n)s rated games in the season.",
          season.placement_games,
        ),
        { n: season.placement_games },
      ),
      current && left > 0
        ? [
            " ",
            h(
              "strong",
              { class: "placement-left", testid: "placement-left" },
              interpolate(
                ngettext(
                  "You have %(n)s placement game left.",
                  "You have %(n)s placement games left.",
                  left,
                ),
                { n: left },
              ),
            ),
          ]
        : null,
    ),
  );
}

export function boardView(state) {
  if (state.error) return null;
  const { board } = state;
  if (!board) return h("p", { class: "muted" }, gettext("Loading..."));
  if (!board.results.length) {
    return h(
      "p",
      { testid: "season-leaderboard" },
      gettext("Nobody is placed in this season yet."),
    );
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
          [gettext("Rank"), gettext("Player"), gettext("Rating"), gettext("Games")].map((t) =>
            h("th", { scope: "col" }, t),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        board.results.map((entry) =>
          h(
            "tr",
            { "data-player": entry.player.id, class: entry.player.id === me ? "mine" : null },
            h("td", {}, formatNumber(entry.rank)),
            h(
              "th",
              { scope: "row" },
              playerName(entry.player, { link: true }),
              entry.player.id === me
                ? h("span", { class: "badge you" }, pgettext("the player's own row", "you"))
                : null,
            ),
            h("td", {}, decimal(entry.rating.ordinal, 1)),
            h("td", {}, formatNumber(entry.games)),
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
      ? h("a", { class: "button", href: at(Math.max(0, offset - PAGE)) }, gettext("Previous"))
      : null,
    board.next ? h("a", { class: "button", href: at(offset + PAGE) }, gettext("Next")) : null,
    h(
      "span",
      { class: "muted" },
      interpolate(ngettext("%(n)s placed player", "%(n)s placed players", board.count), {
        n: board.count,
      }),
    ),
  ];
}
