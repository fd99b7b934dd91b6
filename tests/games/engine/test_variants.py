"""docs/rules.md §12, key by key: records built by hand from the rule text, each with the summary
worked out by hand beside it, and the engine's handling of what records never show (forced
draws, the spy queen's sight, what a seat is known to hold with two decks)."""

import random
from typing import Any

import pytest

from games.engine.errors import IllegalMove
from games.engine.groups import group_error
from games.engine.moves import legal_draws, legal_groups, legal_moves
from games.engine.record import RECORD_FORMAT, replay
from games.engine.rules import Rules
from games.engine.state import STOCK, CallYaniv, GameState, Play, apply, start_game
from games.engine.view import view
from tests.games.engine.support import Scripted, deal_deck


def record(
    rules: dict[str, Any], players: int, *rounds: tuple[int, list[str], list[dict[str, Any]]]
) -> dict[str, Any]:
    """A record of ``rounds``, each ``(starter, deck, actions)``."""
    return {
        "format": RECORD_FORMAT,
        "rules": rules,
        "players": players,
        "rounds": [
            {"starter": starter, "deck": deck, "actions": actions}
            for starter, deck, actions in rounds
        ],
    }


def play(seat: int, discard: list[str], draw: str = STOCK) -> dict[str, Any]:
    return {"seat": seat, "discard": discard, "draw": draw}


def call(seat: int) -> dict[str, Any]:
    return {"seat": seat, "yaniv": True}


def one_round(
    rules: dict[str, Any],
    hands: dict[int, list[str]],
    face_up: str,
    stock: list[str],
    actions: list[dict[str, Any]],
    *,
    starter: int = 0,
    wild: str | None = None,
) -> dict[str, Any]:
    deck = deal_deck(Rules.from_dict(rules), hands, starter, face_up, stock, wild=wild)
    return record(rules, len(hands), (starter, deck, actions))


def summary(*rounds: dict[str, Any], standings: list[tuple[int, int]] | None = None) -> Any:
    return {
        "status": "in_progress" if standings is None else "finished",
        "rounds": list(rounds),
        "standings": None if standings is None else [{"seat": s, "place": p} for s, p in standings],
    }


def ended(
    caller: int,
    outcome: str,
    hand_totals: list[int],
    points: list[int],
    totals: list[int],
    next_starter: int | None,
    eliminated: tuple[int, ...] = (),
    **wild: str,
) -> dict[str, Any]:
    return {
        "caller": caller,
        "outcome": outcome,
        "hand_totals": hand_totals,
        "points": points,
        "totals": totals,
        "eliminated": list(eliminated),
        "next_starter": next_starter,
        **wild,
    }


def error(reason: str, round_index: int, action: int) -> dict[str, Any]:
    return {"error": reason, "round": round_index, "action": action}


# hand_size 7, values faces_high, call_limit 15 (dhumbal's numbers, without its preset).
FACES = {"hand_size": 7, "values": "faces_high", "call_limit": 15}
FACES_RECORD = one_round(
    FACES,
    {
        0: ["AS", "2D", "3C", "4H", "5S", "JD", "KD"],  # 1+2+3+4+5+11+13 = 39
        1: ["QS", "QH", "9C", "8D", "7S", "6C", "TC"],  # 12+12+9+8+7+6+10 = 64
    },
    "2C",
    ["AH", "AD", "2H", "AC", "3H"],
    [
        play(0, ["KD"]),  # draws AH: AS 2D 3C 4H 5S JD AH = 27
        play(1, ["QS", "QH"]),  # draws AD: 9C 8D 7S 6C TC AD = 41
        play(0, ["JD"]),  # draws 2H: AS 2D 3C 4H 5S AH 2H = 18
        play(1, ["TC"], "JD"),  # takes the jack (11): 9C 8D 7S 6C AD JD = 42
        play(0, ["5S"]),  # draws AC: AS 2D 3C 4H AH 2H AC = 14
        play(1, ["9C"]),  # draws 3H: 8D 7S 6C AD JD 3H = 36
        call(0),  # 14 <= 15 calls; 36 > 14: Yaniv stands
    ],
)


