"""`python manage.py calibrate_cpus [--games N] [--sigma-floor S] [--dry-run]`

Plays the CPU levels against each other through the engine alone (no database games): N games
at a four-seat table of one player of each level, seats in a new random order each game, each
game rated with the pure OpenSkill model (ratings/rating.py) in turn from the defaults. What
the levels end with is their starting skill as rated players: written to
ratings/cpu_start.json (ratings/cpu.py), the skill a level has before its first rated game,
unless `--dry-run`. Progress goes to stderr; the table on stdout is Markdown for docs/cpu.md.

The figures place the levels against each other; where they stand against people is for the
ranked games to settle, which move the levels' ratings like anyone's. So the stored sigma is at
least `--sigma-floor` (default YANIV_PROVISIONAL_SIGMA): a thousand games among themselves
make the levels' sigmas small (about 1.5), which would all but freeze them against people
whose offset from them no game has measured yet. A level that has played
rated games already keeps its rating: `recompute_ratings --write` replays them from the new
starts.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.engine.cpu import Level, cpu_action
from games.engine.rng import Rng
from games.engine.rules import Rules
from games.engine.state import GameState, apply, start_game
from games.management.commands.recompute_ratings import Progress
from ratings.cpu import START_FILE, cpu_starts_write
from ratings.rating import DEFAULT, Skill, rate

# No real game runs this long (a few hundred moves); a stuck one would show as a bug here.
_MAX_MOVES = 20_000


def play_one(levels: list[Level], rng: Rng) -> list[int]:
    """One full game between these levels (seat i plays levels[i]); each seat's place."""
    state: GameState
    state, _ = start_game(len(levels), Rules(), rng)
    for _ in range(_MAX_MOVES):
        if state.setup.standings is not None:
            places = dict(state.setup.standings)
            return [places[seat] for seat in range(len(levels))]
        assert state.turn is not None
        state, _ = apply(state, cpu_action(state, state.turn, rng, levels[state.turn]), rng)
    raise RuntimeError(f"a game did not end in {_MAX_MOVES} moves")


def calibrate(games: int, rng: Rng, progress: Progress | None = None) -> dict[str, Skill]:
    """Each level's skill after `games` four-level games rated one after another."""
    skills = dict.fromkeys(Level, DEFAULT)
    for count in range(1, games + 1):
        order = list(Level)
        rng.shuffle(order)
        places = play_one(order, rng)
        for level, skill in zip(
            order, rate([skills[level] for level in order], places), strict=True
        ):
            skills[level] = skill
        if progress is not None:
            progress(count)
    return {level.value: skill for level, skill in skills.items()}


def results_markdown(skills: dict[str, Skill], games: int) -> str:
    rows = [
        f"`calibrate_cpus --games {games}`:",
        "",
        "| Level | mu | sigma | ordinal |",
        "|---|---:|---:|---:|",
    ]
    rows += [
        f"| {level} | {skill.mu:.2f} | {skill.sigma:.2f} | {skill.ordinal:.2f} |"
        for level, skill in skills.items()
    ]
    return "\n".join(rows)


class Command(BaseCommand):
    help = "Rate the CPU levels against each other and store their starting ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=500, help="Games to play (500).")
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the figures without storing them."
        )
        parser.add_argument(
            "--sigma-floor",
            type=float,
            default=None,
            help="The least sigma stored (default: YANIV_PROVISIONAL_SIGMA).",
        )

    def handle(
        self,
        *args: Any,
        games: int,
        dry_run: bool,
        sigma_floor: float | None,
        **options: Any,
    ) -> None:
        floor = settings.YANIV_PROVISIONAL_SIGMA if sigma_floor is None else sigma_floor
        progress = Progress(games, "calibrating", self.stderr)
        skills = {
            level: Skill(skill.mu, max(skill.sigma, floor))
            for level, skill in calibrate(games, secrets.SystemRandom(), progress).items()
        }
        progress.finish()
        self.stdout.write(results_markdown(skills, games))
        if not dry_run:
            cpu_starts_write(skills)
            self.stderr.write(f"wrote {START_FILE.name}")
