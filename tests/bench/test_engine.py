"""bench.engine's records are what it times: each replays, and with its fairness block each
passes the fair deal's check (the bench stops at the first that does not)."""

from __future__ import annotations

import pytest

from bench.engine import play_game, with_fairness
from games.engine.record import replay


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_bench_records_pass_the_fair_deals_check(seed: int) -> None:
    (record,) = with_fairness([play_game(seed, keep=False)])
    result = replay(record)
    assert "error" not in result, result
    assert result.get("fairness") == "verified", result


def test_a_record_of_the_bench_with_a_seat_left_out_fails_the_check() -> None:
    (record,) = with_fairness([play_game(5, keep=False)])
    record["seats"] = record["seats"][1:]
    assert replay(record).get("fairness") != "verified"
