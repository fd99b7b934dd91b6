"""The ``hard`` level (docs/rules.md §10): legal, sensible Yaniv from one seat's view alone.

``choose`` decides from exactly what ``view(state, seat)`` shows that seat, so it cannot use
hidden cards even by accident. ``expert`` builds on it: it uses its ``View``, its plays and its
``must_call``.

How it plays, in short:

* **Yaniv.** It estimates the chance of an Assaf from each opponent's hand count, the cards
  they are known to hold (taken face up) and the values still unseen, skewed towards low
  cards the longer the round has gone on (players keep their low cards). It calls when the
  expected cost of an Assaf is below what waiting is expected to cost, weighing the stakes:
  the Assaf penalty, whether an Assaf would knock it out, whether waiting could (someone
  else's call would), exact-score drops, and opponents whom ending the round would knock out.
* **Discard and draw.** Every distinct group is tried with every draw, and the hand it leaves
  is scored by what would remain after that hand's best discard next turn, so pairs, sets and
  runs kept for later count for what they will shed. A stock draw is scored as the average
  over the unseen cards, each tried against the hand, so a pair or a near-run kept counts the
  chance that the draw grows it, and a card counted out (seen in the pile) counts for nothing.
  A discard end that would help the next player (a low card, or one that matches cards they
  visibly collect) costs a little.
"""

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import accumulate
from typing import Any

from games.engine.cards import JOKERS, KING, RANK, RANKS, SUIT, SUITS, VALUE
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.rules import Rules, Values
from games.engine.state import STOCK, Action, CallYaniv, Play
from games.engine.view import ViewData

# A hand is scored (lower is better) by what would be left after its best discard next turn,
# less _CALLABLE_BONUS when its total allows a call. In simulated games, weighing in the total
# itself (what is scored if someone calls first) played worse, and a cost per card held
# made no difference.
_CALLABLE_BONUS = 2.0
# Cost per point of help a discard end gives the next player.
_GIFT_WEIGHT = 0.25
# Per-card skew of an opponent's unknown cards towards low values, per turn they have played
# (fitted on simulated games: players keep their low cards).
_SKEW_PER_TURN = 0.04
_SKEW_MAX = 0.25
# What waiting instead of calling is expected to cost, in points: the CPU calls when the
# expected cost of an Assaf is below it. The longer the round, the likelier an opponent calls
# first, so waiting costs more.
_WAIT_COST = 7.0
_WAIT_COST_PER_TURN = 0.5
# What being knocked out by an Assaf costs on top of its points.
_KNOCK_OUT_COST = 100.0
# One call in this many breaks a stalemate of certain Assafs (see should_call).
_STALEMATE_ODDS = 20
# What one forced draw (docs/rules.md §12, sevens) costs an opponent, as a share of the mean unseen
# card: a seven thrown is worth this much less to keep than its value says.
_SEVEN_WEIGHT = 0.5
_EPSILON = 1e-9


def choose(seen: ViewData, rng: Rng) -> Action:
    """The action from ``seen``, the ``view`` of the seat to act (checked by the caller).

    ``rng`` breaks ties between equally good moves and, rarely, a stalemate (``should_call``);
    a seeded rng gives the same choice every time.
    """
    view = View(seen)
    if seen["you"]["can_call_yaniv"] and should_call(view, rng):
        return CallYaniv(view.seat)
    return best_play(view, rng)


