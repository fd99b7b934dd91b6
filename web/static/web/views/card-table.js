// Drawing a card table's parts: cards, seat names, a round's result, the final standings, the
// wild card. Used by the game page (pages/game/views.js) and the replay viewer (pages/replay.js).

import { cardFace, cardName, isJoker, rankName } from "../cards.js";
import { h } from "../dom.js";
import { fill, formatNumber, gettext, interpolate, language, ngettext, pgettext } from "../i18n.js";
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
    translate: "no",
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

/** A CPU level's name ("easy"), its code spelled as is for a level added since. */
export function cpuLevelName(level) {
  const names = {
    easy: pgettext("CPU level", "easy"),
    medium: pgettext("CPU level", "medium"),
    hard: pgettext("CPU level", "hard"),
    expert: pgettext("CPU level", "expert"),
  };
  return names[level] ?? level;
}

export function seatName(seat) {
  if (!seat) return "";
  if (seat.player) return seat.player.display_name;
  const n = seat.seat + 1;
  return seat.is_cpu && seat.cpu_level
    ? interpolate(gettext("CPU %(n)s (%(level)s)"), { n, level: cpuLevelName(seat.cpu_level) })
    : interpolate(gettext("CPU %(n)s"), { n });
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
  const values = { name: h("bdi", {}, seatName(caller)), total: callerTotal };
  const verdict =
    last.outcome === "yaniv"
      ? fill(gettext("%(name)s called Yaniv with %(total)s and it stands."), values)
      : fill(
          gettext("%(name)s called Yaniv with %(total)s: Assaf! Someone had as little or less."),
          values,
        );
  return h(
    "section",
    { class: "panel", testid: "round-result", "aria-labelledby": "round-result-h" },
    h(
      "h2",
      { id: "round-result-h" },
      interpolate(gettext("Round %(round)s result"), { round: last.round ?? "" }),
    ),
    h("p", {}, verdict),
    last.wild
      ? h(
          "p",
          { class: "muted" },
          interpolate(gettext("Wild card: the %(card)s."), { card: cardName(last.wild) }),
        )
      : null,
    h(
      "table",
      { class: "grid" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, gettext("Player")),
          h("th", { scope: "col" }, gettext("Hand")),
          h("th", { scope: "col" }, gettext("Points")),
          h("th", { scope: "col" }, gettext("Total")),
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
              seat.seat === last.caller
                ? h("span", { class: "badge" }, pgettext("the seat that called", "called"))
                : null,
            ),
            h(
              "td",
              {},
              hand
                ? [cards(hand), " = ", h("span", { class: "num" }, last.hand_totals[seat.seat])]
                : pgettext("eliminated", "out"),
            ),
            h("td", { class: "num" }, points === null ? "–" : `+${points}`),
            h(
              "td",
              {},
              dropped
                ? h(
                    "span",
                    { class: "drop num", title: gettext("Exact score dropped") },
                    `${was + points} → ${total}`,
                  )
                : h("span", { class: "num" }, String(total)),
              last.eliminated.includes(seat.seat)
                ? h("span", { class: "badge out" }, pgettext("eliminated", "out"))
                : null,
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
    h("h2", { id: "standings-h" }, gettext("Final standings")),
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
          h(
            "span",
            { class: "score" },
            interpolate(ngettext("%(n)s point", "%(n)s points", s.score), { n: s.score }),
          ),
          delta === undefined
            ? null
            : h(
                "span",
                { class: `delta ${delta >= 0 ? "up" : "down"}` },
                interpolate(gettext("rating %(delta)s"), {
                  delta: `${delta >= 0 ? "+" : ""}${delta.toFixed(2)}`,
                }),
              ),
        );
      }),
    ),
  );
}

/** "1st", "2nd": a place; in other languages their own way of writing it. */
export function ordinal(n) {
  if (language !== "en") {
    return interpolate(pgettext("a place in a ranking", "#%(n)s"), { n: formatNumber(n) });
  }
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

export const cardsBelow = (n) =>
  interpolate(ngettext("%(n)s card below", "%(n)s cards below", n), { n });

/** The round's wild card (rules §12, Least Count): face up beside the stock, its rank 0. */
export function wildBlock(code) {
  return h(
    "div",
    { class: "pile-block" },
    h("h2", { class: "label" }, gettext("Wild card")),
    h("div", { class: "cards", testid: "wild" }, card(code)),
    h(
      "p",
      { class: "muted small" },
      isJoker(code)
        ? gettext("A joker: no rank is wild this round.")
        : interpolate(gettext("Every %(rank)s scores 0 and may stand in a run."), {
            rank: rankName(code),
          }),
    ),
  );
}
