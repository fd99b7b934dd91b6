// Drawing a card table's parts: cards, seat names, a round's result, the final standings, the
// wild card. Used by the game page (pages/game/views.js) and the replay viewer (pages/replay.js).

import { cardFace, cardName, isJoker, rankName } from "../cards.js";
import { h } from "../dom.js";
import { playerName } from "./player-name.js";

/** A card as a `<span>` (or a `<button>` when `onclick` is given), named for screen readers. */
export function card(code, { onclick, pressed, takeable, key, label, disabled } = {}) {
  const face = cardFace(code);
  const attrs = {
    class: [
      "card",
      face.red && "red",
      face.joker && "joker",
      pressed && "selected",
      takeable && "takeable",
    ]
      .filter(Boolean)
      .join(" "),
    "data-card": code,
    "aria-label": label || cardName(code),
    title: cardName(code),
  };
  if (takeable !== undefined) attrs["data-takeable"] = String(!!takeable);
  const content = [
    h("span", { class: "rank", "aria-hidden": "true" }, face.rank),
    h("span", { class: "suit", "aria-hidden": "true" }, face.suit),
  ];
  if (!onclick) return h("span", { ...attrs, role: "img" }, content);
  return h(
    "button",
    {
      ...attrs,
      type: "button",
      onclick,
      "aria-pressed": pressed === undefined ? null : String(!!pressed),
      "data-key": key,
      disabled,
    },
    content,
  );
}

export const cards = (codes, attrs = {}) =>
  h(
    "span",
    { class: "cards", ...attrs },
    codes.map((code) => card(code)),
  );

export function seatName(seat) {
  if (!seat) return "";
  if (seat.player) return seat.player.display_name;
  return seat.is_cpu && seat.cpu_level
    ? `CPU ${seat.seat + 1} (${seat.cpu_level})`
    : `CPU ${seat.seat + 1}`;
}

/** A seat's name as elements: its player's (in a `<bdi>`, a bot's with its BOT badge, linked to
 *  the profile when `link`), or the CPU's. `seatName` is the same as plain text. */
export function seatLabel(seat, { link = false } = {}) {
  if (seat?.player) return playerName(seat.player, { link });
  return seatName(seat);
}

/** The result of a round: hands shown, points, exact-score drops and totals. `before` holds
 *  the totals before the round when the client knows them (the drops are shown then). */
export function roundResult(last, seats, before) {
  const caller = seats[last.caller];
  const callerTotal = last.hand_totals?.[last.caller];
  const called = `${seatName(caller)} called Yaniv with ${callerTotal}`;
  const verdict =
    last.outcome === "yaniv"
      ? `${called} and it stands.`
      : `${called}: Assaf! Someone had as little or less.`;
  return h(
    "section",
    { class: "panel", testid: "round-result", "aria-labelledby": "round-result-h" },
    h("h2", { id: "round-result-h" }, `Round ${last.round ?? ""} result`),
    h("p", {}, verdict),
    last.wild ? h("p", { class: "muted" }, `Wild card: the ${cardName(last.wild)}.`) : null,
    h(
      "table",
      { class: "grid" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col" }, "Hand"),
          h("th", { scope: "col" }, "Points"),
          h("th", { scope: "col" }, "Total"),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((seat) => {
          const hand = last.hands[String(seat.seat)];
          const points = last.points[seat.seat];
          const total = last.totals[seat.seat];
          const was = before?.[seat.seat];
          const dropped = was !== undefined && points !== null && was + points !== total;
          return h(
            "tr",
            { "data-seat": seat.seat },
            h(
              "th",
              { scope: "row" },
              seatLabel(seat),
              seat.seat === last.caller ? h("span", { class: "badge" }, "called") : null,
            ),
            h("td", {}, hand ? [cards(hand), ` = ${last.hand_totals[seat.seat]}`] : "out"),
            h("td", {}, points === null ? "–" : `+${points}`),
            h(
              "td",
              {},
              dropped
                ? h(
                    "span",
                    { class: "drop", title: "Exact score dropped" },
                    `${was + points} → ${total}`,
                  )
                : String(total),
              last.eliminated.includes(seat.seat) ? h("span", { class: "badge out" }, "out") : null,
            ),
          );
        }),
      ),
    ),
  );
}

/** The final places, with each player's rating change once the game is rated. */
export function standings(game, deltas) {
  const rows = [...game.standings].sort((a, b) => a.place - b.place);
  return h(
    "section",
    { class: "panel highlight", testid: "standings", "aria-labelledby": "standings-h" },
    h("h2", { id: "standings-h" }, "Final standings"),
    h(
      "ol",
      { class: "standings" },
      rows.map(({ seat, place }) => {
        const s = game.seats[seat];
        const delta = deltas?.[seat];
        return h(
          "li",
          { "data-seat": seat, "data-place": place },
          h("span", { class: "place" }, ordinal(place)),
          h("span", { class: "name" }, seatLabel(s)),
          h("span", { class: "score" }, `${s.score} points`),
          delta === undefined
            ? null
            : h(
                "span",
                { class: `delta ${delta >= 0 ? "up" : "down"}` },
                `rating ${delta >= 0 ? "+" : ""}${delta.toFixed(2)}`,
              ),
        );
      }),
    ),
  );
}

export function ordinal(n) {
  const suffix =
    n % 10 === 1 && n % 100 !== 11
      ? "st"
      : n % 10 === 2 && n % 100 !== 12
        ? "nd"
        : n % 10 === 3 && n % 100 !== 13
          ? "rd"
          : "th";
  return `${n}${suffix}`;
}

export const cardsBelow = (n) => `${n} card${n === 1 ? "" : "s"} below`;

/** The round's wild card (rules §12, Least Count): face up beside the stock, its rank 0. */
export function wildBlock(code) {
  return h(
    "div",
    { class: "pile-block" },
    h("h2", { class: "label" }, "Wild card"),
    h("div", { class: "cards", testid: "wild" }, card(code)),
    h(
      "p",
      { class: "muted small" },
      isJoker(code)
        ? "A joker: no rank is wild this round."
        : `Every ${rankName(code)} scores 0 and may stand in a run.`,
    ),
  );
}
