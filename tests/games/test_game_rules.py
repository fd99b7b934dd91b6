"""A game's rules (games/game_rules.py): the engine's house rules plus the turn limit, split in one
place."""

import importlib
from typing import Any

import pytest
from django.db import connection

from games.engine.errors import InvalidRules
from games.engine.record import record_from_events, replay
from games.engine.rules import Ending, Rules
from games.engine.state import GameState, start_game
from games.game_rules import TURN_SECONDS_CHOICES, GameRules, record_rules
from games.models import Game
from tests.games.engine.support import Scripted
from tests.games.engine.test_rules import DEFAULTS as ENGINE_DEFAULTS

# The engine's house rules and the clock's one key.
DEFAULTS = {**ENGINE_DEFAULTS, "turn_seconds": None}


def test_defaults_follow_the_rules_table() -> None:
    assert GameRules().to_dict() == DEFAULTS
    assert GameRules.parse({}) == GameRules()
    assert TURN_SECONDS_CHOICES == (None, 30, 60)


def test_parse_splits_the_house_rules_from_the_clock() -> None:
    chosen = {**DEFAULTS, "call_limit": 7, "ending": "first_over_100", "turn_seconds": 60}
    table = GameRules.parse(chosen)
    assert table.rules == Rules(call_limit=7, ending=Ending.FIRST_OVER_100)
    assert table.turn_seconds == 60
    assert table.to_dict() == chosen
    assert GameRules.parse(table.to_dict()) == table


@pytest.mark.parametrize("seconds", [None, 30, 60])
def test_every_turn_limit_choice_is_accepted(seconds: int | None) -> None:
    assert GameRules.parse({"turn_seconds": seconds}).turn_seconds == seconds


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"turn_seconds": 45}, "turn_seconds must be one of null, 30, 60"),
        ({"turn_seconds": 30.0}, "turn_seconds"),
        ({"turn_seconds": True}, "turn_seconds"),
        ({"colour": "red", "turn_seconds": 30}, "unknown rule 'colour'"),
        # A bad house rule is named before a bad limit, as when both were one list of checks.
        ({"turn_seconds": 45, "ending": "never"}, "ending"),
        (["turn_seconds"], "rules must be an object"),
    ],
)
def test_bad_game_rules_are_refused_with_a_reason(data: Any, words: str) -> None:
    with pytest.raises(InvalidRules, match=words):
        GameRules.parse(data)


def test_a_stored_ranked_limit_may_lie_outside_the_choices() -> None:
    stored = GameRules(turn_seconds=45).to_dict()
    table = GameRules.stored(stored)
    assert table == GameRules(Rules(), 45)
    # The record shows no limit rather than one that no record may hold.
    assert table.for_record().to_dict() == DEFAULTS
    assert GameRules.stored({**stored, "turn_seconds": 60}).for_record().turn_seconds == 60


def test_a_record_carries_the_game_rules_and_replays_by_them() -> None:
    table = GameRules(Rules(call_limit=7), 30)
    _, events = start_game(2, table.rules, Scripted(starter=0))
    record = record_from_events(table, 2, events)
    assert record["rules"] == {**table.rules.to_dict(), "turn_seconds": 30}
    assert replay(record, record_rules) == {
        "status": "in_progress",
        "rounds": [],
        "standings": None,
    }
    record["rules"]["turn_seconds"] = 45
    assert replay(record, record_rules)["error"] == (
        "invalid rules: turn_seconds must be one of null, 30, 60"
    )


@pytest.mark.django_db
def test_the_migration_takes_the_clock_out_of_stored_states() -> None:
    state, _ = start_game(3, Rules(call_limit=7), Scripted(starter=1))
    old = state.to_dict()
    old["rules"] = {**old["rules"], "turn_seconds": None}  # as states were stored before
    game = Game.objects.create(max_players=3, rules=GameRules().to_dict(), state=old)
    waiting = Game.objects.create(max_players=2, rules=GameRules().to_dict())
    with pytest.raises(InvalidRules, match="turn_seconds"):
        GameState.from_dict(old)

    migration = importlib.import_module("games.migrations.0004_state_rules_without_clock")
    with connection.cursor() as cursor:
        cursor.execute(migration.FORWARD)

    game.refresh_from_db()
    assert game.state is not None
    assert GameState.from_dict(game.state).to_dict() == state.to_dict()
    waiting.refresh_from_db()
    assert waiting.state is None
