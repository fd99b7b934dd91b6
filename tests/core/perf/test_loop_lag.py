"""core/perf/loop_lag.py: a loop held past its timer's time is recorded that late."""

from __future__ import annotations

import asyncio
import time

from core import metrics
from core.perf import loop_lag


def _observed() -> tuple[float, float]:
    """The histogram's sum and count so far (this process's)."""
    (family,) = metrics.LOOP_LAG.collect()
    samples = {s.name: s.value for s in family.samples}
    return samples["yaniv_event_loop_lag_seconds_sum"], samples[
        "yaniv_event_loop_lag_seconds_count"
    ]


async def test_a_loop_held_past_its_timer_is_recorded_that_late() -> None:
    before_sum, before_count = _observed()
    task = loop_lag.install(interval=0.01)
    try:
        await asyncio.sleep(0.005)  # the timer is set
        time.sleep(0.15)  # the loop held: no callback runs meanwhile
        await asyncio.sleep(0.05)  # the timer wakes (late), and a few more on time
    finally:
        task.cancel()
    after_sum, after_count = _observed()

    assert after_count - before_count >= 2
    assert after_sum - before_sum >= 0.13  # the one late wake-up, at least
    assert after_sum - before_sum < 0.5
