"""The CPU (hard, which medium and expert build on) plays docs/rules.md §12 sensibly: it knows the
values, the wild rank, final turns and sevens, and uses what the spy queen showed it."""

from typing import Any

from games.engine.cards import full_deck
from games.engine.state import CallYaniv, GameState, Play
from tests.games.engine.test_cpu import decide, played, position

OPPONENT = ["KD", "QD", "JD", "TD", "9D"]


def with_state(state: GameState, **changes: Any) -> GameState:
    """``state`` with stored fields changed (the wild card, the caller, what was spied)."""
    return GameState.from_dict({**state.to_dict(), **changes})


def thrown(
    hand: list[str], rules: dict[str, Any] | None = None, **changes: Any
) -> set[tuple[str, ...]]:
    state = with_state(position([hand, OPPONENT], ["4C"], rules=rules), **changes)
    return {tuple(played(decide(state, seed)).cards) for seed in range(8)}


def test_it_knows_the_values() -> None:
    assert ("JS",) in thrown(["JS", "9H", "AS", "2D"])
    assert thrown(["JS", "9H", "AS", "2D"], {"values": "jacks_zero"}) == {("9H",)}
    # A joker on the discard is worth taking at 0, not at 20.
    hands = [["9H", "AS", "2D"], OPPONENT]
    assert played(decide(position(hands, ["X1"]))).draw == "X1"
    assert played(decide(position(hands, ["X1"], rules={"joker_value": 20}))).draw == "stock"


def test_it_keeps_the_wild_rank_worth_nothing() -> None:
    assert thrown(["5H", "4D", "AS", "2C"]) == {("5H",)}
    assert thrown(["5H", "4D", "AS", "2C"], {"wild_rank": True}, wild="5S") == {("4D",)}


def test_it_prefers_throwing_sevens_when_they_hurt_the_others() -> None:
    assert ("8S",) in thrown(["7H", "8S", "AS", "2D", "3C"])
    assert thrown(["7H", "8S", "AS", "2D", "3C"], {"sevens": True}) == {("7H",)}


def test_on_its_final_turn_it_plays_for_the_total_now() -> None:
    hands = [["7S", "8S", "KD"], ["KH", "QD", "8D", "TD", "9D"]]
    # Mid-round it takes the nine for a run next turn; on its final turn the stock's mean is
    # lower than the nine, and there is no next turn.
    assert played(decide(position(hands, ["9S"]))).draw == "9S"
    final = with_state(position(hands, ["9S"], rules={"final_turns": True}), caller=1)
    assert played(decide(final)).draw == "stock"


def test_a_call_is_weighed_against_the_others_extra_turn() -> None:
    hands = [["2S", "3H"], ["8C", "9C", "TC"]]
    # Some way into the round (twenty cards in the pile), 5 against three unknown cards.
    rest = [card for card in full_deck(2) if card not in {*hands[0], *hands[1], "KC"}]
    pile, stock = rest[:20], rest[20:]
    assert decide(position(hands, ["KC"], pile=pile, stock=stock)) == CallYaniv(0)
    # Under final turns each of them first throws its highest card and draws: too risky.
    final = position(hands, ["KC"], rules={"final_turns": True}, pile=pile, stock=stock)
    assert all(isinstance(decide(final, seed), Play) for seed in range(10))


def test_it_uses_what_the_spy_queen_showed_it() -> None:
    state = position([["2S", "3H"], ["KD"]], ["9C"], rules={"spy_queen": True})
    # One unknown card could well be 5 or less: no call.
    assert all(isinstance(decide(state, seed), Play) for seed in range(20))
    # The spy saw the king: the call is safe.
    assert decide(with_state(state, spied=[[None, ["KD"]], None])) == CallYaniv(0)
