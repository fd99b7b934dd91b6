"""The pure parts of bench.capacity: the steps, a step's verdict, the capacity, the slopes.
(The bench's numbers are its own output, never a test.)"""

from __future__ import annotations

import argparse
import math
from typing import Any

import httpx
import pytest

import bench.capacity as capacity_bench
from bench.capacity import (
    Row,
    capacity,
    failures,
    held_line,
    lag_line,
    parse_steps,
    share,
    slope,
    web_lag_line,
)


def _row(players: int, p99_ms: float, **extra: Any) -> Row:
    """A step whose moves took 10 ms, and 2 of 100 `p99_ms` (the p99 then is about it)."""
    moves = [0.010] * 98 + [p99_ms / 1000] * 2
    return Row(players=players, tables=8, moves=moves, **extra)


def test_steps_are_positive_and_increasing() -> None:
    assert parse_steps("500,1000, 2000") == [500, 1000, 2000]
    assert parse_steps("3000") == [3000]
    for bad in ("1000,500", "500,500", "0,100", "", "-5"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_steps(bad)


def test_a_step_holds_under_the_limit_with_nothing_dropped() -> None:
    assert failures(_row(500, 30)) == []
    assert failures(_row(500, 60)) == ["p99 60 ms >= 50"]
    assert failures(_row(500, 30), limit_ms=20) == ["p99 30 ms >= 20"]
    assert failures(_row(500, 30, dropped=2)) == ["2 sockets dropped"]
    assert failures(_row(500, 30, refused=1, move_errors=3)) == [
        "1 sockets refused",
        "3 moves not 200",
    ]
    assert failures(Row(players=500, tables=8, moves=[])) == ["no move measured"]


def test_the_capacity_is_the_last_step_of_the_run_that_held() -> None:
    rows = [_row(500, 20), _row(1000, 25), _row(2000, 40), _row(3000, 70)]
    assert capacity(rows) == 2000
    assert capacity(rows, limit_ms=100) == 3000
    assert capacity(rows, limit_ms=22) == 500


def test_a_step_after_a_failure_does_not_count() -> None:
    rows = [_row(500, 20), _row(1000, 30, dropped=1), _row(2000, 20)]
    assert capacity(rows) == 500
    assert capacity([_row(500, 80), _row(1000, 20)]) is None


def test_slope_is_least_squares() -> None:
    # 100 KiB per socket over 10 MB of base, with noise that cancels out.
    xs = [1000, 2000, 3000, 4000]
    ys = [10e6 + 102_400 * x + noise for x, noise in zip(xs, [5e4, -5e4, -5e4, 5e4], strict=True)]
    found = slope(xs, ys)
    assert found is not None
    assert found == pytest.approx(102_400)
    assert slope([1000], [5.0]) is None
    assert slope([1000, 1000], [5.0, 6.0]) is None


def test_share_splits_evenly() -> None:
    assert share(10, 4) == [3, 3, 2, 2]
    assert share(8, 4) == [2, 2, 2, 2]
    assert share(3, 4) == [1, 1, 1, 0]
    assert sum(share(5001, 4)) == 5001


def test_a_step_says_its_server_cpu_by_part_and_how_late_the_generators_woke() -> None:
    row = _row(1000, 30, parts={"web": 0.2, "worker": 0.05, "beat": 0.0}, lags=[0.001] * 999)
    assert held_line(row).endswith("µs/s: web 200, worker 50")
    row.lags.append(0.1)
    assert lag_line(row) == (
        "the load generators' loops woke late by p99 1.0 ms, max 100.0 ms;"
        " 1 of 1,000 wakes over 20 ms"
    )


def test_the_web_loops_lag_says_how_many_wakes_were_late_and_the_latest() -> None:
    row = _row(1000, 30.0)
    row.web_lags = {0.001: 100.0, 0.005: 140.0, 0.025: 150.0, 0.05: 152.0, 0.1: 153.0}
    row.web_lags |= {0.25: 153.0, math.inf: 153.0}

    line = web_lag_line(row)

    assert "woke 153 times; 3 over 25 ms late, the latest under 100 ms" in line


def test_the_web_loops_lag_unread_says_so() -> None:
    assert "not read" in web_lag_line(_row(1000, 30.0))


def test_the_web_loops_lag_is_read_off_the_servers_metrics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    exposition = (
        "# HELP yaniv_event_loop_lag_seconds lag\n"
        "# TYPE yaniv_event_loop_lag_seconds histogram\n"
        'yaniv_event_loop_lag_seconds_bucket{le="0.001"} 7.0\n'
        'yaniv_event_loop_lag_seconds_bucket{le="0.025"} 9.0\n'
        'yaniv_event_loop_lag_seconds_bucket{le="+Inf"} 10.0\n'
        "yaniv_event_loop_lag_seconds_count 10.0\n"
        "yaniv_event_loop_lag_seconds_sum 0.2\n"
    )
    asked: list[str] = []

    def get(url: str, timeout: float) -> httpx.Response:
        asked.append(url)
        return httpx.Response(200, text=exposition, request=httpx.Request("GET", url))

    monkeypatch.setattr(httpx, "get", get)

    assert capacity_bench.web_loop_lags("http://127.0.0.1:9") == {
        0.001: 7.0,
        0.025: 9.0,
        math.inf: 10.0,
    }
    assert asked == ["http://127.0.0.1:9/metrics"]
