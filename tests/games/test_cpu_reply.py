"""The CPU's reply played by the web process that took the move (games/services/clock.py,
core/local_tasks.py): no Celery task a reply, the same game, and the sweeper behind it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from django.utils import timezone

from core import metrics
from games import tasks
from games.models import Game, GameStatus
from games.services import clock
from tests.games.conftest import Client, simple_move, wait_for

pytestmark = pytest.mark.django_db(transaction=True)  # the reply is scheduled after the commit


@pytest.fixture
def queued() -> Any:
    """The CPU turns queued as Celery tasks (none is run)."""
    with mock.patch.object(tasks.game_cpu_turn, "apply_async") as apply_async:
        yield apply_async


def _table(host: Client, seats: int = 2) -> dict[str, Any]:
    """A table of `host` and CPUs, started, at the host's turn (the CPUs before it played by
    whoever plays them: waited for)."""
    game = host.post("/api/v1/games/", {"max_players": seats}).json()
    for _ in range(seats - 1):
        host.post(f"/api/v1/games/{game['id']}/cpu/")
    host.post(f"/api/v1/games/{game['id']}/start/")
    return game


def _your_turn(host: Client, game_id: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        game = host.game(game_id)
        mine = game["status"] != GameStatus.ACTIVE or game["turn"]["seat"] == game["you"]["seat"]
        return game if mine else None

    return wait_for(ready, timeout=10)


def _at_the_cpus_turn(host: Client) -> Game:
    """A table of `host` and a CPU, started, the host's move made if the first turn was
    theirs: the stored game, at the CPU's turn (scheduled, not played)."""
    game = _table(host)
    stored = Game.objects.get(pk=game["id"])
    if stored.state["turn"] == 0:
        game = host.game(game["id"])
        assert host.act(game, **simple_move(game)).status_code == 200
        stored.refresh_from_db()
    assert stored.state["turn"] == 1
    return stored


def _replies(state: str) -> float:
    return metrics.LOCAL_TASK_RUNS.labels(clock.CPU_REPLY, state)._value.get()


def test_the_process_that_took_the_move_plays_the_reply(local_runner, queued) -> None:
    host = Client.guest("Host")
    game = _table(host, seats=3)
    before = _replies("success")
    for _ in range(3):
        game = _your_turn(host, game["id"])
        if game["status"] != GameStatus.ACTIVE:
            break
        assert host.act(game, **simple_move(game)).status_code == 200
    # The host's turn came back three times: the CPUs played, here, with no task.
    assert queued.call_count == 0
    assert _replies("success") >= before + 2


def test_without_web_cpu_replies_a_task_plays_it(local_runner, queued, settings) -> None:
    settings.WEB_CPU_REPLIES = False
    stored = _at_the_cpus_turn(Client.guest("Host"))
    (args,), options = queued.call_args
    assert args == (str(stored.pk), stored.seq)
    assert options == {"countdown": settings.YANIV_CPU_THINK_SECONDS}


def test_a_table_with_no_human_left_plays_on_in_a_worker(local_runner, queued) -> None:
    host = Client.guest("Host")
    game = _your_turn(host, _table(host, seats=3)["id"])
    before = _replies("success")
    assert host.post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    stored = Game.objects.get(pk=game["id"])
    assert queued.call_args == mock.call((str(stored.pk), stored.seq))  # at once, to the end
    assert _replies("success") == before
    # A reply armed before the leave, coming due now: one turn here, the rest to a worker.
    assert clock.game_cpu_reply(game_id=stored.pk, seq=stored.seq) is True
    played = Game.objects.get(pk=stored.pk)
    assert played.seq > stored.seq
    if played.status == GameStatus.ACTIVE:
        assert queued.call_args == mock.call((str(stored.pk), played.seq))


def test_a_reply_lost_with_its_process_is_played_by_the_sweeper(queued) -> None:
    # Armed in a process that then died: it never runs.
    with mock.patch("core.local_tasks.call_later", return_value=True) as armed:
        stored = _at_the_cpus_turn(Client.guest("Host"))
    assert armed.called
    assert queued.call_count == 0
    seq, due = stored.seq, stored.turn_deadline
    assert due is not None
    assert clock.games_timeout_overdue() == 0  # not before its think time and grace
    with time_machine.travel(due + timedelta(seconds=1)):
        assert timezone.now() > due
        assert clock.games_timeout_overdue() == 1
    stored.refresh_from_db()
    assert stored.seq > seq
