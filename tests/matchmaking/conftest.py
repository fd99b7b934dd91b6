from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from django.core.cache import cache

from accounts.models import Player
from matchmaking import services
from matchmaking.models import Ticket
from ratings import selectors as ratings_selectors

# The real Celery worker (in a thread, on the real Redis broker) that the games tests use.
from tests.games.conftest import celery_worker  # noqa: F401

TICKETS = "/api/v1/matchmaking/tickets/"


@pytest.fixture(autouse=True)
def _no_cpu_fill(settings: Any) -> None:
    """The queue as humans alone make it: the tests of CPU fills (test_cpu_fill.py) turn
    YANIV_QUEUE_CPU_FILL_SECONDS back on."""
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 0


@pytest.fixture(autouse=True)
def _no_pass_request_pending() -> None:
    """A pass requested by an earlier test (at most one a second) must not hide this test's."""
    cache.delete(services.TRIGGER_FLAG)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Socket messages leaving matchmaking, as (group, message)."""
    log: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(
        services, "send_to_group", lambda group, message: log.append((group, message))
    )
    return log


@pytest.fixture
def passes_requested(monkeypatch: pytest.MonkeyPatch) -> list[None]:
    """Passes requested of Celery (none actually sent)."""
    log: list[None] = []
    monkeypatch.setattr("matchmaking.tasks.matchmaking_pass.delay", lambda: log.append(None))
    return log


@pytest.fixture
def set_ordinals(monkeypatch: pytest.MonkeyPatch) -> Callable[[dict[Player, float]], None]:
    """`set_ordinals({player: ordinal})`: the ordinals the pass reads for these players."""

    def set_them(by_player: dict[Player, float]) -> None:
        real = ratings_selectors.player_ratings

        def player_ratings(player_ids: Iterable[Any]) -> dict[Any, Any]:
            ratings = real(player_ids)
            for player, ordinal in by_player.items():
                if player.pk in ratings:
                    ratings[player.pk] = {**ratings[player.pk], "ordinal": ordinal}
            return ratings

        monkeypatch.setattr("matchmaking.selectors.player_ratings", player_ratings)

    return set_them


def queue(player: Player, counts: list[int] | None = None) -> Ticket:
    return services.ticket_create(player=player, player_counts=counts or [2, 3, 4, 5])
