"""Every legal action of a seat: for the CPU player and the property tests."""

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations, product

from games.engine.cards import KING, RANK, SUIT
from games.engine.state import STOCK, Action, CallYaniv, GameState, Play

_MIN_RUN = 3
_EVERY_ORDER = 4
"""Sets up to this size come in every order; larger ones (two decks) once per pair of ends."""


def legal_groups(hand: Sequence[str], wild_rank: int = 0) -> list[tuple[str, ...]]:
    """Every group ``hand`` can discard, in every laid order that the rules tell apart.

    Sets come in every order (the order decides the ends); runs in ascending order with each
    joker (and card of the ``wild_rank``, docs/rules.md §12) in every position it can stand in, and
    the jokers swapped where several are used. With two decks a code held twice gives each
    group once.
    """
    groups: list[tuple[str, ...]] = [(card,) for card in dict.fromkeys(hand)]
    jokers = [card for card in hand if not RANK[card] or RANK[card] == wild_rank]
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, dict[int, str]] = {}
    for card in hand:
        rank = RANK[card]
        if rank:
            by_rank.setdefault(rank, []).append(card)
            if rank != wild_rank:
                by_suit.setdefault(SUIT[card], {})[rank] = card
    for same in by_rank.values():
        groups.extend(_sets(same))
    for ranks in by_suit.values():
        groups.extend(_runs(ranks, jokers))
    if len(set(hand)) < len(hand):
        return list(dict.fromkeys(groups))
    return groups


def _sets(same: list[str]) -> Iterator[tuple[str, ...]]:
    for size in range(2, len(same) + 1):
        if size <= _EVERY_ORDER:
            yield from permutations(same, size)
            continue
        # Only the ends tell orders apart: each pair of ends once, the middle as held.
        for chosen in combinations(same, size):
            for first, last in permutations(range(size), 2):
                middle = [card for index, card in enumerate(chosen) if index not in (first, last)]
                yield (chosen[first], *middle, chosen[last])


def _runs(ranks: dict[int, str], jokers: list[str]) -> list[tuple[str, ...]]:
    runs: list[tuple[str, ...]] = []
    spare = len(jokers)
    if len(ranks) + spare < _MIN_RUN:
        return runs
    lowest, highest = min(ranks), max(ranks)
    # A window of ranks low..high must hold a natural card and need no more jokers than held.
    for low in range(max(1, lowest - spare), highest + 1):
        for high in range(max(low + _MIN_RUN - 1, lowest), min(KING, highest + spare) + 1):
            width = high - low + 1
            held = sum(rank in ranks for rank in range(low, high + 1))
            if width - held > spare:
                break
            # Each position holds its natural card (when held) or a joker; None marks a joker.
            options: list[tuple[str | None, ...]] = [
                (ranks[rank], None) if rank in ranks else (None,) for rank in range(low, high + 1)
            ]
            for pattern in product(*options):
                wild = pattern.count(None)
                if wild > spare or wild == width:
                    continue
                for chosen in permutations(jokers, wild):
                    fill = iter(chosen)
                    runs.append(tuple(next(fill) if card is None else card for card in pattern))
    return runs


def legal_draws(state: GameState) -> list[str]:
    """The stock (unless sevens have emptied it and the pile) and what the last group offers."""
    takeable = list(state.rules.draw_from.takeable(state.group))
    return [STOCK, *takeable] if state.stock_count else takeable


def legal_moves(state: GameState, seat: int) -> list[Action]:
    """All actions ``seat`` may take now: Yaniv when allowed, then every group x every draw."""
    if state.finished or seat != state.turn:
        return []
    moves: list[Action] = [CallYaniv(seat)] if state.can_call_yaniv(seat) else []
    draws = legal_draws(state)
    for group in legal_groups(state.hands[seat], state.setup.wild_rank):
        moves.extend(Play(seat, group, draw) for draw in draws)
    return moves
