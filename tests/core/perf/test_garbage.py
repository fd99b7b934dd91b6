"""core/perf/garbage.py: a web process's full collections run on a clock. The collector's
own state is the process's, so the checks that change it run in a child interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest
from channels.testing import ApplicationCommunicator

from config import asgi
from core.perf import garbage, loop_lag


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_allocations_no_longer_start_a_full_collection() -> None:
    out = _run(
        """
        import gc
        from core.perf import garbage

        garbage.install(3600)
        before = gc.get_stats()[2]["collections"]
        # Far more surviving containers than CPython needs to start a full collection.
        kept = [[[] for _ in range(100)] for _ in range(20_000)]
        print(gc.get_threshold()[2] == garbage.NEVER, gc.get_freeze_count() > 0,
              gc.get_stats()[2]["collections"] - before)
        """
    )
    assert out == "True True 0"


def test_without_the_clock_the_same_allocations_do() -> None:
    """The check above can fail: CPython's own rule does collect in full under that load."""
    out = _run(
        """
        import gc

        before = gc.get_stats()[2]["collections"]
        kept = [[[] for _ in range(100)] for _ in range(20_000)]
        print(gc.get_stats()[2]["collections"] - before > 0)
        """
    )
    assert out == "True"


def test_the_clock_frees_cycles_that_outlived_the_young_generations() -> None:
    out = _run(
        """
        import gc, time, weakref
        from core.perf import garbage

        class Node:
            pass

        garbage.install(0.3)
        node = Node()
        node.self = node
        gone = weakref.ref(node)
        gc.collect(1)  # into the old generation, where only a full collection looks
        del node
        gc.collect(1)
        print(gone() is not None, end=" ")
        time.sleep(1.0)
        print(gone() is None, end=" ")
        from core import metrics

        samples = metrics.GC_FULL_DURATION.collect()[0].samples
        print(next(s.value for s in samples if s.name.endswith("_count")) >= 1)
        """
    )
    assert out == "True True True"  # and each collection is timed in /metrics


def test_zero_leaves_cpythons_collector_alone() -> None:
    out = _run(
        """
        import gc
        from core.perf import garbage

        threshold = gc.get_threshold()
        print(garbage.install(0) is None, gc.get_threshold() == threshold,
              gc.get_freeze_count() == 0)
        """
    )
    assert out == "True True True"


async def test_the_server_installs_it_at_startup(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.WEB_GC_FULL_SECONDS = 42.0
    installed: list[float] = []
    monkeypatch.setattr(garbage, "install", installed.append)
    watched: list[bool] = []
    monkeypatch.setattr(loop_lag, "install", lambda: watched.append(True))
    communicator = ApplicationCommunicator(asgi.application, {"type": "lifespan"})
    await communicator.send_input({"type": "lifespan.startup"})
    assert await communicator.receive_output(5) == {"type": "lifespan.startup.complete"}
    assert installed == [42.0]
    assert watched == [True]  # and its loop's lateness watched (core/perf/loop_lag.py)
    await communicator.send_input({"type": "lifespan.shutdown"})
    assert await communicator.receive_output(5) == {"type": "lifespan.shutdown.complete"}
