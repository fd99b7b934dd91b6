"""Seasons' tests: rated games at chosen times, and a clock held still (time-machine), so that
ageing's UTC days and a season's end are where each test puts them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Game
from games.services.rating import game_rate
from seasons.models import Season
from seasons.services import season_current

# Finished games to rate and the accounts tests' API clients, which record every response and
# check it for secrets (fixtures: pytest finds them by these names).
from tests.accounts.conftest import (  # noqa: F401
    _responses_leak_no_secrets,
    api_client,
    client_for,
    guest,
    guest_client,
    issue_token,
    issued_secrets,
    response_log,
)
from tests.games.conftest import Places, make_game, players  # noqa: F401

# Noon, mid-year: every test's "now"; its games end in the hours before.
NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)

Play = Callable[..., Game]


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def play(make_game, clock) -> Play:  # noqa: F811
    """`play(places, at)`: a ranked game that ended `at`, rated as its task would rate it."""

    def rated(places: Places, at: datetime, *, rate: bool = True) -> Game:
        game = make_game(places, finished_at=at)
        if rate:
            game_rate(game_id=game.pk)
        return game

    return rated


@pytest.fixture
def season_one(clock) -> Season:
    """The first season, begun a week ago, ending at 11:00 today (an hour before NOW)."""
    season = season_current(now=NOW - timedelta(days=7))
    season.ends_at = NOW - timedelta(hours=1)
    season.save(update_fields=["ends_at"])
    return season
