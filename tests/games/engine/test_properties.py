"""Properties of random legal games under random house rules (docs/rules.md §9) and random
combinations of the variants' keys (§12), up to the largest table the rules allow."""

import json
import random
from collections import Counter
from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.moves import legal_moves
from games.engine.record import record_from_events, replay
from games.engine.rules import (
    AssafPenaltyRule,
    AssafScores,
    Direction,
    DrawFrom,
    Ending,
    ExactScores,
    Preset,
    Rules,
    Values,
)
from games.engine.state import Action, CallYaniv, EngineEvent, GameState, apply
from games.engine.view import view
from tests.games.engine.support import random_game
from tests.games.engine.test_view import cards_in

rules = st.builds(
    Rules,
    preset=st.sampled_from(Preset),
    call_limit=st.integers(0, 15),
    assaf_penalty=st.integers(0, 100),
    assaf_scores=st.sampled_from(AssafScores),
    jokers=st.sampled_from([2, 0]),
    exact_scores=st.sampled_from(ExactScores),
    ending=st.sampled_from(Ending),
    decks=st.sampled_from([1, 2]),
    hand_size=st.integers(5, 8),
    direction=st.sampled_from(Direction),
    values=st.sampled_from(Values),
    joker_value=st.sampled_from([0, 20]),
    draw_from=st.sampled_from(DrawFrom),
    final_turns=st.booleans(),
    first_turn_call=st.booleans(),
    assaf_penalty_rule=st.sampled_from(AssafPenaltyRule),
    wild_rank=st.booleans(),
    sevens=st.booleans(),
    spy_queen=st.booleans(),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int]:
    """Rules and a number of seats they can deal to (often the most)."""
    chosen = draw(rules)
    most = chosen.max_players
    return chosen, draw(st.one_of(st.just(most), st.integers(2, most)))


games = {"seed": st.integers(0, 2**32 - 1), "table": tables(), "yaniv_chance": st.floats(0.1, 1.0)}
MAX_ACTIONS = 400


def check_cards(state: GameState) -> None:
    everywhere = [card for hand in state.hands for card in hand]
    everywhere += [*state.stock[state.stock_pos :], *state.pile, *state.group]
    if state.wild is not None:
        everywhere.append(state.wild)
    # Every card once per copy of the deck: with two, each natural code twice.
    assert Counter(everywhere) == Counter(state.rules.deck)
    for seat, known in enumerate(state.known):
        assert not Counter(known) - Counter(state.hands[seat])


def check_views(state: GameState, pickups: "Pickups") -> None:
    hidden_stock = set(state.stock[state.stock_pos :])
    public = {*state.group, *state.pile, *(card for known in state.known for card in known)}
    if state.wild is not None:
        public.add(state.wild)
    for seat in [*range(state.players), None]:
        seen = view(state, seat)
        you = seen["you"]
        spied = {} if you is None else you.get("spied") or {}
        # The last round's hands are public, and drawn from another deal: leave them out.
        # What the spy queen showed this seat is checked against the spy's own oracle.
        rest = {key: value for key, value in seen.items() if key not in ("last_round", "you")}
        visible = cards_in(rest)
        assert visible <= public
        if not state.rules.codes_repeat:  # else the other copy of a public code may be there
            assert not visible & hidden_stock
        if you is not None:
            assert you["hand"] == list(state.hands[seat])
            assert set(you) - {"spied"} == {"seat", "hand", "hand_total", "can_call_yaniv"}
        # Codes repeat with two decks: what a seat is known or seen to hold, counted, never
        # exceeds what the events showed.
        for entry in seen["seats"]:
            other = entry["seat"]
            assert Counter(entry["known"]) == pickups.held[other]
        expected = {} if seat is None else pickups.spied_by(seat)
        assert {int(other): Counter(cards) for other, cards in spied.items()} == expected
        for other, cards in spied.items():
            assert not Counter(cards) - Counter(state.hands[int(other)])


def check_round_trip(state: GameState) -> None:
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data).to_dict() == state.to_dict()


class Pickups:
    """What each seat took face up this round and still holds, and what the spy queen showed
    each seat, followed from the events alone (counted: codes repeat with two decks): an
    oracle for ``GameState.known`` and ``you.spied`` that shares no code with them."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.held: list[Counter[str]] = [Counter() for _ in range(players)]
        self.spied: dict[int, dict[int, Counter[str]]] = {}

    def spied_by(self, seat: int) -> dict[int, Counter[str]]:
        return self.spied.get(seat, {})

    def follow(self, events: list[EngineEvent]) -> None:
        for event in events:
            if event["type"] == "round_started":
                self.held = [Counter() for _ in range(self.players)]
                self.spied = {}
            elif event["type"] == "played":
                discarded: Counter[str] = Counter(event["cards"])
                self.held[event["seat"]] -= discarded
                for seen in self.spied.values():
                    if event["seat"] in seen:
                        seen[event["seat"]] -= discarded
                if event["draw"] != "stock":
                    self.held[event["seat"]][event["drawn"]] += 1
            elif event["type"] == "spied":
                self.spied[event["seat"]] = {
                    int(other): Counter(cards) for other, cards in event["hands"].items()
                }


def check_events(before: GameState, events: list[EngineEvent]) -> None:
    """Forced draws follow a discard of sevens, the spy's sight a discard of the spy queen."""
    kinds = [event["type"] for event in events]
    played = events[0] if kinds[0] == "played" else None
    forced = kinds.count("forced_draw")
    if played is None or not before.rules.sevens:
        assert not forced
    else:
        sevens = before.rules.forced_draws(played["cards"])
        others = len(before.active_seats) - 1 - (before.caller is not None)
        assert forced <= sevens * others
    spies = played is not None and before.rules.spies(played["cards"])
    assert kinds.count("spied") == spies
    if before.rules.wild_rank:
        assert all("wild" in event for event in events if event["type"] == "round_started")


def check_step(
    pickups: Pickups, before: GameState, action: Action, after: GameState, events: list[EngineEvent]
) -> None:
    assert events
    check_events(before, events)
    check_cards(after)
    assert all(total >= 0 for total in after.totals)
    pickups.follow(events)
    assert [Counter(cards) for cards in after.known] == pickups.held
    check_views(after, pickups)
    check_round_trip(after)


@settings(max_examples=40, deadline=None)
@given(**games)
def test_random_games_keep_every_card_once_and_hide_what_is_hidden(
    seed: int, table: tuple[Rules, int], yaniv_chance: float
) -> None:
    rules, players = table
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
    seed: int, table: tuple[Rules, int], yaniv_chance: float
) -> None:
    rules, players = table

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
    seed: int, table: tuple[Rules, int], yaniv_chance: float
) -> None:
    rules, players = table
    state, events = random_game(
        seed, players, rules, yaniv_chance=yaniv_chance, max_actions=MAX_ACTIONS
    )
    keys = ("caller", "outcome", "hand_totals", "points", "totals", "eliminated", "next_starter")
    live: dict[str, Any] = {
        "status": "finished" if state.finished else "in_progress",
        "rounds": [
            {key: event[key] for key in keys} | ({"wild": event["wild"]} if rules.wild_rank else {})
            for event in events
            if event["type"] == "round_ended"
        ],
        "standings": next(
            (event["standings"] for event in events if event["type"] == "game_ended"), None
        ),
    }
    record = json.loads(json.dumps(record_from_events(rules, players, events)))
    assert replay(record) == live
