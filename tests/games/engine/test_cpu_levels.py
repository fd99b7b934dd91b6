"""Every CPU level: legal, deterministic given its seed, deciding from its seat's view alone,
and playing its part (how strong each is: bench/cpu_strength.py)."""

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import VALUE
from games.engine.cpu import Level, choose_action, cpu_action, expert, hard
from games.engine.moves import legal_moves
from games.engine.rules import Preset, Rules
from games.engine.state import CallYaniv, GameState, Play, apply, start_game
from games.engine.view import view
from tests.games.engine.test_cpu import (
    crafted_states,
    play_to_the_end,
    position,
    positions,
    redeal,
)

LEVELS = list(Level)


def level_positions(level: Level) -> Iterator[GameState]:
    """Positions of seeded games in which ``level`` plays some seats and random legal moves
    the others, over many house rules."""
    return positions(games_per_table=1, level=level, actions=120)


@pytest.mark.parametrize("level", LEVELS)
def test_every_choice_is_legal_deterministic_and_from_the_view(level: Level) -> None:
    checked = 0
    for index, state in enumerate(level_positions(level)):
        seat = state.turn
        assert seat is not None
        action = cpu_action(state, seat, random.Random(index), level)
        assert action in legal_moves(state, seat)
        apply(state, action, random.Random(0))
        assert cpu_action(state, seat, random.Random(index), level) == action
        if index % 3 == 0:
            # The hidden cards dealt otherwise: the same view, so the same choice.
            redealt = redeal(state, random.Random(index))
            assert view(redealt, seat) == view(state, seat)
            assert cpu_action(redealt, seat, random.Random(index), level) == action
        checked += 1
    assert checked >= 400


@settings(max_examples=40, deadline=None)
@given(state=crafted_states(), seed=st.integers(0, 2**32), level=st.sampled_from(LEVELS))
def test_every_level_is_legal_in_crafted_positions(
    state: GameState, seed: int, level: Level
) -> None:
    action = cpu_action(state, 0, random.Random(seed), level)
    assert action in legal_moves(state, 0)
    assert cpu_action(state, 0, random.Random(seed), level) == action
    redealt = redeal(state, random.Random(seed))
    assert cpu_action(redealt, 0, random.Random(seed), level) == action


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_games_of_one_level_end(level: Level, players: int) -> None:
    for game in range(2):
        assert play_to_the_end(players, players * 100 + game, level).finished


def test_the_default_level_is_hard_and_a_level_may_be_named_by_its_value() -> None:
    for index, state in enumerate(level_positions(Level.HARD)):
        if index % 9:
            continue
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        action = choose_action(seen, random.Random(index))
        assert choose_action(seen, random.Random(index), Level.HARD) == action
        assert cpu_action(state, seat, random.Random(index)) == action
        assert choose_action(seen, random.Random(index), Level("expert")) == choose_action(
            seen, random.Random(index), Level.EXPERT
        )


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_refuses_to_act_out_of_turn(level: Level) -> None:
    state = position([["AS", "2S"], ["3S", "4S"]], ["KC"])
    with pytest.raises(ValueError, match="turn"):
        choose_action(view(state, 1), random.Random(0), level)


# --- what sets the levels apart -----------------------------------------------------------

# 2 + 3 = 5 may call; a dozen turns in, the opponent's two unknown cards may well be as low:
# hard waits.
_HANDS = [["2S", "3H"], ["5D", "6D"]]
RISKY = position(
    _HANDS,
    ["KC"],
    stock=[card for card in Rules().deck if card not in {*_HANDS[0], *_HANDS[1], "KC"}][:30],
)


@pytest.mark.parametrize("level", [Level.EASY, Level.MEDIUM])
def test_easy_and_medium_call_as_soon_as_they_may(level: Level) -> None:
    assert isinstance(cpu_action(RISKY, 0, random.Random(0), Level.HARD), Play)
    assert cpu_action(RISKY, 0, random.Random(0), level) == CallYaniv(0)


def test_easy_throws_its_most_valuable_group() -> None:
    state = position([["9S", "9H", "KD", "2C", "8C"], ["2H"]], ["5C"])
    easy = cpu_action(state, 0, random.Random(0), Level.EASY)
    assert isinstance(easy, Play)
    assert sorted(easy.cards) == ["9H", "9S"]


def test_medium_mostly_plays_like_hard_and_now_and_then_like_easy() -> None:
    # hard sheds the king and takes the 5; easy throws its most valuable group, the nines.
    state = position([["9S", "9H", "KD", "AC", "2C"], ["2H"]], ["5C"])
    like = {Level.HARD: 0, Level.EASY: 0}
    for seed in range(60):
        medium = cpu_action(state, 0, random.Random(seed), Level.MEDIUM)
        for level in like:
            like[level] += medium == cpu_action(state, 0, random.Random(seed), level)
    assert like[Level.HARD] > like[Level.EASY] > 0