def test_seven_cards_faces_high_and_a_call_at_fifteen() -> None:
    assert replay(FACES_RECORD) == summary(ended(0, "yaniv", [14, 36], [0, 36], [0, 36], 0))
    # Seven cards a hand: a five-card deal of the same deck breaks at once.
    assert replay({**FACES_RECORD, "rules": {**FACES, "hand_size": 5}})["round"] == 0


# Counterclockwise: deals and turns go 0, 2, 1; the tie for lowest goes to the first of them
# counterclockwise from the caller.
COUNTER = {"direction": "counterclockwise"}
COUNTER_RECORD = one_round(
    COUNTER,
    {
        0: ["AS", "AH", "2S", "KC", "KD"],
        1: ["3C", "2D", "9S", "9D", "9C"],
        2: ["AD", "2C", "2H", "KS", "KH"],
    },
    "AC",
    ["X1", "X2"],
    [
        play(0, ["KC", "KD"], "AC"),  # AS AH 2S AC = 5
        play(2, ["KS", "KH"]),  # draws X1: AD 2C 2H X1 = 5
        play(1, ["9S", "9D", "9C"]),  # draws X2: 3C 2D X2 = 5
        call(0),  # 5; seats 2 and 1 have 5 too: Assaf, 5 + 30 = 35
    ],
)


def test_counterclockwise_turns_and_starters() -> None:
    # Both others tie at 5: counterclockwise from seat 0, seat 2 comes first and starts.
    assert replay(COUNTER_RECORD) == summary(
        ended(0, "assaf", [5, 5, 5], [35, 5, 5], [35, 5, 5], 2)
    )
    clockwise = {**COUNTER_RECORD, "rules": {}}
    # Clockwise, seat 1 plays second (and holds seat 2's cards).
    assert replay(clockwise) == error("not your turn", 0, 1)


def test_counterclockwise_refuses_the_clockwise_seat() -> None:
    broken = COUNTER_RECORD | {"rounds": [dict(COUNTER_RECORD["rounds"][0])]}
    actions = broken["rounds"][0]["actions"] = list(broken["rounds"][0]["actions"])
    actions[1], actions[2] = actions[2], actions[1]
    assert replay(broken) == error("not your turn", 0, 1)


# Jacks worth 0 and jokers worth 20.
JACKS = {"values": "jacks_zero", "joker_value": 20}
JACKS_RECORD = one_round(
    JACKS,
    {0: ["JH", "JS", "AS", "2S", "X1"], 1: ["5S", "5H", "5D", "5C", "KS"]},
    "9H",
    ["JC"],
    [
        play(0, ["X1"]),  # draws JC: JH JS AS 2S JC = 0+0+1+2+0 = 3
        play(1, ["5S", "5H", "5D", "5C"], "X1"),  # KS X1 = 10 + 20 = 30
        call(0),  # 3 <= 5; 30 > 3: Yaniv stands
    ],
)


def test_jacks_zero_and_jokers_twenty() -> None:
    assert replay(JACKS_RECORD) == summary(ended(0, "yaniv", [3, 30], [0, 30], [0, 30], 0))
    # With standard values seat 0 holds 23 at its call.
    assert replay({**JACKS_RECORD, "rules": {"joker_value": 20}}) == error(
        "yaniv above limit", 0, 2
    )


# Drawing from anywhere in the last group.
ANY = {"draw_from": "any_of_last"}
ANY_RECORD = one_round(
    ANY,
    {0: ["4H", "5H", "6H", "AS", "AD"], 1: ["KS", "KD", "QS", "QD", "2S"]},
    "9C",
    ["2C"],
    [
        play(0, ["4H", "5H", "6H"]),  # draws 2C: AS AD 2C = 4
        play(1, ["KS", "KD"], "5H"),  # the middle card: QS QD 2S 5H = 27
        call(0),  # 4; 27 > 4: Yaniv stands
    ],
)


