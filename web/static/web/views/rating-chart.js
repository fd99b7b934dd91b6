// The rating chart: an SVG line of the ordinal after each rated game (no library needed).

import { h, s } from "../dom.js";

const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/** `points`: [{game_id, at, ordinal, mu, sigma}], oldest first. Drawn in a box of about the
 *  screen's width, so that its labels stay readable on a phone. */
export function ratingChart(points) {
  const narrow = matchMedia("(max-width: 600px)").matches;
  const W = narrow ? 360 : 640;
  const H = narrow ? 200 : 220;
  if (!points.length) {
    return h(
      "div",
      { class: "chart empty", testid: "rating-chart" },
      "No rated games yet: the chart starts with the first ranked game.",
    );
  }
  const values = points.map((p) => p.ordinal);
  let low = Math.min(0, ...values);
  let high = Math.max(...values);
  if (high - low < 1) high = low + 1;
  const pad = (high - low) * 0.08;
  low -= pad;
  high += pad;
  const x = (i) =>
    PAD.left +
    (points.length === 1
      ? (W - PAD.left - PAD.right) / 2
      : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
  const ticks = [low + pad, (low + high) / 2, high - pad];
  const first = values[0].toFixed(1);
  const last = values[values.length - 1].toFixed(1);
  return h(
    "figure",
    { class: "chart", testid: "rating-chart", "data-points": points.length },
    s(
      "svg",
      {
        viewBox: `0 0 ${W} ${H}`,
        role: "img",
        "aria-label": `Rating after each of ${points.length} rated games, from ${first} to ${last}`,
      },
      ticks.map((t) => [
        s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: "gridline" }),
        s(
          "text",
          { x: PAD.left - 6, y: y(t) + 4, class: "axis", "text-anchor": "end" },
          t.toFixed(1),
        ),
      ]),
      s("text", { x: PAD.left, y: H - 8, class: "axis" }, "game 1"),
      s(
        "text",
        { x: W - PAD.right, y: H - 8, class: "axis", "text-anchor": "end" },
        `game ${points.length}`,
      ),
      s("polyline", {
        class: "line",
        points: points.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" "),
      }),
      points.map((p, i) =>
        s(
          "circle",
          { cx: x(i), cy: y(p.ordinal), r: 3.5, class: "dot" },
          s(
            "title",
            {},
            `Game ${i + 1}: ${p.ordinal.toFixed(2)} (${new Date(p.at).toLocaleDateString()})`,
          ),
        ),
      ),
    ),
    h(
      "figcaption",
      { class: "muted small" },
      `Rating (ordinal) after each rated game: ${first} → ${last}.`,
    ),
  );
}
