// Stepping through a `yaniv-record/1` (docs/api.md, Record): the deal of each round from its
// deck (rules §3), then every action, with every hand known. The record is checked by the
// server; this only plays it back for the eye.

import { handTotal } from "./cards.js";

/** Rounds of frames: `[{round, starter, frames: [{hands, discard, pile, stock, seat, note}]}]`.
 *  `outBefore[r]` lists the seats out before round r (0-based), which the deal skips. */
export function recordRounds(record, outBefore = []) {
  const players = record.players;
  const handSize = record.rules?.hand_size ?? 5;
  return record.rounds.map((round, r) => {
    const out = new Set(outBefore[r] || []);
    const active = [];
    for (let i = 0; i < players; i += 1) {
      const seat = (round.starter + i) % players;
      if (!out.has(seat)) active.push(seat);
    }
    const hands = Array.from({ length: players }, () => []);
    let next = 0;
    for (let n = 0; n < handSize; n += 1) for (const seat of active) hands[seat].push(round.deck[next++]);
    let discard = [round.deck[next++]];
    let stock = round.deck.slice(next);
    let pile = [];
    const frames = [];
    const snap = (seat, note, extra = {}) =>
      frames.push({ hands: hands.map((hand) => [...hand]), discard: [...discard], pile: pile.length, stock: stock.length, seat, note, out: [...out], ...extra });
    snap(round.starter, "Dealt: the starter plays first.");
    for (const action of round.actions) {
      if (action.reshuffle) {
        stock = [...action.reshuffle];
        pile = [];
        snap(null, "The stock ran out: the discards below the last group became the new stock.");
      } else if (action.yaniv) {
        snap(action.seat, `Yaniv! called with ${handTotal(hands[action.seat])}.`, { yaniv: true });
      } else {
        const hand = hands[action.seat];
        for (const code of action.discard) hand.splice(hand.indexOf(code), 1);
        const previous = discard;
        discard = [...action.discard];
        let drew;
        if (action.draw === "stock") {
          drew = stock.shift();
          hand.push(drew);
        } else {
          drew = action.draw;
          previous.splice(previous.indexOf(drew), 1);
          hand.push(drew);
        }
        pile.push(...previous);
        snap(action.seat, action.draw === "stock" ? "drew from the stock" : "took a face-up card", { played: action.discard, drew, from: action.draw === "stock" ? "stock" : "discard", by: action.by });
      }
    }
    return { round: r + 1, starter: round.starter, frames };
  });
}