def test_easy_takes_a_discard_that_pairs_a_card_it_keeps() -> None:
    action = cpu_action(
        position([["KS", "QH", "7D", "8C", "4S"], ["2C"]], ["7S"]), 0, random.Random(0), Level.EASY
    )
    assert isinstance(action, Play)
    assert action.draw == "7S"


def test_expert_calls_when_no_opponent_can_be_as_low() -> None:
    # The opponent took a king and a queen face up and still holds them: at least 20.
    state = position([["AS", "X1"], ["KH", "QS", "5D", "6D"]], ["9C"], known=[[], ["KH", "QS"]])
    assert cpu_action(state, 0, random.Random(0), Level.EXPERT) == CallYaniv(0)


def test_expert_waits_when_the_opponent_is_sure_to_be_lower() -> None:
    # The opponent holds a known ace: calling on 5 is a certain Assaf.
    state = position([["2S", "3H"], ["AD"]], ["9C"], known=[[], ["AD"]], pile=["5C"])
    assert isinstance(cpu_action(state, 0, random.Random(0), Level.EXPERT), Play)


def test_expert_samples_agree_with_the_view() -> None:
    """Every sampled world holds our hand, each opponent's known cards and hand count, and
    the public cards where they are; the hidden cards are the unseen ones, each once."""
    for index, state in enumerate(level_positions(Level.EXPERT)):
        if index % 17:
            continue
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        world = expert._sample(seen, hard.View(seen), random.Random(index))
        # A world is the current round alone: the last round's result is not part of it.
        assert {**view(world, seat), "last_round": None} == {**seen, "last_round": None}
        hidden = [*world.stock[world.stock_pos :]]
        for other, hand in enumerate(world.hands):
            if other != seat:
                hidden += [card for card in hand if card not in world.known[other]]
        assert sorted(hidden) == sorted(hard.View(seen).unseen)


def test_expert_samples_lean_towards_low_cards_late_in_the_round() -> None:
    stock = [card for card in Rules().deck if card not in {"2S", "3H", "7D", "9C"}][:15]
    pile = [card for card in Rules().deck if card not in {"2S", "3H", "7D", "9C", *stock}]
    state = position([["2S", "3H"], ["7D", "8D", "9D"]], ["9C"], pile=pile, stock=stock)
    seen = view(state, 0)
    cpu_view = hard.View(seen)
    rng = random.Random(0)
    held = [
        VALUE[card] for _ in range(300) for card in expert._sample(seen, cpu_view, rng).hands[1]
    ]
    assert sum(held) / len(held) < cpu_view.mean_unseen - 0.5


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", list(Preset))
@pytest.mark.parametrize("extra", [{}, {"sevens": True, "spy_queen": True}], ids=["", "sevens-spy"])
def test_every_level_plays_every_preset_legally_at_two_seats_and_the_largest_table(
    level: Level, preset: Preset, extra: dict[str, bool]
) -> None:
    rules = Rules.from_dict({"preset": preset.value, **extra})
    for players in (2, rules.max_players):
        rng = random.Random(players)
        state, _ = start_game(players, rules, rng)
        # Expert searches with the engine: fewer of its moves, to keep the test quick.
        for _ in range(60 if level is Level.EXPERT else 250):
            if state.finished:
                break
            seat = state.turn
            assert seat is not None
            action = cpu_action(state, seat, rng, level)
            assert action in legal_moves(state, seat)
            state, _ = apply(state, action, rng)


# --- expert under docs/rules.md §12 --------------------------------------------------------------


def spied_positions() -> Iterator[GameState]:
    """Positions of seeded spy-queen games of ``hard`` at three and five seats, two decks at
    five, where the seat to act has spied (and the hands have changed since, some of them)."""
    for players, rules in ((3, {"spy_queen": True}), (5, {"spy_queen": True, "decks": 2})):
        rng = random.Random(players)
        state, _ = start_game(players, Rules.from_dict(rules), rng)
        for _ in range(1500):
            if state.finished:
                break
            seat = state.turn
            assert seat is not None
            if state.spied and state.spied[seat] is not None:
                yield state
            state, _ = apply(state, cpu_action(state, seat, rng), rng)


def test_expert_samples_deal_what_the_spy_queen_showed_to_the_seat_it_was_seen_in() -> None:
    checked = 0
    for index, state in enumerate(spied_positions()):
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        cpu_view = hard.View(seen)
        world = expert._sample(seen, cpu_view, random.Random(index))
        assert {**view(world, seat), "last_round": None} == {**seen, "last_round": None}
        spied = seen["you"]["spied"]
        for other in cpu_view.opponents:
            assert len(world.hands[other]) == len(state.hands[other])
            # Every card seen in that hand is dealt to it (with two decks, as often as seen).
            assert not Counter(spied[str(other)]) - Counter(world.hands[other])
        # The rest are the unseen cards less those the spy placed, each once.
        rest = Counter(world.stock[world.stock_pos :])
        for other in cpu_view.opponents:
            rest.update(world.hands[other])
        assert rest == Counter(cpu_view.unseen) + Counter(
            card for other in cpu_view.opponents for card in world.known[other]
        )
        checked += 1
    assert checked >= 30


