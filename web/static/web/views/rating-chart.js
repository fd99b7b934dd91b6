// The rating chart: an SVG line of the ordinal after each rated game (no library needed), with
// a vertical mark where each season starts.

import { h, s } from "../dom.js";
import { formatDate, gettext, interpolate, ngettext } from "../i18n.js";
import { decimal, seasonName } from "./text.js";

const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/** `entries`: the rating history, oldest first: [{kind, season, game_id, at, ordinal, mu,
 *  sigma}]. A game (`kind` "game", or no kind) is a point; a season's reset (`kind`
 *  "season_reset": sigma widened, no game) is a vertical mark, the line running through its
 *  rating. Where the season changes between two games with no reset listed, the mark falls
 *  between them. `seasons`: {number: season} for the marks' names and dates (else "Season n").
 *  `marked`: false draws no season marks (a bot's chart: bots stand outside seasons).
 *  Drawn in a box of about the screen's width, so that its labels stay readable on a phone. */
export function ratingChart(entries, { seasons = {}, marked = true } = {}) {
  const narrow = matchMedia("(max-width: 600px)").matches;
  const W = narrow ? 360 : 640;
  const H = narrow ? 200 : 220;
  const games = entries.filter(isGame);
  if (!games.length) {
    return h(
      "div",
      { class: "chart empty", testid: "rating-chart" },
      gettext("No rated games yet: the chart starts with the first ranked game."),
    );
  }
  const values = entries.map((p) => p.ordinal);
  let low = Math.min(0, ...values);
  let high = Math.max(...values);
  if (high - low < 1) high = low + 1;
  const pad = (high - low) * 0.08;
  low -= pad;
  high += pad;
  const marks = marked ? seasonMarks(entries) : [];
  // The marks' names above the plot, clear of the line.
  const top = marks.length ? PAD.top + 16 : PAD.top;
  const x = (i) =>
    PAD.left +
    (entries.length === 1
      ? (W - PAD.left - PAD.right) / 2
      : (i * (W - PAD.left - PAD.right)) / (entries.length - 1));
  const y = (v) => top + ((high - v) * (H - top - PAD.bottom)) / (high - low);
  const ticks = [low + pad, (low + high) / 2, high - pad];
  const first = decimal(games[0].ordinal, 1);
  const last = decimal(games[games.length - 1].ordinal, 1);
  const n = games.length;
  const label = marks.length
    ? interpolate(
        ngettext(
          "Rating after each of %(n)s rated games, from %(first)s to %(last)s, with %(marks)s season start marked",
          "Rating after each of %(n)s rated games, from %(first)s to %(last)s, with %(marks)s season starts marked",
          marks.length,
        ),
        { n, first, last, marks: marks.length },
      )
    : interpolate(
        ngettext(
          "Rating after each of %(n)s rated game, from %(first)s to %(last)s",
          "Rating after each of %(n)s rated games, from %(first)s to %(last)s",
          n,
        ),
        { n, first, last },
      );
  const gameNumber = new Map(games.map((p, i) => [p, i + 1]));
  return h(
    "figure",
    {
      class: "chart",
      testid: "rating-chart",
      "data-points": games.length,
      "data-seasons": marks.length,
    },
    // Time runs from left to right on the chart, whatever the page's direction.
    h(
      "div",
      { dir: "ltr" },
      s(
        "svg",
        {
          viewBox: `0 0 ${W} ${H}`,
          role: "img",
          "aria-label": label,
        },
        ticks.map((t) => [
          s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: "gridline" }),
          s(
            "text",
            { x: PAD.left - 6, y: y(t) + 4, class: "axis", "text-anchor": "end" },
            decimal(t, 1),
          ),
        ]),
        marks.map((mark) =>
          seasonMark(mark, x(mark.at), seasons[mark.season], {
            top: PAD.top + 4,
            bottom: H - PAD.bottom,
            width: W,
          }),
        ),
        s(
          "text",
          { x: PAD.left, y: H - 8, class: "axis" },
          interpolate(gettext("game %(n)s"), { n: 1 }),
        ),
        s(
          "text",
          { x: W - PAD.right, y: H - 8, class: "axis", "text-anchor": "end" },
          interpolate(gettext("game %(n)s"), { n }),
        ),
        s("polyline", {
          class: "line",
          points: entries.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" "),
        }),
        entries.map((p, i) =>
          isGame(p)
            ? s(
                "circle",
                { cx: x(i), cy: y(p.ordinal), r: 3.5, class: "dot" },
                s(
                  "title",
                  {},
                  interpolate(gettext("Game %(n)s: %(rating)s (%(date)s)"), {
                    n: gameNumber.get(p),
                    rating: decimal(p.ordinal, 2),
                    date: formatDate(p.at, { dateStyle: "short" }),
                  }),
                ),
              )
            : null,
        ),
      ),
    ),
    h(
      "figcaption",
      { class: "muted small" },
      interpolate(gettext("Rating (ordinal) after each rated game: %(first)s → %(last)s."), {
        first,
        last,
      }),
      marks.length
        ? [" ", gettext("A dashed line marks a season's start (its reset widens sigma).")]
        : null,
    ),
  );
}

const isGame = (entry) => entry.kind !== "season_reset";

/** Where seasons start along the entries: at each reset (`at` its index), and halfway between
 *  two games of different seasons that have no reset between them. */
export function seasonMarks(entries) {
  const marks = [];
  entries.forEach((entry, i) => {
    const before = entries[i - 1];
    if (!isGame(entry)) {
      marks.push({ at: i, season: entry.season, reset: entry });
    } else if (before && isGame(before) && entry.season !== before.season && entry.season) {
      marks.push({ at: i - 0.5, season: entry.season, reset: null });
    }
  });
  return marks;
}

function seasonMark({ season, reset }, where, known, { top, bottom, width }) {
  const name = known
    ? seasonName(known)
    : interpolate(gettext("Season %(number)s"), { number: season });
  const starts = known?.starts_at || reset?.at;
  // The name centred over its mark, or beside it near an edge.
  const room = name.length * 4;
  const anchor =
    where < PAD.left + room ? "start" : where > width - PAD.right - room ? "end" : "middle";
  return s(
    "g",
    { class: "season-mark", testid: "season-mark", "data-season": season },
    s("line", { x1: where, x2: where, y1: top + 12, y2: bottom }),
    s(
      "text",
      {
        x: where,
        y: top + 8,
        class: "axis season-name",
        "text-anchor": anchor,
      },
      name,
    ),
    s("title", {}, seasonTitle(name, starts, reset)),
  );
}

/** A season mark's tooltip: its name and start, and the reset's rating when it had one. */
function seasonTitle(name, starts, reset) {
  const values = {
    season: name,
    date: starts ? formatDate(starts, { dateStyle: "short" }) : "",
    rating: reset ? decimal(reset.ordinal, 2) : "",
  };
  if (starts && reset) {
    return interpolate(
      gettext("%(season)s starts (%(date)s): rating reset to %(rating)s (sigma widened)"),
      values,
    );
  }
  if (starts) return interpolate(gettext("%(season)s starts (%(date)s)"), values);
  if (reset) {
    return interpolate(
      gettext("%(season)s starts: rating reset to %(rating)s (sigma widened)"),
      values,
    );
  }
  return interpolate(gettext("%(season)s starts"), values);
}