def test_the_middle_of_the_last_group_may_be_drawn() -> None:
    assert replay(ANY_RECORD) == summary(ended(0, "yaniv", [4, 27], [0, 27], [0, 27], 0))
    assert replay({**ANY_RECORD, "rules": {}}) == error("untakeable draw", 0, 1)


# Final turns: the caller's hand is frozen, the others play once more, then the round is scored.
FINAL = {"final_turns": True}
FINAL_RECORD = one_round(
    FINAL,
    {
        0: ["AS", "AH", "2S", "KC", "KD"],
        1: ["QS", "QH", "QC", "2H", "3H"],
        2: ["TS", "TD", "8S", "8D", "4D"],
    },
    "AC",
    ["4C", "AD", "X1"],
    [
        play(0, ["KC", "KD"], "AC"),  # AS AH 2S AC = 5
        play(1, ["QS", "QH", "QC"]),  # draws 4C: 2H 3H 4C = 9
        play(2, ["TS", "TD"]),  # draws AD: 8S 8D 4D AD = 21
        call(0),  # 5: frozen
        play(1, ["4C"]),  # final turn, draws X1: 2H 3H X1 = 5
        play(2, ["8S", "8D"], "4C"),  # final turn: 4D AD 4C = 9
        # Scored now: seat 1's 5 <= 5 is an Assaf: 5 + 30 = 35; seat 1 starts next.
    ],
)


def test_final_turns_score_the_hands_after_the_last_turn() -> None:
    assert replay(FINAL_RECORD) == summary(ended(0, "assaf", [5, 5, 9], [35, 5, 9], [35, 5, 9], 1))
    # Without final turns the call ends the round: nothing may follow it.
    assert replay({**FINAL_RECORD, "rules": {}}) == error("round already ended", 0, 4)


def test_in_final_turns_the_caller_is_skipped_and_nobody_calls() -> None:
    broken = one_round(FINAL, *_final_parts(extra=[call(1)]))
    assert replay(broken) == error("no call in final turns", 0, 4)
    broken = one_round(FINAL, *_final_parts(extra=[play(0, ["AS"])]))
    assert replay(broken) == error("not your turn", 0, 4)


def _final_parts(extra: list[dict[str, Any]]) -> tuple[Any, ...]:
    rounds = FINAL_RECORD["rounds"][0]
    hands = {0: rounds["deck"][0:15:3], 1: rounds["deck"][1:15:3], 2: rounds["deck"][2:15:3]}
    return hands, "AC", ["4C", "AD", "X1"], [*rounds["actions"][:4], *extra]


def test_the_first_final_turn_draws_from_the_group_before_the_call() -> None:
    hands = {0: ["AS", "AH", "2S", "KC", "KD"], 1: ["QS", "QH", "QC", "2H", "3H"]}
    deck = deal_deck(Rules(final_turns=True), hands, 0, "AC", ["4C"])
    state, _ = start_game(2, Rules(final_turns=True), Scripted(deck))
    state, _ = apply(state, Play(0, ["KC", "KD"], "AC"), Scripted())
    state, _ = apply(state, Play(1, ["QS", "QH", "QC"], STOCK), Scripted())
    state, events = apply(state, CallYaniv(0), Scripted())
    assert [event["type"] for event in events] == ["yaniv_called"]
    # Two players: seat 1's one final turn, with seat 1's own queens as the last group.
    assert state.turn == 1
    assert state.caller == 0
    assert legal_draws(state) == [STOCK, "QS", "QC"]
    assert not state.can_call_yaniv(1)
    assert view(state, 1)["caller"] == 0
    state, events = apply(state, Play(1, ["2H"], "QS"), Scripted(list(reversed(deck))))
    assert [event["type"] for event in events] == ["played", "round_ended", "round_started"]
    # AS AH 2S AC = 5 against 3H 4C QS = 17: the call stands.
    assert events[1]["points"] == [0, 17]


# No call on the first turn.
FIRST = {"first_turn_call": False}
FIRST_HANDS = {0: ["AS", "AH", "2S", "X1", "X2"], 1: ["KS", "KH", "KD", "5C", "6C"]}


