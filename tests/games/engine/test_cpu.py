"""The CPU player (``hard``, the default level): always legal, decides from its view alone,
and plays sensible Yaniv. Every level: test_cpu_levels.py."""

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import full_deck
from games.engine.cpu import Level, choose_action, cpu_action, hard
from games.engine.moves import legal_moves
from games.engine.rules import Rules
from games.engine.state import STOCK, Action, CallYaniv, GameState, Play, apply, start_game
from games.engine.view import view


def position(
    hands: Sequence[Sequence[str]],
    group: Sequence[str],
    *,
    known: Sequence[Sequence[str]] | None = None,
    totals: Sequence[int] | None = None,
    pile: Sequence[str] = (),
    stock: Sequence[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    turn: int = 0,
) -> GameState:
    """A mid-round state with seat ``turn`` to act; the stock is every card not placed."""
    players = len(hands)
    rules_dict = Rules.from_dict(rules or {}).to_dict()
    placed = [*(card for hand in hands for card in hand), *group, *pile]
    if stock is None:
        stock = [card for card in full_deck(rules_dict["jokers"]) if card not in placed]
    return GameState.from_dict(
        {
            "format": "yaniv-state/1",
            "rules": rules_dict,
            "players": players,
            "round": 1,
            "starter": 0,
            "turn": turn,
            "hands": [list(hand) for hand in hands],
            "stock": list(stock),
            "pile": list(pile),
            "group": list(group),
            "group_seat": (turn - 1) % players,
            "known": [list(cards) for cards in known or [[]] * players],
            "totals": list(totals or [0] * players),
            "out_round": [None] * players,
            "last_round": None,
            "standings": None,
        }
    )


def decide(state: GameState, seed: int = 0) -> Action:
    assert state.turn is not None
    return cpu_action(state, state.turn, random.Random(seed))


def played(action: Action) -> Play:
    assert isinstance(action, Play), f"expected a play, got {action}"
    return action


# --- legality -----------------------------------------------------------------------------

TABLES = [
    (2, {}),
    (3, {"call_limit": 7}),
    (4, {}),
    (5, {"call_limit": 3, "jokers": 0}),
    (2, {"call_limit": 0, "assaf_penalty": 0}),
    (3, {"call_limit": 10, "assaf_scores": "zero", "exact_scores": "halve_50"}),
    (4, {"ending": "first_over_100", "jokers": 0}),
    (2, {"ending": "out_over_200", "call_limit": 7, "assaf_penalty": 100}),
]


def positions(
    games_per_table: int, level: Level = Level.HARD, actions: int = 600
) -> Iterator[GameState]:
    """Every position of seeded games in which the CPU at ``level`` plays some seats and random
    legal moves the others (so the CPU meets odd positions too), over many house rules, for up
    to ``actions`` actions a game."""
    for table, (players, rules) in enumerate(TABLES):
        for game in range(games_per_table):
            rng = random.Random(table * 1000 + game)
            state, _ = start_game(players, Rules.from_dict(rules), rng)
            cpu_seats = {seat for seat in range(players) if rng.random() < 0.6}
            for _ in range(actions):
                if state.finished:
                    break
                yield state
                seat = state.turn
                assert seat is not None
                if seat in cpu_seats:
                    action = cpu_action(state, seat, rng, level)
                else:
                    action = rng.choice(legal_moves(state, seat))
                state, _ = apply(state, action, rng)


def test_every_choice_is_legal_over_thousands_of_positions() -> None:
    checked = 0
    for state in positions(games_per_table=4):
        seat = state.turn
        assert seat is not None
        action = cpu_action(state, seat, random.Random(checked))
        assert action in legal_moves(state, seat)
        apply(state, action, random.Random(0))  # raises IllegalMove if the engine refuses it
        checked += 1
    assert checked >= 3000


@st.composite
def crafted_states(draw: st.DrawFn) -> GameState:
    """Any deal of cards between hands, the last group, the pile and the stock."""
    jokers = draw(st.sampled_from([2, 0]))
    deck = draw(st.permutations(full_deck(jokers)))
    players = draw(st.integers(2, 5))
    sizes = [draw(st.integers(1, 5)) for _ in range(players)]
    hands, at = [], 0
    for size in sizes:
        hands.append(deck[at : at + size])
        at += size
    group = deck[at : at + draw(st.integers(1, 4))]
    at += len(group)
    pile = deck[at : at + draw(st.integers(0, 10))]
    at += len(pile)
    known = [
        hand[: draw(st.integers(0, len(hand)))] if seat else [] for seat, hand in enumerate(hands)
    ]
    return position(
        hands,
        group,
        known=known,
        pile=pile,
        stock=deck[at:],
        totals=[draw(st.integers(0, 100)) for _ in range(players)],
        rules={"jokers": jokers, "call_limit": draw(st.integers(0, 10))},
    )


@settings(max_examples=300, deadline=None)
@given(state=crafted_states(), seed=st.integers(0, 2**32))
def test_every_choice_is_legal_in_crafted_positions(state: GameState, seed: int) -> None:
    action = decide(state, seed)
    assert action in legal_moves(state, 0)
    apply(state, action, random.Random(seed))


def play_to_the_end(players: int, seed: int, level: Level = Level.HARD) -> GameState:
    """A game that the CPU at ``level`` plays at every seat, to its end (or 5,000 actions)."""
    rng = random.Random(seed)
    state, _ = start_game(players, Rules(), rng)
    for _ in range(5000):
        if state.finished:
            break
        assert state.turn is not None
        state, _ = apply(state, cpu_action(state, state.turn, rng, level), rng)
    return state


def test_games_of_cpus_alone_end() -> None:
    # Every seat away: the service lets the CPU play a whole game, which must finish.
    for players in range(2, 6):
        for game in range(6):
            assert play_to_the_end(players, players * 100 + game).finished


# --- it decides from its view alone -------------------------------------------------------


def test_cpu_action_is_the_choice_from_the_seats_view() -> None:
    for index, state in enumerate(positions(games_per_table=1)):
        if index % 7:
            continue
        seat = state.turn
        assert seat is not None
        assert cpu_action(state, seat, random.Random(index)) == choose_action(
            view(state, seat), random.Random(index)
        )


def redeal(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the cards its seat to act cannot see dealt again: the other hands beyond
    their face-up pickups, and the stock."""
    seat = state.turn
    data = state.to_dict()
    hidden = list(data["stock"])
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            hidden += [card for card in hand if card not in data["known"][other]]
    rng.shuffle(hidden)
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            unknown = len(hand) - len(data["known"][other])
            data["hands"][other] = list(data["known"][other]) + hidden[:unknown]
            hidden = hidden[unknown:]
    data["stock"] = hidden
    return GameState.from_dict(data)


def test_hidden_cards_do_not_change_the_choice() -> None:
    """Other hands (beyond their face-up pickups) and the stock order are hidden: dealing them
    differently must not change what the CPU does."""
    compared = 0
    for index, state in enumerate(positions(games_per_table=1)):
        if index % 5:
            continue
        seat = state.turn
        assert seat is not None
        redealt = redeal(state, random.Random(index))
        assert view(redealt, seat) == view(state, seat)
        assert decide(redealt, index) == decide(state, index)
        compared += 1
    assert compared >= 300


def test_the_same_seed_gives_the_same_choice() -> None:
    for index, state in enumerate(positions(games_per_table=1)):
        if index % 11 == 0:
            assert decide(state, index) == decide(state, index)


def test_refuses_to_act_out_of_turn() -> None:
    state = position([["AS", "2S"], ["3S", "4S"]], ["KC"])
    with pytest.raises(ValueError, match="turn"):
        choose_action(view(state, 1), random.Random(0))


# --- calling Yaniv ------------------------------------------------------------------------


def test_calls_when_no_opponent_can_be_as_low() -> None:
    # The opponent took a king and a queen face up and still holds them: at least 20.
    state = position([["AS", "X1"], ["KH", "QS", "5D", "6D"]], ["9C"], known=[[], ["KH", "QS"]])
    assert decide(state) == CallYaniv(0)


def test_calls_early_with_a_low_hand_against_a_full_hand() -> None:
    state = position([["AS", "AH", "X1"], ["5D", "6D", "7C", "8H", "9S"]], ["KC"])
    assert decide(state) == CallYaniv(0)


def test_calls_against_known_high_cards_even_at_the_limit() -> None:
    state = position([["2S", "3H"], ["KD", "AC"]], ["9C"], known=[[], ["KD"]])
    assert decide(state) == CallYaniv(0)


def test_no_call_with_5_against_one_card_known_low() -> None:
    state = position([["2S", "3H"], ["AD"]], ["9C"], known=[[], ["AD"]])
    for seed in range(50):
        assert isinstance(decide(state, seed), Play)


def test_no_call_with_5_against_one_unknown_card_late_in_the_round() -> None:
    # Twenty-odd turns in: whatever single card the opponent kept is likely to be low.
    stock = [card for card in full_deck(2) if card not in {"2S", "3H", "7D", "9C"}][:15]
    pile = [card for card in full_deck(2) if card not in {"2S", "3H", "7D", "9C", *stock}]
    state = position([["2S", "3H"], ["7D"]], ["9C"], pile=pile, stock=stock)
    assert isinstance(decide(state), Play)


def test_calls_when_waiting_would_knock_it_out() -> None:
    # 97 + 5 is over 100 if anyone else calls, so only its own call can save it.
    state = position([["2S", "3H"], ["AD"]], ["9C"], known=[[], ["AD"]], totals=[97, 0])
    assert decide(state) == CallYaniv(0)


def test_calls_into_a_certain_assaf_that_lands_on_exactly_100() -> None:
    # 65 + 5 + 30 = 100, which drops to 50: the Assaf is worth having.
    state = position([["2S", "3H"], ["AD"]], ["9C"], known=[[], ["AD"]], totals=[65, 0])
    assert decide(state) == CallYaniv(0)


def test_breaks_a_stalemate_of_known_jokers_now_and_then() -> None:
    # Each joker holder took its joker face up: whoever calls is Assafed by the other, and
    # with one card each the jokers could go round for ever. The CPU sometimes calls anyway.
    state = position(
        [["2H"], ["X2"], ["X1"]], ["QS"], known=[[], ["X2"], ["X1"]], pile=["5C"], turn=2
    )
    calls = sum(decide(state, seed) == CallYaniv(2) for seed in range(400))
    assert 0 < calls < 400 // 5


def test_more_careful_when_an_assaf_would_knock_it_out() -> None:
    # About a one-in-ten chance that three unknown cards come to 4 or less, a dozen turns in.
    hands = [["AS", "3H"], ["5D", "6D", "7C"]]
    stock = [card for card in full_deck(2) if card not in {*hands[0], *hands[1], "KC"}][:30]
    assert decide(position(hands, ["KC"], stock=stock)) == CallYaniv(0)
    assert isinstance(decide(position(hands, ["KC"], stock=stock, totals=[80, 0])), Play)


def test_calls_sooner_when_ending_the_round_would_knock_an_opponent_out() -> None:
    # Two unknown cards a dozen turns in may well come to 5 or less: too risky at 0 - 0, but at
    # 98 the opponent is out unless those two cards come to 2 or less, Assaf or not.
    hands = [["2S", "3H"], ["5D", "6D"]]
    stock = [card for card in full_deck(2) if card not in {*hands[0], *hands[1], "KC"}][:30]
    assert isinstance(decide(position(hands, ["KC"], stock=stock)), Play)
    assert decide(position(hands, ["KC"], stock=stock, totals=[0, 98])) == CallYaniv(0)


# --- discarding and drawing ---------------------------------------------------------------


def test_takes_a_discard_that_completes_a_set() -> None:
    action = played(decide(position([["7H", "7D", "KS", "9C", "8D"], ["2C"]], ["7S"])))
    assert action.draw == "7S"
    assert not {"7H", "7D"} & set(action.cards)


def test_takes_a_discard_that_extends_a_run() -> None:
    action = played(decide(position([["5H", "6H", "KS", "QD", "9C"], ["2C"]], ["7H"])))
    assert action.draw == "7H"
    assert not {"5H", "6H"} & set(action.cards)


def test_takes_an_end_of_the_last_group() -> None:
    state = position([["6S", "6D", "KS", "QD", "9C"], ["2C"]], ["4C", "5C", "6C"])
    assert played(decide(state)).draw == "6C"


@pytest.mark.parametrize("low", ["X1", "AH"])
def test_takes_a_low_card(low: str) -> None:
    action = played(decide(position([["KS", "QH", "9D", "8C", "7S"], ["2C"]], [low])))
    assert action.draw == low


def test_draws_from_the_stock_rather_than_take_a_useless_high_card() -> None:
    action = played(decide(position([["KS", "QH", "2D", "AC", "3S"], ["2C"]], ["9H"])))
    assert action.draw == STOCK


def test_discards_a_set_rather_than_a_lower_single() -> None:
    action = played(decide(position([["9S", "9H", "KD", "2C", "AC"], ["2H"]], ["5C"])))
    assert sorted(action.cards) == ["9H", "9S"]


def test_discards_a_run_rather_than_a_lower_single() -> None:
    action = played(decide(position([["8H", "9H", "TH", "KS", "AC"], ["2C"]], ["5C"])))
    assert list(action.cards) == ["8H", "9H", "TH"]


def test_keeps_a_near_run_when_singles_shed_the_same() -> None:
    action = played(decide(position([["TS", "KD", "QD", "2C", "AC"], ["2H"]], ["5C"])))
    assert list(action.cards) == ["TS"]


def test_does_not_feed_the_next_player_a_set_for_one_point() -> None:
    # The next player took two nines face up; throwing the 8 instead of the 9 costs a point.
    state = position(
        [["9D", "8C", "2S", "AH", "3C"], ["9S", "9H", "KD"]], ["5C"], known=[[], ["9S", "9H"]]
    )
    assert list(played(decide(state)).cards) == ["8C"]


def test_a_stock_draw_scores_the_mean_over_every_unseen_card() -> None:
    """The shortcut that tries only the cards able to join a group agrees with trying all."""
    for index, state in enumerate(positions(games_per_table=1)):
        if index % 13:
            continue
        seat = state.turn
        assert seat is not None
        cpu_view = hard.View(view(state, seat))
        hand = state.hands[seat]
        for size in range(len(hand)):
            rest = hand[:size]
            every = [hard._score(cpu_view, (*rest, card)) for card in cpu_view.unseen]
            assert hard._stock_score(cpu_view, rest, {}) == pytest.approx(sum(every) / len(every))
