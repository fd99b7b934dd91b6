// Card codes of docs/rules.md §1 ("AS", "TH", "X1"): names, faces, values, the order of a
// hand, and the laid order of a run.

const RANKS = "A23456789TJQK";
const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SUITS = { S: ["spades", "♠"], H: ["hearts", "♥"], D: ["diamonds", "♦"], C: ["clubs", "♣"] };
const SUIT_ORDER = "SHDC";

export const isJoker = (code) => code[0] === "X";

/** 1 (ace) to 13 (king); a joker 0. */
export const rankOf = (code) => (isJoker(code) ? 0 : RANKS.indexOf(code[0]) + 1);

/** "ace of spades", "joker". */
export function cardName(code) {
  if (isJoker(code)) return "joker";
  return `${RANK_NAMES[code[0]]} of ${SUITS[code[1]][0]}`;
}

/** What the card shows: rank and suit sign ("10♥"), or "★" for a joker. */
export function cardFace(code) {
  if (isJoker(code)) return { rank: "★", suit: "JK", red: false, joker: true };
  const rank = code[0] === "T" ? "10" : code[0];
  return { rank, suit: SUITS[code[1]][1], red: code[1] === "H" || code[1] === "D" };
}

/** Points of a card under the standard values (rules §1): ace 1, faces 10, joker 0. */
export function cardValue(code) {
  const rank = rankOf(code);
  return rank > 10 ? 10 : rank;
}

export const handTotal = (cards) => cards.reduce((sum, card) => sum + cardValue(card), 0);

/** A hand in reading order: jokers, then by rank, then by suit. */
export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => rankOf(a) - rankOf(b) || SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]),
  );
}

/** The selected cards in the order to lay them (rules §4.1): a run ascending, each joker
 *  standing in a gap or, left over, past the top (below the bottom when the top is a king).
 *  Anything that is not a run goes as selected: the server says what is wrong with it. */
export function layGroup(cards) {
  const jokers = cards.filter(isJoker);
  const naturals = cards.filter((card) => !isJoker(card));
  const run =
    cards.length >= 3 &&
    naturals.length > 0 &&
    naturals.every((card) => card[1] === naturals[0][1]) &&
    new Set(naturals.map(rankOf)).size === naturals.length;
  if (!run) return [...cards];
  const sorted = [...naturals].sort((a, b) => rankOf(a) - rankOf(b));
  const spare = [...jokers];
  const laid = [sorted[0]];
  for (let i = 1; i < sorted.length; i += 1) {
    for (let gap = rankOf(sorted[i]) - rankOf(sorted[i - 1]) - 1; gap > 0; gap -= 1) {
      if (!spare.length) return [...cards];
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