def test_no_call_on_the_first_turn() -> None:
    # Seat 0 holds 4 at the deal, but may not call before its second turn.
    early = one_round(FIRST, FIRST_HANDS, "9D", [], [call(0)])
    assert replay(early) == error("no call on the first turn", 0, 0)
    assert replay({**early, "rules": {}}) == summary(
        ended(0, "yaniv", [4, 41], [0, 41], [0, 41], 0)  # KS KH KD 5C 6C
    )
    later = one_round(
        FIRST,
        FIRST_HANDS,
        "9D",
        ["AD", "7C"],
        [
            play(0, ["2S"]),  # draws AD: AS AH X1 X2 AD = 3
            play(1, ["KS", "KH", "KD"]),  # draws 7C: 5C 6C 7C = 18
            call(0),  # its second turn: 3, and 18 > 3
        ],
    )
    assert replay(later) == summary(ended(0, "yaniv", [3, 18], [0, 18], [0, 18], 0))


# An Assaf costs twice the highest other hand.
TWICE = {"assaf_penalty_rule": "twice_highest"}
TWICE_RECORD = one_round(
    TWICE,
    {
        0: ["AS", "AH", "2S", "KC", "KD"],
        1: ["AD", "3D", "QS", "QH", "QC"],
        2: ["KS", "KH", "9S", "4C", "3C"],
    },
    "AC",
    ["X1", "7D"],
    [
        play(0, ["KC", "KD"], "AC"),  # AS AH 2S AC = 5
        play(1, ["QS", "QH", "QC"]),  # draws X1: AD 3D X1 = 4
        play(2, ["KS", "KH"]),  # draws 7D: 9S 4C 3C 7D = 23
        call(0),  # 5; seat 1 has 4: Assaf, 5 + 2 x 23 = 51
    ],
)


def test_twice_the_highest_hand() -> None:
    assert replay(TWICE_RECORD) == summary(
        ended(0, "assaf", [5, 4, 23], [51, 4, 23], [51, 4, 23], 1)
    )
    assert replay({**TWICE_RECORD, "rules": {}})["rounds"][0]["points"] == [35, 4, 23]


# The wild card: turned after the face-up card, out of play; its rank scores 0 and is
# joker-like in runs.
WILD = {"wild_rank": True}
WILD_RECORD = one_round(
    WILD,
    {0: ["3C", "5H", "5D", "KS", "KD"], 1: ["8C", "9C", "5C", "2S", "2H"]},
    "QH",
    ["AS", "4H"],
    [
        play(0, ["KS", "KD"]),  # draws AS: 3C 5H 5D AS = 3+0+0+1 = 4
        play(1, ["8C", "9C", "5C"]),  # 8-9-10 of clubs, the wild 5C standing for the ten
        # draws 4H: 2S 2H 4H = 8
        call(0),  # 4; 8 > 4: Yaniv stands
    ],
    wild="5S",
)


def test_the_wild_rank() -> None:
    assert replay(WILD_RECORD) == summary(ended(0, "yaniv", [4, 8], [0, 8], [0, 8], 0, wild="5S"))
    # Without the wild rank 5S is the top of the stock, and 8C 9C 5C no run.
    assert replay({**WILD_RECORD, "rules": {}}) == error("not consecutive ascending", 0, 1)


def test_the_wild_rank_in_groups() -> None:
    assert group_error(["5S", "6H", "7H"], 5) is None  # 5S stands for 5H
    assert group_error(["6H", "5S", "8H"], 5) is None  # ... or for 7H
    assert group_error(["5S", "5D", "6H"], 5) is None  # 4-5-6, both fives wild
    assert group_error(["5S", "5D", "5H"], 5) is None  # a set of the wild rank
    assert group_error(["5S", "X1", "5D"], 5) is not None  # no natural card: no run, no set
    assert group_error(["6H", "6S", "5D"], 5) is not None  # in a set only its own rank
    assert group_error(["5S", "6H", "7H"]) is not None
    groups = legal_groups(["5S", "6H", "7H", "X1"], 5)
    assert ("5S", "6H", "7H") in groups
    assert ("6H", "7H", "5S") in groups
    assert ("X1", "6H", "7H", "5S") in groups
    assert all(group_error(group, 5) is None for group in groups)


