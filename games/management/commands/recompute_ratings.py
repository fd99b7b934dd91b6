"""`python manage.py recompute_ratings [--write] [--rate-pending]`

Replays every rated game (finished, ranked, not voided) in the order the games ended, from the
default rating, with each season's reset at its start (and ageing between games), and compares
the result with every stored rating change and current rating.
Prints the largest difference; exits 1 if anything differs, unless `--write` replaces the
stored values with the replayed ones. Progress goes to stderr.

A games command: the rated games' results come from the game rows (games/services/rating.py), which
ratings do not read; ratings replay them and compare (ratings/rebuild.py).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from django.db import connection, transaction

from games.selectors import pending_games, rated_games, rated_results
from games.services.rating import games_rate_pending
from ratings import services
from ratings.locks import ratings_lock
from ratings.rebuild import Comparison, compare
from seasons.selectors import season_starts


class Progress:
    """A bar on stderr, redrawn every 1% of the way. `total` counts the rated games, some of
    which (those without two rated players) the replay passes over without a call."""

    def __init__(self, total: int, label: str, stream: OutputWrapper, width: int = 30) -> None:
        self.total, self.label, self.stream, self.width = total, label, stream, width
        self.step = max(1, total // 100)
        self.started = time.monotonic()

    def __call__(self, done: int) -> None:
        if done % self.step == 0:
            self._draw(done)

    def finish(self) -> None:
        self._draw(self.total)
        self.stream.write("")

    def _draw(self, done: int) -> None:
        filled = self.width * min(done, self.total) // max(1, self.total)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = time.monotonic() - self.started
        line = f"\r{self.label} [{bar}] {done}/{self.total} games, {elapsed:.1f} s"
        self.stream.write(line, ending="")
        self.stream.flush()


class Command(BaseCommand):
    help = "Replay every rated game and prove the stored ratings equal the replay."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--write",
            action="store_true",
            help="Replace the stored ratings and rating changes with the replayed ones when "
            "they differ (rating waits meanwhile).",
        )
        parser.add_argument(
            "--rate-pending",
            action="store_true",
            help="First rate the finished ranked games still waiting for their rating task.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rate_pending"]:
            self._rate_pending()
        pending = pending_games().count()
        if options["write"]:
            with transaction.atomic():
                # Nothing is rated between the comparison and the rewrite.
                ratings_lock()
                result = self._compare()
                self._report(result, pending)
                if not result.equal:
                    progress = Progress(rated_games().count(), "writing", self.stderr)
                    services.ratings_rebuild(
                        games=rated_results(), starts=season_starts(), progress=progress
                    )
                    progress.finish()
                    self.stdout.write("written: the stored ratings are now the replayed ones")
            return
        with transaction.atomic():
            # One snapshot for the replay and the stored rows, without stopping live rating.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            result = self._compare()
        self._report(result, pending)
        if not result.equal:
            raise CommandError("the stored ratings differ from the replay (--write replaces them)")

    def _rate_pending(self) -> None:
        rated = games_rate_pending()
        self.stdout.write(f"rated {rated} pending games")

    def _compare(self) -> Comparison:
        progress = Progress(rated_games().count(), "replaying", self.stderr)
        result = compare(rated_results(), season_starts(), progress)
        progress.finish()
        return result

    def _report(self, result: Comparison, pending: int) -> None:
        self.stdout.write(
            f"players: {result.players}, rating changes: {result.changes}\n"
            f"max difference: {result.max_difference:.3g}\n"
            f"rows missing: {result.missing}, unexpected: {result.unexpected}, "
            f"game counts differing: {result.games_differ}"
        )
        if pending:
            self.stdout.write(
                f"{pending} finished ranked games are not rated yet and were left out "
                "(--rate-pending rates them)"
            )
        if result.equal:
            self.stdout.write("equal: the stored ratings are the replay's")
