"""Properties of random legal games under random house rules."""

import json
import random
from collections import Counter
from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import full_deck
from games.engine.moves import legal_moves
from games.engine.record import record_from_events, replay
from games.engine.rules import AssafScores, Ending, ExactScores, Rules
from games.engine.state import Action, CallYaniv, EngineEvent, GameState, apply
from games.engine.view import view
from tests.games.engine.support import random_game
from tests.games.engine.test_view import cards_in

rules = st.builds(
    Rules,
    call_limit=st.integers(0, 10),
    assaf_penalty=st.integers(0, 100),
    assaf_scores=st.sampled_from(AssafScores),
    jokers=st.sampled_from([2, 0]),
    exact_scores=st.sampled_from(ExactScores),
    ending=st.sampled_from(Ending),
)
games = {
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 5),
    "rules": rules,
    "yaniv_chance": st.floats(0.1, 1.0),
}
MAX_ACTIONS = 400


def check_cards(state: GameState) -> None:
    everywhere = [card for hand in state.hands for card in hand]
    everywhere += [*state.stock[state.stock_pos :], *state.pile, *state.group]
    assert Counter(everywhere) == Counter(full_deck(state.rules.jokers))
    for seat, known in enumerate(state.known):
        assert set(known) <= set(state.hands[seat])


def check_views(state: GameState) -> None:
    hidden_stock = set(state.stock[state.stock_pos :])
    public = {*state.group, *state.pile, *(card for known in state.known for card in known)}
    for seat in [*range(state.players), None]:
        seen = view(state, seat)
        # The last round's hands are public, and drawn from another deal: leave them out.
        visible = cards_in({key: value for key, value in seen.items() if key != "last_round"})
        own = set() if seat is None else set(state.hands[seat])
        assert visible <= own | public
        assert not visible & hidden_stock


def check_round_trip(state: GameState) -> None:
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data).to_dict() == state.to_dict()


class Pickups:
    """What each seat took face up this round and still holds, followed from the events alone:
    an oracle for ``GameState.known`` that shares no code with it."""

    def __init__(self, players: int) -> None:
        self.held: list[set[str]] = [set() for _ in range(players)]

    def follow(self, events: list[EngineEvent]) -> None:
        for event in events:
            if event["type"] == "round_started":
                self.held = [set() for _ in self.held]
            elif event["type"] == "played":
                mine = self.held[event["seat"]]
                mine.difference_update(event["cards"])
                if event["draw"] != "stock":
                    mine.add(event["drawn"])


def check_step(
    pickups: Pickups, before: GameState, action: Action, after: GameState, events: list[EngineEvent]
) -> None:
    assert events
    check_cards(after)
    assert all(total >= 0 for total in after.totals)
    pickups.follow(events)
    assert [set(cards) for cards in after.known] == pickups.held
    check_views(after)
    check_round_trip(after)


@settings(max_examples=40, deadline=None)
@given(**games)
def test_random_games_keep_every_card_once_and_hide_what_is_hidden(
    seed: int, players: int, rules: Rules, yaniv_chance: float
) -> None:
    state, _ = random_game(
        seed,
        players,
        rules,
        yaniv_chance=yaniv_chance,
        max_actions=MAX_ACTIONS // 2,
        on_action=partial(check_step, Pickups(players)),
    )
    check_cards(state)


@settings(max_examples=60, deadline=None)
@given(**games)
def test_every_generated_legal_move_is_accepted(
    seed: int, players: int, rules: Rules, yaniv_chance: float
) -> None:
    def try_all(
        before: GameState, action: Action, after: GameState, events: list[EngineEvent]
    ) -> None:
        if after.finished or after.turn is None:
            assert legal_moves(after, 0) == []
            return
        moves = legal_moves(after, after.turn)
        assert (CallYaniv(after.turn) in moves) == after.can_call_yaniv(after.turn)
        for move in moves:
            apply(after, move, random.Random(0))
        for seat in range(after.players):
            if seat != after.turn:
                assert legal_moves(after, seat) == []

    random_game(
        seed,
        players,
        rules,
        yaniv_chance=yaniv_chance,
        max_actions=MAX_ACTIONS // 2,
        on_action=try_all,
    )


@settings(max_examples=150, deadline=None)
@given(**games)
def test_export_then_replay_gives_the_live_summary(
    seed: int, players: int, rules: Rules, yaniv_chance: float
) -> None:
    state, events = random_game(
        seed, players, rules, yaniv_chance=yaniv_chance, max_actions=MAX_ACTIONS
    )
    keys = ("caller", "outcome", "hand_totals", "points", "totals", "eliminated", "next_starter")
    live: dict[str, Any] = {
        "status": "finished" if state.finished else "in_progress",
        "rounds": [
            {key: event[key] for key in keys} for event in events if event["type"] == "round_ended"
        ],
        "standings": next(
            (event["standings"] for event in events if event["type"] == "game_ended"), None
        ),
    }
    record = json.loads(json.dumps(record_from_events(rules, players, events)))
    assert replay(record) == live
