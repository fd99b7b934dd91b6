"""The CPU levels' starting ratings: what `calibrate_cpus` measured (ratings/cpu_start.json).

Each CPU level is a rated player of its own (accounts' `Player.cpu_level`). Before its first
rated game a level's skill is its calibrated start, not OpenSkill's defaults, so a human's
first game against `expert` already moves their rating against an expert's skill. A rebuild
(recompute_ratings) starts the levels from the same figures, so it agrees with the live path.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ratings.rating import DEFAULT, Skill

START_FILE = Path(__file__).with_name("cpu_start.json")


@cache
def _starts() -> dict[str, Skill]:
    if not START_FILE.exists():
        return {}
    data = json.loads(START_FILE.read_text())
    return {level: Skill(float(mu), float(sigma)) for level, (mu, sigma) in data.items()}


def cpu_start(level: str) -> Skill:
    """A level's skill before its first rated game (the defaults for an uncalibrated one)."""
    return _starts().get(level, DEFAULT)


# A level's anchor on the bots' ladder (docs/api.md, The bot ladder): its calibrated mu, held at
# the sigma an established bot reaches (some 1.5 to 2 after a few hundred ladder games), not its
# start's wide one: an anchor is a known yardstick, and the bots' board ranks by ordinal, which
# a start's sigma of 5 would put 9 points below any established bot of the same strength.
ANCHOR_SIGMA = 2.0


def cpu_anchor(level: str) -> Skill:
    """A level's fixed skill on the bots' ladder: never stored, never moved."""
    return Skill(cpu_start(level).mu, ANCHOR_SIGMA)


def cpu_starts_write(starts: dict[str, Skill]) -> None:
    """Store calibrated starting skills (calibrate_cpus)."""
    data = {level: [round(skill.mu, 4), round(skill.sigma, 4)] for level, skill in starts.items()}
    START_FILE.write_text(json.dumps(data, indent=2) + "\n")
    _starts.cache_clear()


def cpu_display_name(level: str) -> str:
    return f"CPU ({level})"
