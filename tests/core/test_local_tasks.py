"""A web process's own delayed work (core/local_tasks.py): run later, in a thread of its own,
failures counted, what is pending at shutdown run at once."""

from __future__ import annotations

import asyncio
import threading
import time

from core import local_tasks, logs, metrics
from tests.conftest import shut_runner


def _count(name: str, state: str) -> float:
    return metrics.LOCAL_TASK_RUNS.labels(name, state)._value.get()


def test_without_a_runner_nothing_is_armed() -> None:
    ran = threading.Event()
    assert local_tasks.call_later(0, ran.set, "t") is False
    assert not ran.wait(0.2)


def test_a_call_runs_after_its_delay_in_a_thread_of_the_runner(local_runner) -> None:
    done = threading.Event()
    where: list[str] = []
    start = time.monotonic()

    def call() -> None:
        where.append(threading.current_thread().name)
        done.set()

    before = _count("t.ok", "success")
    assert local_tasks.call_later(0.3, call, "t.ok") is True
    assert done.wait(5)
    assert time.monotonic() - start >= 0.3
    assert where[0].startswith("local-task")
    assert where[0] != threading.current_thread().name
    assert _count("t.ok", "success") == before + 1


def test_a_failure_is_logged_and_counted_and_the_runner_goes_on(local_runner, caplog) -> None:
    done = threading.Event()

    def fail() -> None:
        raise ValueError("boom")

    before = _count("t.fail", "failure")
    assert local_tasks.call_later(0, fail, "t.fail")
    assert local_tasks.call_later(0.05, done.set, "t.after")
    assert done.wait(5)
    assert _count("t.fail", "failure") == before + 1
    assert "local task t.fail failed" in caplog.text


def test_shutdown_runs_what_is_pending_at_once_and_then_refuses(web_loop, local_runner) -> None:
    ran = threading.Event()
    assert local_runner.call_later(60, ran.set, "t.pending")
    time.sleep(0.1)  # armed on the loop
    start = time.monotonic()
    shut_runner(web_loop, local_runner)
    assert ran.is_set()
    assert time.monotonic() - start < 5
    assert local_runner.call_later(0, ran.set, "t.late") is False


def test_shutdown_waits_for_a_call_in_progress(web_loop, local_runner) -> None:
    started, finished = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.5)
        finished.set()

    assert local_runner.call_later(0, slow, "t.slow")
    assert started.wait(5)
    shut_runner(web_loop, local_runner)
    assert finished.is_set()


def test_the_process_without_its_runner_refuses(web_loop) -> None:
    runner = local_tasks.install(web_loop)
    asyncio.run_coroutine_threadsafe(local_tasks.shutdown(5), web_loop).result(10)
    assert local_tasks.call_later(0, lambda: None, "t") is False
    assert runner.closed.is_set()


def test_a_call_logs_with_the_ids_of_the_context_that_asked_for_it(local_runner) -> None:
    seen: list[tuple[str | None, str | None]] = []
    done = threading.Event()

    def call() -> None:
        seen.append((logs.request_id.get(), logs.game_id.get()))
        done.set()

    logs.bind(request_id="r-1", game_id="g-1")
    try:
        assert local_tasks.call_later(0, call, "t.context")
    finally:
        logs.clear()
    assert done.wait(5)
    assert seen == [("r-1", "g-1")]