class View:
    """The CPU's view of the game from its seat: what ``view(state, seat)`` shows it (the
    ``seen`` data), digested once per decision."""

    def __init__(self, seen: ViewData) -> None:
        you = seen["you"]
        rules: Rules = seen["rules"]
        self.seat: int = you["seat"]
        self.hand: tuple[str, ...] = tuple(you["hand"])
        self.total: int = you["hand_total"]
        self.rules = rules
        self.seats: list[dict[str, Any]] = seen["seats"]
        self.takeable: tuple[str, ...] = tuple(seen["discard"]["takeable"])
        self.stock_count: int = seen["stock_count"]
        self.wild: str | None = seen["wild"]
        """The round's wild card (RULES.md §12), out of play; its rank is worth 0."""
        self.wild_rank = RANK[self.wild] if self.wild else 0
        self.values: Mapping[str, int] = rules.card_values(self.wild)
        """What each card is worth this round (the rules' values, the wild rank 0)."""
        self.caller: int | None = seen["caller"]
        """Under final turns, the seat that called: this turn is our last of the round."""
        active = [entry["seat"] for entry in self.seats if not entry["eliminated"]]
        self.opponents = [seat for seat in active if seat != self.seat]
        # The next active seat in the direction of play is the only one who may take from our
        # discard.
        order = rules.direction.order(self.seat, len(self.seats))
        self.next_seat: int = next(seat for seat in order[1:] + order[:1] if seat in active)

        face_up = [*seen["pile"], *seen["discard"]["cards"]]
        # Counted: with two decks a code seen once may still be unseen once.
        seen_cards = Counter(self.hand) + Counter(face_up)
        if self.wild:
            seen_cards[self.wild] += 1
        for seat in self.opponents:
            seen_cards.update(self.seats[seat]["known"])
        deck = rules.deck
        left = Counter(deck) - seen_cards
        self.unseen: list[str] = []
        for card in deck:
            if left[card]:
                left[card] -= 1
                self.unseen.append(card)
        self.unseen_set = set(self.unseen)
        # What the spy queen showed us (docs/rules.md §12): more of each hand known to us alone.
        spied: Mapping[str, list[str]] = you.get("spied") or {}
        self.located: dict[int, list[str]] = {}
        for seat in self.opponents:
            known = Counter(self.seats[seat]["known"])
            extra = Counter(spied.get(str(seat), ())) - known
            self.located[seat] = [*known.elements(), *extra.elements()]
        values = self.values
        self.histogram = [0] * (max(values.values()) + 1)
        for card in self.unseen:
            self.histogram[values[card]] += 1
        # at_most[v]: how many unseen cards are worth v or less.
        self.at_most = list(accumulate(self.histogram))
        self.call_limit = rules.call_limit
        count = len(self.unseen)
        self.mean_unseen = sum(values[card] for card in self.unseen) / count if count else 0.0

        # Turns each player has had this round, roughly: every draw from the stock was a turn
        # and so was every card still held after taking it face up. A reshuffle restarts the
        # count, so a very long round reads as a younger one.
        dealt = len(active) * rules.hand_size + 1 + (self.wild is not None)
        drawn = len(deck) - dealt - self.stock_count
        taken = sum(len(self.seats[seat]["known"]) for seat in active)
        self.turns_each: float = max(0, drawn + taken) / len(active)

    def shed(self, hand: Iterable[str]) -> int:
        """``best_shed`` of ``hand`` under this round's values and wild rank."""
        return best_shed(hand, self.values, self.wild_rank, self.rules.values)

    def joins(self, rest: Sequence[str], card: str) -> bool:
        """``joins`` under this round's wild rank."""
        return joins(rest, card, self.wild_rank)


# --- calling Yaniv ----------------------------------------------------------------------


def must_call(view: View) -> bool:
    """Whether calling is sure to be right: an exact-score drop turns even an Assaf into a
    gain, or anyone else's call would take us over the limit."""
    me: int = view.seats[view.seat]["score"]
    rules = view.rules
    # Under `first_over_100` going over the limit ends the game rather than knocking one
    # player out; for the CPU it costs the same.
    after_assaf = rules.exact_scores.drop(me + view.total + _penalty(view))
    return after_assaf <= me or rules.ending.over(me + view.total)


def _penalty(view: View) -> int:
    """What an Assaf would cost on top of our total: the rules' penalty, or under
    ``twice_highest`` twice the highest other hand as we expect it."""
    expected = [
        sum(view.values[card] for card in view.located[seat])
        + (view.seats[seat]["hand_count"] - len(view.located[seat])) * view.mean_unseen
        for seat in view.opponents
    ]
    return view.rules.assaf_penalty_rule.penalty(view.rules.assaf_penalty, map(round, expected))


