"""The queue-ban schedule (docs/api.md, Fair play): its growth, its cap and its decay, pure."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.fair_play import ban_length, offence_level, parse_steps

_STEPS_TEXT = "10m,1h,24h"
steps = parse_steps(_STEPS_TEXT)


def test_steps_are_read_with_their_units() -> None:
    assert steps == (timedelta(minutes=10), timedelta(hours=1), timedelta(hours=24))
    assert parse_steps(" 30s , 2d") == (timedelta(seconds=30), timedelta(days=2))


@pytest.mark.parametrize("text", ["", "10", "10 minutes", "1h,", "-5m"])
def test_a_bad_schedule_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="ban step"):
        parse_steps(text)


def test_the_ban_grows_with_each_offence_and_stops_at_the_last_step() -> None:
    lengths = [
        ban_length(offence_level(offences=n, clean_games=0, games_per_forgiveness=5), steps)
        for n in range(1, 7)
    ]
    assert lengths == [
        None,  # a first offence after a clean stretch is forgiven
        timedelta(minutes=10),
        timedelta(hours=1),
        timedelta(hours=24),
        timedelta(hours=24),  # capped
        timedelta(hours=24),
    ]


def test_clean_games_wear_the_level_down_one_step_per_batch() -> None:
    def level(clean: int) -> int:
        return offence_level(offences=4, clean_games=clean, games_per_forgiveness=5)

    assert [level(clean) for clean in (0, 4, 5, 9, 10, 15, 100)] == [4, 4, 3, 3, 2, 1, 1]
    # Without forgiveness (0), clean games change nothing.
    assert offence_level(offences=3, clean_games=50, games_per_forgiveness=0) == 3
