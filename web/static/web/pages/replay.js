// `/replay/<id>`: a finished game's record, round by round and action by action, with every
// hand shown; each round's result from the game's `round_ended` events. The state is the place
// in the record (`reduce` moves it); `replayView` draws it.

import { cardName } from "../cards.js";
import { h } from "../dom.js";
import { verifyRecord } from "../fair-deal.js";
import { recordRounds } from "../record.js";
import { createStore, mount } from "../store.js";
import { allPages, api } from "../transport/rest.js";
import {
  cards,
  cardsBelow,
  roundResult,
  seatLabel,
  seatName,
  wildBlock,
} from "../views/card-table.js";
import { fairSeat, fairVerdict, hexValue } from "../views/fair-deal.js";

export async function replayPage(root, [gameId], app) {
  app.title("Replay");
  const [record, game, events] = await Promise.all([
    api("GET", `games/${gameId}/record/`),
    api("GET", `games/${gameId}/`),
    allPages(`games/${gameId}/events/?limit=500`, 100000),
  ]);
  const results = events.filter((event) => event.type === "round_ended");
  const outBefore = [[]];
  for (const result of results) {
    outBefore.push([...outBefore[outBefore.length - 1], ...result.eliminated]);
  }
  const rounds = recordRounds(record, outBefore);
  const store = createStore(reduce, { rounds, round: 0, frame: 0 });
  const context = { game, results, dispatch: store.dispatch };
  // The revealed seeds and their check, drawn once the check has run (it does not change
  // with the place in the record).
  const steps = h("div", {});
  const fair = record.fairness ? h("div", {}) : null;
  root.replaceChildren(steps, fair);
  mount(
    store,
    steps,
    (state) => [state],
    (state) => replayView(state, context),
  );
  if (fair) {
    fair.replaceChildren(seedsView(record, game, { status: "checking" }));
    verifyRecord(gameId, record).then((verdict) => {
      fair.replaceChildren(seedsView(record, game, verdict));
    });
  }
  root.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") store.dispatch({ type: "step", by: 1 });
    else if (event.key === "ArrowLeft") store.dispatch({ type: "step", by: -1 });
  });
  return null;
}

/** `{type: "go", round, frame}` (a frame number or "end") or `{type: "step", by: ±1}`, which
 *  crosses into the round before or after at either end of one. */
export function reduce(state, action) {
  const { rounds } = state;
  if (action.type === "step") {
    const frame = state.frame + action.by;
    if (frame < 0 && state.round > 0) return reduce(state, go(state.round - 1, "end"));
    const frames = rounds[state.round].frames.length;
    if (frame >= frames && state.round < rounds.length - 1) {
      return reduce(state, go(state.round + 1, 0));
    }
    return reduce(state, go(state.round, frame));
  }
  if (action.type !== "go") return state;
  const round = clamp(action.round, rounds.length - 1);
  const last = rounds[round].frames.length - 1;
  const frame = action.frame === "end" ? last : clamp(action.frame, last);
  return round === state.round && frame === state.frame ? state : { ...state, round, frame };
}

const go = (round, frame) => ({ type: "go", round, frame });
const clamp = (n, most) => Math.max(0, Math.min(most, n));

function describe(frame, seats) {
  if (frame.seat === null) return frame.note;
  const who = seatName(seats[frame.seat]);
  if (!frame.played) return `${who}: ${frame.note}`;
  const drew =
    frame.from === "stock"
      ? `drew the ${cardName(frame.drew)} from the stock`
      : `took the ${cardName(frame.drew)}`;
  const by = frame.by === "cpu" ? " (played by the CPU)" : "";
  return `${who} discarded ${frame.played.map(cardName).join(", ")} and ${drew}${by}.`;
}

function replayView(place, { game, results, dispatch }) {
  const { rounds } = place;
  const gameId = game.id;
  const seats = game.seats;
  const round = rounds[place.round];
  const frame = round.frames[place.frame];
  const last = place.frame === round.frames.length - 1;
  const result = results[place.round];
  const step = (by) => dispatch({ type: "step", by });
  return [
    h("h1", {}, "Replay"),
    h(
      "p",
      { class: "muted" },
      `${game.ranked ? "Ranked" : "Private"} game · ${rounds.length} rounds · `,
      h("a", { href: `/games/${gameId}` }, "the table"),
    ),
    h(
      "nav",
      { class: "row controls", "aria-label": "Replay controls" },
      h(
        "button",
        {
          type: "button",
          "data-key": "prev-round",
          disabled: place.round === 0,
          onclick: () => dispatch(go(place.round - 1, 0)),
        },
        "« Round",
      ),
      h(
        "button",
        {
          type: "button",
          "data-key": "prev",
          testid: "replay-prev",
          disabled: place.round === 0 && place.frame === 0,
          onclick: () => step(-1),
        },
        "‹ Back",
      ),
      h(
        "span",
        { class: "status", testid: "replay-position", "aria-live": "polite" },
        `Round ${round.round}, action ${place.frame} of ${round.frames.length - 1}`,
      ),
      h(
        "button",
        {
          type: "button",
          "data-key": "next",
          testid: "replay-next",
          disabled: place.round === rounds.length - 1 && last,
          onclick: () => step(1),
        },
        "Next ›",
      ),
      h(
        "button",
        {
          type: "button",
          "data-key": "next-round",
          disabled: place.round === rounds.length - 1,
          onclick: () => dispatch(go(place.round + 1, 0)),
        },
        "Round »",
      ),
    ),
    h("p", { class: "note", testid: "replay-action" }, describe(frame, seats)),
    h(
      "ul",
      { class: "seats" },
      seats.map((seat) =>
        h(
          "li",
          {
            class: `seat${frame.seat === seat.seat ? " turn" : ""}`,
            testid: `seat-${seat.seat}`,
          },
          h(
            "div",
            { class: "seat-name" },
            seatLabel(seat, { link: true }),
            frame.out.includes(seat.seat) ? h("span", { class: "badge out" }, "out") : null,
          ),
          frame.hands[seat.seat].length
            ? cards(frame.hands[seat.seat], { "aria-label": `${seatName(seat)}'s hand` })
            : h("span", { class: "muted" }, "no cards"),
        ),
      ),
    ),
    h(
      "section",
      { class: "middle" },
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, "Stock"),
        h("p", {}, `${frame.stock} cards`),
      ),
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, "Last discard"),
        cards(frame.discard, { testid: "discard" }),
        frame.pile ? h("p", { class: "muted small" }, cardsBelow(frame.pile)) : null,
      ),
      frame.wild ? wildBlock(frame.wild) : null,
    ),
    last && result
      ? roundResult(
          result,
          seats,
          place.round ? results[place.round - 1].totals : seats.map(() => 0),
        )
      : null,
  ];
}

/** The record's revealed seeds: per human seat its commitment, client seed and server seed,
 *  the game seed, and what the check of the record in this browser says. */
function seedsView(record, game, verdict) {
  const { fairness } = record;
  return h(
    "section",
    { class: "panel fair-deal", testid: "fair-deal", "aria-labelledby": "fair-h" },
    h("h2", { id: "fair-h" }, "Fair deal: the seeds"),
    fairVerdict(verdict),
    h(
      "ul",
      { class: "fair-seats", testid: "fair-seats" },
      (fairness.seats ?? []).map((entry) =>
        fairSeat(game.seats[entry.seat], entry, { full: true }),
      ),
    ),
    h(
      "p",
      { class: "muted small" },
      "Game seed (revealed) ",
      hexValue(fairness.game_seed, { testid: "fair-game-seed" }, { full: true }),
    ),
  );
}