def test_a_joker_for_wild_card_makes_no_rank_wild() -> None:
    rules = Rules(wild_rank=True)
    hands = {0: ["3C", "5H", "5D", "KS", "KD"], 1: ["8C", "9C", "5C", "2S", "2H"]}
    state, events = start_game(2, rules, Scripted(deal_deck(rules, hands, 0, "QH", wild="X2")))
    assert events[0]["wild"] == "X2"
    assert state.wild == "X2"
    assert state.setup.wild_rank == 0
    assert state.hand_total(0) == 3 + 5 + 5 + 10 + 10
    assert "X2" not in state.stock
    assert view(state, None)["wild"] == "X2"


# Sevens: each seven discarded makes every other active player draw one card, in turn order.
SEVENS = {"sevens": True}
SEVENS_RECORD = one_round(
    SEVENS,
    {
        0: ["7H", "7S", "AS", "AD", "2C"],
        1: ["9S", "9H", "3C", "3H", "4C"],
        2: ["TD", "TC", "8S", "8D", "6C"],
    },
    "KC",
    ["AH", "KS", "KH", "QS", "QH", "2H", "2D"],
    [
        play(0, ["7H", "7S"]),  # draws AH: AS AD 2C AH = 5; then seat 1 draws KS, seat 2 KH,
        # seat 1 QS, seat 2 QH
        play(1, ["9S", "9H"]),  # draws 2H: 3C 3H 4C KS QS 2H = 32
        play(2, ["TD", "TC"]),  # draws 2D: 8S 8D 6C KH QH 2D = 44
        call(0),  # 5: Yaniv stands
    ],
)


def test_sevens_make_the_others_draw() -> None:
    assert replay(SEVENS_RECORD) == summary(
        ended(0, "yaniv", [5, 32, 44], [0, 32, 44], [0, 32, 44], 0)
    )
    # Without sevens seat 1 draws KS and seat 2 KH: 3C 3H 4C KS = 20, 8S 8D 6C KH = 32.
    assert replay({**SEVENS_RECORD, "rules": {}}) == summary(
        ended(0, "yaniv", [5, 20, 32], [0, 20, 32], [0, 20, 32], 0)
    )


def _sevens_state(rules: Rules) -> GameState:
    hands = {
        0: ["7H", "7S", "AS", "AD", "2C"],
        1: ["9S", "9H", "3C", "3H", "4C"],
        2: ["TD", "TC", "8S", "8D", "6C"],
    }
    state, _ = start_game(3, rules, Scripted(deal_deck(rules, hands, 0, "KC", ["AH"])))
    return state


def test_forced_draws_are_events_private_to_the_drawer_and_reshuffle_at_once() -> None:
    state = _sevens_state(Rules(sevens=True))
    # Three cards left: the discarder's draw and two forced draws empty the stock.
    state = state.replace(stock=("AH", "KS", "KH"), stock_pos=0, pile=("QS", "QH", "JD"))
    rng = Scripted(["JD", "QS", "QH", "KC"])
    state, events = apply(state, Play(0, ["7H", "7S"], STOCK), rng)
    assert [(event["type"], event.get("seat")) for event in events] == [
        ("played", 0),
        ("forced_draw", 1),
        ("forced_draw", 2),
        ("reshuffled", None),
        ("forced_draw", 1),
        ("forced_draw", 2),
    ]
    assert [event["drawn"] for event in events if event["type"] == "forced_draw"] == [
        "KS",
        "KH",
        "JD",
        "QS",
    ]
    # The pile and the face-up card under the sevens went into the new stock; the sevens stay.
    assert rng.shuffled == [["QS", "QH", "JD", "KC"]]
    assert events[3]["stock"] == ["JD", "QS", "QH", "KC"]
    assert state.group == ("7H", "7S")
    assert state.hands[1][-2:] == ("KS", "JD")
    assert state.stock[state.stock_pos :] == ("QH", "KC")
    # Nobody sees another seat's forced draws.
    assert "JD" not in str(view(state, 2))
    assert "JD" in view(state, 1)["you"]["hand"]


