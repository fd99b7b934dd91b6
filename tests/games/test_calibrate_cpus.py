"""`calibrate_cpus`: the levels rated against each other, stored no surer than the floor."""

from __future__ import annotations

import io
import random
import re

from django.core.management import call_command

from games.management.commands.calibrate_cpus import calibrate


def _sigmas(table: str) -> dict[str, float]:
    return {
        row[0]: float(row[2])
        for row in re.findall(r"^\| (\w+) \| ([\d.-]+) \| ([\d.-]+) \|", table, flags=re.M)
    }


def test_the_same_seed_gives_the_same_figures() -> None:
    # The games draw every chance from the rng they are given (the command: SystemRandom).
    assert calibrate(3, random.Random(7)) == calibrate(3, random.Random(7))
    assert calibrate(3, random.Random(7)) != calibrate(3, random.Random(8))


def test_the_stored_sigma_is_at_least_the_floor(settings) -> None:
    settings.YANIV_PROVISIONAL_SIGMA = 5.0
    out = io.StringIO()
    call_command("calibrate_cpus", games=40, dry_run=True, stdout=out, stderr=io.StringIO())
    assert set(_sigmas(out.getvalue())) == {"easy", "medium", "hard", "expert"}
    assert min(_sigmas(out.getvalue()).values()) >= 5.0

    out = io.StringIO()
    call_command(
        "calibrate_cpus", games=40, dry_run=True, sigma_floor=0.0, stdout=out, stderr=io.StringIO()
    )
    # Forty games among themselves already make the levels surer than the floor above.
    assert max(_sigmas(out.getvalue()).values()) < 5.0