def should_call(view: View, rng: Rng) -> bool:
    if must_call(view):
        return True
    total = view.total
    rules = view.rules
    me: int = view.seats[view.seat]["score"]
    ending = rules.ending
    after_assaf = rules.exact_scores.drop(me + total + _penalty(view))
    loss = float(after_assaf - me)
    if ending.over(after_assaf):
        loss += _KNOCK_OUT_COST
    # Ending the round now also scores every other hand as it stands, Assaf or not: an
    # opponent whose hand would take them over the limit is out, where waiting lets them shed.
    card = _opponent_card(view)
    knock_outs = sum(
        1.0 - _chance_at_most(view, card, seat, ending.room(view.seats[seat]["score"]))
        for seat in view.opponents
    )
    wait = _WAIT_COST + _WAIT_COST_PER_TURN * view.turns_each
    wait += _KNOCK_OUT_COST * knock_outs / len(view.opponents)
    risk = 1.0 - math.prod(
        1.0 - _chance_at_most(view, card, seat, total + _final_gain(view, card, seat))
        for seat in view.opponents
    )
    if risk * loss <= wait:
        return True
    # When both our hand and an opponent's, no higher, are all known (taken face up), the
    # Assaf is certain, and that can last for ever: with one card each, whoever holds a joker
    # must throw it and the next player takes it, so no joker holder can ever call. Now and
    # then the CPU calls into the Assaf anyway, which ends the round.
    return _stalemate(view, total) and rng.randrange(_STALEMATE_ODDS) == 0


def _final_gain(view: View, card: Sequence[float], seat: int) -> int:
    """Under final turns, how much ``seat`` is expected to lower its hand in the extra turn
    our call gives it: it throws its highest card and draws one, so the expected highest of
    its unknown cards less a mean card (0 without final turns, or with one card)."""
    unknown = view.seats[seat]["hand_count"] - len(view.located[seat])
    if not view.rules.final_turns or unknown < 2:
        return 0
    below = 0.0
    highest = 0.0
    for value, chance in enumerate(card):
        at_most = below + chance
        highest += value * (at_most**unknown - below**unknown)
        below = at_most
    mean = sum(value * chance for value, chance in enumerate(card))
    return max(0, round(highest - mean))


def _stalemate(view: View, total: int) -> bool:
    if len(view.seats[view.seat]["known"]) < len(view.hand):
        return False
    for seat in view.opponents:
        entry = view.seats[seat]
        known = view.located[seat]
        if len(known) >= entry["hand_count"] and sum(view.values[c] for c in known) <= total:
            return True
    return False


def _opponent_card(view: View) -> list[float]:
    """The chance that an opponent's unknown card is worth 0, 1, ... 10: the unseen cards,
    skewed towards low ones the longer the round has gone on (players keep low cards)."""
    skew_ = skew(view)
    weights = [count * math.exp(-skew_ * value) for value, count in enumerate(view.histogram)]
    norm = sum(weights)
    return [weight / norm for weight in weights] if norm else weights


def skew(view: View) -> float:
    """How much an opponent's unknown card leans towards low values: a card worth ``v`` is
    ``exp(-skew * v)`` times as likely as its share of the unseen cards."""
    return min(_SKEW_MAX, _SKEW_PER_TURN * view.turns_each)


def _chance_at_most(view: View, card: Sequence[float], seat: int, total: int) -> float:
    """The chance that the hand of ``seat`` is worth ``total`` or less, the cards of it we do
    not know (face up or spied) drawn from ``card``."""
    known = view.located[seat]
    room = total - sum(view.values[code] for code in known)
    if room < 0:
        return 0.0
    return _at_most(card, max(0, view.seats[seat]["hand_count"] - len(known)), room)


def _at_most(card: Sequence[float], cards: int, room: int) -> float:
    """P(the sum of ``cards`` independent values drawn from ``card`` is <= ``room``)."""
    top = len(card) - 1
    if room >= top * cards:
        return 1.0
    # Sums above ``room`` can never come back under it, so the list stops there.
    sums = [1.0] + [0.0] * room
    for _ in range(cards):
        sums = [
            sum(sums[low] * card[high - low] for low in range(max(0, high - top), high + 1))
            for high in range(room + 1)
        ]
    return sum(sums)


# --- discarding and drawing -------------------------------------------------------------


