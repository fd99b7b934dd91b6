"""Builders for engine tests: decks that deal chosen hands, and a scripted rng."""

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.cards import hand_total
from games.engine.moves import legal_moves
from games.engine.rules import Jokers, Rules
from games.engine.state import Action, CallYaniv, EngineEvent, GameState, Play, apply, start_game


class Scripted:
    """An ``Rng`` that hands out the given orders, one per shuffle, then leaves lists as they
    are; ``randrange`` answers ``starter``."""

    def __init__(self, *orders: Sequence[str], starter: int = 0) -> None:
        self.orders = [list(order) for order in orders]
        self.starter = starter
        self.shuffled: list[list[str]] = []

    def randrange(self, stop: int, /) -> int:
        assert 0 <= self.starter < stop
        return self.starter

    def shuffle(self, x: list[Any], /) -> None:
        self.shuffled.append(list(x))
        if self.orders:
            order = self.orders.pop(0)
            assert sorted(order) == sorted(x), "scripted order is not a permutation"
            x[:] = order


def deck_for(
    hands: Mapping[int, Sequence[str]],
    starter: int,
    face_up: str,
    stock: Sequence[str] = (),
    jokers: Jokers = 2,
    players: int | None = None,
) -> list[str]:
    """A deck that deals ``hands`` (every active seat, five cards each) from ``starter``,
    turns up ``face_up``, and puts ``stock`` on top of the stock, then the rest in order."""
    return deal_deck(Rules(jokers=jokers), hands, starter, face_up, stock, players=players)


def deal_deck(
    rules: Rules,
    hands: Mapping[int, Sequence[str]],
    starter: int,
    face_up: str,
    stock: Sequence[str] = (),
    *,
    wild: str | None = None,
    players: int | None = None,
) -> list[str]:
    """A deck of ``rules`` that deals ``hands`` (every active seat, ``hand_size`` cards each,
    in the direction of play from ``starter``), turns up ``face_up`` (and the ``wild`` card
    under ``wild_rank``), puts ``stock`` on top of the stock, then the rest in deck order."""
    players = players or max(hands) + 1
    seats = [seat for seat in rules.direction.order(starter, players) if seat in hands]
    deck = [hands[seat][index] for index in range(rules.hand_size) for seat in seats]
    deck += [face_up, *([wild] if wild else []), *stock]
    rest = Counter(rules.deck)
    rest.subtract(deck)
    assert min(rest.values()) >= 0, "a card is used more often than the deck holds it"
    for card in rules.deck:
        if rest[card]:
            rest[card] -= 1
            deck.append(card)
    return deck


def start(
    hands: Mapping[int, Sequence[str]],
    *,
    starter: int = 0,
    face_up: str = "KC",
    stock: Sequence[str] = (),
    rules: Rules | None = None,
    players: int | None = None,
    later: Sequence[Sequence[str]] = (),
) -> tuple[GameState, list[EngineEvent], Scripted]:
    """A game whose first round deals ``hands``; ``later`` scripts the following shuffles."""
    rules = rules or Rules()
    deck = deck_for(hands, starter, face_up, stock, rules.jokers)
    rng = Scripted(deck, *later, starter=starter)
    state, events = start_game(players or len(hands), rules, rng)
    return state, events, rng


def with_totals(state: GameState, totals: Sequence[int]) -> GameState:
    """``state`` with other running totals: to test scoring near the limits."""
    return state.replace(setup=state.setup._replace(totals=tuple(totals)))


def random_game(
    seed: int,
    players: int,
    rules: Rules,
    *,
    yaniv_chance: float = 0.7,
    max_actions: int = 3000,
    on_action: Callable[[GameState, Action, GameState, list[EngineEvent]], None] | None = None,
) -> tuple[GameState, list[EngineEvent]]:
    """A seeded game of random legal moves, half of them greedy (shed the most points) so
    rounds end; stops at ``max_actions`` if it is still going (a zero call limit without
    jokers never ends). ``on_action`` sees every step."""
    rng = random.Random(seed)
    state, events = start_game(players, rules, rng)
    for _ in range(max_actions):
        if state.finished:
            break
        assert state.turn is not None
        moves = legal_moves(state, state.turn)
        action: Action
        if isinstance(moves[0], CallYaniv) and rng.random() < yaniv_chance:
            action = moves[0]
        elif rng.random() < 0.5:
            plays = [move for move in moves if isinstance(move, Play)]
            best = max(hand_total(move.cards) for move in plays)
            action = rng.choice([move for move in plays if hand_total(move.cards) == best])
        else:
            action = rng.choice(moves)
        after, happened = apply(state, action, rng)
        if on_action is not None:
            on_action(state, action, after, happened)
        state = after
        events.extend(happened)
    return state, events
