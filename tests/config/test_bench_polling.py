"""bench/polling.py's reading of Locust's report (the figures themselves are the bench's,
printed, never asserted)."""

from __future__ import annotations

import math

from bench.polling import GET, MOVE, not_modified_share, percentile, summary


def test_percentiles_are_read_off_locusts_histogram():
    times = {"5": 50, "7": 40, "120": 9, "1500": 1}  # rounded ms -> requests, as Locust keeps
    assert percentile(times, 0.5) == 5
    assert percentile(times, 0.9) == 7
    assert percentile(times, 0.95) == 120
    assert percentile(times, 0.99) == 120
    assert percentile(times, 1.0) == 1500
    assert math.isnan(percentile({}, 0.5))


def test_the_summary_adds_every_route_and_times_the_get_and_the_move_apart():
    def entry(name: str, times: dict[str, int], failures: int = 0) -> dict[str, object]:
        count = sum(times.values())
        return {
            "name": name,
            "num_requests": count,
            "num_failures": failures,
            "response_times": times,
            "start_time": 100.0,
            "last_request_timestamp": 110.0,
        }

    figures = summary(
        [
            entry(GET, {"4": 98, "30": 2}),
            entry(MOVE, {"10": 20}, failures=2),
            entry("setup: guest", {"900": 10}),
        ]
    )
    assert figures["requests"] == 130
    assert figures["rate"] == 13
    assert figures["failures"] == 2
    assert figures["get"] == [4, 30]
    assert figures["move"] == [10, 10, 10]
    assert figures["moves"] == 20


def test_the_share_of_304s_is_of_the_gets_answered_in_between():
    before = {"200": 10.0, "304": 5.0}
    after = {"200": 40.0, "304": 95.0, "404": 5.0}
    assert not_modified_share(before, after) == 90 / 125
    assert math.isnan(not_modified_share(after, after))