def test_forced_draws_stop_when_stock_and_pile_are_empty() -> None:
    state = _sevens_state(Rules(sevens=True))
    state = state.replace(stock=("AH", "KS"), stock_pos=0, pile=())
    state, events = apply(state, Play(0, ["7H", "7S"], STOCK), Scripted())
    # The discarder's draw leaves one card and the face-up KC in the pile: KS is drawn, the pile
    # reshuffled, KC drawn; then nothing is left for the two last draws.
    kinds = [event["type"] for event in events]
    assert kinds == ["played", "forced_draw", "reshuffled", "forced_draw"]
    assert state.stock_count == 0
    assert legal_draws(state) == ["7H", "7S"]
    with pytest.raises(IllegalMove, match="stock empty"):
        apply(state, Play(1, ["9S"], STOCK), Scripted())
    # A draw from the group with the stock empty and the pile filled reshuffles at once.
    state, events = apply(state, Play(1, ["9S", "9H"], "7S"), Scripted())
    assert [event["type"] for event in events] == ["played", "reshuffled"]
    assert state.stock[state.stock_pos :] == ("7H",)


def test_forced_draws_skip_the_frozen_caller() -> None:
    rules = Rules(sevens=True, final_turns=True)
    hands = {
        0: ["AS", "AH", "2S", "KC", "KD"],
        1: ["7S", "7D", "QC", "2H", "3H"],
        2: ["TS", "TD", "8S", "8D", "4D"],
    }
    deck = deal_deck(rules, hands, 0, "AC", ["4C", "AD", "JS", "JH"])
    state, _ = start_game(3, rules, Scripted(deck))
    for action in (Play(0, ["KC", "KD"], "AC"), Play(1, ["QC"], STOCK), Play(2, ["TS"], STOCK)):
        state, _ = apply(state, action, Scripted())
    state, _ = apply(state, CallYaniv(0), Scripted())
    state, events = apply(state, Play(1, ["7S", "7D"], STOCK), Scripted())
    # Seat 2 draws twice, seat 0 (frozen) never.
    assert [event["seat"] for event in events if event["type"] == "forced_draw"] == [2, 2]
    assert len(state.hands[0]) == 4


def test_the_spy_queen_shows_the_hands_to_the_spy_alone() -> None:
    rules = Rules(spy_queen=True, sevens=True)
    hands = {
        0: ["QD", "7H", "AS", "AD", "2C"],
        1: ["9S", "9H", "3C", "3H", "4C"],
        2: ["TD", "TC", "8S", "8D", "6C"],
    }
    state, _ = start_game(3, rules, Scripted(deal_deck(rules, hands, 0, "KC", ["AH", "KS", "KH"])))
    assert view(state, 0)["you"]["spied"] is None
    state, events = apply(state, Play(0, ["QD"], STOCK), Scripted())
    assert events[-1] == {
        "type": "spied",
        "seat": 0,
        "hands": {"1": ["9S", "9H", "3C", "3H", "4C"], "2": ["TD", "TC", "8S", "8D", "6C"]},
    }
    # A seven and the queen at once would need a run: the sight comes after the forced draws.
    assert view(state, 0)["you"]["spied"] == events[-1]["hands"]
    assert view(state, 1)["you"]["spied"] is None
    assert "spied" not in str(view(state, None))
    state, _ = apply(state, Play(1, ["9S", "9H"], STOCK), Scripted())
    # Seat 1 discarded two of the cards seen: the spy no longer knows of them.
    assert view(state, 0)["you"]["spied"]["1"] == ["3C", "3H", "4C"]
    assert "spied" not in view(start_game(3, Rules(), Scripted())[0], 0)["you"]


