"""Celery tasks: thin, idempotent wrappers around services, each named after the service it
runs; keyed by (game_id, seq), the rematch's by its offer, the rating tasks by game_id alone
(a game is rated once, and rolled back once)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from games.services import clock, rating, rematch

# A game that ended this recently is left to its own rating task by the pending sweep.
PENDING_GRACE = timedelta(seconds=30)


_Decorator = Callable[[Callable[..., bool]], Task[..., bool]]


def _turn(name: str) -> _Decorator:
    return shared_task(name=name, acks_late=True, reject_on_worker_lost=True)


# A lock wait cut short or a lost connection: the next attempt finds the work still to do (or
# done), so retrying is always safe.
def _retried(name: str) -> _Decorator:
    return shared_task(
        name=name,
        acks_late=True,
        reject_on_worker_lost=True,
        autoretry_for=(OperationalError,),
        retry_backoff=True,
        max_retries=10,
    )


# The names these tasks had before each took its service's (issue 26), old -> new. A rolling
# deploy runs both versions for a while: a message the older web processes queued under an old
# name still runs on a newer worker (deploy the workers first; docs/operations.md). To delete
# once no deployment runs a version from before the rename.
BEFORE_RENAME: dict[str, str] = {}


def _task(kind: Callable[[str], _Decorator], before: str) -> _Decorator:
    """`kind`'s task under the function's own name, and the same function and options under
    `before` too."""

    def register(fun: Callable[..., bool]) -> Task[..., bool]:
        name = f"{__name__}.{fun.__name__}"
        BEFORE_RENAME[f"{__name__}.{before}"] = name
        kind(f"{__name__}.{before}")(fun)
        return kind(name)(fun)

    return register


@_task(_turn, before="cpu_turn")
def game_cpu_turn(game_id: str, seq: int) -> bool:
    return clock.game_cpu_turn(game_id=game_id, seq=seq)


@_task(_turn, before="turn_timeout")
def game_timeout(game_id: str, seq: int) -> bool:
    return clock.game_timeout(game_id=game_id, seq=seq)


@_task(_turn, before="rematch_timeout")
def rematch_expire(game_id: str, offer_id: int) -> bool:
    return rematch.rematch_expire(game_id=game_id, offer_id=offer_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def games_timeout_overdue() -> int:
    """Beat, every few seconds: enforce every overdue turn, whatever happened to its task."""
    return clock.games_timeout_overdue()


@_task(_retried, before="rate_game")
def game_rate(game_id: str) -> bool:
    return rating.game_rate(game_id=game_id)


@_task(_retried, before="unrate_game")
def game_unrate(game_id: str) -> bool:
    return rating.game_unrate(game_id=game_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def games_rate_pending() -> int:
    """Beat: rate finished ranked games whose own task was lost (a worker killed before it
    ran). Games that ended only moments ago are left to their task."""
    return rating.games_rate_pending(ended_before=timezone.now() - PENDING_GRACE, limit=100)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def seasons_roll_over() -> int | None:
    """Beat: close the season whose end has passed and open the next (exactly once however
    many run: games/services/rating.py). The new season's number, or None."""
    season = rating.seasons_roll_over()
    return None if season is None else season.number


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The second path that enforces deadlines (the first is a task per turn): it also
    # recovers CPU turns whose task was lost with a dead worker.
    "sweep-deadlines": {
        "task": "games.tasks.games_timeout_overdue",
        "schedule": settings.YANIV_SWEEP_SECONDS,
        "options": {"expires": 10},
    },
    # Every finished ranked game is rated exactly once, even when its own task was lost.
    "rate-pending-games": {
        "task": "games.tasks.games_rate_pending",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
    # A season ends within a minute of its end (or at the first game rated after it).
    "season-rollover": {
        "task": "games.tasks.seasons_roll_over",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
}
