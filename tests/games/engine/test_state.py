"""Dealing, turns, discarding, drawing, reshuffles and Yaniv calls (docs/rules.md §3-§5)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import full_deck
from games.engine.errors import IllegalMove, Reason
from games.engine.rules import Rules
from games.engine.state import (
    STOCK,
    CallYaniv,
    GameState,
    Play,
    apply,
    start_game,
)
from tests.games.engine.support import Scripted, deck_for, start, with_totals

HANDS = {
    0: ["9S", "9D", "4C", "2H", "KH"],
    1: ["KS", "KD", "QS", "6S", "AC"],
    2: ["5H", "6H", "7H", "8C", "JH"],
}


def illegal(state: GameState, action: CallYaniv | Play) -> str:
    before = state.to_dict()
    with pytest.raises(IllegalMove) as caught:
        apply(state, action, random.Random(0))
    assert state.to_dict() == before, "a refused action must not change the state"
    return caught.value.reason


def test_first_starter_comes_from_the_rng() -> None:
    for starter in range(4):
        state, events = start_game(4, Rules(), Scripted(starter=starter))
        assert state.turn == state.starter == starter
        assert events[0]["starter"] == starter


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        start_game(players, Rules(), random.Random(0))


def test_deal_is_one_card_at_a_time_clockwise_from_the_starter() -> None:
    deck = list(full_deck(2))
    state, events = start_game(3, Rules(), Scripted(deck, starter=1))
    assert state.hands[1] == tuple(deck[0:15:3])
    assert state.hands[2] == tuple(deck[1:15:3])
    assert state.hands[0] == tuple(deck[2:15:3])
    assert events == [{"type": "round_started", "round": 1, "starter": 1, "deck": deck}]


def test_next_card_is_face_up_and_the_rest_is_the_stock_in_deck_order() -> None:
    deck = list(full_deck(2))
    random.Random(7).shuffle(deck)
    state, _ = start_game(4, Rules(), Scripted(deck, starter=0))
    assert state.group == (deck[20],)
    assert state.group_seat is None
    assert state.stock[state.stock_pos :] == tuple(deck[21:])
    assert state.stock_count == 54 - 21
    assert state.pile == ()


def test_without_jokers_the_deck_has_52_cards() -> None:
    state, events = start_game(2, Rules(jokers=0), random.Random(3))
    assert len(events[0]["deck"]) == 52
    assert state.stock_count == 52 - 11


def test_turns_go_clockwise_and_the_starter_plays_first() -> None:
    state, _, _ = start(HANDS, starter=2, face_up="3S")
    assert state.turn == 2
    state, _ = apply(state, Play(2, ["JH"], STOCK), random.Random(0))
    assert state.turn == 0
    state, _ = apply(state, Play(0, ["KH"], STOCK), random.Random(0))
    assert state.turn == 1


def test_play_moves_the_group_to_the_discard_and_draws_the_stock_top() -> None:
    state, _, _ = start(HANDS, face_up="3S", stock=["AD", "X1"])
    state, events = apply(state, Play(0, ["9S", "9D"], STOCK), random.Random(0))
    assert state.hands[0] == ("4C", "2H", "KH", "AD")
    assert state.group == ("9S", "9D")
    assert state.group_seat == 0
    assert state.pile == ("3S",)
    assert state.stock[state.stock_pos] == "X1"
    assert events == [
        {"type": "played", "seat": 0, "cards": ["9S", "9D"], "draw": "stock", "drawn": "AD"}
    ]


def test_the_first_player_may_take_the_face_up_card() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state, events = apply(state, Play(0, ["9S", "9D"], "3S"), random.Random(0))
    assert state.hands[0] == ("4C", "2H", "KH", "3S")
    assert state.pile == ()
    assert events[0]["drawn"] == "3S"
    assert state.known[0] == ("3S",)


def test_either_end_of_the_previous_group_may_be_taken_but_not_the_middle() -> None:
    state, _, _ = start(HANDS, starter=2, face_up="3S")
    state, _ = apply(state, Play(2, ["5H", "6H", "7H"], STOCK), random.Random(0))
    assert illegal(state, Play(0, ["KH"], "6H")) == Reason.UNTAKEABLE_DRAW
    low, _ = apply(state, Play(0, ["KH"], "5H"), random.Random(0))
    high, _ = apply(state, Play(0, ["KH"], "7H"), random.Random(0))
    assert low.hands[0][-1] == "5H"
    assert low.pile == ("3S", "6H", "7H")
    assert high.hands[0][-1] == "7H"
    assert high.pile == ("3S", "5H", "6H")


def test_a_run_with_a_joker_at_its_end_gives_the_joker() -> None:
    hands = {0: ["4H", "5H", "X1", "9C", "9D"], 1: ["KS", "KD", "QS", "6S", "AC"]}
    state, _, _ = start(hands, face_up="3S")
    state, _ = apply(state, Play(0, ["4H", "5H", "X1"], STOCK), random.Random(0))
    state, _ = apply(state, Play(1, ["KS", "KD"], "X1"), random.Random(0))
    assert "X1" in state.hands[1]


def test_the_group_just_discarded_is_never_available_to_its_player() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    assert illegal(state, Play(0, ["KH"], "KH")) == Reason.UNTAKEABLE_DRAW
    assert illegal(state, Play(0, ["9S", "9D"], "9D")) == Reason.UNTAKEABLE_DRAW


def test_only_the_previous_group_is_takeable() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state, _ = apply(state, Play(0, ["KH"], STOCK), random.Random(0))
    state, _ = apply(state, Play(1, ["QS"], STOCK), random.Random(0))
    assert illegal(state, Play(2, ["JH"], "KH")) == Reason.UNTAKEABLE_DRAW
    assert illegal(state, Play(2, ["JH"], "3S")) == Reason.UNTAKEABLE_DRAW
    assert illegal(state, Play(2, ["JH"], "AS")) == Reason.UNTAKEABLE_DRAW


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Play(1, ["KS"], STOCK), Reason.NOT_YOUR_TURN),
        (CallYaniv(2), Reason.NOT_YOUR_TURN),
        (Play(7, ["KS"], STOCK), Reason.NOT_YOUR_TURN),
        (Play(0, ["KS"], STOCK), Reason.CARD_NOT_IN_HAND),
        (Play(0, ["9S", "KS"], STOCK), Reason.CARD_NOT_IN_HAND),
        (Play(0, ["ZZ"], STOCK), Reason.UNKNOWN_CARD),
        (Play(0, ["9S", "10S"], STOCK), Reason.UNKNOWN_CARD),
        (Play(0, ["9S", "9S"], STOCK), Reason.DUPLICATE_CARD),
        (Play(0, [], STOCK), Reason.NO_CARDS),
        (Play(0, ["9S", "4C"], STOCK), Reason.INVALID_GROUP),
        (Play(0, ["9S", "9D"], "deck"), Reason.UNTAKEABLE_DRAW),
        (CallYaniv(0), Reason.YANIV_ABOVE_LIMIT),
    ],
)
def test_illegal_actions_are_refused_with_a_reason(action: Play | CallYaniv, reason: str) -> None:
    state, _, _ = start(HANDS, face_up="3S")
    assert illegal(state, action) == reason


def test_an_empty_stock_is_reshuffled_at_once_from_the_pile_under_the_new_group() -> None:
    state, _, _ = start(HANDS, starter=2, face_up="3S")
    state, _ = apply(state, Play(2, ["5H", "6H", "7H"], STOCK), random.Random(0))
    # Leave one card in the stock; the rest goes to the pile (every card stays in play).
    last = state.stock[-1:]
    state = state.replace(
        stock=last, stock_pos=0, pile=state.pile + state.stock[state.stock_pos : -1]
    )
    under = list(state.pile + state.group)
    rng = Scripted()
    state, events = apply(state, Play(0, ["9S", "9D"], STOCK), rng)

    assert rng.shuffled == [under]
    assert state.hands[0][-1] == last[0]
    assert sorted(state.stock) == sorted(under)
    assert state.stock_pos == 0
    assert state.pile == ()
    assert state.group == ("9S", "9D")
    assert events[1] == {"type": "reshuffled", "stock": list(state.stock)}
    # The group discarded in the emptying turn stays face up for the next player.
    state, _ = apply(state, Play(1, ["KS", "KD"], "9D"), random.Random(0))
    assert state.hands[1][-1] == "9D"


def test_taking_from_the_discard_never_reshuffles() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state = state.replace(
        stock=state.stock[-1:],
        stock_pos=0,
        pile=state.stock[:-1],
    )
    state, events = apply(state, Play(0, ["KH"], "3S"), Scripted())
    assert [event["type"] for event in events] == ["played"]
    assert state.stock_count == 1


def test_the_reshuffled_order_comes_from_the_rng() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state = state.replace(stock=state.stock[-1:], stock_pos=0, pile=state.stock[:-1])
    first, _ = apply(state, Play(0, ["KH"], STOCK), random.Random(1))
    second, _ = apply(state, Play(0, ["KH"], STOCK), random.Random(2))
    assert sorted(first.stock) == sorted(second.stock)
    assert first.stock != second.stock


def test_yaniv_may_be_called_at_or_below_the_limit_only() -> None:
    hands = {0: ["AS", "2S", "2D", "KH", "KD"], 1: ["KS", "QD", "QS", "6S", "AC"]}
    state, _, _ = start(hands, face_up="3S")
    state, _ = apply(state, Play(0, ["KH", "KD"], "3S"), random.Random(0))
    assert state.hand_total(0) == 8
    state, _ = apply(state, Play(1, ["QD", "QS"], STOCK), random.Random(0))
    assert illegal(state, CallYaniv(0)) == Reason.YANIV_ABOVE_LIMIT
    seven = state.replace(setup=state.setup._replace(rules=Rules(call_limit=8)))
    assert seven.can_call_yaniv(0)
    after, events = apply(seven, CallYaniv(0), random.Random(0))
    assert [event["type"] for event in events] == ["yaniv_called", "round_ended", "round_started"]
    assert after.round == 2


def test_a_yaniv_call_ends_the_round_and_deals_the_next_from_a_fresh_deck() -> None:
    hands = {0: ["AS", "2S", "X1", "X2", "KD"], 1: ["KS", "QD", "QS", "6S", "AC"]}
    next_deck = list(reversed(full_deck(2)))
    state, _, rng = start(hands, face_up="3S", stock=["AD"], later=[next_deck])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    before, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, events = apply(before, CallYaniv(0), rng)
    assert rng.shuffled[-1] == list(full_deck(2))
    assert events[0] == {"type": "yaniv_called", "seat": 0}
    ended = events[1]
    assert ended["type"] == "round_ended"
    assert ended["outcome"] == "yaniv"
    assert ended["hands"] == {"0": list(before.hands[0]), "1": list(before.hands[1])}
    assert events[2] == {"type": "round_started", "round": 2, "starter": 0, "deck": next_deck}
    assert state.turn == 0
    assert state.hands[0] == tuple(next_deck[0:10:2])
    assert state.known == ((), ())
    assert state.last_round is not None
    assert state.last_round.caller == 0


def test_a_finished_game_refuses_every_action() -> None:
    hands = {0: ["AS", "2S", "X1", "X2", "KD"], 1: ["KS", "QD", "QS", "6S", "AC"]}
    state, _, rng = start(hands, face_up="3S", stock=["AD"])
    state = with_totals(state, [0, 100])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    state, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, events = apply(state, CallYaniv(0), rng)
    assert events[-1] == {
        "type": "game_ended",
        "standings": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}],
    }
    assert state.finished
    assert state.turn is None
    assert illegal(state, CallYaniv(0)) == Reason.GAME_OVER
    assert illegal(state, Play(0, ["AS"], STOCK)) == Reason.GAME_OVER


def test_known_cards_follow_face_up_pickups_until_they_are_discarded() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state, _ = apply(state, Play(0, ["KH"], "3S"), random.Random(0))
    assert state.known == (("3S",), (), ())
    state, _ = apply(state, Play(1, ["AC"], "KH"), random.Random(0))
    assert state.known == (("3S",), ("KH",), ())
    state, _ = apply(state, Play(2, ["JH"], STOCK), random.Random(0))
    state, _ = apply(state, Play(0, ["3S"], STOCK), random.Random(0))
    assert state.known == ((), ("KH",), ())


def test_state_round_trips_through_json() -> None:
    state, _, _ = start(HANDS, starter=1, face_up="3S")
    state, _ = apply(state, Play(1, ["KS", "KD"], "3S"), random.Random(0))
    state, _ = apply(state, Play(2, ["5H", "6H", "7H"], STOCK), random.Random(0))
    data = json.loads(json.dumps(state.to_dict()))
    loaded = GameState.from_dict(data)
    assert loaded.to_dict() == state.to_dict()
    action = Play(0, ["9S", "9D"], "7H")
    assert apply(loaded, action, random.Random(4))[1] == apply(state, action, random.Random(4))[1]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "yaniv-state/0"}, "yaniv-state/1"),
        ({"hands": [["9S"], ["ZZ"], []]}, "unknown card"),
        ({"totals": [0, 0]}, "per-seat"),
    ],
)
def test_loading_a_bad_state_fails(change: dict[str, object], words: str) -> None:
    state, _, _ = start(HANDS, face_up="3S")
    with pytest.raises(ValueError, match=words):
        GameState.from_dict({**state.to_dict(), **change})


def test_deck_for_builds_the_dealt_hands() -> None:
    deck = deck_for(HANDS, 2, "3S")
    state, _ = start_game(3, Rules(), Scripted(deck, starter=2))
    assert [list(hand) for hand in state.hands] == [HANDS[0], HANDS[1], HANDS[2]]


@settings(max_examples=300, deadline=None)
@given(
    seat=st.integers(-1, 3),
    cards=st.lists(
        st.one_of(st.sampled_from([*HANDS[0], *HANDS[1], "3S", "X1"]), st.text(max_size=3)),
        max_size=5,
    ),
    draw=st.one_of(st.sampled_from(["stock", "3S", "KH", "9D"]), st.text(max_size=5)),
)
def test_any_play_is_applied_or_refused(seat: int, cards: list[str], draw: str) -> None:
    state, _, _ = start(HANDS, face_up="3S")
    refused: IllegalMove | None = None
    try:
        after, events = apply(state, Play(seat, cards, draw), random.Random(0))
    except IllegalMove as error:
        refused = error
    if refused is not None:
        assert refused.reason in set(Reason)
        return
    assert seat == 0
    assert events[0]["cards"] == cards
    assert len(after.hands[0]) == 5 - len(cards) + 1
