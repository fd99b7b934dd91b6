"""What a seat may see (docs/rules.md §11)."""

import random
from typing import Any

from games.engine.cards import VALUE
from games.engine.rules import Rules
from games.engine.state import STOCK, CallYaniv, Play, apply
from games.engine.view import view
from tests.games.engine.support import start, with_totals

HANDS = {
    0: ["9S", "9D", "4C", "2H", "KH"],
    1: ["KS", "KD", "QS", "6S", "AC"],
    2: ["5H", "6H", "7H", "8C", "JH"],
}


def cards_in(payload: Any) -> set[str]:
    """Every card code anywhere in a JSON-like payload."""
    if isinstance(payload, str):
        return {payload} if payload in VALUE else set()
    if isinstance(payload, dict):
        return set().union(*(cards_in(value) for value in payload.values()), set())
    if isinstance(payload, list | tuple):
        return set().union(*(cards_in(value) for value in payload), set())
    return set()


def test_a_seat_sees_its_own_hand_and_the_table() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    seen = view(state, 0)
    assert seen["you"] == {
        "seat": 0,
        "hand": ["9S", "9D", "4C", "2H", "KH"],
        "hand_total": 34,
        "can_call_yaniv": False,
    }
    assert seen["status"] == "active"
    assert seen["round"] == 1
    assert seen["turn"] == 0
    assert seen["starter"] == 0
    assert seen["players"] == 3
    assert seen["rules"] == Rules()
    assert seen["discard"] == {"cards": ["3S"], "takeable": ["3S"], "seat": None}
    assert seen["pile"] == []
    assert seen["stock_count"] == 54 - 16
    assert seen["seats"][1] == {
        "seat": 1,
        "score": 0,
        "eliminated": False,
        "out_round": None,
        "hand_count": 5,
        "known": [],
    }
    assert seen["last_round"] is None
    assert seen["standings"] is None


def test_a_seat_never_sees_other_hands_or_the_stock() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    for seat in range(3):
        visible = cards_in(view(state, seat))
        others = {card for other in range(3) if other != seat for card in state.hands[other]}
        assert visible == set(state.hands[seat]) | {"3S"}
        assert not visible & others
        assert not visible & set(state.stock)


def test_a_stranger_sees_no_hand() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    seen = view(state, None)
    assert seen["you"] is None
    assert cards_in(seen) == {"3S"}


def test_cards_taken_face_up_are_public_until_discarded() -> None:
    state, _, _ = start(HANDS, face_up="3S")
    state, _ = apply(state, Play(0, ["9S", "9D"], "3S"), random.Random(0))
    seen = view(state, 1)
    assert seen["seats"][0]["known"] == ["3S"]
    assert seen["discard"] == {"cards": ["9S", "9D"], "takeable": ["9S", "9D"], "seat": 0}
    assert cards_in(seen) == set(state.hands[1]) | {"3S", "9S", "9D"}


def test_the_card_drawn_from_stock_stays_hidden() -> None:
    state, _, _ = start(HANDS, face_up="3S", stock=["AD"])
    state, _ = apply(state, Play(0, ["KH"], STOCK), random.Random(0))
    assert "AD" in view(state, 0)["you"]["hand"]
    for seat in (1, 2, None):
        assert "AD" not in cards_in(view(state, seat))
    assert view(state, 1)["pile"] == ["3S"]
    assert view(state, 1)["seats"][0]["hand_count"] == 5


def test_can_call_yaniv_only_on_ones_turn_at_or_below_the_limit() -> None:
    hands = {0: ["AS", "2S", "X1", "X2", "KD"], 1: ["AH", "AD", "AC", "2C", "KS"]}
    state, _, _ = start(hands, face_up="3S", stock=["2D"])
    assert not view(state, 0)["you"]["can_call_yaniv"]
    state, _ = apply(state, Play(0, ["KD"], STOCK), random.Random(0))
    assert view(state, 0)["you"]["hand_total"] == 5
    assert not view(state, 0)["you"]["can_call_yaniv"]
    state, _ = apply(state, Play(1, ["KS"], STOCK), random.Random(0))
    assert view(state, 0)["you"]["can_call_yaniv"]
    assert not view(state, 1)["you"]["can_call_yaniv"]


def test_after_a_round_the_hands_shown_are_public() -> None:
    hands = {0: ["AS", "2S", "X1", "X2", "KD"], 1: ["KS", "QD", "QS", "6S", "AC"]}
    state, _, rng = start(hands, face_up="3S", stock=["AD", "7H"])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    before, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, _ = apply(before, CallYaniv(0), rng)
    last = view(state, 1)["last_round"]
    assert last == {
        "round": 1,
        "caller": 0,
        "outcome": "yaniv",
        "hands": {"0": ["AS", "2S", "X1", "X2", "AD"], "1": ["KS", "6S", "AC", "7H"]},
        "hand_totals": [4, 24],
        "points": [0, 24],
        "totals": [0, 24],
        "eliminated": [],
        "next_starter": 0,
    }
    assert view(state, 1)["seats"][1]["score"] == 24


def test_a_finished_game_shows_standings_and_nothing_to_take() -> None:
    hands = {0: ["AS", "2S", "X1", "X2", "KD"], 1: ["KS", "QD", "QS", "6S", "AC"]}
    state, _, rng = start(hands, face_up="3S", stock=["AD", "7H"])
    state = with_totals(state, [0, 90])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    state, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, _ = apply(state, CallYaniv(0), rng)
    seen = view(state, None)
    assert seen["status"] == "finished"
    assert seen["turn"] is None
    assert seen["standings"] == [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}]
    assert seen["discard"]["takeable"] == []
    assert seen["seats"][1]["eliminated"]
    assert seen["seats"][1]["out_round"] == 1