def test_the_spy_sees_after_the_forced_draws() -> None:
    rules = Rules(spy_queen=True, sevens=True, hand_size=7)
    hands = {
        0: ["7D", "8D", "9D", "TD", "JD", "QD", "AS"],
        1: ["9S", "9H", "3C", "3H", "4C", "5C", "6C"],
        2: ["TC", "TS", "8S", "8C", "6S", "6H", "2C"],
    }
    deck = deal_deck(rules, hands, 0, "KC", ["AH", "KS", "KH"])
    state, _ = start_game(3, rules, Scripted(deck))
    state, events = apply(state, Play(0, ["7D", "8D", "9D", "TD", "JD", "QD"], STOCK), Scripted())
    assert [event["type"] for event in events] == ["played", "forced_draw", "forced_draw", "spied"]
    assert events[-1]["hands"] == {"1": [*hands[1], "KS"], "2": [*hands[2], "KH"]}
    assert view(state, 0)["you"]["spied"] == events[-1]["hands"]


# Two decks: every code twice, jokers X1..X4, a set may hold a code twice.
TWO = {"decks": 2}
TWO_RECORD = one_round(
    TWO,
    {
        0: ["5S", "5S", "5H", "X3", "AS"],
        1: ["KS", "KS", "QD", "QD", "2C"],
        2: ["9C", "9D", "8C", "8D", "7C"],
    },
    "JH",
    ["AH"],
    [
        play(0, ["5S", "5S", "5H"]),  # draws AH: X3 AS AH = 2
        play(1, ["KS", "KS"], "5S"),  # takes one 5S: QD QD 2C 5S = 27
        play(2, ["9C"], "KS"),  # 9D 8C 8D 7C KS = 42
        call(0),  # 2: Yaniv stands
    ],
)


def test_two_decks_repeat_codes() -> None:
    assert len(TWO_RECORD["rounds"][0]["deck"]) == 108
    assert replay(TWO_RECORD) == summary(
        ended(0, "yaniv", [2, 27, 42], [0, 27, 42], [0, 27, 42], 0)
    )
    # One deck holds no second 5S (nor X3).
    assert replay({**TWO_RECORD, "rules": {}}) == error("deck not a permutation", 0, 0)
    tripled = [*TWO_RECORD["rounds"][0]["deck"]]
    tripled[tripled.index("2D")] = "5S"
    broken = record(TWO, 3, (0, tripled, TWO_RECORD["rounds"][0]["actions"]))
    assert replay(broken) == error("deck not a permutation", 0, 0)


def test_eight_seats_need_two_decks() -> None:
    assert replay(record({}, 6)) == error("invalid players", 0, 0)
    assert replay(record(TWO, 8)) == summary()
    assert replay(record(TWO, 9)) == error("invalid players", 0, 0)
    with pytest.raises(ValueError, match="2 to 5"):
        start_game(6, Rules(), Scripted())


def test_a_run_never_holds_two_cards_of_one_rank() -> None:
    assert group_error(["4H", "5H", "5H"]) is not None
    assert group_error(["5H", "5H", "5S", "5S", "5D", "5D", "5C", "5C"]) is None
    groups = legal_groups(["5H", "5H", "5S", "5S", "5D", "5D", "5C", "5C"])
    assert len(groups) == len(set(groups))
    assert all(group_error(group) is None for group in groups)
    assert {group[0] for group in groups if len(group) == 8} == {"5H", "5S", "5D", "5C"}


def test_with_two_decks_a_copy_drawn_blind_is_not_known() -> None:
    rules = Rules(decks=2)
    hands = {0: ["5S", "KH", "KD", "9C", "9D"], 1: ["5S", "QH", "QD", "2C", "2D"]}
    deck = deal_deck(rules, hands, 0, "8S", ["JC", "JD"])
    state, _ = start_game(2, rules, Scripted(deck))
    state, _ = apply(state, Play(0, ["5S"], STOCK), Scripted())
    state, _ = apply(state, Play(1, ["QH", "QD"], "5S"), Scripted())
    assert state.known[1] == ("5S",)  # taken face up: holds two, known to hold one
    state, _ = apply(state, Play(0, ["KH", "KD"], STOCK), Scripted())
    state, _ = apply(state, Play(1, ["5S"], STOCK), Scripted())
    # It discarded a 5S: its other 5S came from the deal, unseen.
    assert "5S" in state.hands[1]
    assert state.known[1] == ()
    assert view(state, 0)["seats"][1]["known"] == []


