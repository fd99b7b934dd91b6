// `/replay/<id>`: a finished game's record, round by round and action by action, with every
// hand shown; each round's result from the game's `round_ended` events. The state is the place
// in the record (`reduce` moves it); `replayView` draws it.

import { cardName } from "../cards.js";
import { h } from "../dom.js";
import { verifyRecord } from "../fair-deal.js";
import { direction, fill, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
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

// The record runs in the page's reading direction: forward is the right arrow key in a
// left-to-right page, the left one in a right-to-left page. (The buttons' ‹ › « » need no
// such care: a right-to-left line shows them mirrored.)
const [BACK_KEY, NEXT_KEY] =
  direction === "rtl" ? ["ArrowRight", "ArrowLeft"] : ["ArrowLeft", "ArrowRight"];

export async function replayPage(root, [gameId], app) {
  app.title(gettext("Replay"));
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
    if (event.key === NEXT_KEY) store.dispatch({ type: "step", by: 1 });
    else if (event.key === BACK_KEY) store.dispatch({ type: "step", by: -1 });
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

/** The frame's action in a sentence, the seat's name in a `<bdi>`. */
function describe(frame, seats) {
  if (frame.seat === null) return frame.note;
  const who = h("bdi", {}, seatName(seats[frame.seat]));
  if (!frame.played) return fill(gettext("%(who)s: %(note)s"), { who, note: frame.note });
  const cpu = frame.by === "cpu";
  const format =
    frame.from === "stock"
      ? cpu
        ? gettext(
            "%(who)s discarded %(cards)s and drew the %(card)s from the stock (played by the CPU).",
          )
        : gettext("%(who)s discarded %(cards)s and drew the %(card)s from the stock.")
      : cpu
        ? gettext("%(who)s discarded %(cards)s and took the %(card)s (played by the CPU).")
        : gettext("%(who)s discarded %(cards)s and took the %(card)s.");
  return fill(format, {
    who,
    cards: frame.played.map(cardName).join(", "),
    card: cardName(frame.drew),
  });
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
    h("h1", {}, gettext("Replay")),
    h(
      "p",
      { class: "muted" },
      game.ranked ? gettext("Ranked game") : gettext("Private game"),
      " · ",
      interpolate(ngettext("%(n)s round", "%(n)s rounds", rounds.length), { n: rounds.length }),
      " · ",
      h("a", { href: `/games/${gameId}` }, gettext("the table")),
    ),
    h(
      "nav",
      { class: "row controls", "aria-label": gettext("Replay controls") },
      h(
        "button",
        {
          type: "button",
          "data-key": "prev-round",
          disabled: place.round === 0,
          onclick: () => dispatch(go(place.round - 1, 0)),
        },
        "« ",
        gettext("Round"),
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
        "‹ ",
        gettext("Back"),
      ),
      h(
        "span",
        { class: "status", testid: "replay-position", "aria-live": "polite" },
        interpolate(gettext("Round %(round)s, action %(action)s of %(actions)s"), {
          round: round.round,
          action: place.frame,
          actions: round.frames.length - 1,
        }),
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
        gettext("Next"),
        " ›",
      ),
      h(
        "button",
        {
          type: "button",
          "data-key": "next-round",
          disabled: place.round === rounds.length - 1,
          onclick: () => dispatch(go(place.round + 1, 0)),
        },
        gettext("Round"),
        " »",
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
            frame.out.includes(seat.seat)
              ? h("span", { class: "badge out" }, pgettext("out of the game", "out"))
              : null,
          ),
          frame.hands[seat.seat].length
            ? cards(frame.hands[seat.seat], {
                "aria-label": interpolate(gettext("%(name)s's hand"), { name: seatName(seat) }),
              })
            : h("span", { class: "muted" }, gettext("no cards")),
        ),
      ),
    ),
    h(
      "section",
      { class: "middle" },
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, gettext("Stock")),
        h(
          "p",
          {},
          interpolate(ngettext("%(n)s card", "%(n)s cards", frame.stock), { n: frame.stock }),
        ),
      ),
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, gettext("Last discard")),
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
    h("h2", { id: "fair-h" }, gettext("Fair deal: the seeds")),
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
      fill(gettext("Game seed (revealed) %(seed)s"), {
        seed: hexValue(fairness.game_seed, { testid: "fair-game-seed" }, { full: true }),
      }),
    ),
  );
}
