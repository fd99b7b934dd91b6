"""Messages queued under a task's name from before the renames of issue 26 still run, as the
task of its new name does, on a worker of this version (a rolling deploy runs both)."""

from __future__ import annotations

from unittest import mock

import pytest

from config.celery import app
from games import tasks


@pytest.mark.parametrize(
    ("old", "new", "service", "kwargs"),
    [
        ("cpu_turn", "game_cpu_turn", "clock.game_cpu_turn", {"game_id": "g", "seq": 3}),
        ("turn_timeout", "game_timeout", "clock.game_timeout", {"game_id": "g", "seq": 3}),
        (
            "rematch_timeout",
            "rematch_expire",
            "rematch.rematch_expire",
            {"game_id": "g", "offer_id": 2},
        ),
        ("rate_game", "game_rate", "rating.game_rate", {"game_id": "g"}),
        ("unrate_game", "game_unrate", "rating.game_unrate", {"game_id": "g"}),
    ],
)
def test_an_old_name_runs_the_renamed_tasks_service(old, new, service, kwargs) -> None:
    renamed = app.tasks[f"games.tasks.{new}"]
    before = app.tasks[f"games.tasks.{old}"]
    assert before is not renamed
    assert before.acks_late
    assert before.reject_on_worker_lost
    assert getattr(before, "autoretry_for", ()) == getattr(renamed, "autoretry_for", ())
    with mock.patch(f"games.services.{service}", return_value=True) as run:
        assert before.apply(kwargs=kwargs).get() is True
    run.assert_called_once_with(**kwargs)


def test_every_old_name_is_a_name_no_task_has_now() -> None:
    current = {
        f"games.tasks.{name}" for name in dir(tasks) if hasattr(getattr(tasks, name), "delay")
    }
    old = set(tasks.BEFORE_RENAME)
    assert not current & old
    assert old <= set(app.tasks)
