"""core/perf/worker.py: a worker's connections carry PostgreSQL's timeouts, and PostgreSQL
cuts what a task would hold past them; a threads worker has a watchdog for the time limits that
only prefork enforces. Each test fails if Django, psycopg or Celery stops doing what it leans on."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import psycopg
import pytest
from celery.concurrency.prefork import TaskPool as PreforkPool
from celery.concurrency.thread import TaskPool as ThreadsPool
from celery.signals import celeryd_init, worker_ready
from celery.worker import state
from django.conf import LazySettings
from django.db import connection, connections

from config.celery import app
from core.perf import worker
from core.perf.worker import Watchdog, database_guard, guard_options
from games.models import Game, GameStatus

ROOT = Path(__file__).resolve().parents[3]
MIGRATIONS_ROW = "SELECT id FROM django_migrations ORDER BY id LIMIT 1 FOR UPDATE"


@pytest.fixture
def guarded(transactional_db: None, settings: LazySettings) -> Iterator[LazySettings]:
    """The worker's guard may be applied to this process's connections: undone afterwards
    (the options as they were, the guarded connections and pool closed)."""
    before = {alias: dict(connections[alias].settings_dict["OPTIONS"]) for alias in connections}
    try:
        yield settings
    finally:
        for alias, options in before.items():
            connections[alias].settings_dict["OPTIONS"] = options
            connections[alias].close()
            if alias in worker._pools():
                connections[alias].close_pool()  # type: ignore[attr-defined]


def plain() -> psycopg.Connection[Any]:
    """A connection as web's (no timeouts), to the test database."""
    return psycopg.connect(**connection.get_connection_params())


def test_the_options_are_the_settings_in_milliseconds(settings: LazySettings) -> None:
    settings.DB_WORKER_STATEMENT_TIMEOUT = 30
    settings.DB_WORKER_LOCK_TIMEOUT = 2.5
    settings.DB_WORKER_IDLE_IN_TRANSACTION_TIMEOUT = 0
    assert guard_options() == (
        "-c statement_timeout=30000 -c lock_timeout=2500 -c idle_in_transaction_session_timeout=0"
    )


