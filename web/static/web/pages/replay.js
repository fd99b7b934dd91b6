// `/replay/<id>`: a finished game's record, round by round and action by action, with every
// hand shown; each round's result from the game's `round_ended` events.

import { allPages, api } from "../api.js";
import { cardName } from "../cards.js";
import { h, replace } from "../dom.js";
import { recordRounds } from "../record.js";
import { cards, cardsBelow, roundResult, seatName, wildBlock } from "../table.js";

export async function replayPage(root, [gameId], app) {
  app.title("Replay");
  const [record, game, events] = await Promise.all([
    api("GET", `games/${gameId}/record/`),
    api("GET", `games/${gameId}/`),
    allPages(`games/${gameId}/events/?limit=500`, 100000),
  ]);
  const results = events.filter((event) => event.type === "round_ended");
  const outBefore = [[]];
  for (const result of results) outBefore.push([...outBefore[outBefore.length - 1], ...result.eliminated]);
  const rounds = recordRounds(record, outBefore);
  const seats = game.seats;
  const place = { round: 0, frame: 0 };

  function go(round, frame) {
    place.round = Math.max(0, Math.min(rounds.length - 1, round));
    const frames = rounds[place.round].frames;
    place.frame = frame === "end" ? frames.length - 1 : Math.max(0, Math.min(frames.length - 1, frame));
    draw();
  }
  function step(delta) {
    const frames = rounds[place.round].frames;
    const frame = place.frame + delta;
    if (frame < 0 && place.round > 0) go(place.round - 1, "end");
    else if (frame >= frames.length && place.round < rounds.length - 1) go(place.round + 1, 0);
    else go(place.round, frame);
  }

  function describe(frame) {
    if (frame.seat === null) return frame.note;
    const who = seatName(seats[frame.seat]);
    if (!frame.played) return `${who}: ${frame.note}`;
    return `${who} discarded ${frame.played.map(cardName).join(", ")} and ${frame.from === "stock" ? `drew the ${cardName(frame.drew)} from the stock` : `took the ${cardName(frame.drew)}`}${frame.by === "cpu" ? " (played by the CPU)" : ""}.`;
  }

  function draw() {
    const round = rounds[place.round];
    const frame = round.frames[place.frame];
    const last = place.frame === round.frames.length - 1;
    const result = results[place.round];
    replace(
      root,
      h("h1", {}, "Replay"),
      h("p", { class: "muted" }, `${game.ranked ? "Ranked" : "Private"} game · ${rounds.length} rounds · `, h("a", { href: `/games/${gameId}` }, "the table")),
      h(
        "nav",
        { class: "row controls", "aria-label": "Replay controls" },
        h("button", { type: "button", "data-key": "prev-round", disabled: place.round === 0, onclick: () => go(place.round - 1, 0) }, "« Round"),
        h("button", { type: "button", "data-key": "prev", testid: "replay-prev", disabled: place.round === 0 && place.frame === 0, onclick: () => step(-1) }, "‹ Back"),
        h("span", { class: "status", testid: "replay-position", "aria-live": "polite" }, `Round ${round.round}, action ${place.frame} of ${round.frames.length - 1}`),
        h("button", { type: "button", "data-key": "next", testid: "replay-next", disabled: place.round === rounds.length - 1 && last, onclick: () => step(1) }, "Next ›"),
        h("button", { type: "button", "data-key": "next-round", disabled: place.round === rounds.length - 1, onclick: () => go(place.round + 1, 0) }, "Round »"),
      ),
      h("p", { class: "note", testid: "replay-action" }, describe(frame)),
      h(
        "ul",
        { class: "seats" },
        seats.map((seat) =>
          h(
            "li",
            { class: `seat${frame.seat === seat.seat ? " turn" : ""}`, testid: `seat-${seat.seat}` },
            h("div", { class: "seat-name" }, seatName(seat), frame.out.includes(seat.seat) ? h("span", { class: "badge out" }, "out") : null),
            frame.hands[seat.seat].length ? cards(frame.hands[seat.seat], { "aria-label": `${seatName(seat)}'s hand` }) : h("span", { class: "muted" }, "no cards"),
          ),
        ),
      ),
      h(
        "section",
        { class: "middle" },
        h("div", { class: "pile-block" }, h("h2", { class: "label" }, "Stock"), h("p", {}, `${frame.stock} cards`)),
        h("div", { class: "pile-block" }, h("h2", { class: "label" }, "Last discard"), cards(frame.discard, { testid: "discard" }), frame.pile ? h("p", { class: "muted small" }, cardsBelow(frame.pile)) : null),
        frame.wild ? wildBlock(frame.wild) : null,
      ),
      last && result ? roundResult(result, seats, place.round ? results[place.round - 1].totals : seats.map(() => 0)) : null,
    );
  }

  root.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
  });
  draw();
  return null;
}