@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        # Round 1: seat 0 calls at 5 and seat 1 holds 3: Assaf, 5 + 95 = 100.
        # Round 2: the same again, 100 more: 200.
        (
            "out_at_200",
            summary(
                ended(0, "assaf", [5, 3], [100, 3], [100, 3], 1),
                ended(0, "assaf", [5, 3], [100, 3], [200, 6], None, (0,)),
                standings=[(1, 1), (0, 2)],
            ),
        ),
        (
            "out_over_200",
            summary(
                ended(0, "assaf", [5, 3], [100, 3], [100, 3], 1),
                ended(0, "assaf", [5, 3], [100, 3], [200, 6], 1),
            ),
        ),
        (
            "first_at_200",
            summary(
                ended(0, "assaf", [5, 3], [100, 3], [100, 3], 1),
                ended(0, "assaf", [5, 3], [100, 3], [200, 6], None),
                standings=[(1, 1), (0, 2)],
            ),
        ),
    ],
)
def test_at_endings_put_the_limit_itself_out(ending: str, expected: dict[str, Any]) -> None:
    assert replay(_two_rounds({"ending": ending})) == expected


def test_out_at_100_ends_on_exactly_100() -> None:
    at = _two_rounds({"ending": "out_at_100"})
    assert replay(at) == error("game over", 1, 0)
    at["rounds"].pop()
    assert replay(at) == summary(
        ended(0, "assaf", [5, 3], [100, 3], [100, 3], None, (0,)), standings=[(1, 1), (0, 2)]
    )
    over = _two_rounds({"ending": "out_over_100"})
    over["rounds"].pop()
    assert replay(over) == summary(ended(0, "assaf", [5, 3], [100, 3], [100, 3], 1))


def _two_rounds(rules: dict[str, Any]) -> dict[str, Any]:
    rules = {**rules, "assaf_penalty": 95, "exact_scores": "none"}
    parsed = Rules.from_dict(rules)
    first = {0: ["AS", "AH", "2S", "KC", "KD"], 1: ["AD", "2D", "QS", "QH", "QC"]}
    second = {1: ["AD", "2D", "QS", "QH", "QC"], 0: ["AS", "AH", "2S", "KC", "KD"]}
    return record(
        rules,
        2,
        (
            0,
            deal_deck(parsed, first, 0, "AC", ["X1"]),
            [
                play(0, ["KC", "KD"], "AC"),  # AS AH 2S AC = 5
                play(1, ["QS", "QH", "QC"]),  # draws X1: AD 2D X1 = 3
                call(0),  # Assaf
            ],
        ),
        (
            1,
            deal_deck(parsed, second, 1, "9C", ["X1", "AC", "2H"]),
            [
                play(1, ["QS", "QH", "QC"]),  # draws X1: AD 2D X1 = 3
                play(0, ["KC", "KD"]),  # draws AC: AS AH 2S AC = 5
                play(1, ["2D"]),  # draws 2H: AD X1 2H = 3
                call(0),  # Assaf again
            ],
        ),
    )


def test_every_move_the_engine_lists_under_every_key_is_legal() -> None:
    rules = Rules.from_dict(
        {"decks": 2, "wild_rank": True, "sevens": True, "spy_queen": True, "hand_size": 8}
    )
    rng = random.Random(5)
    state, _ = start_game(8, rules, rng)
    for _ in range(200):
        if state.finished:
            break
        assert state.turn is not None
        moves = legal_moves(state, state.turn)
        for move in moves:
            apply(state, move, random.Random(0))
        state, _ = apply(state, rng.choice(moves), rng)
