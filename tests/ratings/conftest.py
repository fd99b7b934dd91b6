from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Player
from games.models import Game, GameStatus, Seat
from tests.factories import PlayerFactory

# The real Celery worker of the games tests (a fixture: pytest finds it by this name).
from tests.games.conftest import celery_worker  # noqa: F401

Places = Sequence[tuple[Player | None, int]]


@pytest.fixture
def players(db: None) -> list[Player]:
    return [PlayerFactory.create() for _ in range(6)]


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    """`make_game([(player or None for a CPU, place), ...])`: a finished game's rows, as the
    games app leaves them; each game ends a minute after the one made before it."""
    start, minutes = timezone.now() - timedelta(days=1), itertools.count()

    def make(places: Places, *, ranked: bool = True, **fields: Any) -> Game:
        fields.setdefault("status", GameStatus.FINISHED)
        fields.setdefault("finished_at", start + timedelta(minutes=next(minutes)))
        game = Game.objects.create(ranked=ranked, rules={}, max_players=len(places), **fields)
        Seat.objects.bulk_create(
            Seat(
                game=game, seat=index, player=player, is_cpu=player is None, place=place, live=False
            )
            for index, (player, place) in enumerate(places)
        )
        return game

    return make
