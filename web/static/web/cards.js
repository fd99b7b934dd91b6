// Card codes of docs/rules.md §1 ("AS", "TH", "X1"): names, faces, values, the order of a
// hand, and the laid order of a run.

import { interpolate, pgettext } from "./i18n.js";

const RANKS = "A23456789TJQK";
// The names a screen reader says (a card's face stays as printed: "10♥", read left to right).
const RANK_NAMES = {
  A: pgettext("card rank", "ace"),
  2: pgettext("card rank", "two"),
  3: pgettext("card rank", "three"),
  4: pgettext("card rank", "four"),
  5: pgettext("card rank", "five"),
  6: pgettext("card rank", "six"),
  7: pgettext("card rank", "seven"),
  8: pgettext("card rank", "eight"),
  9: pgettext("card rank", "nine"),
  T: pgettext("card rank", "ten"),
  J: pgettext("card rank", "jack"),
  Q: pgettext("card rank", "queen"),
  K: pgettext("card rank", "king"),
};
const SUITS = {
  S: [pgettext("card suit", "spades"), "♠"],
  H: [pgettext("card suit", "hearts"), "♥"],
  D: [pgettext("card suit", "diamonds"), "♦"],
  C: [pgettext("card suit", "clubs"), "♣"],
};
const SUIT_ORDER = "SHDC";

export const isJoker = (code) => code[0] === "X";

/** 1 (ace) to 13 (king); a joker 0. */
export const rankOf = (code) => (isJoker(code) ? 0 : RANKS.indexOf(code[0]) + 1);

/** "ace of spades", "joker". */
export function cardName(code) {
  if (isJoker(code)) return pgettext("card", "joker");
  return interpolate(pgettext("card: rank of suit", "%(rank)s of %(suit)s"), {
    rank: RANK_NAMES[code[0]],
    suit: SUITS[code[1]][0],
  });
}

/** "ace", "seven": a card's rank spelled out. */
export const rankName = (code) => RANK_NAMES[code[0]];

/** What the card shows: rank and suit sign ("10♥"), or "★" for a joker. */
export function cardFace(code) {
  if (isJoker(code)) return { rank: "★", suit: "JK", red: false, joker: true };
  const rank = code[0] === "T" ? "10" : code[0];
  return { rank, suit: SUITS[code[1]][1], red: code[1] === "H" || code[1] === "D" };
}

/** Points of a card (rules §1), under a table's `rules` (§12: `values`, `joker_value`) and
 *  the round's `wild` card, whose rank scores 0 (unless it is a joker). */
export function cardValue(code, rules = {}, wild = null) {
  if (isJoker(code)) return rules.joker_value ?? 0;
  if (wild && !isJoker(wild) && code[0] === wild[0]) return 0;
  const rank = rankOf(code);
  if (rules.values === "faces_high") return rank;
  if (rules.values === "jacks_zero" && rank === 11) return 0;
  return Math.min(rank, 10);
}

export const handTotal = (cards, rules, wild) =>
  cards.reduce((sum, card) => sum + cardValue(card, rules, wild), 0);

/** A hand in reading order: jokers, then by rank, then by suit. */
export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => rankOf(a) - rankOf(b) || SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]),
  );
}

/** The selected cards in the order to lay them (rules §4.1): a run ascending, each joker
 *  standing in a gap or, left over, past the top (below the bottom when the top is a king).
 *  Cards of the round's `wild` rank (§12) are laid as their own rank where that makes a run,
 *  else as jokers. Anything that is not a run goes as selected: the server says what is
 *  wrong with it. */
export function layGroup(cards, wild = null) {
  const wildRank = wild && !isJoker(wild) ? wild[0] : null;
  return (
    layRun(cards, isJoker) ??
    (wildRank ? layRun(cards, (card) => isJoker(card) || card[0] === wildRank) : null) ?? [...cards]
  );
}

/** `cards` laid as a run, the cards `standsIn` says as jokers; null when they make none. */
function layRun(cards, standsIn) {
  const jokers = cards.filter(standsIn);
  const naturals = cards.filter((card) => !standsIn(card));
  const run =
    cards.length >= 3 &&
    naturals.length > 0 &&
    naturals.every((card) => card[1] === naturals[0][1]) &&
    new Set(naturals.map(rankOf)).size === naturals.length;
  if (!run) return null;
  const sorted = [...naturals].sort((a, b) => rankOf(a) - rankOf(b));
  const spare = [...jokers];
  const laid = [sorted[0]];
  for (let i = 1; i < sorted.length; i += 1) {
    for (let gap = rankOf(sorted[i]) - rankOf(sorted[i - 1]) - 1; gap > 0; gap -= 1) {
      if (!spare.length) return null;
      laid.push(spare.shift());
    }
    laid.push(sorted[i]);
  }
  let top = rankOf(sorted[sorted.length - 1]);
  while (spare.length) {
    if (top < 13) {
      laid.push(spare.shift());
      top += 1;
    } else {
      laid.unshift(spare.shift());
    }
  }
  return laid;
}