def test_expert_samples_never_deal_a_spied_card_elsewhere() -> None:
    # The spy saw the king of diamonds in seat 1 and the ace of hearts in seat 2; both seats
    # hold five cards, the others unknown.
    hands = [["2S", "3H"], ["KD", "4C", "5C", "6C", "8H"], ["AH", "9S", "TS", "JS", "QH"]]
    state = GameState.from_dict(
        {
            **position(hands, ["9C"], rules={"spy_queen": True}).to_dict(),
            "spied": [[None, ["KD"], ["AH"]], None, None],
        }
    )
    seen = view(state, 0)
    cpu_view = hard.View(seen)
    for seed in range(40):
        world = expert._sample(seen, cpu_view, random.Random(seed))
        assert "KD" in world.hands[1]
        assert "AH" in world.hands[2]
        assert "KD" not in world.hands[2]
        assert "AH" not in world.hands[1]
        assert "KD" not in world.stock
        assert "AH" not in world.stock


def test_the_rollouts_call_only_where_the_rules_allow() -> None:
    """The rollout player never makes a move the engine would refuse: in games it plays
    under every preset (and the variant keys), every move of it is legal, final turns
    included."""
    checked = final_turns = 0
    for preset in Preset:
        rules = Rules.from_dict({"preset": preset.value, "sevens": True, "spy_queen": True})
        for players in (2, rules.max_players):
            rng = random.Random(players)
            state, _ = start_game(players, rules, rng)
            for _ in range(400):
                if state.finished:
                    break
                seat = state.turn
                assert seat is not None
                move = expert._rollout(state, seat)
                assert move in legal_moves(state, seat)
                checked += 1
                final_turns += state.caller is not None
                state, _ = apply(state, move, rng)
    assert checked >= 3000
    assert final_turns >= 20


def test_neither_expert_nor_its_rollouts_call_on_a_first_turn_or_in_final_turns() -> None:
    hands = [["AS", "2S"], ["KD", "QD", "JH"]]
    # Seat 0 could call on 3 against 30, but it is the first turn of the round.
    first = position(hands, ["9C"], rules={"first_turn_call": False})
    assert isinstance(expert._rollout(first, 0), Play)
    assert isinstance(cpu_action(first, 0, random.Random(0), Level.EXPERT), Play)
    later = GameState.from_dict({**first.to_dict(), "turns": 2})
    assert expert._rollout(later, 0) == CallYaniv(0)
    assert cpu_action(later, 0, random.Random(0), Level.EXPERT) == CallYaniv(0)
    # Seat 1 called under final turns: seat 0's turn is its last, no call.
    final = GameState.from_dict(
        {**position(hands, ["9C"], rules={"final_turns": True}).to_dict(), "caller": 1}
    )
    assert isinstance(expert._rollout(final, 0), Play)
    assert isinstance(cpu_action(final, 0, random.Random(0), Level.EXPERT), Play)


def test_expert_weighs_a_call_against_the_others_extra_turn() -> None:
    # 5 against king and ace: a Yaniv, the other scores 11. Under final turns the other
    # throws the king and takes the ace on the discard: 2, an Assaf (5 + 30 for us).
    hands = [["2S", "3H"], ["KD", "AC"]]
    plain = position(hands, ["AS"])
    final = position(hands, ["AS"], rules={"final_turns": True})
    assert expert._called(plain, 0, 0, random.Random(0)) == 11
    assert expert._called(final, 0, 0, random.Random(0)) == 2 - (5 + 30)


def test_expert_values_the_hands_at_the_rounds_values() -> None:
    # Under `jacks_zero` seat 1's jacks are worth nothing: calling on 3 is an Assaf.
    hands = [["AS", "2S"], ["JD", "JH"]]
    assert expert._called(position(hands, ["9C"]), 0, 0, random.Random(0)) == 20
    jacks = position(hands, ["9C"], rules={"values": "jacks_zero"})
    assert expert._called(jacks, 0, 0, random.Random(0)) == -(3 + 30)
    # The rollout player throws its most valuable group at those values: the nine, not the
    # jacks.
    rollout = expert._rollout(
        position([["JD", "JH", "9S", "AH"], ["KC"]], ["5C"], rules={"values": "jacks_zero"}), 0
    )
    assert isinstance(rollout, Play)
    assert rollout.cards == ("9S",)
