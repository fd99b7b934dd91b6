// Stepping through a `yaniv-record/1` (docs/api.md, Record): the deal of each round from its
// deck (rules §3), then every action, with every hand known. The record is checked by the
// server; this only plays it back for the eye, under the record's rules (§12: hand size,
// direction, the wild card, the forced draws of sevens, which the record leaves to replay).

import { handTotal } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";

const STOCK_RAN_OUT = gettext(
  "The stock ran out: the discards below the last group became the new stock.",
);

/** Rounds of frames:
 *  `[{round, starter, wild, frames: [{hands, discard, pile, stock, seat, note}]}]`.
 *  `outBefore[r]` lists the seats out before round r (0-based), which the deal skips. */
export function recordRounds(record, outBefore = []) {
  const players = record.players;
  const rules = record.rules ?? {};
  const handSize = rules.hand_size ?? 5;
  const step = rules.direction === "counterclockwise" ? players - 1 : 1;
  return record.rounds.map((round, r) => {
    const out = new Set(outBefore[r] || []);
    // The active seats in the order of play from the starter.
    const active = [];
    for (let i = 0, seat = round.starter; i < players; i += 1, seat = (seat + step) % players) {
      if (!out.has(seat)) active.push(seat);
    }
    const hands = Array.from({ length: players }, () => []);
    let next = 0;
    for (let n = 0; n < handSize; n += 1)
      for (const seat of active) hands[seat].push(round.deck[next++]);
    let discard = [round.deck[next++]];
    // The wild card lies beside the stock, out of play, for the whole round.
    const wild = rules.wild_rank ? round.deck[next++] : null;
    let stock = round.deck.slice(next);
    let pile = [];
    const frames = [];
    const snap = (seat, note, extra = {}) =>
      frames.push({
        hands: hands.map((hand) => [...hand]),
        discard: [...discard],
        pile: pile.length,
        stock: stock.length,
        seat,
        note,
        out: [...out],
        wild,
        ...extra,
      });
    const actions = round.actions;
    /** A reshuffle follows the draw that emptied the stock (a play's or a forced one). */
    const reshuffleIfEmpty = (at) => {
      if (stock.length || !actions[at + 1]?.reshuffle) return at;
      stock = [...actions[at + 1].reshuffle];
      pile = [];
      snap(null, STOCK_RAN_OUT);
      return at + 1;
    };
    snap(round.starter, gettext("Dealt: the starter plays first."));
    for (let at = 0; at < actions.length; at += 1) {
      const action = actions[at];
      if (action.reshuffle) {
        stock = [...action.reshuffle];
        pile = [];
        snap(null, STOCK_RAN_OUT);
      } else if (action.yaniv) {
        snap(
          action.seat,
          interpolate(gettext("Yaniv! called with %(total)s."), {
            total: handTotal(hands[action.seat], rules, wild),
          }),
          {
            yaniv: true,
          },
        );
      } else {
        const hand = hands[action.seat];
        for (const code of action.discard) hand.splice(hand.indexOf(code), 1);
        const previous = discard;
        discard = [...action.discard];
        let drew;
        if (action.draw === "stock") {
          drew = stock.shift();
        } else {
          drew = action.draw;
          previous.splice(previous.indexOf(drew), 1);
        }
        hand.push(drew);
        pile.push(...previous);
        snap(
          action.seat,
          action.draw === "stock" ? gettext("drew from the stock") : gettext("took a face-up card"),
          {
            played: action.discard,
            drew,
            from: action.draw === "stock" ? "stock" : "discard",
            by: action.by,
          },
        );
        at = reshuffleIfEmpty(at);
        at = forcedDraws(action, at);
      }
    }

    /** Sevens (rules §12): each seven makes every other active player draw once, in order
     *  of play from the discarder's next; a final turn's frozen caller is skipped. */
    function forcedDraws(action, at) {
      const sevens = rules.sevens ? action.discard.filter((code) => code[0] === "7").length : 0;
      const frozen = actions.slice(0, at).find((a) => a.yaniv)?.seat;
      const from = active.indexOf(action.seat);
      const others = [...active.slice(from + 1), ...active.slice(0, from)].filter(
        (seat) => seat !== frozen,
      );
      for (let k = 0; k < sevens; k += 1) {
        for (const seat of others) {
          if (!stock.length) return at; // stock and pile both empty: the rest are skipped
          hands[seat].push(stock.shift());
          snap(seat, gettext("drew a card: a seven was played"));
          at = reshuffleIfEmpty(at);
        }
      }
      return at;
    }
    return { round: r + 1, starter: round.starter, wild, frames };
  });
}