def best_play(view: View, rng: Rng) -> Play:
    scored = _scored_plays(view)
    best_score = min(score for score, _ in scored)
    best = [play for score, play in scored if score <= best_score + _EPSILON]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _scored_plays(view: View) -> list[tuple[float, Play]]:
    hand = view.hand
    values = view.values
    layouts: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for group in legal_groups(hand, view.wild_rank):
        layouts.setdefault(tuple(sorted(group)), []).append(group)
    takeable = list(dict.fromkeys(view.takeable))
    stock_memo: dict[int, float] = {}
    scored: list[tuple[float, Play]] = []
    last_turn = view.caller is not None
    for cards, laid in layouts.items():
        rest = _without(hand, cards)
        layout, gift = min(((group, _gift(view, group)) for group in laid), key=lambda x: x[1])
        top = max(values[card] for card in cards)
        # Taking a card no lower than the highest one thrown, to no group, makes no progress;
        # two CPUs could hand such a card back and forth for ever, so it is not done.
        draws = [card for card in takeable if values[card] < top or view.joins(rest, card)]
        if view.stock_count:
            draws.append(STOCK)
        draws = draws or takeable
        # Each seven thrown makes every other player draw (docs/rules.md §12): it hurts them all.
        sevens = _SEVEN_WEIGHT * view.mean_unseen * view.rules.forced_draws(cards)
        for draw in draws:
            if last_turn:
                # The round is scored after this turn: only the total left counts.
                drawn = view.mean_unseen if draw == STOCK else values[draw]
                score = sum(values[card] for card in rest) + drawn
            elif draw == STOCK:
                score = _stock_score(view, rest, stock_memo)
            else:
                score = _score(view, (*rest, draw))
            scored.append((score + _GIFT_WEIGHT * gift - sevens, Play(view.seat, layout, draw)))
    return scored