def test_a_worker_connection_has_the_timeouts(guarded: LazySettings) -> None:
    """Through Django and its pool, as a task gets its connection; the pool made before the
    guard is replaced (its connections had none)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone() == ("0",)
    assert database_guard()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout'),"
            " current_setting('idle_in_transaction_session_timeout')"
        )
        assert cursor.fetchone() == ("30s", "10s", "10s")


def test_options_from_the_url_are_kept(guarded: LazySettings) -> None:
    connection.settings_dict["OPTIONS"]["options"] = "-c application_name=yaniv-worker"
    database_guard()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('application_name'), current_setting('lock_timeout')"
        )
        assert cursor.fetchone() == ("yaniv-worker", "10s")


def test_behind_pgbouncer_nothing_is_sent_at_login(guarded: LazySettings) -> None:
    """PgBouncer refuses a startup `options` it does not know: the role carries them there."""
    guarded.DATABASE_POOLER = "pgbouncer"
    assert not database_guard()
    assert "options" not in connection.settings_dict["OPTIONS"]


def test_postgresql_ends_a_transaction_left_idle_and_its_lock_goes(guarded: LazySettings) -> None:
    """A task's thread stopped inside its transaction, holding a row lock (a game's): past the
    timeout PostgreSQL ends the session, and the row is free for the next."""
    guarded.DB_WORKER_IDLE_IN_TRANSACTION_TIMEOUT = 0.3
    database_guard()
    with psycopg.connect(**connection.get_connection_params()) as task, plain() as other:
        task.execute(MIGRATIONS_ROW)  # the lock, then nothing more (a hung thread)
        with pytest.raises(psycopg.errors.LockNotAvailable):
            other.execute(MIGRATIONS_ROW.replace("UPDATE", "UPDATE NOWAIT"))
        other.rollback()
        time.sleep(1.0)
        other.execute(MIGRATIONS_ROW.replace("UPDATE", "UPDATE NOWAIT"))  # free now
        other.rollback()
        with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
            task.execute("SELECT 1")


def test_postgresql_ends_a_lock_wait(guarded: LazySettings) -> None:
    """A task waiting for a row another holds (a stuck request's game) gives up: OperationalError,
    which the retried tasks retry and after which the sweeper plays a turn."""
    guarded.DB_WORKER_LOCK_TIMEOUT = 0.2
    database_guard()
    with psycopg.connect(**connection.get_connection_params()) as task, plain() as other:
        other.execute(MIGRATIONS_ROW)
        started = time.monotonic()
        with pytest.raises(psycopg.errors.LockNotAvailable):
            task.execute(MIGRATIONS_ROW)
        assert time.monotonic() - started < 2


def test_postgresql_ends_a_long_statement(guarded: LazySettings) -> None:
    guarded.DB_WORKER_STATEMENT_TIMEOUT = 0.2
    database_guard()
    with (
        psycopg.connect(**connection.get_connection_params()) as task,
        pytest.raises(psycopg.errors.QueryCanceled),
    ):
        task.execute("SELECT pg_sleep(5)")


def test_a_celery_worker_guards_its_connections_when_it_starts() -> None:
    with mock.patch.object(worker, "database_guard") as guard:
        celeryd_init.send(sender="worker@test", instance=None, conf=app.conf, options={})
    guard.assert_called_once_with()


@pytest.mark.parametrize(("pool", "watched"), [(ThreadsPool, True), (PreforkPool, False)])
def test_the_watchdog_watches_a_pool_without_time_limits(pool: type, watched: bool) -> None:
    consumer = mock.Mock(controller=SimpleNamespace(pool=pool(limit=1)))  # Celery's consumer
    with mock.patch.object(Watchdog, "start") as start:
        worker_ready.send(sender=consumer)
    assert start.called is watched


class Request:
    """What the watchdog reads of a Celery request (weakly referenced, as Celery's state
    holds them)."""

    def __init__(self, started: float | None, time_limits: tuple[Any, Any] = (None, None)):
        self.id = f"task-{id(self)}"
        self.name = "games.tasks.game_cpu_turn"
        self.time_start = started
        self.time_limits = time_limits
        self.task = SimpleNamespace(time_limit=None, soft_time_limit=None)
        self.on_timeout = mock.Mock()


@pytest.fixture
def running() -> Iterator[list[Request]]:
    """Requests put where Celery keeps those a worker runs; taken out afterwards."""
    requests: list[Request] = []
    try:
        yield requests
    finally:
        for request in requests:
            state.active_requests.discard(request)


def run(requests: list[Request], request: Request) -> Request:
    requests.append(request)
    state.active_requests.add(request)
    return request


def test_past_the_hard_limit_the_task_fails_and_the_worker_ends(
    running: list[Request], caplog: pytest.LogCaptureFixture
) -> None:
    """As prefork's: Celery's own timeout handling (failure, ack), then the process ends."""
    end = mock.Mock()
    watchdog = Watchdog(app, end=end, clock=lambda: 1000.0)
    young = run(running, Request(started=1000.0 - 30))
    stuck = run(running, Request(started=1000.0 - app.conf.task_time_limit))
    watchdog.check()
    stuck.on_timeout.assert_called_once_with(soft=False, timeout=app.conf.task_time_limit)
    young.on_timeout.assert_not_called()
    end.assert_called_once_with()
    assert stuck.id in caplog.text


def test_past_the_soft_limit_the_stack_is_logged_once(
    running: list[Request], caplog: pytest.LogCaptureFixture
) -> None:
    end = mock.Mock()
    watchdog = Watchdog(app, end=end, clock=lambda: 1000.0)
    request = run(running, Request(started=1000.0 - app.conf.task_soft_time_limit))
    release = threading.Event()

    def stuck_in_the_task() -> None:
        watchdog.task_started(request.id)
        release.wait(10)

    thread = threading.Thread(target=stuck_in_the_task)
    thread.start()
    try:
        with caplog.at_level(logging.ERROR, logger="core.perf.worker"):
            watchdog.check()
            watchdog.check()
    finally:
        release.set()
        thread.join()
    assert caplog.text.count("soft time limit") == 1
    assert "stuck_in_the_task" in caplog.text  # the thread's own stack
    end.assert_not_called()
    request.on_timeout.assert_not_called()


def test_a_request_not_yet_started_is_left(running: list[Request]) -> None:
    end = mock.Mock()
    run(running, Request(started=None))
    Watchdog(app, end=end, clock=lambda: 1e12).check()
    end.assert_not_called()


def test_the_limits_are_the_messages_then_the_tasks_then_the_apps() -> None:
    watchdog = Watchdog(app)
    request = Request(started=0.0)
    assert watchdog.limits(request) == (app.conf.task_time_limit, app.conf.task_soft_time_limit)
    request.task = SimpleNamespace(time_limit=20, soft_time_limit=15)
    assert watchdog.limits(request) == (20, 15)
    request.time_limits = (5, 4)
    assert watchdog.limits(request) == (5, 4)


QUEUE = "yaniv-test-worker-guard"


@pytest.fixture
def locked_game(transactional_db: None) -> Iterator[str]:
    """A game's row, committed, then locked by another connection (a request that never ends)
    for as long as the test runs: its id."""
    game = Game.objects.create(ranked=False, rules={}, max_players=2, status=GameStatus.FINISHED)
    with plain() as holder:
        holder.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
        yield str(game.pk)


def celery_worker(tmp_path: Path, **env: str) -> tuple[subprocess.Popen[bytes], Path]:
    """`celery worker` in threads, as deployed, on the test database and a queue of its own."""
    settings_dict = connection.settings_dict
    url = "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**settings_dict)
    log = tmp_path / "worker.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "threads"),
                *("-c", "2", "-Q", QUEUE, "-n", f"guard-{os.getpid()}@localhost"),
                *("--without-heartbeat", "--without-gossip", "--without-mingle"),
            ],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": url, "WORKER_POOL": "threads", **env},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return process, log


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)
    with app.connection_for_write() as broker:
        channel: Any = broker.default_channel
        channel.client.delete(QUEUE)


def wait_for(what: str, check: Callable[[], bool], limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {limit} s"
        time.sleep(0.2)


def test_a_task_stuck_past_its_hard_limit_ends_the_threads_worker(
    locked_game: str, tmp_path: Path
) -> None:
    """No lock limit: the CPU's turn waits for the game for good. At its hard limit the
    watchdog fails it and ends the process (its supervisor starts it again)."""
    worker_process, log = celery_worker(
        tmp_path, DB_WORKER_LOCK_TIMEOUT="0", DB_WORKER_STATEMENT_TIMEOUT="0"
    )
    try:
        app.send_task("games.tasks.game_cpu_turn", (locked_game, 1), queue=QUEUE, time_limit=2)
        wait_for("the worker's end", lambda: worker_process.poll() is not None)
        assert worker_process.returncode == 70
        text = log.read_text()
        assert "ran past its hard time limit (2 s)" in text
        assert "try_lock" in text  # the stuck thread's stack: waiting for the game's row
    finally:
        stop(worker_process)


def test_a_worker_waits_for_a_game_no_longer_than_its_lock_timeout(
    locked_game: str, tmp_path: Path
) -> None:
    """The worker's own connections carry the guard: the task gives up the wait, fails, and
    the worker goes on."""
    worker_process, log = celery_worker(tmp_path, DB_WORKER_LOCK_TIMEOUT="0.5")
    try:
        app.send_task("games.tasks.game_cpu_turn", (locked_game, 1), queue=QUEUE, time_limit=20)
        wait_for("the task's failure", lambda: "lock timeout" in log.read_text())
        assert worker_process.poll() is None
    finally:
        stop(worker_process)