def _without(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    """``hand`` less one copy of each card of ``cards`` (codes repeat with two decks)."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _score(view: View, hand: Sequence[str]) -> float:
    """How good ``hand`` is to hold at our next turn; lower is better (see _CALLABLE_BONUS)."""
    total = sum(view.values[card] for card in hand)
    return total - view.shed(hand) - (_CALLABLE_BONUS if total <= view.call_limit else 0.0)


def _stock_score(view: View, rest: tuple[str, ...], memo: dict[int, float]) -> float:
    """The mean ``_score`` of ``rest`` plus one unseen card.

    A card that cannot join a group with ``rest`` leaves the best shed at the larger of
    ``rest``'s own and the card's value, which sums per value; only the few cards that can
    join one (same rank, same suit close by, jokers) are tried one by one.
    """
    unseen = len(view.unseen)
    if not unseen:
        return _score(view, rest)
    values = view.values
    shed = view.shed(rest)
    if shed not in memo:
        memo[shed] = sum(count * max(shed, value) for value, count in enumerate(view.histogram))
    total_shed = memo[shed]
    for card, joined in _joiners(view, rest).items():
        value = values[card]
        total_shed += (max(joined, shed, value) - max(shed, value)) * view.unseen.count(card)
    total = sum(values[card] for card in rest)
    room = view.call_limit - total
    callable_ = view.at_most[min(room, len(view.at_most) - 1)] if room >= 0 else 0
    return total + view.mean_unseen - total_shed / unseen - _CALLABLE_BONUS * callable_ / unseen


def joins(rest: Sequence[str], card: str, wild_rank: int = 0) -> bool:
    """Whether ``card`` forms a set, or a run with another natural, with cards of ``rest``
    (cards of ``wild_rank`` count as jokers in runs, docs/rules.md §12)."""
    rank = RANK[card]
    if not rank or rank == wild_rank:
        return False
    suit = SUIT[card]
    jokers = 0
    ranks: list[int] = []
    for held in rest:
        held_rank = RANK[held]
        if held_rank == rank:
            return True
        if not held_rank or held_rank == wild_rank:
            jokers += 1
        elif SUIT[held] == suit:
            ranks.append(held_rank)
    for other in ranks:
        span = abs(other - rank) + 1
        between = sum(1 for held_rank in ranks if min(other, rank) < held_rank < max(other, rank))
        missing = span - 2 - between
        if missing <= jokers and span + jokers - missing >= 3:
            return True
    return False


def _joiners(view: View, rest: Sequence[str]) -> dict[str, int]:
    """Every unseen card that might form a set or run with cards of ``rest``, with the best set
    or run it could then make; that may be no better than the card alone, or than ``rest``'s
    own best group, which the caller weighs in."""
    unseen = view.unseen_set
    values = view.values
    wild_rank = view.wild_rank
    jokers = sum(1 for card in rest if not RANK[card] or RANK[card] == wild_rank)
    rank_values: dict[int, int] = {}
    suits: dict[str, list[int]] = {}
    for card in rest:
        rank = RANK[card]
        if rank:
            rank_values[rank] = rank_values.get(rank, 0) + values[card]
            if rank != wild_rank:
                suits.setdefault(SUIT[card], []).append(rank)
    joined: dict[str, int] = {}
    wild = [code + suit for code in RANKS[wild_rank - 1 : wild_rank] for suit in SUITS]
    for joker in (*JOKERS, *wild):
        if joker in unseen:
            joined[joker] = view.shed((*rest, joker))
    for rank, value in rank_values.items():
        code = RANKS[rank - 1]
        for suit in SUITS:
            card = code + suit
            if card in unseen:
                joined[card] = max(joined.get(card, 0), value + values[card])
    reach = 1 + jokers
    points = view.rules.values
    for suit, ranks in suits.items():
        if len(ranks) + jokers < 2:
            continue
        # A run holding the new card and a natural of ``rest`` bridges the gap between them
        # with jokers, so only cards within ``reach`` of a natural can do better than alone.
        near = {
            rank + step
            for rank in ranks
            for step in range(-reach, reach + 1)
            if 1 <= rank + step <= KING
        }
        for rank in near.difference(ranks):
            card = RANKS[rank - 1] + suit
            if card in unseen and rank != wild_rank:
                run = _best_run(tuple(sorted([*ranks, rank])), jokers, points)
                joined[card] = max(joined.get(card, 0), run)
    return joined


def best_shed(
    hand: Iterable[str],
    values: Mapping[str, int] = VALUE,
    wild_rank: int = 0,
    points: Values = Values.STANDARD,
) -> int:
    """The highest value of any one group in ``hand`` (a single, a set or a run), cards worth
    ``values`` (the rules' ``points`` for the naturals of a run), cards of ``wild_rank``
    joker-like in runs."""
    best = 0
    jokers = 0
    rank_values: dict[int, int] = {}
    suits: dict[str, list[int]] = {}
    for card in hand:
        rank = RANK[card]
        if not rank:
            jokers += 1
            best = max(best, values[card])
            continue
        rank_values[rank] = rank_values.get(rank, 0) + values[card]
        if rank == wild_rank:
            jokers += 1
        else:
            suits.setdefault(SUIT[card], []).append(rank)
    if rank_values:
        best = max(best, *rank_values.values())
    for ranks in suits.values():
        if len(ranks) + jokers >= 3:
            best = max(best, _best_run(tuple(sorted(ranks)), jokers, points))
    return best


@cache
def _best_run(ranks: tuple[int, ...], jokers: int, points: Values = Values.STANDARD) -> int:
    """The highest value of a run from these ascending ranks of one suit and ``jokers`` jokers;
    0 if there is none. Cached: there are only a few thousand such hands."""
    best = 0
    for low in range(len(ranks)):
        value = 0
        for high in range(low, len(ranks)):
            value += points.points(ranks[high])
            span = ranks[high] - ranks[low] + 1
            gaps = span - (high - low + 1)
            if gaps > jokers:
                break
            # Jokers left over extend the run at either end; A..K always leaves room.
            if span + jokers - gaps >= 3:
                best = max(best, value)
    return best


def _gift(view: View, group: Sequence[str]) -> float:
    """How much the ends of ``group``, laid this way, would help the next player."""
    known = view.seats[view.next_seat]["known"]
    ends = set(view.rules.draw_from.takeable(group))
    help_ = 0.0
    for card in ends:
        value = view.values[card]
        gain = max(0.0, view.mean_unseen - value)
        rank, suit = RANK[card], SUIT[card]
        for held in known:
            if not RANK[held] or not rank:
                continue
            if RANK[held] == rank or (SUIT[held] == suit and abs(RANK[held] - rank) <= 2):
                # It would leave with a group they are collecting: they shed its value and
                # spare themselves a stock card.
                gain = max(gain, value, view.mean_unseen)
        help_ = max(help_, gain)
    return help_
